package rest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/contentneg/contentneg/rest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// fake is a backend whose renderings are predictable: a tool's text is
// "<format>:<arguments>", so a test sees which format was declared.
type fake struct {
	mu       sync.Mutex
	declared [][]string // the features of every call, in order
	tools    []rest.Tool
	slowDone chan error // receives the end of every call of "slow"
}

var modified = time.Date(2026, 5, 12, 13, 45, 0, 0, time.UTC)

func newFake() *fake {
	tools := []rest.Tool{
		{Name: "ask", Description: "asks for input"},
		{Name: "echo", Title: "Echo", Description: "echoes its arguments",
			InputSchema:  json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer","minimum":1,"maximum":7}},"required":["city"],"additionalProperties":false}`),
			OutputSchema: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer"},"nested":{"type":"object","properties":{"a":{"type":"integer"}}}}}`)},
		{Name: "fail", Description: "always fails"},
		{Name: "slow", Description: "answers when the request ends"},
	}
	for i := range 7 {
		tools = append(tools, rest.Tool{Name: fmt.Sprintf("t%d", i)})
	}
	return &fake{tools: tools, slowDone: make(chan error, 16)}
}

func (f *fake) record(features []string) {
	f.mu.Lock()
	f.declared = append(f.declared, features)
	f.mu.Unlock()
}

func (f *fake) lastDeclared() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.declared) == 0 {
		return nil
	}
	return f.declared[len(f.declared)-1]
}

func formatOf(features []string) string {
	for _, t := range features {
		if v, ok := strings.CutPrefix(t, "format="); ok {
			return v
		}
	}
	return ""
}

func (f *fake) Server(context.Context) (*rest.Server, error) {
	return &rest.Server{Name: "fake", Version: "1.2.3", ProtocolVersion: "2026-07-28",
		Capabilities: json.RawMessage(`{"tools":{}}`), Instructions: "Test server."}, nil
}

func (f *fake) Tools(context.Context) ([]rest.Tool, error) { return f.tools, nil }

func (f *fake) Resources(context.Context) ([]rest.Resource, error) {
	size := int64(len(bigText))
	return []rest.Resource{
		{URI: "data://big", Name: "big", MIMEType: "text/plain", Size: &size, LastModified: modified},
		{URI: "data://img", Name: "img", MIMEType: "image/png"},
		{URI: "data://json", Name: "json", MIMEType: "application/json"},
	}, nil
}

func (f *fake) ResourceTemplates(context.Context) ([]rest.ResourceTemplate, error) {
	return []rest.ResourceTemplate{{URITemplate: "data://item/{n}", Name: "item", MIMEType: "application/json"}}, nil
}

func (f *fake) Prompts(context.Context) ([]rest.Prompt, error) {
	return []rest.Prompt{{Name: "greet", Description: "a greeting", Arguments: []rest.PromptArgument{
		{Name: "name", Required: true}, {Name: "tone"},
	}}}, nil
}

var bigText = strings.Repeat("0123456789", 100)

func (f *fake) CallTool(ctx context.Context, name string, args json.RawMessage, features []string) (*rest.ToolResult, error) {
	f.record(features)
	format := formatOf(features)
	switch name {
	case "fail":
		return &rest.ToolResult{IsError: true, Text: "the city is closed", Content: json.RawMessage(`[{"type":"text","text":"the city is closed"}]`)}, nil
	case "ask":
		return &rest.ToolResult{NeedsInput: true}, nil
	case "t0":
		// Reports the call's deadline, to the second.
		deadline, ok := ctx.Deadline()
		text := "no deadline"
		if ok {
			text = fmt.Sprintf("deadline in %.0fs", time.Until(deadline).Seconds())
		}
		return &rest.ToolResult{Text: text, Content: json.RawMessage(`[]`)}, nil
	case "slow":
		<-ctx.Done()
		f.slowDone <- ctx.Err()
		return nil, fmt.Errorf("slow: %w", ctx.Err())
	}
	var m map[string]any
	_ = json.Unmarshal(args, &m)
	m["nested"] = map[string]any{"a": 1}
	structured, _ := json.Marshal(m)
	text := format + ":" + string(args)
	if format == "json" {
		text = string(structured)
	}
	content, _ := json.Marshal([]map[string]string{{"type": "text", "text": text}})
	return &rest.ToolResult{Text: text, Content: content, Structured: structured}, nil
}

func (f *fake) ReadResource(_ context.Context, uri string, features []string) ([]rest.ResourceContent, error) {
	f.record(features)
	switch {
	case uri == "data://big":
		return []rest.ResourceContent{{URI: uri, MIMEType: "text/plain", Text: bigText}}, nil
	case uri == "data://img":
		return []rest.ResourceContent{{URI: uri, MIMEType: "image/png", Blob: []byte("\x89PNG\r\n"), IsBlob: true}}, nil
	case uri == "data://json", strings.HasPrefix(uri, "data://item/") && uri != "data://item/404":
		mt := map[string]string{"json": "application/json", "markdown": "text/markdown", "text": "text/plain"}[formatOf(features)]
		return []rest.ResourceContent{{URI: uri, MIMEType: mt, Text: formatOf(features) + " of " + uri}}, nil
	}
	return nil, fmt.Errorf("read %s: %w", uri, rest.ErrNotFound)
}

func (f *fake) GetPrompt(_ context.Context, name string, args map[string]string, features []string) (*rest.PromptResult, error) {
	f.record(features)
	text := "Hello, " + args["name"] + " (" + formatOf(features) + ")"
	msgs, _ := json.Marshal([]map[string]any{{"role": "user", "content": map[string]string{"type": "text", "text": text}}})
	return &rest.PromptResult{Description: "a greeting", Messages: msgs, Text: text}, nil
}

var _ rest.Backend = (*fake)(nil)

// failing is a backend whose every method fails.
type failing struct{ rest.Backend }

func (failing) Tools(context.Context) ([]rest.Tool, error) { return nil, fmt.Errorf("connection lost") }

func newTestHandler(t *testing.T) (http.Handler, *fake) {
	t.Helper()
	f := newFake()
	return rest.New(f, &rest.Options{BasePath: "/mcp/v1", CallTimeout: 5 * time.Second}), f
}

// unavailable is a backend whose session has ended.
type unavailable struct{ *fake }

func (unavailable) CallTool(context.Context, string, json.RawMessage, []string) (*rest.ToolResult, error) {
	return nil, fmt.Errorf("call: %w", rest.ErrUnavailable)
}
