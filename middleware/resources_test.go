package middleware_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/middleware"
	"github.com/contentneg/contentneg/middleware/client"
	"github.com/contentneg/contentneg/middleware/middlewaretest"
	"github.com/contentneg/contentneg/middleware/resourcemeta"
	"github.com/contentneg/contentneg/renderers"
	"github.com/contentneg/contentneg/shaping"
)

// pixel is a 1x1 PNG.
var pixel = []byte{
	0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
	0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4,
	0x89, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0xf8, 0xcf, 0xc0, 0xf0,
	0x1f, 0x00, 0x05, 0x00, 0x01, 0xff, 0x89, 0x99, 0x3d, 0x1d, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45,
	0x4e, 0x44, 0xae, 0x42, 0x60, 0x82,
}

// newResourceServer has one resource per shape of read result.
func newResourceServer(opts *middleware.Options) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "resources", Version: "1.0.0"}, nil)
	add := func(uri, mimeType string, read func(uri string) (*mcp.ReadResourceResult, error)) {
		s.AddResource(&mcp.Resource{URI: uri, Name: strings.TrimPrefix(uri, "test://"), MIMEType: mimeType},
			func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
				return read(req.Params.URI)
			})
	}
	contents := func(cs ...*mcp.ResourceContents) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: cs}, nil
	}
	add("test://pixel.png", "image/png", func(uri string) (*mcp.ReadResourceResult, error) {
		return contents(&mcp.ResourceContents{URI: uri, MIMEType: "image/png", Blob: pixel})
	})
	add("test://station", "application/json", func(uri string) (*mcp.ReadResourceResult, error) {
		return contents(&mcp.ResourceContents{URI: uri, MIMEType: "application/json; charset=utf-8", Text: `{"station":"Bern","temperature_c":8.5}`})
	})
	add("test://html-or-json", "text/html", func(uri string) (*mcp.ReadResourceResult, error) {
		return contents(
			&mcp.ResourceContents{URI: uri, MIMEType: "text/html", Text: "<p>Bern</p>"},
			&mcp.ResourceContents{URI: uri, MIMEType: "application/json", Text: `{"station":"Bern"}`},
		)
	})
	add("test://pdf-or-text", "application/pdf", func(uri string) (*mcp.ReadResourceResult, error) {
		return contents(
			&mcp.ResourceContents{URI: uri, MIMEType: "application/pdf", Blob: []byte("%PDF-1.4")},
			&mcp.ResourceContents{URI: uri, MIMEType: "text/plain", Text: "Bern: 8.5 °C"},
		)
	})
	add("test://notes.md", "text/markdown", func(uri string) (*mcp.ReadResourceResult, error) {
		return contents(&mcp.ResourceContents{URI: uri, MIMEType: "text/markdown", Text: "# Notes\n\n**Bring** a coat."})
	})
	add("test://folder", "inode/directory", func(uri string) (*mcp.ReadResourceResult, error) {
		return contents(
			&mcp.ResourceContents{URI: uri + "/a.json", MIMEType: "application/json", Text: `{"a":1}`},
			&mcp.ResourceContents{URI: uri + "/b.txt", MIMEType: "text/plain", Text: "b"},
		)
	})
	for _, nf := range []struct {
		uri string
		err error
	}{
		{"test://gone-sentinel", fmt.Errorf("station archived: %w", shaping.ErrNotFound)},
		{"test://gone-fs", fmt.Errorf("open: %w", fs.ErrNotExist)},
		{"test://gone-legacy-code", &jsonrpc.Error{Code: -32002, Message: "Resource not found"}},
		{"test://broken", errors.New("disk on fire")},
	} {
		add(nf.uri, "application/json", func(string) (*mcp.ReadResourceResult, error) { return nil, nf.err })
	}
	add("test://empty", "application/json", func(string) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{}}, nil // an empty list, not nil
	})
	s.AddPrompt(&mcp.Prompt{Name: "brief"}, func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{
			{Role: "user", Content: &mcp.TextContent{Text: "## Brief\n\nSummarise **today's** weather."}},
			{Role: "assistant", Content: &mcp.TextContent{Text: "Sure."}},
		}}, nil
	})
	if opts != nil {
		middleware.Install(s, opts)
	}
	return s
}

func readAs(t *testing.T, tags []string, legacy bool, uri string) (*mcp.ReadResourceResult, error) {
	t.Helper()
	cs := middlewaretest.Connect(t, newResourceServer(&middleware.Options{}), &client.Options{Settings: settingsOf(tags), Legacy: legacy})
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	return cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
}

var resourceProfiles = [][]string{nil, {"agent"}, {"human"}, {"format=text", "verbosity=compact"}, {"human", "verbosity=verbose"}}

func TestBlobsPassThroughEveryProfile(t *testing.T) {
	for _, e := range eras {
		for _, tags := range resourceProfiles {
			t.Run(fmt.Sprintf("%s/%v", e.name, tags), func(t *testing.T) {
				res, err := readAs(t, tags, e.legacy, "test://pixel.png")
				if err != nil {
					t.Fatal(err)
				}
				if len(res.Contents) != 1 || res.Contents[0].MIMEType != "image/png" || string(res.Contents[0].Blob) != string(pixel) || res.Contents[0].Text != "" {
					t.Errorf("the blob changed: %+v", res.Contents)
				}
			})
		}
	}
}

// mimes lists the contents as "uri mimeType".
func mimes(res *mcp.ReadResourceResult) string {
	var out []string
	for _, c := range res.Contents {
		out = append(out, c.URI+" "+c.MIMEType)
	}
	return strings.Join(out, ", ")
}

func TestResourceRenderings(t *testing.T) {
	tests := []struct {
		name      string
		tags      []string
		uri       string
		wantMIMEs string
		check     func(t *testing.T, body string)
	}{
		{"JSON for an agent", []string{"agent"}, "test://station", "test://station application/json; charset=utf-8", equals(`{"station":"Bern","temperature_c":8.5}`)},
		{"JSON rendered for a person", []string{"human"}, "test://station", "test://station text/markdown", isMarkdownWith("Bern")},
		{"JSON rendered for a terminal", []string{"format=text", "verbosity=compact"}, "test://station", "test://station text/plain", equals("station=Bern temperature_c=8.5")},
		{"no markdown alternative: the JSON one, rendered", []string{"human"}, "test://html-or-json", "test://html-or-json text/markdown", isMarkdownWith("Bern")},
		{"no JSON alternative: the first", []string{"agent"}, "test://pdf-or-text", "test://pdf-or-text application/pdf", nil},
		{"the text alternative for a terminal", []string{"format=text"}, "test://pdf-or-text", "test://pdf-or-text text/plain", equals("Bern: 8.5 °C")},
		{"markdown becomes plain text for a terminal", []string{"format=text"}, "test://notes.md", "test://notes.md text/plain", equals("Notes\n\nBring a coat.")},
		{"markdown stays for a person", []string{"human"}, "test://notes.md", "test://notes.md text/markdown", equals("# Notes\n\n**Bring** a coat.")},
		{"a collection keeps its children", []string{"human"}, "test://folder", "test://folder/a.json text/markdown, test://folder/b.txt text/plain", nil},
		{"undeclared: everything as the handler gave it", nil, "test://html-or-json", "test://html-or-json text/html, test://html-or-json application/json", nil},
	}
	for _, e := range eras {
		for _, tt := range tests {
			t.Run(e.name+"/"+tt.name, func(t *testing.T) {
				res, err := readAs(t, tt.tags, e.legacy, tt.uri)
				if err != nil {
					t.Fatal(err)
				}
				if got := mimes(res); got != tt.wantMIMEs {
					t.Fatalf("contents %q, want %q", got, tt.wantMIMEs)
				}
				if tt.check != nil {
					tt.check(t, res.Contents[0].Text)
				}
			})
		}
	}
}

func equals(want string) func(*testing.T, string) {
	return func(t *testing.T, got string) {
		t.Helper()
		if got != want {
			t.Errorf("body %q, want %q", got, want)
		}
	}
}

func isMarkdownWith(want string) func(*testing.T, string) {
	return func(t *testing.T, got string) {
		t.Helper()
		if renderers.CheckMarkdown(got) != nil || json.Valid([]byte(got)) || !strings.Contains(got, want) {
			t.Errorf("not markdown with %q: %q", want, got)
		}
	}
}

func TestMissingResourcesAreInvalidParamsWithTheURI(t *testing.T) {
	uris := []string{"test://gone-sentinel", "test://gone-fs", "test://gone-legacy-code", "test://empty", "test://never-registered"}
	for _, e := range eras {
		for _, tags := range [][]string{nil, {"human"}} {
			for _, uri := range uris {
				t.Run(fmt.Sprintf("%s/%v/%s", e.name, tags, uri), func(t *testing.T) {
					_, err := readAs(t, tags, e.legacy, uri)
					var wire *jsonrpc.Error
					if !errors.As(err, &wire) {
						t.Fatalf("error = %v, want a JSON-RPC error", err)
					}
					if wire.Code != jsonrpc.CodeInvalidParams || !strings.Contains(string(wire.Data), `"uri":"`+uri+`"`) {
						t.Errorf("error %d %q %s, want -32602 with the URI", wire.Code, wire.Message, wire.Data)
					}
				})
			}
		}
	}
}

func TestOtherResourceErrorsAreLeftAlone(t *testing.T) {
	for _, e := range eras {
		t.Run(e.name, func(t *testing.T) {
			_, err := readAs(t, []string{"human"}, e.legacy, "test://broken")
			if err == nil || !strings.Contains(err.Error(), "disk on fire") {
				t.Errorf("error = %v, want the handler's", err)
			}
		})
	}
}

func TestRendererRegisteredForAURITemplate(t *testing.T) {
	r, err := renderers.NewTemplate(renderers.TemplateSpec{Compact: `{station}`})
	if err != nil {
		t.Fatal(err)
	}
	s := newResourceServer(nil)
	s.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: "test://sensors/{name}", Name: "sensor", MIMEType: "application/json"},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "application/json", Text: `{"station":"Bern","temperature_c":8.5}`}}}, nil
		})
	m := middleware.Install(s, nil)
	m.Register("test://sensors/{name}", shaping.Tool{Renderer: r})
	// test://{name} matches test://station, a resource registered under
	// its own URI: its renderer never applies there (contract section 7).
	m.Register("test://{name}", shaping.Tool{Renderer: r})
	cs := middlewaretest.Connect(t, s, &client.Options{Settings: client.Declare("format=text", "verbosity=compact")})
	tests := []struct{ uri, want string }{
		{"test://sensors/bern", "station=Bern"},              // the template's projection
		{"test://station", "station=Bern temperature_c=8.5"}, // the generic compact text
	}
	for _, tt := range tests {
		res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: tt.uri})
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Contents[0].Text; got != tt.want {
			t.Errorf("%s: text = %q, want %q", tt.uri, got, tt.want)
		}
	}
}

func TestPromptsForTextClients(t *testing.T) {
	tests := []struct {
		tags []string
		want string
	}{
		{nil, "## Brief\n\nSummarise **today's** weather."},
		{[]string{"human"}, "## Brief\n\nSummarise **today's** weather."},
		{[]string{"format=text"}, "Brief\n\nSummarise today's weather."},
	}
	for _, e := range eras {
		for _, tt := range tests {
			t.Run(fmt.Sprintf("%s/%v", e.name, tt.tags), func(t *testing.T) {
				cs := middlewaretest.Connect(t, newResourceServer(&middleware.Options{}), &client.Options{Settings: settingsOf(tt.tags), Legacy: e.legacy})
				res, err := cs.GetPrompt(context.Background(), &mcp.GetPromptParams{Name: "brief"})
				if err != nil {
					t.Fatal(err)
				}
				if got := res.Messages[0].Content.(*mcp.TextContent).Text; got != tt.want {
					t.Errorf("text = %q, want %q", got, tt.want)
				}
				if got := res.Messages[1].Content.(*mcp.TextContent).Text; got != "Sure." {
					t.Errorf("the plain message changed: %q", got)
				}
			})
		}
	}
}

func TestResourceMetadataOfBlobsAndErrors(t *testing.T) {
	cs := middlewaretest.Connect(t, newResourceServer(&middleware.Options{}), nil)
	ctx := context.Background()
	r, err := resourcemeta.Get(ctx, cs, "test://pixel.png")
	if err != nil || r.Name != "pixel.png" || r.MIMEType != "image/png" {
		t.Errorf("metadata = %+v, %v", r, err)
	}
	_, err = resourcemeta.Get(ctx, cs, "") // the same request as {"uri": ""}
	var wire *jsonrpc.Error
	if !errors.As(err, &wire) || wire.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("metadata without a uri: %v, want -32602", err)
	}
}
