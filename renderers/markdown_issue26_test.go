package renderers

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestMarkdownReadsAsWritten checks the markdown rules of SPEC 5 that issue 26 (items 1 and 3)
// found broken: data reads as written, with no backslash or entity a person has to read past
// (an address may be autolinked); a table cell never holds a line break or an entity, so records
// with multi-line or long text are labelled lists; null, "", [] and {} read differently.
func TestMarkdownReadsAsWritten(t *testing.T) {
	long := strings.TrimSpace(strings.Repeat("a long note ", 11)) // 131 characters
	tests := []struct {
		name string
		give string
		want string
	}{
		{
			name: "addresses and arithmetic read as written",
			give: `{"calc":"3 * 4","contacts":[{"name":"Zoë","email":"zoe@example.ch","site":"https://example.ch/a_b"},{"name":"Bob","email":"bob@example.ch","site":"www.example.ch"}]}`,
			want: "- **Calc:** 3 * 4\n\n## Contacts\n\n| Name | Email | Site |\n| --- | --- | --- |\n" +
				"| Zoë | zoe@example.ch | https://example.ch/a_b |\n| Bob | bob@example.ch | www.example.ch |",
		},
		{
			name: "records with a line break are a labelled list",
			give: `[{"id":1,"note":"first line\nsecond line"},{"id":2,"note":"short"}]`,
			want: "- **ID:** 1\\\n  **Note:** first line\\\n  second line\n- **ID:** 2\\\n  **Note:** short",
		},
		{
			name: "records with long text are a labelled list",
			give: `{"rows":[{"id":1,"note":"` + long + `"},{"id":2,"note":"short"}]}`,
			want: "## Rows\n\n- **ID:** 1\\\n  **Note:** " + long + "\n- **ID:** 2\\\n  **Note:** short",
		},
		{
			name: "records with edge white space are a labelled list",
			give: `[{"k":" padded"},{"k":"x"}]`,
			want: "- **K:** &#32;padded\n- **K:** x",
		},
		{
			name: "null, empty string, empty list and empty object differ",
			give: `{"a":null,"b":"","c":[],"d":{},"e":"empty list","f":"empty object","g":["none","",null]}`,
			want: "- **A:** none\n- **B:** \"\"\n- **C:** empty list\n- **D:** empty object\n" +
				"- **E:** \"empty list\"\n- **F:** \"empty object\"\n- **G:** \"none\", \"\", none",
		},
		{name: "empty elements", give: `[[],{},null,""]`, want: "- empty list\n- empty object\n- none\n- \"\""},
		{name: "empty root list", give: `[]`, want: "empty list"},
		{name: "empty root object", give: `{}`, want: "empty object"},
		{
			name: "empty values in a record",
			give: `[{"tags":[],"meta":{},"n":1},{"n":2}]`,
			want: "- **Tags:** empty list\\\n  **Meta:** empty object\\\n  **N:** 1\n- **N:** 2",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Generic{}.markdown([]byte(tt.give), Options{})
			requireNoError(t, err)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Markdown(%s) mismatch (-want +got):\n%s", tt.give, diff)
			}
			if strings.Contains(got, `\@`) || strings.Contains(got, `\:`) {
				t.Errorf("Markdown(%s) escapes what is not markup: %q", tt.give, got)
			}
			requireNoError(t, CheckMarkdown(got))
			requireNoError(t, checkStructure(got))
			requireNoError(t, readsBack(got, []byte(tt.give), false))
		})
	}
}
