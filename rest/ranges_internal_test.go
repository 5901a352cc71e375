package rest

import (
	"net/http/httptest"
	"strings"
	"testing"
)

// FuzzLimitRanges: any Range header is left alone, removed, or replaced by
// at most 8 sorted, disjoint ranges inside the body; never a panic.
func FuzzLimitRanges(f *testing.F) {
	for _, s := range []string{"bytes=0-0", "bytes=-5,3-", "bytes=0-9,5-14", "bytes=x", "Bytes=1-2", "lines=1", "bytes=,,", "bytes=9223372036854775807-"} {
		f.Add(s, int64(100))
	}
	f.Fuzz(func(t *testing.T, header string, size int64) {
		if size < 0 || size > 1<<40 {
			return
		}
		r := httptest.NewRequest("GET", "/", nil)
		r.Header.Set("Range", header)
		before := r.Header.Get("Range")
		limitRanges(r, size)
		after := r.Header.Get("Range")
		if after == "" || after == before {
			return
		}
		set, ok := strings.CutPrefix(after, "bytes=")
		if !ok {
			t.Fatalf("%q became %q", before, after)
		}
		if n := strings.Count(set, ",") + 1; n > maxRanges {
			t.Fatalf("%q became %d ranges", before, n)
		}
	})
}
