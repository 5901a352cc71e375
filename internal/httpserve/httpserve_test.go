package httpserve_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/contentneg/contentneg/internal/httpserve"
	"github.com/contentneg/contentneg/rest"
	"github.com/contentneg/contentneg/shaping"
)

// backend serves one tool, "t", and records the last call's arguments and
// features.
type backend struct {
	mu        sync.Mutex
	arguments string
	features  []string
}

func (*backend) Server(context.Context) (*rest.Server, error) {
	return &rest.Server{Name: "s", Version: "1", ProtocolVersion: "2025-06-18", Capabilities: json.RawMessage(`{"tools":{}}`)}, nil
}

func (*backend) Tools(context.Context) ([]rest.Tool, error) {
	return []rest.Tool{{Name: "t", InputSchema: json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}}}`)}}, nil
}

func (*backend) Resources(context.Context) ([]rest.Resource, error) { return nil, nil }

func (*backend) ResourceTemplates(context.Context) ([]rest.ResourceTemplate, error) {
	return nil, nil
}

func (*backend) Prompts(context.Context) ([]rest.Prompt, error) { return nil, nil }

func (b *backend) CallTool(_ context.Context, _ string, arguments json.RawMessage, features []string) (*rest.ToolResult, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.arguments, b.features = string(arguments), slices.Clone(features)
	return &rest.ToolResult{Content: json.RawMessage(`[{"type":"text","text":"ok"}]`), Text: "ok"}, nil
}

func (*backend) ReadResource(context.Context, string, []string) ([]rest.ResourceContent, error) {
	return nil, rest.ErrNotFound
}

func (*backend) GetPrompt(context.Context, string, map[string]string, []string) (*rest.PromptResult, error) {
	return nil, rest.ErrNotFound
}

func (b *backend) last() (string, []string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.arguments, b.features
}

// TestRESTTakesTheShapersFormatArgument: the REST binding honours the
// format argument of the shaper it is given, and only it; the defect it
// guards against is the gateway's -rest, which once ignored
// -format-argument because its REST handler was assembled apart from the
// MCP front end's.
func TestRESTTakesTheShapersFormatArgument(t *testing.T) {
	tests := []struct {
		name      string
		argument  string // the shaper's format argument
		body      string
		wantCode  int
		wantArgs  string // the arguments the backend gets
		wantsMark bool   // the backend is asked for format=markdown
	}{
		{
			name:     "the argument chooses the format and is taken out",
			argument: "response_format", body: `{"arguments":{"q":"x","response_format":"markdown"}}`,
			wantCode: http.StatusOK, wantArgs: `{"q":"x"}`, wantsMark: true,
		},
		{
			name:     "a value the server cannot render",
			argument: "response_format", body: `{"arguments":{"q":"x","response_format":"bogus"}}`,
			wantCode: http.StatusUnprocessableEntity,
		},
		{
			name:     "a shaper without the argument passes it on",
			argument: "", body: `{"arguments":{"q":"x","response_format":"markdown"}}`,
			wantCode: http.StatusOK, wantArgs: `{"q":"x","response_format":"markdown"}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := &backend{}
			h := httpserve.REST(b, shaping.New(&shaping.Options{FormatArgument: tt.argument}), httpserve.RESTOptions{})
			req := httptest.NewRequest(http.MethodPost, httpserve.RESTBase+"/tools/t/execute", strings.NewReader(tt.body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json")
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != tt.wantCode {
				t.Fatalf("status %d (%s), want %d", rec.Code, rec.Body, tt.wantCode)
			}
			if tt.wantCode != http.StatusOK {
				return
			}
			args, features := b.last()
			var got, want any
			if err := json.Unmarshal([]byte(args), &got); err != nil {
				t.Fatalf("the backend got arguments %q: %v", args, err)
			}
			_ = json.Unmarshal([]byte(tt.wantArgs), &want)
			if !jsonEqual(got, want) {
				t.Errorf("the backend got arguments %s, want %s", args, tt.wantArgs)
			}
			if mark := slices.Contains(features, "format=markdown"); mark != tt.wantsMark {
				t.Errorf("the backend got features %q: format=markdown asked %v, want %v", features, mark, tt.wantsMark)
			}
		})
	}
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

// TestRESTNegotiatesTheShapersFormats: a format the server added to its
// shaper is negotiable by Accept on the REST binding.
func TestRESTNegotiatesTheShapersFormats(t *testing.T) {
	shaper := shaping.New(nil)
	if err := shaper.AddFormat("csv", "text/csv", nil); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		shaper *shaping.Shaper
		want   int
	}{
		{name: "added", shaper: shaper, want: http.StatusOK},
		{name: "not added", shaper: shaping.New(nil), want: http.StatusNotAcceptable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := httpserve.REST(&backend{}, tt.shaper, httpserve.RESTOptions{})
			req := httptest.NewRequest(http.MethodPost, httpserve.RESTBase+"/tools/t/execute", strings.NewReader(`{"arguments":{}}`))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "text/csv")
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != tt.want {
				t.Errorf("Accept text/csv: status %d (%s), want %d", rec.Code, rec.Body, tt.want)
			}
		})
	}
}

// TestRESTRequiresTheAPIKey: with a key, a tool execution without it is
// 401; /capabilities stays public.
func TestRESTRequiresTheAPIKey(t *testing.T) {
	h := httpserve.REST(&backend{}, shaping.New(nil), httpserve.RESTOptions{APIKey: "k"})
	tests := []struct {
		name, method, path, key string
		want                    int
	}{
		{name: "no key", method: http.MethodPost, path: "/tools/t/execute", want: http.StatusUnauthorized},
		{name: "the key", method: http.MethodPost, path: "/tools/t/execute", key: "k", want: http.StatusOK},
		{name: "public", method: http.MethodGet, path: "/capabilities", want: http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var body io.Reader
			if tt.method == http.MethodPost {
				body = strings.NewReader(`{"arguments":{}}`)
			}
			req := httptest.NewRequest(tt.method, httpserve.RESTBase+tt.path, body)
			req.Header.Set("Content-Type", "application/json")
			if tt.key != "" {
				req.Header.Set("X-API-Key", tt.key)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != tt.want {
				t.Errorf("status %d (%s), want %d", rec.Code, rec.Body, tt.want)
			}
		})
	}
}

// TestListenSaysWhereAndStops: Listen says the address it listens on,
// serves there, and Stop ends it.
func TestListenSaysWhereAndStops(t *testing.T) {
	srv := httpserve.Bounded.Server(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "hi") }))
	var at net.Addr
	if err := httpserve.Listen(srv, "127.0.0.1:0", func(a net.Addr) { at = a }, func(err error) { t.Error(err) }); err != nil {
		t.Fatal(err)
	}
	res, err := http.Get("http://" + at.String() + "/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	_ = res.Body.Close()
	if string(body) != "hi" {
		t.Errorf("got %q, want hi", body)
	}
	if err := httpserve.Stop(context.Background(), srv); err != nil {
		t.Errorf("Stop: %v", err)
	}
	if _, err := http.Get("http://" + at.String() + "/"); err == nil {
		t.Error("still serving after Stop")
	}
}

// TestListenRefusesABadAddress: an address that cannot be listened on is
// net.Listen's error (the demo prints it as its one line), and nothing is
// said.
func TestListenRefusesABadAddress(t *testing.T) {
	said := false
	err := httpserve.Listen(httpserve.Bounded.Server(nil), "127.0.0.1:bad", func(net.Addr) { said = true }, nil)
	if err == nil || !strings.HasPrefix(err.Error(), "listen tcp") || !strings.Contains(err.Error(), "bad") || said {
		t.Errorf("Listen(127.0.0.1:bad) = %v, said %v; want net.Listen's error, nothing said", err, said)
	}
}

// TestLimits: every listener bounds its headers' time and idle
// connections; Bounded bounds the whole request and answer too.
func TestLimits(t *testing.T) {
	tests := []struct {
		name         string
		limits       httpserve.Limits
		wantBodyTime bool
	}{
		{name: "Bounded", limits: httpserve.Bounded, wantBodyTime: true},
		{name: "Streaming", limits: httpserve.Streaming},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := tt.limits.Server(nil)
			if s.ReadHeaderTimeout <= 0 || s.IdleTimeout <= 0 {
				t.Errorf("a limit is missing: %+v", s)
			}
			if got := s.ReadTimeout > 0 && s.WriteTimeout > 0 && s.MaxHeaderBytes > 0; got != tt.wantBodyTime {
				t.Errorf("read and write bounded: %v, want %v", got, tt.wantBodyTime)
			}
		})
	}
}
