package journeymcp_test

import (
	"strings"
	"testing"

	"github.com/contentneg/contentneg/examples/journey/journeymcp"
	"github.com/contentneg/contentneg/format"
	"github.com/contentneg/contentneg/renderers"
)

// Values for the find_connections templates, written by hand for the cases
// the timetable does not make easy.
const (
	noConnections = `{"from":"Bern","to":"Thun","connections":[]}`

	oneSamePlatformChange = `{"from":"Bern","to":"Spiez","connections":[{"departure":"2026-11-20T08:00:00+01:00",` +
		`"arrival":"2026-11-20T08:40:00+01:00","duration":"PT40M","changes":1,"legs":[` +
		`{"train":"S 1 10","from":"Bern","to":"Thun","departure":"2026-11-20T08:00:00+01:00","arrival":"2026-11-20T08:20:00+01:00","departure_platform":"1","arrival_platform":"4"},` +
		`{"train":"S 2 20","from":"Thun","to":"Spiez","departure":"2026-11-20T08:25:00+01:00","arrival":"2026-11-20T08:40:00+01:00","departure_platform":"4","arrival_platform":"2"}]}]}`

	hostileNames = `{"from":"<script>","to":"# x","connections":[{"departure":"2026-11-20T08:00:00+01:00",` +
		`"arrival":"2026-11-20T08:10:00+01:00","duration":"PT10M","changes":0,"legs":[` +
		`{"train":"[a](javascript:alert(1))","from":"<script>","to":"# x","departure":"2026-11-20T08:00:00+01:00","arrival":"2026-11-20T08:10:00+01:00","departure_platform":"*1*","arrival_platform":"a|b"}]}]}`

	badTime = `{"from":"Bern","to":"Thun","connections":[{"departure":"soon","arrival":"later","duration":"PT10M","changes":0,"legs":[]}]}`
)

func TestConnectionsTemplates(t *testing.T) {
	markdown, text := renderAs(format.Markdown.MediaType), renderAs(format.Text.MediaType)
	tests := []struct {
		name      string
		give      string
		render    func(renderers.Renderer, []byte, renderers.Options) (string, error)
		verbosity format.Verbosity
		check     func(string) error
		want      []string
	}{
		{"none, markdown", noConnections, markdown, format.Standard, renderers.CheckMarkdown,
			[]string{"## Bern → Thun\n\nNo connection departs within 24 hours of the requested time."}},
		{"none, compact markdown", noConnections, markdown, format.Compact, renderers.CheckMarkdown,
			[]string{"**Bern → Thun**\n\nNo connection departs"}},
		{"none, verbose markdown", noConnections, markdown, format.Verbose, renderers.CheckMarkdown,
			[]string{"## Bern → Thun\n\nNo connection departs"}},
		{"none, compact text", noConnections, text, format.Compact, renderers.CheckPlain,
			[]string{"Bern → Thun\nNo connection departs"}},
		{"none, text", noConnections, text, format.Standard, renderers.CheckPlain,
			[]string{"Bern → Thun\nNo connection departs"}},
		{"none, verbose text", noConnections, text, format.Verbose, renderers.CheckPlain,
			[]string{"Bern → Thun\nNo connection departs"}},
		{"one connection", oneSamePlatformChange, markdown, format.Standard, renderers.CheckMarkdown,
			[]string{"Fri 20 Nov 2026 · 1 connection\n", "### 08:00 → 08:40 · 40 min · 1 change"}},
		{"same platform, markdown", oneSamePlatformChange, markdown, format.Verbose, renderers.CheckMarkdown,
			[]string{"- *change at Thun: 5 min, same platform 4*"}},
		{"same platform, text", oneSamePlatformChange, text, format.Verbose, renderers.CheckPlain,
			[]string{"  change at Thun: 5 min, same platform 4"}},
		{"hostile names are escaped", hostileNames, markdown, format.Standard, renderers.CheckMarkdown,
			[]string{`## \<script> → \# x`, `**\[a\](javascript:alert(1))** from \<script> (platform \*1\*) to \# x (platform a\|b)`}},
		{"hostile names are escaped, verbose", hostileNames, markdown, format.Verbose, renderers.CheckMarkdown,
			[]string{`## \<script> → \# x`}},
		{"hostile names are escaped, compact", hostileNames, markdown, format.Compact, renderers.CheckMarkdown,
			[]string{`**\<script> → \# x**`, `\[a\](javascript:alert(1))`}},
	}
	r := journeymcp.Tools()[journeymcp.FindConnections].Renderer
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.render(r, []byte(tt.give), renderers.Options{Verbosity: tt.verbosity})
			if err != nil {
				t.Fatal(err)
			}
			if err := tt.check(got); err != nil {
				t.Errorf("check: %v\n%s", err, got)
			}
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("lacks %q:\n%s", w, got)
				}
			}
		})
	}
}

// A value the templates cannot read is an error, on which the middleware
// falls back to the generic renderers: never a panic, never half an
// itinerary.
func TestConnectionsTemplatesRejectTimesTheyCannotRead(t *testing.T) {
	r := journeymcp.Tools()[journeymcp.FindConnections].Renderer
	tests := []struct {
		name      string
		render    func(renderers.Renderer, []byte, renderers.Options) (string, error)
		verbosity format.Verbosity
	}{
		{"markdown compact", renderAs(format.Markdown.MediaType), format.Compact},
		{"markdown standard", renderAs(format.Markdown.MediaType), format.Standard},
		{"markdown verbose", renderAs(format.Markdown.MediaType), format.Verbose},
		{"text compact", renderAs(format.Text.MediaType), format.Compact},
		{"text standard", renderAs(format.Text.MediaType), format.Standard},
		{"text verbose", renderAs(format.Text.MediaType), format.Verbose},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.render(r, []byte(badTime), renderers.Options{Verbosity: tt.verbosity})
			if err == nil || !strings.Contains(err.Error(), `"soon" is not an RFC 3339 time`) {
				t.Errorf("error = %v, output %q; want the time error", err, got)
			}
		})
	}
}

// renderAs returns a function that renders with r as mediaType.
func renderAs(mediaType string) func(renderers.Renderer, []byte, renderers.Options) (string, error) {
	return func(r renderers.Renderer, value []byte, opts renderers.Options) (string, error) {
		opts.MediaType = mediaType
		return r.Render(value, opts)
	}
}
