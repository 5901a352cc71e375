package renderers

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestEscapeMarkdown(t *testing.T) {
	tests := []struct {
		name string
		give string
		want string
	}{
		{name: "plain text", give: "Light rain", want: "Light rain"},
		{name: "empty", give: "", want: ""},
		{name: "intraword underscore kept", give: "feels_like_c", want: "feels_like_c"},
		{name: "intraword underscore run kept", give: "snake__case", want: "snake__case"},
		{name: "leading underscore", give: "_id", want: `\_id`},
		{name: "underscore emphasis", give: "_x_", want: `\_x\_`},
		{name: "heading", give: "# x", want: `\# x`},
		{name: "link", give: "[a](javascript:alert(1))", want: `\[a\](javascript:alert(1))`},
		{name: "image", give: "![i](u)", want: `!\[i\](u)`},
		{name: "html", give: "<script>", want: `\<script>`},
		{name: "pipe", give: "a|b", want: `a\|b`},
		{name: "backticks", give: "`code`", want: "\\`code\\`"},
		{name: "newline", give: "a\nb", want: "a&#10;b"},
		{name: "carriage return", give: "a\r\nb", want: "a&#13;&#10;b"},
		{name: "entity", give: "&amp;", want: `\&amp;`},
		{name: "numeric reference", give: "&#10;", want: `\&#10;`},
		{name: "ampersand in words", give: "R&D team", want: "R&D team"},
		{name: "ampersand at the end", give: "AT&", want: `AT\&`},
		{name: "ordered list", give: "1. x", want: `1\. x`},
		{name: "ordered list paren", give: "1) x", want: `1\) x`},
		{name: "decimal number", give: "1.5", want: "1.5"},
		{name: "thematic break", give: "---", want: `\---`},
		{name: "bullet", give: "- x", want: `\- x`},
		{name: "plus bullet", give: "+ x", want: `\+ x`},
		{name: "negative number", give: "-5", want: "-5"},
		{name: "setext underline", give: "==", want: `\==`},
		{name: "delimiter row", give: ":-:", want: `\:-:`},
		{name: "block quote", give: "> q", want: `\> q`},
		{name: "greater than inside", give: "a > b", want: "a > b"},
		{name: "bold", give: "**", want: `\*\*`},
		{name: "strikethrough", give: "~~s~~", want: `\~\~s\~\~`},
		{name: "lone backslash", give: `\`, want: `&#92;`},
		{name: "trailing backslash", give: `C:\temp\`, want: `C:\temp&#92;`},
		{name: "leading no-break space", give: "\u00a0x", want: "&#160;x"},
		{name: "trailing ideographic space", give: "x\u3000", want: "x&#12288;"},
		{name: "digits then dots", give: "12.3.4. x", want: "12.3.4. x"},
		{name: "digits then dot and blank", give: "12. x", want: `12\. x`},
		{name: "backslash before punctuation", give: `\*`, want: `\\\*`},
		{name: "windows path", give: `C:\Users`, want: `C:\Users`},
		{name: "leading and trailing blanks", give: "  x\t", want: "&#32;&#32;x&#9;"},
		{name: "inner spaces kept", give: "a  b", want: "a  b"},
		{name: "url", give: "https://example.com", want: "https://example.com"},
		{name: "url with underscore", give: "https://example.ch/a_b", want: "https://example.ch/a_b"},
		{name: "url with query", give: "see http://a.ch/c?d=1&e=2, ok", want: "see http://a.ch/c?d=1&e=2, ok"},
		{name: "url holding markup", give: "https://x.ch/[a](b)", want: `https\://x.ch/\[a\](b)`},
		{name: "www", give: "www.example.com", want: "www.example.com"},
		{name: "www holding markup", give: "www.x.ch/*a*", want: `www\.x.ch/\*a\*`},
		{name: "email", give: "bob@example.com", want: "bob@example.com"},
		{name: "email in words", give: "write to zoe@example.ch.", want: "write to zoe@example.ch."},
		{name: "email holding markup", give: "`x`@example.ch", want: "\\`x\\`\\@example.ch"},
		{name: "lone star", give: "3 * 4", want: "3 * 4"},
		{name: "lone stars", give: "a ** b", want: "a ** b"},
		{name: "star list marker", give: "* x", want: `\* x`},
		{name: "star at the end", give: "3 *", want: `3 \*`},
		{name: "lone underscore", give: "a _ b", want: "a _ b"},
		{name: "lone tilde", give: "a ~ b", want: "a ~ b"},
		{name: "mention", give: "@bob", want: "@bob"},
		{name: "closing hashes", give: "x #", want: `x \#`},
		{name: "issue number", give: "issue #12", want: "issue #12"},
		{name: "escape sequence", give: "\x1b[31m", want: `&#27;\[31m`},
		{name: "C1 control", give: "a\u0085b", want: "a&#133;b"},
		{name: "invalid UTF-8", give: "a\xffb", want: "a\uFFFDb"},
		{name: "NUL", give: "a\x00b", want: "a\uFFFDb"},
		{name: "non-ASCII", give: "Zürich · 東京", want: "Zürich · 東京"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, EscapeMarkdown(tt.give)); diff != "" {
				t.Errorf("EscapeMarkdown(%q) mismatch (-want +got):\n%s", tt.give, diff)
			}
		})
	}
}

// TestEscapeMarkdownRoundTrip parses the escaped hostile strings back: one paragraph of plain text
// holding exactly the input.
func TestEscapeMarkdownRoundTrip(t *testing.T) {
	for _, give := range hostile {
		t.Run(give, func(t *testing.T) {
			md := EscapeMarkdown(give)
			got, err := paragraphText(md)
			requireNoError(t, err)
			if got != give {
				t.Errorf("EscapeMarkdown(%q) = %q parses as %q", give, md, got)
			}
		})
	}
}
