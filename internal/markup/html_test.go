package markup_test

import (
	"strings"
	"testing"

	"github.com/contentneg/contentneg/format"
	"github.com/contentneg/contentneg/internal/markup"
	"github.com/contentneg/contentneg/renderers"
)

func TestToHTML(t *testing.T) {
	tests := []struct {
		name, give string
		want       []string // substrings of the output
		never      []string // substrings the output must not hold
	}{
		{"emphasis and a table", "**a** *b*\n\n| x | y |\n|---|--:|\n| 1 | 2 |\n", []string{"<strong>a</strong>", "<em>b</em>", "<table>", "<td"}, nil},
		{"raw HTML is omitted", "hi <script>alert(1)</script> <img src=x onerror=alert(2)>", []string{"hi "}, []string{"<script", "<img", "onerror"}},
		{"javascript: links lose their target", "[click](javascript:alert(1))", []string{"<a href=\"\">click</a>"}, []string{"javascript:"}},
		{"escaped markup stays text", `\<b\> &amp; \[x\](y)`, []string{"&lt;b&gt; &amp; [x](y)"}, []string{"<b>", "<a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := markup.ToHTML(tt.give)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("output %q lacks %q", got, w)
				}
			}
			for _, n := range tt.never {
				if strings.Contains(got, n) {
					t.Errorf("output %q holds %q", got, n)
				}
			}
		})
	}
}

func TestGenericHTMLIsTheMarkdownConverted(t *testing.T) {
	value := []byte(`{"name":"<script>alert(1)</script>","items":["[x](javascript:y)","a & b"]}`)
	md, err := renderers.Generic{}.Render(value, renderers.Options{MediaType: format.Markdown.MediaType})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := markup.ToHTML(md)
	got, err := renderers.Generic{}.Render(value, renderers.Options{MediaType: "text/html; charset=utf-8"})
	if err != nil || got != want {
		t.Fatalf("got %q, %v; want %q", got, err, want)
	}
	if strings.Contains(got, "<script") || strings.Contains(got, "<a ") || !strings.Contains(got, "&lt;script&gt;") {
		t.Errorf("data became HTML: %q", got)
	}
}

func TestPreformattedEscapesEverything(t *testing.T) {
	got := markup.Preformatted(`<script>"x" & 'y'</script>`)
	if want := "<pre>&lt;script&gt;&#34;x&#34; &amp; &#39;y&#39;&lt;/script&gt;</pre>\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
