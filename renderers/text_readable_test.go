package renderers

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/contentneg/contentneg/format"
	"github.com/google/go-cmp/cmp"
)

// TestTextAlignsNarrowTables checks the text rules of SPEC 5 that issue 26 (item 4) found broken:
// a table is aligned by display width (East Asian wide characters and emoji are two columns,
// combining marks none) and only while its widest cell is narrow; wider records are "key: value"
// lines.
func TestTextAlignsNarrowTables(t *testing.T) {
	note := strings.Repeat("A note that goes on. ", 33) + "End." // 697 characters
	tests := []struct {
		name string
		give string
		want string
	}{
		{
			name: "wide characters and emoji count two columns",
			give: `{"rows":[{"id":1,"name":"山田 太郎","note":"x"},{"id":2,"name":"🚲 Bike","note":"y"}]}`,
			want: "rows[2]:\n  id  name       note\n  1   山田 太郎  x\n  2   🚲 Bike    y",
		},
		{
			name: "combining marks count none",
			give: `[{"k":"Zu\u0308rich","v":1},{"k":"x","v":2}]`,
			want: "k       v\nZu\u0308rich  1\nx       2",
		},
		{
			name: "a cell of 40 columns is aligned",
			give: `[{"k":"` + strings.Repeat("x", 40) + `","v":1},{"k":"` + strings.Repeat("y", 40) + `","v":2},{"k":"` + strings.Repeat("z", 40) + `","v":3}]`,
			want: "k" + strings.Repeat(" ", 41) + "v\n" + strings.Repeat("x", 40) + "  1\n" + strings.Repeat("y", 40) + "  2\n" + strings.Repeat("z", 40) + "  3",
		},
		{
			name: "a wider cell makes records key: value lines",
			give: `{"rows":[{"id":1,"note":"` + note + `"},{"id":2,"note":"short"}]}`,
			want: "rows[2]:\n  1:\n    id: 1\n    note: " + note + "\n  2:\n    id: 2\n    note: short",
		},
		{
			name: "a wide root table",
			give: `[{"k":"` + strings.Repeat("山", 21) + `","v":1},{"k":"y","v":2}]`,
			want: "1:\n  k: " + strings.Repeat("山", 21) + "\n  v: 1\n2:\n  k: y\n  v: 2",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Generic{}.text([]byte(tt.give), Options{})
			requireNoError(t, err)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Text(%s) mismatch (-want +got):\n%s", tt.give, diff)
			}
			requireNoError(t, CheckPlain(got))
		})
	}
}

// TestTextNoLargerThanJSON checks that standard text is never more than 1.1 times
// the bytes of the minified JSON (SPEC 5, issue 26 item 4): a long note in a table and deep
// nesting, where aligned padding and indentation would add up.
func TestTextNoLargerThanJSON(t *testing.T) {
	note := strings.Repeat("A note that goes on. ", 33) + "End."
	tests := []struct {
		name string
		give string
	}{
		{name: "long note in a table", give: `{"rows":[{"id":1,"name":"山田 太郎","note":"` + note + `"},{"id":2,"name":"🚲","note":"short"},{"id":3,"name":"Émile Zola","note":"x"}]}`},
		{name: "padded columns", give: `[{"a":"` + strings.Repeat("x", 39) + `","b":"` + strings.Repeat("y", 39) + `","c":1},{"a":"x","b":"y","c":2},{"a":"x","b":"y","c":3},{"a":"x","b":"y","c":4}]`},
		{name: "deep nesting", give: strings.Repeat(`{"a":[{"b":1,"c":`, 12) + "2" + strings.Repeat("}]}", 12)},
		{name: "small", give: `{"a":1}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !json.Valid([]byte(tt.give)) {
				t.Fatalf("invalid test value %s", tt.give)
			}
			minified := len(appendMinified(nil, tt.give))
			for _, opts := range []Options{{}, {Verbosity: format.Standard}} {
				got, err := Generic{}.text([]byte(tt.give), opts)
				requireNoError(t, err)
				if len(got)*10 > minified*11 {
					t.Errorf("Text(%s, %v) is %d bytes, more than 1.1 × %d:\n%s", tt.give, opts.Verbosity, len(got), minified, got)
				}
			}
		})
	}
}
