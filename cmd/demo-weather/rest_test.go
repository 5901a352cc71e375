package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/internal/httpserve"
	"github.com/contentneg/contentneg/internal/serve"
	"github.com/contentneg/contentneg/internal/serve/servetest"
	"github.com/contentneg/contentneg/middleware/client"
)

type answer struct {
	status int
	header http.Header
	body   string
}

func call(t *testing.T, c *http.Client, method, url, accept, body string, header ...string) answer {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), servetest.Timeout)
	defer cancel()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, _ := http.NewRequestWithContext(ctx, method, url, r)
	if body != "" {
		req.Header.Set("Content-Type", "application/json") // a header may say otherwise
	}
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Errorf("%s %s: %v", method, url, err)
		return answer{}
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return answer{resp.StatusCode, resp.Header, string(b)}
}

func TestREST(t *testing.T) {
	base, _ := servetest.REST(t, app(), "-rest", "127.0.0.1:0")
	if !strings.HasSuffix(base, "/mcp/v1") {
		t.Fatalf("base URL %s", base)
	}
	c := http.DefaultClient
	got := call(t, c, "GET", base+"/tools", "", "")
	for _, tool := range []string{"get_weather", "get_forecast", "set_alert", "list_alerts"} {
		if !strings.Contains(got.body, `"id":"`+tool+`"`) {
			t.Errorf("GET /tools lacks %s: %s", tool, got.body)
		}
	}
	got = call(t, c, "POST", base+"/tools/get_weather/execute", "text/markdown", `{"arguments":{"city":"Bern"}}`)
	if got.status != 200 || !strings.HasPrefix(got.body, "**Bern, Switzerland**") {
		t.Errorf("markdown: %d %q", got.status, got.body)
	}
	// Equal quality: the server's order (markdown before text), not the
	// order the client listed them in.
	got = call(t, c, "POST", base+"/tools/get_weather/execute", "text/plain, text/markdown", `{"arguments":{"city":"Bern"}}`)
	if got.status != 200 || !strings.HasPrefix(got.header.Get("Content-Type"), "text/markdown") {
		t.Errorf("Accept: text/plain, text/markdown: %d %s", got.status, got.header.Get("Content-Type"))
	}
	// weather://cities, a resource of its own that weather://{city} also
	// matches, gets the generic renderings, not the template's.
	for _, accept := range []string{"text/markdown", "text/plain"} {
		got = call(t, c, "GET", base+"/resources/weather:%2F%2Fcities/content", accept, "")
		if got.status != 200 || !strings.HasPrefix(got.header.Get("Content-Type"), accept) || !strings.Contains(got.body, "weather://bern") {
			t.Errorf("weather://cities as %s: %d %s %q", accept, got.status, got.header.Get("Content-Type"), got.body)
		}
	}
}

func TestRESTBesideHTTP(t *testing.T) {
	base, mcpURL := servetest.REST(t, app(), "-http", "127.0.0.1:0", "-rest", "127.0.0.1:0")
	cs := servetest.HTTPSession(t, mcpURL, &client.Options{Settings: client.Declare("format=text")})
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "get_forecast", Arguments: map[string]any{"city": "Paris", "days": 2}})
	if err != nil || res.IsError {
		t.Fatalf("MCP over HTTP: %v %+v", err, res)
	}
	got := call(t, http.DefaultClient, "POST", base+"/tools/get_forecast/execute", "text/plain", `{"arguments":{"city":"Paris","days":2}}`)
	if got.status != 200 || got.body != res.Content[0].(*mcp.TextContent).Text {
		t.Errorf("REST beside HTTP: %d\nREST: %q\nMCP:  %q", got.status, got.body, res.Content[0].(*mcp.TextContent).Text)
	}
}

func TestRESTAPIKey(t *testing.T) {
	t.Setenv(serve.APIKeyEnv, "demo-key")
	base, _ := servetest.REST(t, app(), "-rest", "127.0.0.1:0")
	c := http.DefaultClient
	tests := []struct {
		name   string
		path   string
		header []string
		status int
	}{
		{"no key", "/tools", nil, 401},
		{"wrong key", "/tools", []string{"X-API-Key", "nope"}, 401},
		{"bearer", "/tools", []string{"Authorization", "Bearer demo-key"}, 200},
		{"X-API-Key", "/tools", []string{"X-API-Key", "demo-key"}, 200},
		{"capabilities are public", "/capabilities", nil, 200},
		{"openapi.json is public", "/openapi.json", nil, 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := call(t, c, "GET", base+tt.path, "text/plain", "", tt.header...)
			if got.status != tt.status {
				t.Errorf("status %d, want %d: %s", got.status, tt.status, got.body)
			}
			if tt.status == 401 && (got.header.Get("WWW-Authenticate") == "" || got.header.Get("Content-Type") != "application/json") {
				t.Errorf("401 headers: %v", got.header)
			}
		})
	}
}

// TestRESTConcurrent: 500 concurrent requests with mixed Accept headers,
// while a client sends its headers slowly: every body matches its own
// Accept, and nobody waits for the slow client.
func TestRESTConcurrent(t *testing.T) {
	base, _ := servetest.REST(t, app(), "-rest", "127.0.0.1:0")
	host := strings.TrimPrefix(strings.TrimSuffix(base, "/mcp/v1"), "http://")

	// The slow client: half a request, then nothing.
	dialed := time.Now()
	slow, err := net.Dial("tcp", host)
	if err != nil {
		t.Fatal(err)
	}
	defer slow.Close()
	if _, err := io.WriteString(slow, "POST /mcp/v1/tools/get_weather/execute HTTP/1.1\r\nHost: "+host+"\r\nContent-Type: application/json\r\nAccept: te"); err != nil {
		t.Fatal(err)
	}

	type kind struct {
		accept, ctype string
		status        int
		ok            func(string) bool
	}
	isJSON := func(b string) bool {
		var v struct {
			Status            string         `json:"status"`
			StructuredContent map[string]any `json:"structuredContent"`
		}
		return json.Unmarshal([]byte(b), &v) == nil && v.Status == "success" && v.StructuredContent["location"] != nil
	}
	kinds := []kind{
		{"", "application/json", 200, isJSON},
		{"*/*", "application/json", 200, isJSON},
		{"application/json", "application/json", 200, isJSON},
		{"text/markdown", "text/markdown; charset=utf-8", 200, func(b string) bool { return strings.HasPrefix(b, "**") && strings.Contains(b, "- Humidity:") }},
		{"text/plain", "text/plain; charset=utf-8", 200, func(b string) bool {
			return !strings.Contains(b, "**") && !strings.HasPrefix(b, "{") && strings.Contains(b, "umidity")
		}},
		{"text/markdown;q=0.3, text/plain;q=0.9", "text/plain; charset=utf-8", 200, func(b string) bool { return !strings.Contains(b, "**") && !strings.HasPrefix(b, "{") }},
		{"image/png", "application/json", 406, func(b string) bool { return strings.Contains(b, `"code":"NOT_ACCEPTABLE"`) }},
	}
	cities := []string{"Bern", "Tokyo", "Paris", "Lima", "Cairo"}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	defer client.CloseIdleConnections()
	var wg sync.WaitGroup
	var mu sync.Mutex
	failures := 0
	for i := range 500 {
		k, city := kinds[i%len(kinds)], cities[i%len(cities)]
		wg.Go(func() {
			got := call(t, client, "POST", base+"/tools/get_weather/execute", k.accept, fmt.Sprintf(`{"arguments":{"city":%q}}`, city))
			good := got.status == k.status && got.header.Get("Content-Type") == k.ctype && k.ok(got.body) &&
				(k.status != 200 || strings.Contains(got.body, city))
			if !good {
				mu.Lock()
				if failures++; failures <= 5 {
					t.Errorf("Accept %q, %s: %d %s\n%s", k.accept, city, got.status, got.header.Get("Content-Type"), got.body)
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if failures > 0 {
		t.Errorf("%d of 500 answers did not match their Accept", failures)
	}
	// The slow client is still served when it finally finishes, unless the
	// server gave up on it first: then, its read-header timeout past, it
	// closed the connection without a reply (net/http answers nothing to a
	// client that timed out in its headers).
	checkSlowClient(t, slow, time.Since(dialed), "xt/plain\r\nContent-Length: 29\r\nConnection: close\r\n\r\n{\"arguments\":{\"city\":\"Bern\"}}")
}

// checkSlowClient finishes the slow client's request with rest, elapsed
// after it connected, and requires one of the two documented outcomes: a
// 200 with the text/plain rendering of Bern's weather, or, only once the
// server's read-header timeout has passed, no reply at all (the write
// failing or the connection closed empty).
func checkSlowClient(t testing.TB, slow net.Conn, elapsed time.Duration, rest string) {
	t.Helper()
	_ = slow.SetDeadline(time.Now().Add(servetest.Timeout))
	_, werr := io.WriteString(slow, rest)
	var reply []byte
	var rerr error
	if werr == nil {
		reply, rerr = io.ReadAll(slow)
	}
	if len(reply) == 0 {
		if elapsed < httpserve.Bounded.ReadHeader {
			t.Errorf("the slow client got no reply (write: %v, read: %v) %v after it connected, before the server's read-header timeout of %v", werr, rerr, elapsed, httpserve.Bounded.ReadHeader)
		}
		return
	}
	res, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(reply)), nil)
	if err != nil {
		t.Fatalf("the slow client got %q: %v", reply, err)
	}
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "text/plain; charset=utf-8" ||
		!strings.Contains(string(body), "Bern") || !strings.Contains(string(body), "umidity") || strings.Contains(string(body), "**") {
		t.Errorf("the slow client got %d %s\n%s\nwant 200 with Bern's weather as text/plain", res.StatusCode, res.Header.Get("Content-Type"), body)
	}
}

func TestRESTOnMCPGo(t *testing.T) {
	// The same binary, the same REST tests, on the mcp-go server.
	t.Setenv(serve.SDKEnv, serve.SDKMCPGo)
	tests := []struct {
		name string
		test func(*testing.T)
	}{
		{"REST", TestREST},
		{"beside HTTP", TestRESTBesideHTTP},
		{"API key", TestRESTAPIKey},
		{"concurrent", TestRESTConcurrent},
	}
	for _, tt := range tests {
		t.Run(tt.name, tt.test)
	}
}

// A prompt argument the server rejects (a city it does not know, or none)
// is a 400 with the server's message, never a 500, on both SDKs.
func TestRESTPromptArgumentRejected(t *testing.T) {
	for _, sdk := range []string{serve.SDKGo, serve.SDKMCPGo} {
		t.Run(sdk, func(t *testing.T) {
			t.Setenv(serve.SDKEnv, sdk)
			base, _, stderr := servetest.RESTWithStderr(t, app(), "-rest", "127.0.0.1:0")
			tests := []struct{ body, holds string }{
				{`{"arguments":{"city":"Nowhere"}}`, `unknown city \"Nowhere\"`},
				{`{"arguments":{"city":""}}`, `needs the argument \"city\"`},
			}
			for _, tt := range tests {
				got := call(t, http.DefaultClient, "POST", base+"/prompts/plan_outfit/render", "", tt.body)
				if got.status != 400 || !strings.Contains(got.body, `"code":"INVALID_PARAMETER"`) || !strings.Contains(got.body, tt.holds) {
					t.Errorf("%s: %d %s; want 400 INVALID_PARAMETER holding %s", tt.body, got.status, got.body, tt.holds)
				}
			}
			// The client's mistake is not the server's error: no log line
			// (at the demo's level, warnings and errors) holds its input.
			if log := stderr.String(); strings.Contains(log, "Nowhere") {
				t.Errorf("the log holds the client's input:\n%s", log)
			}
		})
	}
}
