package matrix_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/internal/matrix"
	"github.com/contentneg/contentneg/middleware"
)

// fixture is a tool of the fixture server: its output schema (nil: none)
// and the result it returns.
type fixture struct {
	schema map[string]any
	result func() *mcp.CallToolResult
}

var objectSchema = map[string]any{"type": "object"}

var countSchema = map[string]any{
	"type":       "object",
	"properties": map[string]any{"n": map[string]any{"type": "integer"}},
	"required":   []any{"n"},
}

func textResult(text string) func() *mcp.CallToolResult {
	return func() *mcp.CallToolResult {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}
	}
}

// fixtures are tools that return every kind of result the matrix tells
// apart. The server does not negotiate: each tool always returns the same.
var fixtures = map[string]fixture{
	"plain":    {nil, textResult("Bern: light rain, 5.3 °C")},
	"markdown": {nil, textResult("# Bern\n\n- light rain\n- 5.3 °C")},
	"scalar":   {nil, textResult("42")},
	"json": {countSchema, func() *mcp.CallToolResult {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: `{"n": 1, "extra": true}`}}, StructuredContent: map[string]any{"n": 1}}
	}},
	"mirror, keys reordered": {countSchema, func() *mcp.CallToolResult {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: `{ "m": [1, 2], "n": 7 }`}}, StructuredContent: map[string]any{"n": 7, "m": []any{1, 2}}}
	}},
	"invalid": {countSchema, func() *mcp.CallToolResult {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: `{"n":"seven"}`}}, StructuredContent: map[string]any{"n": "seven"}}
	}},
	"absent": {countSchema, textResult("seven")},
	"no schema, structured": {nil, func() *mcp.CallToolResult {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: `{"n":7}`}}, StructuredContent: map[string]any{"n": 7}}
	}},
	"remote schema": {map[string]any{"$ref": "https://schemas.example/never-fetched.json"}, func() *mcp.CallToolResult {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: `{"n":7}`}}, StructuredContent: map[string]any{"n": 7}}
	}},
	"error": {countSchema, func() *mcp.CallToolResult {
		return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "no such city"}}}
	}},
	"image only": {objectSchema, func() *mcp.CallToolResult {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.ImageContent{Data: []byte{0x89, 'P', 'N', 'G'}, MIMEType: "image/png"}}, StructuredContent: map[string]any{}}
	}},
	"two blocks": {nil, func() *mcp.CallToolResult {
		return &mcp.CallToolResult{Content: []mcp.Content{
			&mcp.TextContent{Text: "Bern: light rain"},
			&mcp.ImageContent{Data: []byte{1}, MIMEType: "image/png"},
			&mcp.TextContent{Text: "Suggest an umbrella.", Annotations: &mcp.Annotations{Audience: []mcp.Role{"assistant"}}},
		}}
	}},
	"controls": {nil, textResult("red \x1b[31malert\x1b[0m")},
}

// fixtureServer serves the fixtures.
func fixtureServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "fixtures", Version: "1.0.0"}, nil)
	for name, f := range fixtures {
		tool := &mcp.Tool{Name: name, InputSchema: objectSchema}
		if f.schema != nil {
			tool.OutputSchema = f.schema
		}
		s.AddTool(tool, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return f.result(), nil })
	}
	return s
}

func TestObservations(t *testing.T) {
	tests := []struct {
		give           string // the fixture tool
		wantRendering  matrix.Rendering
		wantStatus     matrix.Status
		wantReason     string // in the reason
		wantTextBlocks int
	}{
		{"plain", matrix.RenderText, matrix.StatusNotApplicable, "no output schema", 1},
		{"markdown", matrix.RenderMarkdown, matrix.StatusNotApplicable, "no output schema", 1},
		{"scalar", matrix.RenderText, matrix.StatusNotApplicable, "", 1},
		{"json", matrix.RenderJSON, matrix.StatusValid, "", 1},
		{"mirror, keys reordered", matrix.RenderJSONMirror, matrix.StatusValid, "", 1},
		{"invalid", matrix.RenderJSONMirror, matrix.StatusInvalid, "n", 1},
		{"absent", matrix.RenderText, matrix.StatusAbsent, "", 1},
		{"no schema, structured", matrix.RenderJSONMirror, matrix.StatusNotApplicable, "no output schema", 1},
		{"remote schema", matrix.RenderJSONMirror, matrix.StatusUnchecked, "remote", 1},
		{"error", matrix.RenderError, matrix.StatusNotApplicable, "error result", 1},
		{"image only", matrix.RenderNone, matrix.StatusValid, "", 0},
		{"two blocks", matrix.RenderText, matrix.StatusNotApplicable, "", 2},
	}
	server := fixtureServer()
	for _, tt := range tests {
		t.Run(tt.give, func(t *testing.T) {
			m, err := matrix.Run(testContext(t), inMemory(t, server), matrix.Options{Tool: tt.give, Profiles: matrix.Presets()[:1]})
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			r := m.Rows[0]
			if r.Rendering != tt.wantRendering {
				t.Errorf("rendering %q, want %q", r.Rendering, tt.wantRendering)
			}
			if r.Structured.Status != tt.wantStatus || !strings.Contains(r.Structured.Reason, tt.wantReason) {
				t.Errorf("structuredContent %+v, want %q with a reason containing %q", r.Structured, tt.wantStatus, tt.wantReason)
			}
			if r.TextBlocks != tt.wantTextBlocks || len(r.Texts) != tt.wantTextBlocks {
				t.Errorf("%d text blocks, %d kept; want %d", r.TextBlocks, len(r.Texts), tt.wantTextBlocks)
			}
			whole := 0
			for _, text := range r.Texts {
				whole += len(text)
			}
			if r.TextBytes != whole || (whole > 0) != (r.Tokens > 0) {
				t.Errorf("text bytes %d, tokens %d; the texts hold %d bytes", r.TextBytes, r.Tokens, whole)
			}
		})
	}
}

func TestTheTableEscapesWhatTheServerSends(t *testing.T) {
	m, err := matrix.Run(testContext(t), inMemory(t, fixtureServer()), matrix.Options{
		Tool:     "controls",
		Profiles: []matrix.Profile{{Name: "bell\a", Tags: []string{"x-a=\x1b"}}},
	})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	var out strings.Builder
	if err := matrix.WriteTable(&out, m); err != nil {
		t.Fatal(err)
	}
	if err := matrix.WriteTexts(&out, m); err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(out.String(), "\x1b\a") {
		t.Errorf("control characters reach the output:\n%q", out.String())
	}
	for _, want := range []string{`"bell\a"`, `red \x1b[31malert`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the output lacks %q:\n%s", want, out.String())
		}
	}
}

func TestElicitationsAreCountedAndDeclined(t *testing.T) {
	// A tool that asks for a confirmation through an input request, which
	// the SDK turns into elicitation/create for legacy clients.
	server := mcp.NewServer(&mcp.Implementation{Name: "asks", Version: "1.0.0"}, nil)
	server.AddTool(&mcp.Tool{Name: "set_alert", InputSchema: objectSchema}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if resp, ok := req.Params.InputResponses["confirm"]; ok {
			action := "?"
			if er, ok := resp.(*mcp.ElicitResult); ok {
				action = er.Action
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "answer: " + action}}}, nil
		}
		return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"confirm": &mcp.ElicitParams{
			Message:         "Set an alert for Bern below 0 °C?",
			RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{"ok": map[string]any{"type": "boolean"}}},
		}}}, nil
	})
	tests := []struct {
		name   string
		legacy bool
	}{{"stateless", false}, {"legacy", true}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := matrix.Run(testContext(t), inMemory(t, server), matrix.Options{
				Tool: "set_alert", Legacy: tt.legacy, Arguments: json.RawMessage(`{"city":"Bern"}`),
			})
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			for _, r := range m.Rows {
				if r.Elicitations != 1 || len(r.ElicitationMessages) != 1 || !strings.Contains(r.ElicitationMessages[0], "Bern") {
					t.Errorf("%s: %d elicitations, messages %q; want 1 about Bern", r.Profile, r.Elicitations, r.ElicitationMessages)
				}
				if len(r.Texts) != 1 || r.Texts[0] != "answer: decline" {
					t.Errorf("%s: texts %q, want the server to have seen a decline", r.Profile, r.Texts)
				}
			}
		})
	}
}

func TestDataThatLooksLikeMarkupIsNotMarkdown(t *testing.T) {
	// A server with the middleware whose tool declares no output schema:
	// its text rendering carries no structuredContent, and the data holds
	// an asterisk pair that parses as emphasis.
	server := mcp.NewServer(&mcp.Implementation{Name: "people", Version: "1.0.0"}, nil)
	server.AddTool(&mcp.Tool{Name: "person", InputSchema: objectSchema}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{
			Content:           []mcp.Content{&mcp.TextContent{Text: `{"name":"Grace *Hopper*","file":"README_*draft*.md"}`}},
			StructuredContent: map[string]any{"name": "Grace *Hopper*", "file": "README_*draft*.md"},
		}, nil
	})
	middleware.Install(server, nil)
	profiles := []matrix.Profile{
		{Name: "undeclared"},
		{Name: "text", Tags: []string{"format=text"}},
		{Name: "compact text", Tags: []string{"format=text", "verbosity=compact"}},
		{Name: "markdown", Tags: []string{"human"}},
	}
	want := map[string]matrix.Rendering{
		"undeclared": matrix.RenderJSONMirror, "text": matrix.RenderText, "compact text": matrix.RenderText, "markdown": matrix.RenderMarkdown,
	}
	for _, legacy := range []bool{false, true} {
		m, err := matrix.Run(testContext(t), inMemory(t, server), matrix.Options{Tool: "person", Profiles: profiles, Legacy: legacy})
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
		for _, r := range m.Rows {
			if r.Rendering != want[r.Profile] {
				t.Errorf("legacy %v, %s: %q, want %q; text:\n%s", legacy, r.Profile, r.Rendering, want[r.Profile], r.Texts)
			}
		}
	}
}
