package rest_test

import (
	"encoding/json"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/contentneg/contentneg/rest"
)

// FuzzHandler sends arbitrary paths, queries, Accept headers and bodies:
// the handler never panics, every error is the seed's JSON body, and every
// answer carries Vary and X-Request-ID.
func FuzzHandler(f *testing.F) {
	seeds := []struct{ method, path, query, accept, body string }{
		{"POST", "/mcp/v1/tools/echo/execute", "fields=city", "text/markdown;q=0.2, */*;q=0.1", `{"arguments":{"city":"Bern"}}`},
		{"GET", "/mcp/v1/tools", "limit=2&cursor=eyJhZnRlciI6ImVjaG8ifQ", "application/json;version=\"x,y\"", ""},
		{"GET", "/mcp/v1/resources/data:%2F%2Fbig/content", "format=text", "text/*", ""},
		{"POST", "/mcp/v1/prompts/greet/render", "", "", `{"arguments":{"name":5}}`},
		{"PUT", "/mcp/v1/resources/x", "fields=a..b", "a/b;;;q=x", `{"arguments":`},
	}
	for _, s := range seeds {
		f.Add(s.method, s.path, s.query, s.accept, s.body)
	}
	h, _ := newTestHandler(&testing.T{})
	f.Fuzz(func(t *testing.T, method, path, query, accept, body string) {
		switch method {
		case "GET", "HEAD", "POST", "PUT", "DELETE", "PATCH":
		default:
			return
		}
		u := &url.URL{Path: "/" + strings.TrimLeft(path, "/"), RawQuery: query}
		req := httptest.NewRequest(method, "/", strings.NewReader(body))
		req.URL, req.RequestURI = u, u.RequestURI()
		req.Header.Set("Accept", accept)
		got := viaRecorder(t, h, req)
		if got.header.Get("X-Request-ID") == "" || got.header.Get("Vary") == "" {
			t.Errorf("headers %v", got.header)
		}
		if got.status >= 400 && method != "HEAD" {
			var e rest.Error
			if err := json.Unmarshal([]byte(got.body), &e); err != nil || e.Status != got.status {
				t.Errorf("%d: error body %q (%v)", got.status, got.body, err)
			}
		}
	})
}
