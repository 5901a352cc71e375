package renderers

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCompactTextTableEnds checks the compact text rules of SPEC 5 that issue 26 (item 5) found
// broken: no line after a table reads as one of its rows (an object's pair members come before
// its tables and lists), and logfmt quoting is the same on every line (a value holding a space
// is quoted whether its pair is alone on its line or not). Every text reads back to the value.
func TestCompactTextTableEnds(t *testing.T) {
	tests := []struct {
		name string
		give string
		want string
	}{
		{
			name: "members after a table come before it",
			give: `{"result":{"rows":[{"id":4,"name":"Victor Hugo"},{"id":5,"name":"Émile Zola 🚲"}],"count":5,"source_id":"default"}}`,
			want: "result:\n count=5 source_id=default\n rows[]{id,name}:\n 4,Victor Hugo\n 5,Émile Zola 🚲",
		},
		{
			name: "a pair alone on its line is quoted as in a line of pairs",
			give: `{"rows":[{"id":1,"name":"Ada Lovelace"},{"id":2,"name":"Grace Hopper"}],"afterEmpties":"still here"}`,
			want: "afterEmpties=\"still here\"\nrows[]{id,name}:\n1,Ada Lovelace\n2,Grace Hopper",
		},
		{
			name: "a list alone on its line is quoted as in a line of pairs",
			give: `{"tags":["a b","c"],"more":{"x":[{"y":"long enough text"},{"y":"to be a table"}]}}`,
			want: "tags[]=\"a b\",c\nmore:\n x[]{y}:\n long enough text\n to be a table",
		},
		{
			name: "pairs between blocks join the first line",
			give: `{"a":[{"k":"some text here"},{"k":"more text here"}],"n":1,"b":{"c":[1,[2]],"d":"x"},"m":"two words"}`,
			want: "n=1 m=\"two words\"\na[]{k}:\nsome text here\nmore text here\nb:\n d=x\n c[2]:\n 1\n []=2",
		},
		{
			name: "a row that ends with a colon is quoted",
			give: `{"notes":[{"text":"see below:"},{"text":"and here"}],"count":2,"more":"words"}`,
			want: "count=2 more=words\nnotes[]{text}:\n\"see below:\"\nand here",
		},
		{
			name: "repeated keys keep their relative order",
			give: `{"a":1,"t":[{"k":"first row"},{"k":"second row"}],"a":2}`,
			want: "a=1 a=2\nt[]{k}:\nfirst row\nsecond row",
		},
		{
			// The one case where members follow a table: a pair that repeats a table's key (the
			// last one counts), so the members keep their order; rows never hold a bare '='.
			name: "a pair repeating a table's key keeps its place",
			give: `{"t":[{"k":"first row"},{"k":"second row"}],"b":"x y","t":2}`,
			want: "t[]{k}:\nfirst row\nsecond row\nb=\"x y\" t=2",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := checkRoundTrip(t, tt.give, nil)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("compact text of %s mismatch (-want +got):\n%s", tt.give, diff)
			}
			requireNoError(t, CheckPlain(got))
			if strings.Contains(got, "\n\n") {
				t.Errorf("compact text of %s holds a blank line", tt.give)
			}
		})
	}
}
