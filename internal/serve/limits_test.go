package serve_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/internal/serve"
	"github.com/contentneg/contentneg/internal/serve/servetest"
)

// bothSDKs is an app with an empty server on either SDK.
func bothSDKs() serve.App {
	app := testApp(func(context.Context, io.Writer, *mcp.Server) error { return nil })
	app.MCPGo = []any{func() *server.MCPServer { return server.NewMCPServer("t", "1") }}
	return app
}

var sdks = []string{serve.SDKGo, serve.SDKMCPGo}

// post sends body to the MCP endpoint at u as a legacy-era client would,
// with the session's ID when there is one, and returns the response's
// status and session ID; the body is read and dropped.
func post(t *testing.T, u, session string, body io.Reader, size int64) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), servetest.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, body)
	if err != nil {
		t.Fatal(err)
	}
	req.ContentLength = size
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("POST %s: %v", u, err)
	}
	defer res.Body.Close()
	_, _ = io.Copy(io.Discard, res.Body)
	return res.StatusCode, res.Header.Get("Mcp-Session-Id")
}

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

// An MCP request body over 4 MiB is refused with 413 on both SDKs, whether
// its length is announced or not, and is never read whole.
func TestHTTPBodyLimit(t *testing.T) {
	huge := `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"` + strings.Repeat("a", 4<<20) + `"}}`
	tests := []struct {
		name string
		size int64
	}{
		{"announced", int64(len(huge))},
		{"chunked", -1},
	}
	for _, sdk := range sdks {
		t.Run(sdk, func(t *testing.T) {
			t.Setenv(serve.SDKEnv, sdk)
			u := servetest.HTTP(t, bothSDKs(), false)
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					if code, _ := post(t, u, "", strings.NewReader(huge), tt.size); code != http.StatusRequestEntityTooLarge {
						t.Errorf("status %d, want 413", code)
					}
				})
			}
			if code, _ := post(t, u, "", strings.NewReader(initialize), int64(len(initialize))); code != http.StatusOK {
				t.Errorf("a small request after them: status %d, want 200", code)
			}
		})
	}
}

// A client that sends its body slowly has its connection closed at the
// read timeout (30 s; shortened here), on both SDKs, on the MCP endpoint
// and on the REST binding (whose handler has a body deadline of its own,
// rest.Options.BodyTimeout, 30 s too).
func TestHTTPSlowBodyIsClosed(t *testing.T) {
	serve.ShortenReadTimeouts(t, 200*time.Millisecond)
	endpoints := []struct {
		name, path string
		start      func(t *testing.T) string // the server's URL
	}{
		{"mcp", "/mcp", func(t *testing.T) string { return servetest.HTTP(t, bothSDKs(), false) }},
		{"rest", "/mcp/v1/tools/x/execute", func(t *testing.T) string {
			base, _ := servetest.REST(t, bothSDKs(), "-rest", "127.0.0.1:0")
			return base
		}},
	}
	for _, sdk := range sdks {
		for _, ep := range endpoints {
			t.Run(sdk+"/"+ep.name, func(t *testing.T) {
				t.Setenv(serve.SDKEnv, sdk)
				u, err := url.Parse(ep.start(t))
				if err != nil {
					t.Fatal(err)
				}
				conn, err := net.Dial("tcp", u.Host)
				if err != nil {
					t.Fatal(err)
				}
				defer conn.Close()
				// Headers in time, then one byte of the thousand announced.
				head := "POST " + ep.path + " HTTP/1.1\r\nHost: " + u.Host + "\r\nContent-Type: application/json\r\n" +
					"Accept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n{"
				if _, err := io.WriteString(conn, head); err != nil {
					t.Fatal(err)
				}
				// The server answers (or not) and closes; a test deadline far
				// beyond the timeout tells a connection kept open.
				_ = conn.SetReadDeadline(time.Now().Add(servetest.Timeout))
				if _, err := io.Copy(io.Discard, conn); err != nil {
					var ne net.Error
					if errors.As(err, &ne) && ne.Timeout() {
						t.Fatal("the server kept a slow body's connection open")
					}
				}
			})
		}
	}
}

// A session whose client sends nothing for -session-idle is closed: its ID
// is then 404 (the client must initialize again), on both SDKs.
func TestHTTPIdleSessionExpires(t *testing.T) {
	for _, sdk := range sdks {
		t.Run(sdk, func(t *testing.T) {
			t.Setenv(serve.SDKEnv, sdk)
			u := servetest.HTTPWith(t, bothSDKs(), "-http", "127.0.0.1:0", "-session-idle", "100ms")
			code, session := post(t, u, "", strings.NewReader(initialize), int64(len(initialize)))
			if code != http.StatusOK || session == "" {
				t.Fatalf("initialize: status %d, session %q", code, session)
			}
			initialized := `{"jsonrpc":"2.0","method":"notifications/initialized"}`
			if code, _ := post(t, u, session, strings.NewReader(initialized), -1); code/100 != 2 {
				t.Fatalf("initialized: status %d", code)
			}
			ping := `{"jsonrpc":"2.0","id":2,"method":"ping"}`
			if code, _ := post(t, u, session, strings.NewReader(ping), -1); code != http.StatusOK {
				t.Fatalf("ping while active: status %d, want 200", code)
			}
			// Idle for longer than the timeout and mcp-go's sweep (at
			// most every second); every ping counts as activity, so each
			// try waits the whole period again.
			for try := 0; ; try++ {
				time.Sleep(1500 * time.Millisecond)
				code, _ := post(t, u, session, bytes.NewReader([]byte(ping)), -1)
				if code == http.StatusNotFound {
					return
				}
				if try == 4 {
					t.Fatalf("ping after idling: status %d, want 404 (the session was kept)", code)
				}
			}
		})
	}
}
