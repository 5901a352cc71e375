package rest_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/contentneg/contentneg/rest"
	"github.com/contentneg/contentneg/rest/resttest"
)

// response is what a test sees of one answer.
type response struct {
	status int
	header http.Header
	body   string
}

// via runs a request through the handler directly (a recorder) or over a
// real listener.
type via func(t *testing.T, h http.Handler, req *http.Request) response

func viaRecorder(t *testing.T, h http.Handler, req *http.Request) response {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return response{rec.Code, rec.Header(), rec.Body.String()}
}

func viaListener(t *testing.T, h http.Handler, req *http.Request) response {
	t.Helper()
	srv := httptest.NewServer(h)
	defer srv.Close()
	req.URL.Scheme, req.URL.Host, req.RequestURI, req.Host = "http", srv.Listener.Addr().String(), "", ""
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return response{resp.StatusCode, resp.Header, string(body)}
}

var vias = map[string]via{"recorder": viaRecorder, "listener": viaListener}

type exchange struct {
	name    string
	method  string
	path    string
	header  map[string]string
	body    string
	status  int
	ctype   string   // the Content-Type's media type ("" for none)
	has     []string // substrings the body must hold
	hasNot  []string
	headers map[string]string // headers the response must carry
}

func newRequest(x exchange) *http.Request {
	var body io.Reader
	if x.body != "" {
		body = strings.NewReader(x.body)
	}
	req := httptest.NewRequest(x.method, x.path, body)
	if x.method == http.MethodPost {
		req.Header.Set("Content-Type", "application/json") // a header may say otherwise
	}
	for k, v := range x.header {
		req.Header.Set(k, v)
	}
	return req
}

func check(t *testing.T, x exchange, got response) {
	t.Helper()
	if got.status != x.status {
		t.Errorf("status %d, want %d; body %s", got.status, x.status, got.body)
	}
	ct, _, _ := strings.Cut(got.header.Get("Content-Type"), ";")
	if ct != x.ctype {
		t.Errorf("Content-Type %q, want %q", got.header.Get("Content-Type"), x.ctype)
	}
	for _, s := range x.has {
		if !strings.Contains(got.body, s) {
			t.Errorf("body lacks %q:\n%s", s, got.body)
		}
	}
	for _, s := range x.hasNot {
		if strings.Contains(got.body, s) {
			t.Errorf("body holds %q:\n%s", s, got.body)
		}
	}
	for k, v := range x.headers {
		if g := got.header.Get(k); g != v {
			t.Errorf("header %s = %q, want %q", k, g, v)
		}
	}
	resttest.CheckResponse(t, x.method, resttest.Response{Status: got.status, Header: got.header, Body: got.body})
}

const echo = "/mcp/v1/tools/echo/execute"

func TestEndpointsAndStatuses(t *testing.T) {
	tests := []exchange{
		// Discovery.
		{name: "capabilities", method: "GET", path: "/mcp/v1/capabilities", status: 200, ctype: "application/json",
			has: []string{`"serverInfo":{"name":"fake","version":"1.2.3","protocolVersion":"2026-07-28"}`, `"capabilities":{"tools":{}}`, `"instructions":"Test server."`, `"tools":{"href":"/mcp/v1/tools"}`, `{"format":"markdown","mediaType":"text/markdown"}`}},
		{name: "the base path is the capabilities", method: "GET", path: "/mcp/v1/", status: 200, ctype: "application/json", has: []string{`"serverInfo"`}},
		{name: "capabilities as markdown", method: "GET", path: "/mcp/v1/capabilities", header: map[string]string{"Accept": "text/markdown"}, status: 200, ctype: "text/markdown", has: []string{"fake"}},
		{name: "openapi", method: "GET", path: "/mcp/v1/openapi.json", status: 200, ctype: "application/json", has: []string{`"openapi":"3.1.0"`, `"/tools/echo/execute"`}},

		// Tools.
		{name: "list tools", method: "GET", path: "/mcp/v1/tools", status: 200, ctype: "application/json",
			has:    []string{`"tools":[{"id":"ask"`, `"execute":{"href":"/mcp/v1/tools/echo/execute","method":"POST"}`, `"schema":{"href":"/mcp/v1/tools/echo/schema"}`, `"self":{"href":"/mcp/v1/tools/echo"}`, `"_links":{"self":{"href":"/mcp/v1/tools"}}`},
			hasNot: []string{"nextCursor"}},
		{name: "list tools, first page", method: "GET", path: "/mcp/v1/tools?limit=2", status: 200, ctype: "application/json",
			has: []string{`"id":"ask"`, `"id":"echo"`, `"nextCursor":"eyJhZnRlciI6ImVjaG8ifQ"`, `"next":{"href":"/mcp/v1/tools?cursor=eyJhZnRlciI6ImVjaG8ifQ&limit=2"}`}, hasNot: []string{`"id":"fail"`}},
		{name: "list tools, second page", method: "GET", path: "/mcp/v1/tools?limit=2&cursor=eyJhZnRlciI6ImVjaG8ifQ", status: 200, ctype: "application/json",
			has: []string{`"id":"fail"`, `"id":"slow"`}, hasNot: []string{`"id":"echo"`}},
		{name: "list tools, last page", method: "GET", path: "/mcp/v1/tools?limit=10&cursor=eyJhZnRlciI6ImVjaG8ifQ", status: 200, ctype: "application/json",
			has: []string{`"id":"t6"`}, hasNot: []string{"nextCursor", `"next"`}},
		{name: "list tools, fields", method: "GET", path: "/mcp/v1/tools?fields=name,description", status: 200, ctype: "application/json",
			has: []string{`{"name":"echo","description":"echoes its arguments"}`}, hasNot: []string{"inputSchema"}},
		{name: "list tools, unknown field", method: "GET", path: "/mcp/v1/tools?fields=name,colour", status: 400, ctype: "application/json",
			has: []string{`"code":"INVALID_PARAMETER"`, `unknown field \"colour\"`}},
		{name: "list tools, bad limit", method: "GET", path: "/mcp/v1/tools?limit=0", status: 400, ctype: "application/json",
			has: []string{`"field":"limit"`}},
		{name: "list tools, bad limit and cursor", method: "GET", path: "/mcp/v1/tools?limit=x&cursor=!!", status: 400, ctype: "application/json",
			has: []string{`"field":"limit"`, `"field":"cursor"`}},
		{name: "list tools as text", method: "GET", path: "/mcp/v1/tools", header: map[string]string{"Accept": "text/plain"}, status: 200, ctype: "text/plain", has: []string{"echoes its arguments"}, hasNot: []string{"**"}},
		{name: "tool", method: "GET", path: "/mcp/v1/tools/echo", status: 200, ctype: "application/json",
			has: []string{`"id":"echo"`, `"inputSchema":{"type":"object"`, `"schema":{"href":"/mcp/v1/tools/echo/schema"}`}},
		{name: "tool, fields", method: "GET", path: "/mcp/v1/tools/echo?fields=inputSchema.required,title", status: 200, ctype: "application/json",
			has: []string{`{"inputSchema":{"required":["city"]},"title":"Echo"}`}},
		{name: "tool, unknown field", method: "GET", path: "/mcp/v1/tools/echo?fields=nope", status: 400, ctype: "application/json"},
		{name: "tool, invalid field", method: "GET", path: "/mcp/v1/tools/echo?fields=a|b", status: 400, ctype: "application/json", has: []string{"not a field path"}},
		{name: "unknown tool", method: "GET", path: "/mcp/v1/tools/nope", status: 404, ctype: "application/json", has: []string{`"code":"NOT_FOUND"`}},
		{name: "schema", method: "GET", path: "/mcp/v1/tools/echo/schema", status: 200, ctype: "application/json", has: []string{`"required":["city"]`}, hasNot: []string{"_links"}},
		{name: "schema of an unknown tool", method: "GET", path: "/mcp/v1/tools/nope/schema", status: 404, ctype: "application/json"},

		// Execute.
		{name: "execute, no Accept", method: "POST", path: echo, body: `{"arguments":{"city":"Bern"}}`, status: 200, ctype: "application/json",
			has:     []string{`"status":"success"`, `"id":"exec-`, `"content":[{"text":"{\"city\":\"Bern\",\"nested\":{\"a\":1}}","type":"text"}]`, `"structuredContent":{"city":"Bern","nested":{"a":1}}`, `"self":{"href":"/mcp/v1/tools/echo/execute","method":"POST"}`},
			headers: map[string]string{"Cache-Control": "no-store"}},
		{name: "execute, */*", method: "POST", path: echo, header: map[string]string{"Accept": "*/*"}, body: `{"arguments":{"city":"Bern"}}`, status: 200, ctype: "application/json"},
		{name: "execute as markdown", method: "POST", path: echo, header: map[string]string{"Accept": "text/markdown"}, body: `{"arguments":{"city":"Bern"}}`, status: 200, ctype: "text/markdown",
			has: []string{`markdown:{"city":"Bern"}`}, hasNot: []string{"status"}},
		{name: "execute as text", method: "POST", path: echo, header: map[string]string{"Accept": "text/plain"}, body: `{"arguments":{"city":"Bern"}}`, status: 200, ctype: "text/plain", has: []string{`text:{"city":"Bern"}`}},
		{name: "q-values choose text over markdown", method: "POST", path: echo, header: map[string]string{"Accept": "text/markdown;q=0.5, text/plain;q=0.9"}, body: `{"arguments":{"city":"Bern"}}`, status: 200, ctype: "text/plain"},
		{name: "q=0 excludes", method: "POST", path: echo, header: map[string]string{"Accept": "application/json;q=0, */*;q=0.1"}, body: `{"arguments":{"city":"Bern"}}`, status: 200, ctype: "text/markdown"},
		{name: "specific beats a range", method: "POST", path: echo, header: map[string]string{"Accept": "text/*;q=0.9, text/markdown;q=0.1"}, body: `{"arguments":{"city":"Bern"}}`, status: 200, ctype: "text/plain"},
		{name: "equal q: the server's order, not the client's", method: "POST", path: echo, header: map[string]string{"Accept": "text/plain, text/markdown"}, body: `{"arguments":{"city":"Bern"}}`, status: 200, ctype: "text/markdown"},
		{name: "an Accept longer than any client sends", method: "POST", path: echo, header: map[string]string{"Accept": strings.Repeat("text/plain, ", 1000) + "text/plain"}, body: `{"arguments":{"city":"Bern"}}`, status: 406, ctype: "application/json"},
		{name: "format overrides Accept", method: "POST", path: echo + "?format=markdown", header: map[string]string{"Accept": "text/plain"}, body: `{"arguments":{"city":"Bern"}}`, status: 200, ctype: "text/markdown"},
		{name: "unknown format", method: "POST", path: echo + "?format=xml", body: `{"arguments":{"city":"Bern"}}`, status: 400, ctype: "application/json", has: []string{`"field":"format"`}},
		{name: "406 lists what is available", method: "POST", path: echo, header: map[string]string{"Accept": "image/png"}, body: `{"arguments":{"city":"Bern"}}`, status: 406, ctype: "application/json",
			has: []string{`"code":"NOT_ACCEPTABLE"`, `{"mediaType":"application/json","format":"json"}`, `{"mediaType":"text/markdown","format":"markdown"}`, `{"mediaType":"text/plain","format":"text"}`}},
		{name: "execute, fields", method: "POST", path: echo + "?fields=nested.a,city", body: `{"arguments":{"city":"Bern"}}`, status: 200, ctype: "application/json",
			has: []string{`"structuredContent":{"nested":{"a":1},"city":"Bern"}`}, hasNot: []string{`"content"`}},
		{name: "execute, unknown field", method: "POST", path: echo + "?fields=nested.b", body: `{"arguments":{"city":"Bern"}}`, status: 400, ctype: "application/json", has: []string{`unknown field \"nested.b\"`}},
		{name: "execute, fields ignored for text", method: "POST", path: echo + "?fields=nested.b&format=text", body: `{"arguments":{"city":"Bern"}}`, status: 200, ctype: "text/plain"},
		{name: "400 per invalid field", method: "POST", path: echo, body: `{"arguments":{"days":9,"colour":"red"}}`, status: 400, ctype: "application/json",
			has: []string{`"code":"INVALID_PARAMETER"`, `{"field":"city","error":"required"}`, `"field":"colour"`, `{"field":"days","error":"maximum: 9 is greater than 7"}`}},
		{name: "a bound with decimals", method: "POST", path: echo, body: `{"arguments":{"city":"Bern","days":0.5}}`, status: 400, ctype: "application/json",
			has: []string{`"field":"days"`}, hasNot: []string{"000000", "/1 "}},
		{name: "wrong type", method: "POST", path: echo, body: `{"arguments":{"city":5}}`, status: 400, ctype: "application/json", has: []string{`"field":"city"`}},
		{name: "arguments not an object", method: "POST", path: echo, body: `{"arguments":[1]}`, status: 400, ctype: "application/json", has: []string{`{"field":"arguments","error":"must be a JSON object"}`}},
		{name: "body not an object", method: "POST", path: echo, body: `[1]`, status: 400, ctype: "application/json", has: []string{`"field":"body"`}},
		{name: "body not JSON", method: "POST", path: echo, body: `city=Bern`, status: 400, ctype: "application/json", has: []string{`"field":"body"`}},
		{name: "body with trailing data", method: "POST", path: echo, body: `{"arguments":{"city":"Bern"}} {}`, status: 400, ctype: "application/json"},
		{name: "unknown member", method: "POST", path: echo, body: `{"arguments":{"city":"Bern"},"args":{}}`, status: 400, ctype: "application/json", has: []string{`"field":"args"`}},
		{name: "no body, missing required", method: "POST", path: echo, status: 400, ctype: "application/json", has: []string{`{"field":"city","error":"required"}`}},
		{name: "no body, no schema", method: "POST", path: "/mcp/v1/tools/t1/execute", status: 200, ctype: "application/json"},
		{name: "413", method: "POST", path: echo, body: `{"arguments":{"city":"` + strings.Repeat("x", 1<<20) + `"}}`, status: 413, ctype: "application/json", has: []string{`"code":"PAYLOAD_TOO_LARGE"`}},
		{name: "422 for a tool error", method: "POST", path: "/mcp/v1/tools/fail/execute", body: `{}`, status: 422, ctype: "application/json", has: []string{`"code":"TOOL_ERROR"`, `"message":"the city is closed"`}},
		{name: "422 for input the client cannot give", method: "POST", path: "/mcp/v1/tools/ask/execute", body: `{}`, status: 422, ctype: "application/json", has: []string{`"code":"INPUT_REQUIRED"`}},
		{name: "execute an unknown tool", method: "POST", path: "/mcp/v1/tools/nope/execute", body: `{}`, status: 404, ctype: "application/json"},
		{name: "errors are JSON under Accept: text/plain", method: "POST", path: "/mcp/v1/tools/fail/execute", header: map[string]string{"Accept": "text/plain"}, body: `{}`, status: 422, ctype: "application/json"},

		// Resources.
		{name: "list resources", method: "GET", path: "/mcp/v1/resources", status: 200, ctype: "application/json",
			has: []string{`"id":"data://big"`, `"content":{"href":"/mcp/v1/resources/data:%2F%2Fbig/content"}`, `"resourceTemplates":[{"uriTemplate":"data://item/{n}"`, `"templated":true`}},
		{name: "list resources, second page has no templates", method: "GET", path: "/mcp/v1/resources?limit=1&cursor=eyJhZnRlciI6ImRhdGE6Ly9iaWcifQ", status: 200, ctype: "application/json",
			has: []string{`"id":"data://img"`}, hasNot: []string{"resourceTemplates", `"id":"data://big"`}},
		{name: "resource", method: "GET", path: "/mcp/v1/resources/data:%2F%2Fbig", status: 200, ctype: "application/json", has: []string{`"size":1000`, `"self":{"href":"/mcp/v1/resources/data:%2F%2Fbig"}`}},
		{name: "resource of a template", method: "GET", path: "/mcp/v1/resources/data:%2F%2Fitem%2F7", status: 200, ctype: "application/json", has: []string{`"uri":"data://item/7"`, `"mimeType":"application/json"`}},
		{name: "resource of a template, missing", method: "GET", path: "/mcp/v1/resources/data:%2F%2Fitem%2F404", status: 404, ctype: "application/json"},
		{name: "unknown resource", method: "GET", path: "/mcp/v1/resources/nope:%2F%2Fx", status: 404, ctype: "application/json"},
		{name: "content", method: "GET", path: "/mcp/v1/resources/data:%2F%2Fbig/content", header: map[string]string{"Accept": "text/plain"}, status: 200, ctype: "text/plain", has: []string{bigText},
			headers: map[string]string{"Accept-Ranges": "bytes", "Last-Modified": "Tue, 12 May 2026 13:45:00 GMT", "Content-Length": "1000"}},
		{name: "content, 206 on a Range", method: "GET", path: "/mcp/v1/resources/data:%2F%2Fbig/content", header: map[string]string{"Range": "bytes=10-19"}, status: 206, ctype: "text/plain",
			headers: map[string]string{"Content-Range": "bytes 10-19/1000", "Content-Length": "10"}},
		{name: "content, 416 as JSON", method: "GET", path: "/mcp/v1/resources/data:%2F%2Fbig/content", header: map[string]string{"Range": "bytes=5000-"}, status: 416, ctype: "application/json", has: []string{`"code":"RANGE_NOT_SATISFIABLE"`}},
		{name: "content, 304 on If-Modified-Since", method: "GET", path: "/mcp/v1/resources/data:%2F%2Fbig/content", header: map[string]string{"If-Modified-Since": "Tue, 12 May 2026 14:00:00 GMT"}, status: 304, ctype: ""},
		{name: "content, modified since", method: "GET", path: "/mcp/v1/resources/data:%2F%2Fbig/content", header: map[string]string{"If-Modified-Since": "Tue, 12 May 2026 13:00:00 GMT"}, status: 200, ctype: "text/plain"},
		{name: "content rendered as markdown", method: "GET", path: "/mcp/v1/resources/data:%2F%2Fjson/content", header: map[string]string{"Accept": "text/markdown"}, status: 200, ctype: "text/markdown", has: []string{"markdown of data://json"}},
		{name: "content of a template", method: "GET", path: "/mcp/v1/resources/data:%2F%2Fitem%2F3/content?format=text", status: 200, ctype: "text/plain", has: []string{"text of data://item/3"}},
		{name: "blob content", method: "GET", path: "/mcp/v1/resources/data:%2F%2Fimg/content", status: 200, ctype: "image/png", has: []string{"PNG"}},
		{name: "blob content not acceptable", method: "GET", path: "/mcp/v1/resources/data:%2F%2Fimg/content", header: map[string]string{"Accept": "application/json"}, status: 406, ctype: "application/json", has: []string{`"mediaType":"image/png"`}},
		{name: "content of an unknown resource", method: "GET", path: "/mcp/v1/resources/nope:%2F%2Fx/content", status: 404, ctype: "application/json"},

		// Prompts.
		{name: "list prompts", method: "GET", path: "/mcp/v1/prompts", status: 200, ctype: "application/json",
			has: []string{`"id":"greet"`, `"render":{"href":"/mcp/v1/prompts/greet/render","method":"POST"}`, `{"name":"name","required":true}`}},
		{name: "prompt", method: "GET", path: "/mcp/v1/prompts/greet", status: 200, ctype: "application/json", has: []string{`"description":"a greeting"`}},
		{name: "unknown prompt", method: "GET", path: "/mcp/v1/prompts/nope", status: 404, ctype: "application/json"},
		{name: "render", method: "POST", path: "/mcp/v1/prompts/greet/render", body: `{"arguments":{"name":"Ada"}}`, status: 200, ctype: "application/json",
			has: []string{`"messages":[{"content":{"text":"Hello, Ada (json)","type":"text"},"role":"user"}]`, `"prompt":{"href":"/mcp/v1/prompts/greet"}`}},
		{name: "render as text", method: "POST", path: "/mcp/v1/prompts/greet/render", header: map[string]string{"Accept": "text/plain"}, body: `{"arguments":{"name":"Ada"}}`, status: 200, ctype: "text/plain", has: []string{"Hello, Ada (text)"}},
		{name: "render, bad arguments", method: "POST", path: "/mcp/v1/prompts/greet/render", body: `{"arguments":{"tone":5,"mood":"x"}}`, status: 400, ctype: "application/json",
			has: []string{`{"field":"mood","error":"the prompt takes no such argument"}`, `{"field":"name","error":"required"}`, `{"field":"tone","error":"must be a string"}`}},
		{name: "render an unknown prompt", method: "POST", path: "/mcp/v1/prompts/nope/render", body: `{}`, status: 404, ctype: "application/json"},

		// What MCP cannot express.
		{name: "create a resource", method: "POST", path: "/mcp/v1/resources", body: `{"name":"x"}`, status: 501, ctype: "application/json", has: []string{`"code":"NOT_IMPLEMENTED"`, "creates a resource"}},
		{name: "update a resource", method: "PUT", path: "/mcp/v1/resources/data:%2F%2Fbig", body: `{}`, status: 501, ctype: "application/json", has: []string{"changes a resource"}},
		{name: "subscribe", method: "POST", path: "/mcp/v1/subscriptions", body: `{}`, status: 501, ctype: "application/json", has: []string{"subscriptions"}},
		{name: "subscription events", method: "GET", path: "/mcp/v1/subscriptions/sub1/events", status: 501, ctype: "application/json"},
		{name: "sampling", method: "POST", path: "/mcp/v1/sampling/messages", body: `{}`, status: 501, ctype: "application/json", has: []string{"sampling"}},
		{name: "logging level", method: "POST", path: "/mcp/v1/logging/level", body: `{}`, status: 501, ctype: "application/json", has: []string{"logging"}},
		{name: "logging stream", method: "GET", path: "/mcp/v1/logging/stream", status: 501, ctype: "application/json"},

		// Methods and paths.
		{name: "405", method: "DELETE", path: "/mcp/v1/tools", status: 405, ctype: "application/json", has: []string{`"code":"METHOD_NOT_ALLOWED"`}, headers: map[string]string{"Allow": "GET, HEAD"}},
		{name: "405 on execute", method: "GET", path: echo, status: 405, ctype: "application/json", headers: map[string]string{"Allow": "POST"}},
		{name: "404 outside the base path", method: "GET", path: "/other/tools", status: 404, ctype: "application/json"},
		{name: "404 for an unknown endpoint", method: "GET", path: "/mcp/v1/tools/echo/nope", status: 404, ctype: "application/json"},
		{name: "404 for a prefix of the base path", method: "GET", path: "/mcp/v10/tools", status: 404, ctype: "application/json"},
	}
	h, _ := newTestHandler(t)
	for name, do := range vias {
		for _, tt := range tests {
			t.Run(name+"/"+tt.name, func(t *testing.T) {
				check(t, tt, do(t, h, newRequest(tt)))
			})
		}
	}
}

func TestConditionalGETs(t *testing.T) {
	h, _ := newTestHandler(t)
	for name, do := range vias {
		for _, path := range []string{"/mcp/v1/tools", "/mcp/v1/tools/echo", "/mcp/v1/capabilities", "/mcp/v1/resources/data:%2F%2Fjson/content", "/mcp/v1/openapi.json"} {
			t.Run(name+path, func(t *testing.T) {
				first := do(t, h, httptest.NewRequest("GET", path, nil))
				tag := first.header.Get("ETag")
				if first.status != 200 || !strings.HasPrefix(tag, `"`) {
					t.Fatalf("status %d, ETag %q", first.status, tag)
				}
				req := httptest.NewRequest("GET", path, nil)
				req.Header.Set("If-None-Match", tag)
				if got := do(t, h, req); got.status != 304 || got.body != "" {
					t.Errorf("If-None-Match with the ETag: %d %q, want 304", got.status, got.body)
				}
				req = httptest.NewRequest("GET", path, nil)
				req.Header.Set("If-None-Match", `"other"`)
				if got := do(t, h, req); got.status != 200 || got.body != first.body {
					t.Errorf("If-None-Match with another tag: %d", got.status)
				}
				// Another rendering is another entity: another tag.
				req = httptest.NewRequest("GET", path, nil)
				req.Header.Set("Accept", "text/plain")
				if got := do(t, h, req); got.status == 200 && got.header.Get("ETag") == tag && path != "/mcp/v1/openapi.json" {
					t.Errorf("text/plain has the JSON's ETag %s", tag)
				}
			})
		}
	}
}

// TestRequestIDWithALineBreak: an X-Request-ID that no HTTP client sends
// (a line break) is replaced by a fresh one; the rest of X-Request-ID is in
// the suite's "request id" (TestSuite).
func TestRequestIDWithALineBreak(t *testing.T) {
	h, _ := newTestHandler(t)
	req := httptest.NewRequest("GET", "/mcp/v1/tools", nil)
	req.Header["X-Request-Id"] = []string{"line\nbreak"}
	if got := viaRecorder(t, h, req).header.Get("X-Request-ID"); got == "" || strings.Contains(got, "break") {
		t.Errorf("X-Request-ID came back as %q, want a fresh one", got)
	}
}

func TestDeclaresTheFormatAndNotInteractive(t *testing.T) {
	tests := []struct {
		accept string
		want   []string
	}{
		{"", []string{"format=json", "!interactive"}},
		{"text/markdown", []string{"format=markdown", "!interactive"}},
		{"text/plain", []string{"format=text", "!interactive"}},
	}
	h, f := newTestHandler(t)
	for _, tt := range tests {
		req := postJSON(echo, strings.NewReader(`{"arguments":{"city":"Bern"}}`))
		req.Header.Set("Accept", tt.accept)
		viaRecorder(t, h, req)
		if got := f.lastDeclared(); strings.Join(got, " ") != strings.Join(tt.want, " ") {
			t.Errorf("Accept %q declared %v, want %v", tt.accept, got, tt.want)
		}
	}
}

func TestTimeoutAndBackendFailure(t *testing.T) {
	f := newFake()
	h := rest.New(f, &rest.Options{BasePath: "/mcp/v1", CallTimeout: 50 * time.Millisecond})
	got := viaRecorder(t, h, postJSON("/mcp/v1/tools/slow/execute", strings.NewReader(`{}`)))
	if got.status != http.StatusGatewayTimeout || !strings.Contains(got.body, `"code":"TIMEOUT"`) {
		t.Errorf("slow tool: %d %s", got.status, got.body)
	}
	got = viaRecorder(t, rest.New(unavailable{f}, nil), postJSON("/tools/echo/execute", strings.NewReader(`{"arguments":{"city":"Bern"}}`)))
	if got.status != http.StatusServiceUnavailable || !strings.Contains(got.body, `"code":"UNAVAILABLE"`) {
		t.Errorf("ended session: %d %s", got.status, got.body)
	}
	h = rest.New(failing{f}, nil)
	got = viaRecorder(t, h, httptest.NewRequest("GET", "/tools", nil))
	if got.status != 500 || !strings.Contains(got.body, `"code":"INTERNAL_ERROR"`) || strings.Contains(got.body, "connection lost") {
		t.Errorf("failing backend: %d %s (the cause is for the log, not the client)", got.status, got.body)
	}
}

func TestHEAD(t *testing.T) {
	h, _ := newTestHandler(t)
	get := viaListener(t, h, httptest.NewRequest("GET", "/mcp/v1/tools", nil))
	head := viaListener(t, h, httptest.NewRequest("HEAD", "/mcp/v1/tools", nil))
	if head.status != 200 || head.body != "" || head.header.Get("ETag") != get.header.Get("ETag") {
		t.Errorf("HEAD: %d %q ETag %q vs %q", head.status, head.body, head.header.Get("ETag"), get.header.Get("ETag"))
	}
}

func TestRequireAPIKey(t *testing.T) {
	secured := rest.New(newFake(), &rest.Options{BasePath: "/mcp/v1", CallTimeout: 5 * time.Second, APIKey: "s3cret"})
	tests := []struct {
		name   string
		path   string
		header map[string]string
		status int
	}{
		{"no key", "/mcp/v1/tools", nil, 401},
		{"wrong bearer", "/mcp/v1/tools", map[string]string{"Authorization": "Bearer nope"}, 401},
		{"a prefix of the key", "/mcp/v1/tools", map[string]string{"X-API-Key": "s3cre"}, 401},
		{"bearer", "/mcp/v1/tools", map[string]string{"Authorization": "Bearer s3cret"}, 200},
		{"bearer, any case", "/mcp/v1/tools", map[string]string{"Authorization": "bearer s3cret"}, 200},
		{"X-API-Key", "/mcp/v1/tools", map[string]string{"X-API-Key": "s3cret"}, 200},
		{"capabilities are public", "/mcp/v1/capabilities", nil, 200},
		{"openapi.json is public", "/mcp/v1/openapi.json", nil, 200},
		{"the rest is not", "/mcp/v1/resources/data:%2F%2Fbig/content", nil, 401},
		{"an escaped public path is public", "/mcp/v1/%63apabilities", nil, 200},
		{"a path that only decodes to a public one is not", "/mcp/v1/tools%2F..%2Fcapabilities", nil, 401},
		{"the base path is not public", "/mcp/v1/", nil, 401},
	}
	for name, do := range vias {
		for _, tt := range tests {
			t.Run(name+"/"+tt.name, func(t *testing.T) {
				x := exchange{method: "GET", path: tt.path, header: tt.header, status: tt.status, ctype: "application/json"}
				if tt.path == "/mcp/v1/resources/data:%2F%2Fbig/content" && tt.status == 200 {
					x.ctype = "text/plain"
				}
				got := do(t, secured, newRequest(x))
				check(t, x, got)
				if tt.status == 401 && got.header.Get("WWW-Authenticate") == "" {
					t.Error("401 without WWW-Authenticate")
				}
			})
		}
	}
	if !rest.IsBinding(rest.New(newFake(), &rest.Options{BasePath: "/mcp/v1", APIKey: ""})) {
		t.Error("an empty key does not leave the handler as it is")
	}
}

func TestNoBasePath(t *testing.T) {
	h := rest.New(newFake(), nil)
	got := viaRecorder(t, h, httptest.NewRequest("GET", "/tools/echo", nil))
	if got.status != 200 || !strings.Contains(got.body, `"execute":{"href":"/tools/echo/execute"`) {
		t.Errorf("%d %s", got.status, got.body)
	}
}

func TestUnicodeAndEscapedIDs(t *testing.T) {
	h, _ := newTestHandler(t)
	got := viaRecorder(t, h, httptest.NewRequest("GET", "/mcp/v1/tools/ec%2Fho", nil))
	if got.status != 404 || !strings.Contains(got.body, `no tool named \"ec/ho\"`) {
		t.Errorf("an escaped slash: %d %s", got.status, got.body)
	}
	var body bytes.Buffer
	body.WriteString(`{"arguments":{"city":"Zürich"}}`)
	got = viaRecorder(t, h, postJSON(echo+"?format=text", &body))
	if got.body != `text:{"city":"Zürich"}` {
		t.Errorf("the rendering is not passed on as it is: %q", got.body)
	}
}

func TestVersionInAccept(t *testing.T) {
	tests := []struct {
		accept string
		ctype  string
	}{
		{"application/json;version=2024-11-05", "application/json"},
		{"text/plain; version=2024-11-05; charset=utf-8", "text/plain"},
		{`text/markdown;version="a,b;c", application/json;q=0.1`, "text/markdown"},
		{"application/json;VERSION=1;q=0.2, text/plain;q=0.1", "application/json"},
	}
	h, _ := newTestHandler(t)
	for _, tt := range tests {
		req := postJSON(echo, strings.NewReader(`{"arguments":{"city":"Bern"}}`))
		req.Header.Set("Accept", tt.accept)
		got := viaRecorder(t, h, req)
		if ct, _, _ := strings.Cut(got.header.Get("Content-Type"), ";"); got.status != 200 || ct != tt.ctype {
			t.Errorf("Accept %q: %d %s, want %s", tt.accept, got.status, got.header.Get("Content-Type"), tt.ctype)
		}
	}
}

// TestVanishedClientEndsTheCall: a client that goes away ends its call to
// the backend; nothing waits for the timeout.
func TestVanishedClientEndsTheCall(t *testing.T) {
	f := newFake()
	h := rest.New(f, &rest.Options{BasePath: "/mcp/v1", CallTimeout: time.Hour})
	srv := httptest.NewServer(h)
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "POST", srv.URL+"/mcp/v1/tools/slow/execute", strings.NewReader(`{}`))
	req.Header.Set("Content-Type", "application/json")
	errc := make(chan error, 1)
	go func() {
		resp, err := srv.Client().Do(req)
		if err == nil {
			resp.Body.Close()
		}
		errc <- err
	}()
	for f.lastDeclared() == nil { // the call has reached the backend
		time.Sleep(time.Millisecond)
	}
	cancel()
	if err := <-f.slowDone; !errors.Is(err, context.Canceled) {
		t.Errorf("the call ended with %v, want context.Canceled", err)
	}
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Errorf("the client got %v", err)
	}
}
