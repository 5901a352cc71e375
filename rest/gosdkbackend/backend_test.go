package gosdkbackend_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tidwall/gjson"
	"go.uber.org/goleak"

	"github.com/contentneg/contentneg/examples/journey/journey"
	"github.com/contentneg/contentneg/examples/journey/journeymcp"
	"github.com/contentneg/contentneg/examples/weather"
	"github.com/contentneg/contentneg/examples/weather/weathermcp"
	"github.com/contentneg/contentneg/middleware"
	"github.com/contentneg/contentneg/middleware/client"
	"github.com/contentneg/contentneg/middleware/middlewaretest"
	"github.com/contentneg/contentneg/renderers"
	"github.com/contentneg/contentneg/rest"
	"github.com/contentneg/contentneg/rest/gosdkbackend"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func noon() time.Time { return time.Date(2026, 11, 20, 13, 0, 0, 0, time.UTC) }

// demo is a demo server with the middleware, and the REST binding over it.
type demo struct {
	server *mcp.Server
	rest   *httptest.Server
}

func weatherServer(t testing.TB) *mcp.Server {
	s := weathermcp.NewServer(weather.NewService(noon))
	middleware.Install(s, &middleware.Options{Tools: weathermcp.Tools()})
	return s
}

func journeyServer(t testing.TB) *mcp.Server {
	p, err := journey.NewPlanner()
	if err != nil {
		t.Fatal(err)
	}
	s := journeymcp.NewServer(p)
	middleware.Install(s, &middleware.Options{Tools: journeymcp.Tools()})
	return s
}

func newDemo(t testing.TB, s *mcp.Server, opts *gosdkbackend.Options) *demo {
	t.Helper()
	b, err := gosdkbackend.New(context.Background(), s, opts)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(rest.New(b, &rest.Options{BasePath: "/mcp/v1"}))
	t.Cleanup(func() { srv.Close(); _ = b.Close() })
	return &demo{server: s, rest: srv}
}

// post executes a tool over REST and returns the status, content type and body.
func (d *demo) post(t testing.TB, ctx context.Context, tool, accept string, args any) (int, string, string) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"arguments": args})
	req, _ := http.NewRequestWithContext(ctx, "POST", d.rest.URL+"/mcp/v1/tools/"+tool+"/execute", strings.NewReader(string(body)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", accept)
	resp, err := d.rest.Client().Do(req)
	if err != nil {
		t.Fatalf("POST %s: %v", tool, err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Content-Type"), string(out)
}

var departure = "2026-11-20T08:00:00+01:00"

// TestSameBytesAsMCP: a REST client and an MCP client (both eras) with the
// same preference get the same rendering, byte for byte, whichever era the
// backend speaks (the legacy era declares at initialize, the stateless era
// in every request).
func TestSameBytesAsMCP(t *testing.T) {
	calls := []struct {
		server func(testing.TB) *mcp.Server
		tool   string
		args   map[string]any
	}{
		{weatherServer, "get_weather", map[string]any{"city": "Bern"}},
		{weatherServer, "get_forecast", map[string]any{"city": "Tokyo", "days": 3}},
		{journeyServer, "find_connections", map[string]any{"from": "Zürich HB", "to": "Brig", "departure": departure, "limit": 3}},
	}
	formats := []struct{ format, accept string }{
		{"markdown", "text/markdown"},
		{"text", "text/plain"},
		{"toon", "text/toon"},
		{"html", "text/html"},
		{"json", "application/json"},
	}
	backends := []struct {
		name string
		opts *gosdkbackend.Options
	}{
		{"stateless backend", nil},
		{"legacy backend", &gosdkbackend.Options{ProtocolVersion: client.LegacyProtocol}},
	}
	for _, c := range calls {
		for _, be := range backends {
			d := newDemo(t, c.server(t), be.opts)
			for _, legacy := range []bool{false, true} {
				for _, f := range formats {
					t.Run(fmt.Sprintf("%s/%s/%s/legacy=%v", be.name, c.tool, f.format, legacy), func(t *testing.T) {
						ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
						defer cancel()
						cs := middlewaretest.Connect(t, d.server, &client.Options{Legacy: legacy, Settings: client.Declare("format=" + f.format)})
						res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
						if err != nil || res.IsError {
							t.Fatalf("MCP call: %v %+v", err, res)
						}
						status, ctype, body := d.post(t, ctx, c.tool, f.accept, c.args)
						if status != 200 || !strings.HasPrefix(ctype, f.accept) {
							t.Fatalf("REST: %d %s %s", status, ctype, body)
						}
						if f.format != "json" {
							mcpText := res.Content[0].(*mcp.TextContent).Text
							if body != mcpText {
								t.Errorf("REST body differs from the MCP rendering:\nREST: %q\nMCP:  %q", body, mcpText)
							}
							return
						}
						var got struct {
							Content           []map[string]any `json:"content"`
							StructuredContent any              `json:"structuredContent"`
						}
						if err := json.Unmarshal([]byte(body), &got); err != nil {
							t.Fatal(err)
						}
						var want any
						raw, _ := json.Marshal(res.StructuredContent)
						_ = json.Unmarshal(raw, &want)
						if !reflect.DeepEqual(got.StructuredContent, want) {
							t.Errorf("structuredContent differs:\nREST: %v\nMCP:  %v", got.StructuredContent, want)
						}
						var wantContent []map[string]any
						raw, _ = json.Marshal(res.Content)
						_ = json.Unmarshal(raw, &wantContent)
						if len(wantContent) == 0 {
							wantContent = []map[string]any{}
						}
						if !reflect.DeepEqual(got.Content, wantContent) {
							t.Errorf("content differs:\nREST: %v\nMCP:  %v", got.Content, wantContent)
						}
					})
				}
			}
		}
	}
}

// TestTOONOverREST: Accept: text/toon, or ?format=toon whatever the Accept, gets the TOON
// rendering as the body.
func TestTOONOverREST(t *testing.T) {
	d := newDemo(t, weatherServer(t), nil)
	tests := []struct{ name, query, accept string }{
		{"Accept", "", "text/toon"},
		{"Accept with a charset, among others", "", "text/toon;charset=utf-8, application/json;q=0.5"},
		{"?format=toon over Accept", "?format=toon", "text/plain"},
		{"?format=TOON without Accept", "?format=TOON", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			req, _ := http.NewRequestWithContext(ctx, "POST", d.rest.URL+"/mcp/v1/tools/get_forecast/execute"+tt.query,
				strings.NewReader(`{"arguments":{"city":"Tokyo","days":3}}`))
			req.Header.Set("Content-Type", "application/json")
			if tt.accept != "" {
				req.Header.Set("Accept", tt.accept)
			}
			resp, err := d.rest.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/toon; charset=utf-8" {
				t.Fatalf("%d %s: %s", resp.StatusCode, resp.Header.Get("Content-Type"), body)
			}
			if !strings.HasPrefix(string(body), "location: ") || !strings.Contains(string(body), "\ndays[3]{") || json.Valid(body) {
				t.Errorf("body is not the forecast in TOON:\n%s", body)
			}
		})
	}
}

// TestGateDeclinesForREST: set_alert and the Springfield question never
// set an alert, never ask, and never hang.
func TestGateDeclinesForREST(t *testing.T) {
	for _, legacy := range []bool{false, true} {
		t.Run(fmt.Sprintf("legacy=%v", legacy), func(t *testing.T) {
			opts := &gosdkbackend.Options{}
			if legacy {
				opts.ProtocolVersion = client.LegacyProtocol
			}
			d := newDemo(t, weatherServer(t), opts)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			for _, accept := range []string{"application/json", "text/markdown", "text/plain"} {
				status, ctype, body := d.post(t, ctx, "set_alert", accept, map[string]any{"city": "Bern", "threshold_c": -5})
				if status != 422 || !strings.HasPrefix(ctype, "application/json") || !strings.Contains(body, `"code":"TOOL_ERROR"`) || !strings.Contains(body, "not set") {
					t.Errorf("set_alert (%s): %d %s", accept, status, body)
				}
				status, _, body = d.post(t, ctx, "get_weather", accept, map[string]any{"city": "Springfield"})
				if status != 422 || !strings.Contains(body, "Springfield") {
					t.Errorf("Springfield (%s): %d %s", accept, status, body)
				}
			}
			if ctx.Err() != nil {
				t.Fatal("the calls did not end within the deadline")
			}
			status, _, body := d.post(t, ctx, "list_alerts", "application/json", map[string]any{})
			if status != 200 || !strings.Contains(body, `"structuredContent":{"alerts":[]}`) && !strings.Contains(body, `"structuredContent":{"alerts":null}`) && !strings.Contains(body, `"structuredContent":{}`) {
				t.Errorf("an alert was set: %d %s", status, body)
			}
		})
	}
}

func TestOpenAPIValidates(t *testing.T) {
	for name, server := range map[string]func(testing.TB) *mcp.Server{"weather": weatherServer, "journey": journeyServer} {
		t.Run(name, func(t *testing.T) {
			d := newDemo(t, server(t), nil)
			resp, err := d.rest.Client().Get(d.rest.URL + "/mcp/v1/openapi.json")
			if err != nil {
				t.Fatal(err)
			}
			raw, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			doc, err := openapi3.NewLoader().LoadFromData(raw)
			if err != nil {
				t.Fatalf("load: %v", err)
			}
			if !doc.IsOpenAPI31OrLater() {
				t.Errorf("openapi %s, want 3.1", doc.OpenAPI)
			}
			if err := doc.Validate(context.Background()); err != nil {
				t.Fatalf("validate: %v", err)
			}
			cs := middlewaretest.Connect(t, d.server, nil)
			tools, err := cs.ListTools(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, tool := range tools.Tools {
				item := doc.Paths.Find("/tools/" + tool.Name + "/execute")
				if item == nil || item.Post == nil {
					t.Errorf("no execute operation for %s", tool.Name)
					continue
				}
				op := item.Post
				if op.OperationID != "execute_"+tool.Name || op.RequestBody == nil || op.RequestBody.Value.Content.Get("application/json") == nil {
					t.Errorf("%s: operation %q without a JSON request body", tool.Name, op.OperationID)
				}
				ok := op.Responses.Value("200")
				for _, mt := range []string{"application/json", "text/markdown", "text/plain", "text/toon"} {
					if ok == nil || ok.Value.Content.Get(mt) == nil {
						t.Errorf("%s: no 200 response as %s", tool.Name, mt)
					}
				}
				args := op.RequestBody.Value.Content.Get("application/json").Schema.Value.Properties["arguments"]
				if args == nil || args.Value == nil || len(args.Value.Properties) == 0 && tool.Name != "list_alerts" {
					t.Errorf("%s: the request schema lacks the tool's arguments", tool.Name)
				}
			}
		})
	}
}

func TestResourcesAndPromptsOverTheDemo(t *testing.T) {
	d := newDemo(t, weatherServer(t), nil)
	get := func(path, accept string) (int, string, string) {
		req, _ := http.NewRequest("GET", d.rest.URL+"/mcp/v1"+path, nil)
		req.Header.Set("Accept", accept)
		resp, err := d.rest.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header.Get("Content-Type"), string(b)
	}
	tests := []struct {
		path, accept string
		status       int
		ctype        string
		has          string
	}{
		{"/resources", "", 200, "application/json", `"uri":"weather://cities"`},
		{"/resources/weather:%2F%2Fbern", "", 200, "application/json", `"uri":"weather://bern"`},
		{"/resources/weather:%2F%2Fbern/content", "application/json", 200, "application/json", `"temperature_c"`},
		{"/resources/weather:%2F%2Fbern/content", "text/markdown", 200, "text/markdown", "**Bern"},
		{"/resources/weather:%2F%2Fatlantis/content", "", 404, "application/json", `"code":"NOT_FOUND"`},
		{"/resources/weather:%2F%2Fatlantis", "", 404, "application/json", `"code":"NOT_FOUND"`},
		{"/prompts", "", 200, "application/json", `"id":"plan_outfit"`},
		{"/capabilities", "", 200, "application/json", `"name":"demo-weather"`},
	}
	for _, tt := range tests {
		status, ctype, body := get(tt.path, tt.accept)
		if status != tt.status || !strings.HasPrefix(ctype, tt.ctype) || !strings.Contains(body, tt.has) {
			t.Errorf("GET %s (%s): %d %s\n%s", tt.path, tt.accept, status, ctype, body)
		}
	}
}

func TestRefusesAServerWithoutTheMiddleware(t *testing.T) {
	_, err := gosdkbackend.New(context.Background(), weathermcp.NewServer(nil), nil)
	if !errors.Is(err, gosdkbackend.ErrNotNegotiating) {
		t.Errorf("err = %v, want ErrNotNegotiating", err)
	}
}

// TestRegisteredFormat: a media type the server registered (text/csv) is
// negotiable by Accept, and gives the bytes an MCP client with format=csv
// gets.
func TestRegisteredFormat(t *testing.T) {
	s := weathermcp.NewServer(weather.NewService(noon))
	m := middleware.Install(s, &middleware.Options{Tools: weathermcp.Tools()})
	csv := renderers.Func(func(value []byte, _ renderers.Options) (string, error) {
		return "location,temperature_c\n" + gjson.GetBytes(value, "location").String() + "," + gjson.GetBytes(value, "temperature_c").String() + "\n", nil
	})
	if err := m.Shaper().AddFormat("csv", "text/csv", csv); err != nil {
		t.Fatal(err)
	}
	b, err := gosdkbackend.New(context.Background(), s, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	h := rest.New(b, &rest.Options{BasePath: "/mcp/v1", Negotiator: m.Shaper().Negotiator()})
	req := httptest.NewRequest("POST", "/mcp/v1/tools/get_weather/execute", strings.NewReader(`{"arguments":{"city":"Bern"}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/csv, application/json;q=0.5")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)

	cs := middlewaretest.Connect(t, s, &client.Options{Settings: client.Declare("format=csv")})
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "get_weather", Arguments: map[string]any{"city": "Bern"}})
	if err != nil {
		t.Fatal(err)
	}
	want := res.Content[0].(*mcp.TextContent).Text
	if rec.Code != 200 || rec.Header().Get("Content-Type") != "text/csv; charset=utf-8" || rec.Body.String() != want || !strings.HasPrefix(want, "location,") {
		t.Errorf("%d %s\nREST: %q\nMCP:  %q", rec.Code, rec.Header().Get("Content-Type"), rec.Body.String(), want)
	}
	// The capabilities list it.
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/mcp/v1/capabilities", nil))
	if !strings.Contains(rec.Body.String(), `{"format":"csv","mediaType":"text/csv"}`) {
		t.Errorf("capabilities: %s", rec.Body.String())
	}
}

// TestPromptSameAsMCP: a rendered prompt over REST is the prompt an MCP
// client with the same format gets.
func TestPromptSameAsMCP(t *testing.T) {
	d := newDemo(t, weatherServer(t), nil)
	for _, f := range []struct{ format, accept string }{{"text", "text/plain"}, {"markdown", "text/markdown"}} {
		cs := middlewaretest.Connect(t, d.server, &client.Options{Settings: client.Declare("format=" + f.format)})
		res, err := cs.GetPrompt(context.Background(), &mcp.GetPromptParams{Name: "plan_outfit", Arguments: map[string]string{"city": "Bern"}})
		if err != nil {
			t.Fatal(err)
		}
		want := res.Messages[0].Content.(*mcp.TextContent).Text
		req, _ := http.NewRequest("POST", d.rest.URL+"/mcp/v1/prompts/plan_outfit/render", strings.NewReader(`{"arguments":{"city":"Bern"}}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", f.accept)
		resp, err := d.rest.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || string(got) != want {
			t.Errorf("%s: %d\nREST: %q\nMCP:  %q", f.format, resp.StatusCode, got, want)
		}
	}
	req, _ := http.NewRequest("POST", d.rest.URL+"/mcp/v1/prompts/plan_outfit/render", strings.NewReader(`{"arguments":{"city":"Bern"}}`))
	req.Header.Set("Content-Type", "application/json")
	resp, err := d.rest.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(got), `"messages":[{"content":{"type":"text","text":"## What should I wear in Bern`) {
		t.Errorf("JSON: %d %s", resp.StatusCode, got)
	}
}

// TestResourceDatesAndBlobs: a listed resource's lastModified drives
// Last-Modified and If-Modified-Since; blobs arrive decoded, with their type.
func TestResourceDatesAndBlobs(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "files", Version: "1.0.0"}, nil)
	s.AddResource(&mcp.Resource{URI: "file:///note.txt", Name: "note", MIMEType: "text/plain", Size: 5,
		Annotations: &mcp.Annotations{LastModified: "2026-05-12T13:45:00Z"}},
		func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "file:///note.txt", MIMEType: "text/plain", Text: "hello"}}}, nil
		})
	s.AddResource(&mcp.Resource{URI: "file:///logo.png", Name: "logo", MIMEType: "image/png"},
		func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "file:///logo.png", MIMEType: "image/png", Blob: []byte{0x89, 'P', 'N', 'G'}}}}, nil
		})
	middleware.Install(s, nil)
	d := newDemo(t, s, nil)
	get := func(path string, header ...string) (*http.Response, string) {
		req, _ := http.NewRequest("GET", d.rest.URL+"/mcp/v1"+path, nil)
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		resp, err := d.rest.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}
	resp, body := get("/resources/file:%2F%2F%2Fnote.txt/content")
	if resp.StatusCode != 200 || body != "hello" || resp.Header.Get("Last-Modified") != "Tue, 12 May 2026 13:45:00 GMT" {
		t.Errorf("note: %d %q Last-Modified %q", resp.StatusCode, body, resp.Header.Get("Last-Modified"))
	}
	if resp, _ := get("/resources/file:%2F%2F%2Fnote.txt/content", "If-Modified-Since", "Tue, 12 May 2026 14:00:00 GMT"); resp.StatusCode != 304 {
		t.Errorf("If-Modified-Since after the date: %d, want 304", resp.StatusCode)
	}
	if _, body := get("/resources"); !strings.Contains(body, `"size":5`) || !strings.Contains(body, `"lastModified":"2026-05-12T13:45:00Z"`) {
		t.Errorf("list: %s", body)
	}
	resp, body = get("/resources/file:%2F%2F%2Flogo.png/content")
	if resp.StatusCode != 200 || body != "\x89PNG" || resp.Header.Get("Content-Type") != "image/png" {
		t.Errorf("logo: %d %q %s", resp.StatusCode, body, resp.Header.Get("Content-Type"))
	}
	if resp, body := get("/resources/file:%2F%2F%2Fnope/content"); resp.StatusCode != 404 || !strings.Contains(body, `"code":"NOT_FOUND"`) {
		t.Errorf("unknown: %d %s", resp.StatusCode, body)
	}
}

// TestReconnects: when the server closes its sessions, reads go on over a
// new one; a tool call that met the closed session is a 503 (it is not
// repeated: it may have run), and the next one succeeds.
func TestReconnects(t *testing.T) {
	for _, version := range []string{"", client.LegacyProtocol} {
		t.Run("protocol="+version, func(t *testing.T) { testReconnects(t, version) })
	}
}

func testReconnects(t *testing.T, version string) {
	s := weatherServer(t)
	b, err := gosdkbackend.New(context.Background(), s, &gosdkbackend.Options{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	h := rest.New(b, &rest.Options{BasePath: "/mcp/v1", CatalogTTL: -1})
	serve := func(method, path, body string) *httptest.ResponseRecorder {
		var r io.Reader
		if body != "" {
			r = strings.NewReader(body)
		}
		req := httptest.NewRequest(method, path, r)
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	closeAll := func() {
		for ss := range s.Sessions() {
			_ = ss.Close()
		}
	}
	closeAll()
	if rec := serve("GET", "/mcp/v1/tools", ""); rec.Code != 200 {
		t.Errorf("list after the session ended: %d %s", rec.Code, rec.Body)
	}
	// A call that succeeds, and connects the legacy era's session for its
	// features; then its session ends.
	if _, err := b.CallTool(context.Background(), "get_weather", json.RawMessage(`{"city":"Bern"}`), []string{"format=text"}); err != nil {
		t.Fatal(err)
	}
	closeAll()
	// Straight to the backend: over REST, the execute's listing would
	// renew the session first.
	if _, err := b.CallTool(context.Background(), "get_weather", json.RawMessage(`{"city":"Bern"}`), []string{"format=text"}); !errors.Is(err, rest.ErrUnavailable) {
		t.Errorf("a call on the ended session: %v, want ErrUnavailable", err)
	}
	if rec := serve("POST", "/mcp/v1/tools/get_weather/execute?format=text", `{"arguments":{"city":"Bern"}}`); rec.Code != 200 || !strings.Contains(rec.Body.String(), "Bern") {
		t.Errorf("the next call: %d %s", rec.Code, rec.Body)
	}
	_ = b.Close()
	if _, err := b.Tools(context.Background()); !errors.Is(err, gosdkbackend.ErrClosed) {
		t.Errorf("after Close: %v, want ErrClosed", err)
	}
}
