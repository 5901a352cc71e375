package rest_test

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/contentneg/contentneg/rest"
)

// browser is the headers a browser sends with fetch(url, {method: "POST",
// mode: "no-cors", headers: {"Content-Type": ct}, body}) from a page of
// origin (Chromium's, header for header): a "simple" request, sent without
// a preflight, whose answer the page cannot read but whose effect happens.
func browser(origin, site, ct string) map[string]string {
	h := map[string]string{
		"Accept":          "*/*",
		"Accept-Language": "en-US,en;q=0.9",
		"Sec-Fetch-Dest":  "empty",
		"Sec-Fetch-Mode":  "no-cors",
		"User-Agent":      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
	}
	if origin != "" {
		h["Origin"] = origin
	}
	if site != "" {
		h["Sec-Fetch-Site"] = site
	}
	if ct != "" {
		h["Content-Type"] = ct
	}
	return h
}

// formPost is the headers of a real HTML form's submission (a navigation).
func formPost(origin, site string) map[string]string {
	h := browser(origin, site, "application/x-www-form-urlencoded")
	h["Sec-Fetch-Mode"], h["Sec-Fetch-Dest"], h["Accept"] = "navigate", "document", "text/html"
	return h
}

// TestCrossSiteRequests: a POST that runs something (a tool, a prompt) is
// refused with 403 and the error body, without reaching the backend,
// unless its body is application/json and no browser says it comes from a
// page of another origin (contract section 8, "Cross-site requests").
func TestCrossSiteRequests(t *testing.T) {
	const (
		evil    = "http://evil.example"
		allowed = "https://app.example"
		jsonCT  = "application/json"
		args    = `{"arguments":{"city":"Bern"}}`
	)
	execute, render := "/mcp/v1/tools/echo/execute", "/mcp/v1/prompts/greet/render"
	tests := []struct {
		name   string
		path   string
		header func(self string) map[string]string
		body   string
		cors   []string
		want   int
	}{
		// What a page of another site can send without a preflight.
		{"no-cors fetch, text/plain", execute, func(string) map[string]string {
			return browser(evil, "cross-site", "text/plain;charset=UTF-8")
		}, args, nil, 403},
		{"no-cors fetch, form-urlencoded", execute, func(string) map[string]string {
			return browser(evil, "cross-site", "application/x-www-form-urlencoded;charset=UTF-8")
		}, args, nil, 403},
		{"no-cors fetch, multipart", execute, func(string) map[string]string {
			return browser(evil, "cross-site", "multipart/form-data; boundary=----WebKitFormBoundaryu7oxE2OV9bHQhS6H")
		}, args, nil, 403},
		{"no-cors fetch, no body", execute, func(string) map[string]string {
			return browser(evil, "cross-site", "")
		}, "", nil, 403},
		{"no-cors fetch of a prompt, text/plain", render, func(string) map[string]string {
			return browser(evil, "cross-site", "text/plain;charset=UTF-8")
		}, `{"arguments":{"name":"Ada"}}`, nil, 403},
		{"an HTML form from another site", execute, func(string) map[string]string {
			return formPost(evil, "cross-site")
		}, "arg.city=Bern", nil, 403},
		{"an older browser: Origin without Sec-Fetch-Site", execute, func(string) map[string]string {
			return browser(evil, "", "text/plain")
		}, args, nil, 403},
		{"a sibling site", execute, func(string) map[string]string {
			return browser("http://other.localhost", "same-site", "text/plain")
		}, args, nil, 403},
		{"no-cors fetch, text/plain, from an allowed origin", execute, func(string) map[string]string {
			return browser(allowed, "cross-site", "text/plain")
		}, args, []string{allowed}, 403},
		// JSON is preflighted by a browser; an origin CORS does not allow
		// is refused all the same, as is what a browser says is cross-site.
		{"JSON from another origin", execute, func(string) map[string]string {
			return browser(evil, "cross-site", jsonCT)
		}, args, nil, 403},
		{"JSON, Origin not allowed, no Sec-Fetch-Site", execute, func(string) map[string]string {
			return map[string]string{"Origin": evil, "Content-Type": jsonCT}
		}, args, []string{allowed}, 403},
		{"JSON, cross-site without an Origin", execute, func(string) map[string]string {
			return map[string]string{"Sec-Fetch-Site": "cross-site", "Content-Type": jsonCT}
		}, args, nil, 403},
		{"JSON, Origin null", execute, func(string) map[string]string {
			return map[string]string{"Origin": "null", "Content-Type": jsonCT}
		}, args, nil, 403},
		// Not from a browser's page, or from one this server trusts.
		{"curl with no Content-Type", execute, func(string) map[string]string {
			return map[string]string{}
		}, args, nil, 403},
		{"curl -d: JSON labelled a form", execute, func(string) map[string]string {
			return map[string]string{"Content-Type": "application/x-www-form-urlencoded"}
		}, args, nil, 403},
		{"JSON from a program", execute, func(string) map[string]string {
			return map[string]string{"Content-Type": jsonCT}
		}, args, nil, 200},
		{"JSON with a charset", execute, func(string) map[string]string {
			return map[string]string{"Content-Type": "Application/JSON; charset=utf-8"}
		}, args, nil, 200},
		{"JSON of a prompt", render, func(string) map[string]string {
			return map[string]string{"Content-Type": jsonCT}
		}, `{"arguments":{"name":"Ada"}}`, nil, 200},
		{"JSON from this server's own page", execute, func(self string) map[string]string {
			return browser("http://"+self, "same-origin", jsonCT)
		}, args, nil, 200},
		{"JSON from an origin CORS allows", execute, func(string) map[string]string {
			return browser(allowed, "cross-site", jsonCT)
		}, args, []string{allowed}, 200},
		{"JSON, any origin allowed", execute, func(string) map[string]string {
			return browser(evil, "cross-site", jsonCT)
		}, args, []string{"*"}, 200},
		{"the index page's own form", execute, func(self string) map[string]string {
			return formPost("http://"+self, "same-origin")
		}, "arg.city=Bern", nil, 200},
		{"the index page's own form, an older browser", execute, func(self string) map[string]string {
			return formPost("http://"+self, "")
		}, "arg.city=Bern", nil, 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake()
			srv := httptest.NewServer(rest.New(f, &rest.Options{BasePath: "/mcp/v1", CORS: tt.cors}))
			defer srv.Close()
			self := srv.Listener.Addr().String()
			req, err := http.NewRequest(http.MethodPost, srv.URL+tt.path, strings.NewReader(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			for k, v := range tt.header(self) {
				req.Header.Set(k, v)
			}
			resp, err := srv.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tt.want {
				t.Errorf("status %d, want %d: %.300s", resp.StatusCode, tt.want, body)
			}
			calls := len(f.declared)
			if tt.want == 403 {
				if calls != 0 {
					t.Errorf("the backend was called %d times for a refused request", calls)
				}
				if !strings.Contains(string(body), `"code":"FORBIDDEN"`) || resp.Header.Get("Content-Type") != "application/json" {
					t.Errorf("not the error body: %s %.300s", resp.Header.Get("Content-Type"), body)
				}
			}
			if tt.want == 200 && calls != 1 {
				t.Errorf("the backend was called %d times, want once", calls)
			}
		})
	}
}

// TestDNSRebinding: a handler served on a loopback address answers only
// requests naming a loopback host (with any port), or one Options.Hosts
// allows: a page of a rebound name (rebind.attacker.example, which the
// attacker's DNS points at 127.0.0.1) is refused before it reads or runs
// anything.
func TestDNSRebinding(t *testing.T) {
	tests := []struct {
		name  string
		host  string // "" for the listener's own address
		hosts []string
		want  int
	}{
		{"the listener's address", "", nil, 200},
		{"localhost with the port", "localhost:%p", nil, 200},
		{"localhost in capitals", "LocalHost:%p", nil, 200},
		{"localhost without a port", "localhost", nil, 200},
		{"127.0.0.1", "127.0.0.1:%p", nil, 200},
		{"another loopback address", "127.1.2.3:%p", nil, 200},
		{"IPv6 loopback", "[::1]:%p", nil, 200},
		{"a rebound name", "rebind.attacker.example", nil, 403},
		{"a rebound name with the port", "rebind.attacker.example:%p", nil, 403},
		{"localhost as a subdomain", "localhost.attacker.example:%p", nil, 403},
		{"a private address", "192.168.1.10:%p", nil, 403},
		{"a name Options.Hosts allows", "mcp.internal:%p", []string{"mcp.internal"}, 200},
		{"Options.Hosts with a port and capitals", "mcp.internal:%p", []string{"MCP.internal:1234"}, 200},
		{"a name Options.Hosts does not", "rebind.attacker.example", []string{"mcp.internal"}, 403},
		{"any name", "rebind.attacker.example", []string{"*"}, 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(rest.New(newFake(), &rest.Options{BasePath: "/mcp/v1", Hosts: tt.hosts}))
			defer srv.Close()
			_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
			for _, path := range []string{"/mcp/v1/tools", "/mcp/v1/healthz"} {
				req, err := http.NewRequest(http.MethodGet, srv.URL+path, nil)
				if err != nil {
					t.Fatal(err)
				}
				req.Host = strings.ReplaceAll(tt.host, "%p", port)
				resp, err := srv.Client().Do(req)
				if err != nil {
					t.Fatal(err)
				}
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != tt.want {
					t.Errorf("GET %s, Host %q: status %d, want %d: %.300s", path, req.Host, resp.StatusCode, tt.want, body)
				}
				if tt.want == 403 && !strings.Contains(string(body), `"code":"FORBIDDEN"`) {
					t.Errorf("not the error body: %.300s", body)
				}
			}
		})
	}
}

// TestDNSRebindingNotLoopback: a handler served on another address answers
// any Host (a public server's names are the operator's business).
func TestDNSRebindingNotLoopback(t *testing.T) {
	h := rest.New(newFake(), &rest.Options{BasePath: "/mcp/v1"})
	req := httptest.NewRequest(http.MethodGet, "http://rebind.attacker.example/mcp/v1/tools", nil)
	req = req.WithContext(context.WithValue(req.Context(), http.LocalAddrContextKey, &net.TCPAddr{IP: net.IPv4(192, 0, 2, 1), Port: 80}))
	if got := viaRecorder(t, h, req); got.status != 200 {
		t.Errorf("status %d, want 200: %.300s", got.status, got.body)
	}
}

// TestSlowBodyIsCut: a client that announces a body and trickles it is cut
// after Options.BodyTimeout, whatever the call timeout, and is answered
// 408 with the error body; the tool never runs.
func TestSlowBodyIsCut(t *testing.T) {
	const short = 200 * time.Millisecond
	tests := []struct {
		name, path  string
		bodyTimeout time.Duration // Options.BodyTimeout
		readTimeout time.Duration // the http.Server's
	}{
		{"execute", "/mcp/v1/tools/echo/execute", short, 0},
		{"render", "/mcp/v1/prompts/greet/render", short, 0},
		{"a GET with a body", "/mcp/v1/tools/echo", short, 0},
		{"a server's shorter ReadTimeout stands", "/mcp/v1/tools/echo/execute", time.Hour, short},
		{"a server's longer ReadTimeout", "/mcp/v1/tools/echo/execute", short, time.Hour},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := tt.path
			f := newFake()
			srv := httptest.NewUnstartedServer(rest.New(f, &rest.Options{BasePath: "/mcp/v1", BodyTimeout: tt.bodyTimeout, CallTimeout: time.Hour}))
			srv.Config.ReadTimeout = tt.readTimeout
			srv.Start()
			defer srv.Close()
			conn, err := net.Dial("tcp", srv.Listener.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			const size = 200 // a byte every 25 ms: 5 s in all
			method := "POST"
			if !strings.HasSuffix(path, "execute") && !strings.HasSuffix(path, "render") {
				method = "GET"
			}
			if _, err := io.WriteString(conn, method+" "+path+" HTTP/1.1\r\nHost: "+srv.Listener.Addr().String()+
				"\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{"); err != nil {
				t.Fatal(err)
			}
			trickled := make(chan struct{})
			go func() {
				defer close(trickled)
				for range size - 1 {
					time.Sleep(25 * time.Millisecond)
					if _, err := conn.Write([]byte(" ")); err != nil {
						return // cut
					}
				}
			}()
			// The answer, then the end of the connection: the server reads
			// the rest of an unread body to reuse it, under the deadline too.
			answered, closed := make(chan *http.Response, 1), make(chan struct{})
			go func() {
				defer close(closed)
				br := bufio.NewReader(conn)
				resp, err := http.ReadResponse(br, nil)
				if err != nil {
					answered <- nil
					return
				}
				_, _ = io.ReadAll(resp.Body)
				answered <- resp
				_, _ = io.Copy(io.Discard, br)
			}()
			select {
			case <-closed:
				if resp := <-answered; method == "POST" && (resp == nil || resp.StatusCode != http.StatusRequestTimeout) {
					t.Errorf("answer %v, want 408", resp)
				}
			case <-trickled:
				t.Fatal("the whole trickle was read: the body was never cut")
			}
			conn.Close()
			<-trickled
			if n := len(f.declared); n != 0 {
				t.Errorf("the backend was called %d times", n)
			}
		})
	}
}

// postJSON is a POST of body as application/json, as every client of the
// binding sends it.
func postJSON(target string, body io.Reader) *http.Request {
	req := httptest.NewRequest(http.MethodPost, target, body)
	req.Header.Set("Content-Type", "application/json")
	return req
}

// TestCancelledCallIs503: a call whose request's context ends (the server
// stops and cancels the calls under way) is a 503 UNAVAILABLE with the
// error body, not a 500 and an error log line.
func TestCancelledCallIs503(t *testing.T) {
	f := newFake()
	h := rest.New(f, &rest.Options{BasePath: "/mcp/v1", CallTimeout: time.Hour})
	ctx, cancel := context.WithCancel(context.Background())
	req := postJSON("/mcp/v1/tools/slow/execute", strings.NewReader(`{}`)).WithContext(ctx)
	got := make(chan response, 1)
	go func() { got <- viaRecorder(t, h, req) }()
	for f.lastDeclared() == nil { // the call has reached the backend
		time.Sleep(time.Millisecond)
	}
	cancel()
	<-f.slowDone
	if r := <-got; r.status != http.StatusServiceUnavailable || !strings.Contains(r.body, `"code":"UNAVAILABLE"`) {
		t.Errorf("%d %s, want 503 UNAVAILABLE", r.status, r.body)
	}
}
