package gateway_test

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/contentneg/contentneg/gateway"
)

func httpGateway(t *testing.T, opts *gateway.HTTPOptions) *httptest.Server {
	t.Helper()
	g := newGateway(t, inProcess(t, goUpstream), nil)
	srv := httptest.NewServer(g.Handler(opts))
	t.Cleanup(srv.Close)
	return srv
}

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

// TestHTTPRefusals: a foreign Host on a loopback bind (DNS rebinding), a
// body that is not JSON (a browser's form or no-cors fetch), a request
// without a session, an unknown session: each refused.
func TestHTTPRefusals(t *testing.T) {
	srv := httpGateway(t, nil)
	tests := []struct {
		name        string
		host        string
		contentType string
		session     string
		want        int
	}{
		{name: "rebinding", host: "rebind.attacker.example", contentType: "application/json", want: http.StatusForbidden},
		{name: "rebinding with a port", host: "rebind.attacker.example:80", contentType: "application/json", want: http.StatusForbidden},
		{name: "text/plain", contentType: "text/plain", want: http.StatusUnsupportedMediaType},
		{name: "form", contentType: "application/x-www-form-urlencoded", want: http.StatusUnsupportedMediaType},
		{name: "multipart", contentType: "multipart/form-data; boundary=x", want: http.StatusUnsupportedMediaType},
		{name: "unknown session", contentType: "application/json", session: "0123", want: http.StatusNotFound},
		{name: "localhost", host: "localhost", contentType: "application/json", want: http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(initialize))
			if tt.host != "" {
				req.Host = tt.host
			}
			req.Header.Set("Content-Type", tt.contentType)
			req.Header.Set("Accept", "application/json, text/event-stream")
			if tt.session != "" {
				req.Header.Set("Mcp-Session-Id", tt.session)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			_ = resp.Body.Close()
			if resp.StatusCode != tt.want {
				t.Errorf("status %d, want %d", resp.StatusCode, tt.want)
			}
		})
	}
}

// TestHTTPCutsATrickledBody: a body announced by Content-Length and sent
// a byte at a time is cut once BodyTimeout has passed, long before it
// would end.
func TestHTTPCutsATrickledBody(t *testing.T) {
	srv := httpGateway(t, &gateway.HTTPOptions{BodyTimeout: 300 * time.Millisecond})
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", len(initialize))
	cut := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(conn).ReadString('\n')
		cut <- line
	}()
	// The trickle would take len(initialize) * 50 ms, about 7 s.
	for i := 0; i < len(initialize); i++ {
		select {
		case line := <-cut:
			if strings.Contains(line, "200") {
				t.Fatalf("the trickled body was served: %q", line)
			}
			return // cut before it ended
		case <-time.After(50 * time.Millisecond):
		}
		if _, err := conn.Write([]byte{initialize[i]}); err != nil {
			return // the server closed the connection: cut
		}
	}
	select {
	case line := <-cut:
		t.Fatalf("the whole trickled body was read: it was never cut; the server answered %q", line)
	case <-time.After(2 * time.Second):
		t.Fatal("the whole trickled body was read: it was never cut")
	}
}

// TestHTTPMethodNotAllowed: a method the endpoint does not serve gets 405
// with an Allow header that lists the methods it does serve: without
// sessions (stateless) only POST, there being no stream to GET and no
// session to DELETE.
func TestHTTPMethodNotAllowed(t *testing.T) {
	tests := []struct {
		name      string
		stateless bool
		method    string
		wantAllow string
	}{
		{"stateful PUT", false, http.MethodPut, "GET, POST, DELETE"},
		{"stateless PUT", true, http.MethodPut, "POST"},
		{"stateless GET", true, http.MethodGet, "POST"},
		{"stateless DELETE", true, http.MethodDelete, "POST"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httpGateway(t, &gateway.HTTPOptions{Stateless: tt.stateless})
			req, err := http.NewRequest(tt.method, srv.URL, nil)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := srv.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			_ = resp.Body.Close()
			if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != tt.wantAllow {
				t.Errorf("%s: %s, Allow %q; want 405, Allow %q", tt.method, resp.Status, resp.Header.Get("Allow"), tt.wantAllow)
			}
		})
	}
}
