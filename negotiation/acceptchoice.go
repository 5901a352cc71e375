package negotiation

import (
	"fmt"
	"strconv"

	"github.com/elnormous/contenttype"
)

// maxAcceptBytes bounds the Accept header FromAccept reads. Real clients
// send well under a kilobyte; a longer header is refused (406) rather than
// parsed, so that its cost stays small whatever its length.
const maxAcceptBytes = 8 << 10

// errAcceptTooLong is the reason given for an Accept header over
// maxAcceptBytes.
var errAcceptTooLong = fmt.Errorf("longer than %d bytes", maxAcceptBytes)

// probe is a media type no client asks for: a range for it, added at the
// end of the client's header, measures the quality the header gives the
// offered types (see quality).
var probe = contenttype.NewMediaType("application/x-contentneg-quality-probe")

// preferred returns the offered media type the Accept header prefers: the
// highest quality (RFC 9110 §12.5.1: the most specific matching range sets
// a type's quality, q=0 excludes), ties broken by the order of offered,
// which is the server's order, never by the order of the client's ranges.
//
// elnormous/contenttype parses the header and finds each type's quality,
// but breaks ties by the client's order, and does not say the quality.
// So the quality is measured with it: the library chooses the offered type
// over a probe range of quality Q, listed last, exactly when the type's
// quality is at least Q. The library's choice is kept when it is the
// server's first type; else its quality is measured (one call when it is
// 1, a binary search over the q-values otherwise), and one call per type
// the server lists before it tells whether that type ties with it. Each
// call reads the header once: the cost is linear in the header's length.
func preferred(accept string, offered []contenttype.MediaType) (contenttype.MediaType, error) {
	if len(accept) > maxAcceptBytes {
		return contenttype.MediaType{}, errAcceptTooLong
	}
	best, _, err := contenttype.GetAcceptableMediaTypeFromHeader(accept, offered)
	if err != nil {
		return contenttype.MediaType{}, err
	}
	if best.Equal(offered[0]) {
		return best, nil // the server's first choice: no tie to break
	}
	q := quality(accept, best)
	// Only a type the server lists before best can tie with it and win.
	for _, mt := range offered {
		if mt.Equal(best) || atLeast(accept, mt, q) {
			return mt, nil
		}
	}
	return best, nil // not reached: best is offered
}

// quality returns the quality in thousandths, 1 to 1000, that the Accept
// header gives mt, an acceptable type: most often 1000, found in one call;
// else by a binary search, in 10.
func quality(accept string, mt contenttype.MediaType) int {
	if atLeast(accept, mt, 1000) {
		return 1000
	}
	lo, hi := 1, 999
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if atLeast(accept, mt, mid) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// atLeast reports whether the Accept header gives mt a quality of at least
// q thousandths.
func atLeast(accept string, mt contenttype.MediaType, q int) bool {
	header := accept + ", " + probe.MIME() + ";q=" + qvalue(q)
	got, _, err := contenttype.GetAcceptableMediaTypeFromHeader(header, []contenttype.MediaType{mt, probe})
	return err == nil && got.Equal(mt)
}

// qvalue writes q thousandths as an RFC 9110 qvalue: "1" or "0.xyz".
func qvalue(q int) string {
	if q >= 1000 {
		return "1"
	}
	s := strconv.Itoa(1000 + q) // "1xyz"
	return "0." + s[1:]
}
