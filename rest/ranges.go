package rest

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// maxRanges is the most byte ranges a response serves (after coalescing).
const maxRanges = 8

// limitRanges bounds what a Range header can ask of a body of size bytes
// before http.ServeContent serves it: overlapping and adjacent ranges are
// coalesced into one, and a header that still asks for more than
// maxRanges ranges is ignored, so the whole body is served (200), as RFC
// 9110 §14.2 allows and as net/http itself does when the ranges add up to
// more than the body. Many small ranges would otherwise give a multipart
// body far larger than the content (a part's headers for each byte). A
// Range in another unit than bytes is ignored (RFC 9110 §14.2). A byte
// range set limitRanges cannot read, or whose every range lies past the
// end, is left to ServeContent (416 then).
func limitRanges(r *http.Request, size int64) {
	spec := r.Header.Get("Range")
	if spec == "" {
		return
	}
	unit, set, ok := strings.Cut(spec, "=")
	if !ok || !strings.EqualFold(strings.TrimSpace(unit), "bytes") {
		// RFC 9110 §14.2: a range unit the server does not understand is
		// ignored (net/http would answer 416).
		r.Header.Del("Range")
		return
	}
	type span struct{ start, end int64 } // inclusive
	var spans []span
	for part := range strings.SplitSeq(set, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue // RFC 9110 allows empty list elements
		}
		first, last, ok := strings.Cut(part, "-")
		if !ok {
			return
		}
		first, last = strings.TrimSpace(first), strings.TrimSpace(last)
		var s span
		switch {
		case first == "": // a suffix: the last N bytes
			n, err := strconv.ParseInt(last, 10, 64)
			if err != nil || n < 0 {
				return
			}
			if n == 0 {
				continue
			}
			s = span{max(size-n, 0), size - 1}
		default:
			start, err := strconv.ParseInt(first, 10, 64)
			if err != nil || start < 0 {
				return
			}
			end := size - 1
			if last != "" {
				if end, err = strconv.ParseInt(last, 10, 64); err != nil || end < start {
					return
				}
				end = min(end, size-1)
			}
			if start >= size {
				continue // unsatisfiable: ServeContent skips it too
			}
			s = span{start, end}
		}
		spans = append(spans, s)
	}
	if len(spans) == 0 {
		return
	}
	slices.SortFunc(spans, func(a, b span) int {
		switch {
		case a.start < b.start:
			return -1
		case a.start > b.start:
			return 1
		}
		return 0
	})
	merged := spans[:1]
	for _, s := range spans[1:] {
		last := &merged[len(merged)-1]
		if s.start <= last.end+1 {
			last.end = max(last.end, s.end)
			continue
		}
		merged = append(merged, s)
	}
	if len(merged) > maxRanges {
		r.Header.Del("Range")
		return
	}
	var b strings.Builder
	b.WriteString("bytes=")
	for i, s := range merged {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.FormatInt(s.start, 10))
		b.WriteByte('-')
		b.WriteString(strconv.FormatInt(s.end, 10))
	}
	r.Header.Set("Range", b.String())
}
