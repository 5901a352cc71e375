package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"
)

// testWait bounds every wait of these tests, so that a defect fails
// instead of hanging; no assertion depends on it.
const testWait = 30 * time.Second

const (
	upInitialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	upInitalized = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
	// upMeta is the _meta of a 2026-07-28 request.
	upMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}`
	// upStructured is a structured result whose digits and key order a
	// decode and re-encode would change.
	upStructured = `{"id":12345678901234567890,"price":1.50,"b":1,"a":2}`
)

func dialUp(t *testing.T, u *HTTPUpstream, maxMessage int) *httpConn {
	t.Helper()
	c, err := u.connect(context.Background(), maxMessage)
	if err != nil {
		t.Fatal(err)
	}
	return c.(*httpConn)
}

// writeUp writes msg; the stream answering it lives as long as the msgConn.
func writeUp(t *testing.T, c msgConn, msg string) {
	t.Helper()
	if err := c.Write(context.Background(), []byte(msg)); err != nil {
		t.Fatalf("write %s: %v", msg, err)
	}
}

func readUp(t *testing.T, c msgConn) ([]byte, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	return c.Read(ctx)
}

func mustReadUp(t *testing.T, c msgConn) string {
	t.Helper()
	msg, err := readUp(t, c)
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	return string(msg)
}

// priceServer is a go-sdk server with a tool whose structured result is
// upStructured.
func priceServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "prices", Version: "1.0.0"}, nil)
	s.AddTool(&mcp.Tool{Name: "price", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{
				Content:           []mcp.Content{&mcp.TextContent{Text: "the price"}},
				StructuredContent: json.RawMessage(upStructured),
			}, nil
		})
	return s
}

// TestHTTPUpstreamGoSDK drives a go-sdk server, stateful and stateless,
// answering with JSON and with event streams, with raw messages: the
// structured result arrives with the server's very bytes.
func TestHTTPUpstreamGoSDK(t *testing.T) {
	type step struct {
		send string
		want string // a part of the answer
	}
	legacy := []step{
		{send: upInitialize, want: `"protocolVersion":"2025-11-25"`},
		{send: upInitalized},
		{send: `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, want: `"name":"price"`},
		{send: `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"price","arguments":{}}}`, want: `"structuredContent":` + upStructured},
	}
	era2026 := []step{
		{send: `{"jsonrpc":"2.0","id":"a","method":"tools/list","params":{` + upMeta + `}}`, want: `"name":"price"`},
		{send: `{"jsonrpc":"2.0","id":"b","method":"tools/call","params":{"name":"price","arguments":{},` + upMeta + `}}`, want: `"structuredContent":` + upStructured},
	}
	tests := []struct {
		name        string
		opts        mcp.StreamableHTTPOptions
		steps       []step
		wantSession bool
	}{
		{name: "stateful events", steps: legacy, wantSession: true},
		{name: "stateful json", opts: mcp.StreamableHTTPOptions{JSONResponse: true}, steps: legacy, wantSession: true},
		{name: "stateless events", opts: mcp.StreamableHTTPOptions{Stateless: true}, steps: legacy},
		{name: "stateless json", opts: mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true}, steps: legacy},
		{name: "stateless 2026-07-28", opts: mcp.StreamableHTTPOptions{Stateless: true}, steps: era2026},
		{name: "stateless json 2026-07-28", opts: mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true}, steps: era2026},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
			s := priceServer()
			srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &tt.opts))
			defer srv.Close()
			c := dialUp(t, &HTTPUpstream{URL: srv.URL}, 1<<20)
			defer c.Close()
			for _, st := range tt.steps {
				writeUp(t, c, st.send)
				if st.want == "" {
					continue
				}
				if got := mustReadUp(t, c); !strings.Contains(got, st.want) {
					t.Fatalf("answer to %s:\n%s\nwant it to contain %s", st.send, got, st.want)
				}
			}
			if got := c.sessionID != ""; got != tt.wantSession {
				t.Errorf("session id %q, want one: %v", c.sessionID, tt.wantSession)
			}
		})
	}
}

// waitListen waits until the GET stream ended for good.
func waitListen(t *testing.T, c *httpConn) {
	t.Helper()
	select {
	case <-c.listenDone:
	case <-time.After(testWait):
		t.Fatal("the GET stream goes on")
	}
}

// rpc reads the message a fake server was sent.
func rpc(t *testing.T, r *http.Request) *message {
	t.Helper()
	body, err := io.ReadAll(r.Body)
	if err != nil {
		t.Error(err)
		return &message{}
	}
	m, err := parseMessage(body)
	if err != nil {
		t.Errorf("the server got %q: %v", body, err)
		return &message{}
	}
	return m
}

func writeTestJSON(w http.ResponseWriter, body string) {
	w.Header().Set("Content-Type", "application/json")
	_, _ = io.WriteString(w, body)
}

func writeEvents(w http.ResponseWriter, events ...string) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	for _, e := range events {
		_, _ = io.WriteString(w, e)
		w.(http.Flusher).Flush()
	}
}

// TestHTTPUpstreamOversize: an answer of 20 MB, in a JSON body or an event
// stream, is a badMessage with its id (the id after the result, read as
// the bytes stream by); the stream goes on, and the next call is answered.
func TestHTTPUpstreamOversize(t *testing.T) {
	big := `{"jsonrpc":"2.0","result":{"content":[{"type":"text","text":"` + strings.Repeat("x", 20<<20) + `"}]},"id":2}`
	const after = `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"after"}}`
	tests := []struct {
		name string
		send func(w http.ResponseWriter)
		want []string // what follows the badMessage on its stream
	}{
		{name: "json", send: func(w http.ResponseWriter) { writeTestJSON(w, big) }},
		{name: "json without length", send: func(w http.ResponseWriter) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, big[:1000])
			w.(http.Flusher).Flush()
			_, _ = io.WriteString(w, big[1000:])
		}},
		{name: "events", send: func(w http.ResponseWriter) {
			writeEvents(w, "event: message\ndata: "+big+"\n\n", "data: "+after+"\n\n")
		}, want: []string{after}},
		{name: "events in many data lines", send: func(w http.ResponseWriter) {
			var lines []string
			for rest := big; rest != ""; {
				n := min(len(rest), 100<<10)
				lines = append(lines, "data: "+rest[:n]+"\n")
				rest = rest[n:]
			}
			writeEvents(w, strings.Join(lines, "")+"\n", "data: "+after+"\n\n")
		}, want: []string{after}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
			srv := callUpstream(t, "2", tt.send, "3", `{"jsonrpc":"2.0","id":3,"result":{"ok":true}}`)
			defer srv.Close()
			c := dialUp(t, &HTTPUpstream{URL: srv.URL}, 1<<20)
			defer c.Close()
			writeUp(t, c, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"big"}}`)
			_, err := readUp(t, c)
			var bad *badMessage
			if !errors.As(err, &bad) || string(bad.ID) != "2" {
				t.Fatalf("read: %v, want a badMessage for the id 2", err)
			}
			for _, want := range tt.want {
				if got := mustReadUp(t, c); got != want {
					t.Errorf("then %s, want %s", got, want)
				}
			}
			nextCall(t, c, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"small"}}`, `{"jsonrpc":"2.0","id":3,"result":{"ok":true}}`)
		})
	}
}

// TestHTTPUpstreamEventStream: a call's event stream carries a
// notification and a server request before the answer, among comments,
// other event types, retry and id fields, multi-line data and CRLF line
// ends: every message arrives, in order, with its bytes; the answer to
// the server's request is POSTed.
func TestHTTPUpstreamEventStream(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	const (
		progress = `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p","progress":1}}`
		elicit   = "{\"jsonrpc\":\"2.0\",\"id\":\"e1\",\"method\":\"elicitation/create\",\n\"params\":{\"message\":\"sure?\",\"requestedSchema\":{\"type\":\"object\"}}}"
		answer   = `{"jsonrpc":"2.0","id":7,"result":{"content":[],"n":1.50}}`
		reply    = `{"jsonrpc":"2.0","id":"e1","result":{"action":"accept","content":{}}}`
	)
	var mu sync.Mutex
	var replies []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m := rpc(t, r)
		switch {
		case m.method == "tools/call":
			writeEvents(w,
				": a comment\n\n",
				"retry: 10\r\nid: 1\r\ndata: "+progress+"\r\n\r\n",
				"event: endpoint\ndata: {\"not\":\"a message\"}\n\n",
				"event: message\nid: 2\ndata: "+strings.Replace(elicit, "\n", "\ndata:", 1)+"\n\n",
				"data:"+answer[:20]+"\n", "data:"+answer[20:]+"\n\n")
		case m.isResponse():
			mu.Lock()
			replies = append(replies, string(m.raw))
			mu.Unlock()
			w.WriteHeader(http.StatusAccepted)
		default:
			w.WriteHeader(http.StatusAccepted)
		}
	}))
	defer srv.Close()
	c := dialUp(t, &HTTPUpstream{URL: srv.URL}, 1<<20)
	defer c.Close()
	writeUp(t, c, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"ask"}}`)
	for _, want := range []string{progress, elicit, answer[:20] + "\n" + answer[20:]} {
		if got := mustReadUp(t, c); got != want {
			t.Errorf("got %s\nwant %s", got, want)
		}
	}
	writeUp(t, c, reply)
	mu.Lock()
	defer mu.Unlock()
	if len(replies) != 1 || replies[0] != reply {
		t.Errorf("the server got %q, want %q", replies, reply)
	}
}

// TestHTTPUpstreamHTTPError: an HTTP error, or a body without the answer,
// fails the one request it answers, with the server's JSON-RPC error when
// the body is one, else -32603 naming the status and the body's start;
// the next call goes on.
func TestHTTPUpstreamHTTPError(t *testing.T) {
	long := strings.Repeat("é", 150) // 300 bytes: cut at 200
	tests := []struct {
		name  string
		send  func(w http.ResponseWriter)
		first string // a message before the error
		want  string // the error object, %s the URL
	}{
		{
			name: "500 text",
			send: func(w http.ResponseWriter) { http.Error(w, "boom", http.StatusInternalServerError) },
			want: `{"code":-32603,"message":"POST %s: HTTP 500 Internal Server Error: boom"}`,
		},
		{
			name: "400 JSON-RPC error",
			send: func(w http.ResponseWriter) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusBadRequest)
				_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":null,"error":{"code":-32022,"message":"nope","data":{"supported":["2025-11-25"]}}}`+"\n")
			},
			want: `{"code":-32022,"message":"nope","data":{"supported":["2025-11-25"]}}`,
		},
		{
			name: "502 long text",
			send: func(w http.ResponseWriter) {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				w.WriteHeader(http.StatusBadGateway)
				_, _ = io.WriteString(w, long)
			},
			want: `{"code":-32603,"message":"POST %s: HTTP 502 Bad Gateway: ` + long[:200] + `"}`,
		},
		{
			name: "503 binary",
			send: func(w http.ResponseWriter) {
				w.Header().Set("Content-Type", "application/octet-stream")
				w.WriteHeader(http.StatusServiceUnavailable)
				_, _ = w.Write([]byte{0, 1, 2})
			},
			want: `{"code":-32603,"message":"POST %s: HTTP 503 Service Unavailable"}`,
		},
		{
			name: "202 to a request",
			send: func(w http.ResponseWriter) { w.WriteHeader(http.StatusAccepted) },
			want: `{"code":-32603,"message":"POST %s: HTTP 202 Accepted with Content-Type \"\", which is no answer"}`,
		},
		{
			name: "stream without the answer",
			send: func(w http.ResponseWriter) {
				writeEvents(w, "data: {\"jsonrpc\":\"2.0\",\"id\":99,\"result\":{}}\n\n")
			},
			first: `{"jsonrpc":"2.0","id":99,"result":{}}`,
			want:  `{"code":-32603,"message":"POST %s: HTTP 200 OK, the body ended without the answer"}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
			srv := callUpstream(t, "4", tt.send, "5", `{"jsonrpc":"2.0","id":5,"result":{}}`)
			defer srv.Close()
			c := dialUp(t, &HTTPUpstream{URL: srv.URL}, 1<<20)
			defer c.Close()
			writeUp(t, c, `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"x"}}`)
			if tt.first != "" {
				if got := mustReadUp(t, c); got != tt.first {
					t.Errorf("first %s, want %s", got, tt.first)
				}
			}
			got := mustReadUp(t, c)
			if want := `{"jsonrpc":"2.0","id":4,"error":` + strings.ReplaceAll(tt.want, "%s", srv.URL) + `}`; got != want {
				t.Errorf("got  %s\nwant %s", got, want)
			}
			nextCall(t, c, `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"x"}}`, `{"jsonrpc":"2.0","id":5,"result":{}}`)
		})
	}
}

// TestHTTPUpstreamClose: Close of a go-sdk stateful session with its GET
// stream open sends DELETE with the session id, and makes Read (one
// waiting, and later ones) and Write fail.
func TestHTTPUpstreamClose(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	s := priceServer()
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)
	var mu sync.Mutex
	var deleted []string
	listening := make(chan struct{}, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		switch r.Method {
		case http.MethodDelete:
			deleted = append(deleted, r.Header.Get("Mcp-Session-Id"))
		case http.MethodGet:
			select {
			case listening <- struct{}{}:
			default:
			}
		}
		mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	defer srv.Close()
	c := dialUp(t, &HTTPUpstream{URL: srv.URL}, 1<<20)
	writeUp(t, c, upInitialize)
	mustReadUp(t, c)
	writeUp(t, c, upInitalized)
	select {
	case <-listening:
	case <-time.After(testWait):
		t.Fatal("no GET stream was opened")
	}
	readErr := make(chan error, 1)
	go func() {
		_, err := c.Read(context.Background())
		readErr <- err
	}()
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if err := <-readErr; err == nil || isBad(err) {
		t.Errorf("Read after Close: %v, want an error that ends the msgConn", err)
	}
	if _, err := c.Read(context.Background()); !errors.Is(err, errClosed) {
		t.Errorf("Read after Close: %v, want %v", err, errClosed)
	}
	if err := c.Write(context.Background(), []byte(upInitalized)); !errors.Is(err, errClosed) {
		t.Errorf("Write after Close: %v, want %v", err, errClosed)
	}
	if err := c.Close(); err != nil {
		t.Errorf("a second Close: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(deleted) != 1 || deleted[0] == "" || deleted[0] != c.sessionID {
		t.Errorf("DELETE with the session ids %q, want one with %q", deleted, c.sessionID)
	}
}

// TestHTTPUpstreamCloseLeavesNothing: Close, with the GET stream open, a
// call's event stream under way and a call waiting for its JSON answer,
// leaves no goroutine and no connection of the msgConn's behind, while the
// server still runs.
func TestHTTPUpstreamCloseLeavesNothing(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	started := make(chan struct{}, 3)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			writeEvents(w, ": open\n\n")
			started <- struct{}{}
			<-r.Context().Done()
			return
		}
		if r.Method == http.MethodDelete {
			return
		}
		m := rpc(t, r)
		switch {
		case m.method == "initialize":
			w.Header().Set("Mcp-Session-Id", "s-1")
			writeTestJSON(w, `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25"}}`)
		case string(m.id) == "2":
			writeEvents(w, "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\"}\n\n")
			started <- struct{}{}
			<-r.Context().Done()
		case string(m.id) == "3":
			started <- struct{}{}
			<-r.Context().Done()
		default:
			w.WriteHeader(http.StatusAccepted)
		}
	}))
	defer srv.Close()
	serving := goleak.IgnoreCurrent()
	c := dialUp(t, &HTTPUpstream{URL: srv.URL}, 1<<20)
	writeUp(t, c, upInitialize)
	mustReadUp(t, c)
	writeUp(t, c, upInitalized)
	writeUp(t, c, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow"}}`)
	writeUp(t, c, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"slow"}}`)
	for range 3 {
		<-started
	}
	// The progress notification waits to be read: Close ends that wait too.
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if left := connGoroutines(); len(left) > 0 {
		t.Errorf("goroutines of the msgConn outlive Close:\n%s", strings.Join(left, "\n\n"))
	}
	goleak.VerifyNone(t, serving)
}

// connGoroutines returns the stacks of the goroutines that run a msgConn's
// code, now: what Close must have ended before it returns.
func connGoroutines() []string {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	var left []string
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "gateway.(*httpConn).") && !strings.Contains(g, "connGoroutines") {
			left = append(left, g)
		}
	}
	return left
}

// TestHTTPUpstreamWriteCancelled: a POST whose context ends is cancelled,
// as the server sees it.
func TestHTTPUpstreamWriteCancelled(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	arrived, gone := make(chan struct{}), make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rpc(t, r)
		close(arrived)
		<-r.Context().Done()
		close(gone)
	}))
	defer srv.Close()
	c := dialUp(t, &HTTPUpstream{URL: srv.URL}, 1<<20)
	defer c.Close()
	ctx, cancel := context.WithCancel(context.Background())
	if err := c.Write(ctx, []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow"}}`)); err != nil {
		t.Fatal(err)
	}
	// Write returns once the request is on its way; the server must have
	// it before the cancel, or there is nothing for it to see end.
	select {
	case <-arrived:
	case <-time.After(testWait):
		t.Fatal("the request never reached the server")
	}
	cancel()
	select {
	case <-gone:
	case <-time.After(testWait):
		t.Fatal("the server's request goes on")
	}
}

// sessionServer is a fake server that gives the session id s-1 at
// initialize and answers 404 to what fail says.
func sessionServer(t *testing.T, fail func(r *http.Request, m *message) bool, deletes *int, mu *sync.Mutex) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var m *message
		if r.Method == http.MethodPost {
			m = rpc(t, r)
		}
		switch {
		case fail(r, m):
			http.Error(w, "no such session", http.StatusNotFound)
		case r.Method == http.MethodDelete:
			mu.Lock()
			*deletes++
			mu.Unlock()
		case r.Method == http.MethodGet:
			http.Error(w, "no stream", http.StatusMethodNotAllowed)
		case m.method == "initialize":
			w.Header().Set("Mcp-Session-Id", "s-1")
			writeTestJSON(w, `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"f","version":"1"}}}`)
		case m.isRequest():
			writeTestJSON(w, `{"jsonrpc":"2.0","id":`+string(m.id)+`,"result":{}}`)
		default:
			w.WriteHeader(http.StatusAccepted)
		}
	}))
}

// TestHTTPUpstreamSessionGone: a 404 to a request, a notification or the
// GET stream that carried the session id ends the msgConn: Read returns
// errSessionGone, and Close sends no DELETE for the session gone.
func TestHTTPUpstreamSessionGone(t *testing.T) {
	tests := []struct {
		name      string
		fail      func(r *http.Request, m *message) bool
		send      string
		wantWrite bool // the Write itself fails
	}{
		{
			name: "request",
			fail: func(_ *http.Request, m *message) bool { return m != nil && m.method == "tools/call" },
			send: `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"x"}}`,
		},
		{
			name: "notification",
			fail: func(_ *http.Request, m *message) bool {
				return m != nil && m.method == "notifications/roots/list_changed"
			},
			send:      `{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}`,
			wantWrite: true,
		},
		{
			name: "listen",
			fail: func(r *http.Request, _ *message) bool { return r.Method == http.MethodGet },
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
			var mu sync.Mutex
			var deletes int
			srv := sessionServer(t, tt.fail, &deletes, &mu)
			defer srv.Close()
			c := dialUp(t, &HTTPUpstream{URL: srv.URL}, 1<<20)
			writeUp(t, c, upInitialize)
			mustReadUp(t, c)
			writeUp(t, c, upInitalized)
			if tt.send != "" {
				err := c.Write(context.Background(), []byte(tt.send))
				if got := err != nil; got != tt.wantWrite {
					t.Errorf("Write: %v, want an error: %v", err, tt.wantWrite)
				}
			}
			_, err := readUp(t, c)
			if !errors.Is(err, errSessionGone) || isBad(err) {
				t.Errorf("Read: %v, want %v", err, errSessionGone)
			}
			_ = c.Close()
			mu.Lock()
			defer mu.Unlock()
			if deletes != 0 {
				t.Errorf("%d DELETEs for a session gone", deletes)
			}
		})
	}
}

// TestHTTPUpstreamHeaders: what each request carries: the caller's
// headers, the session id once given, the protocol version once known
// (from the initialize result, or from a 2026-07-28 request's _meta), and
// for 2026-07-28 Mcp-Method and Mcp-Name.
func TestHTTPUpstreamHeaders(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	var mu sync.Mutex
	got := map[string]http.Header{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := r.Method
		var m *message
		if r.Method == http.MethodPost {
			m = rpc(t, r)
			key = m.method
			if m.method == "tools/call" {
				key += " " + string(m.id)
			}
		}
		mu.Lock()
		got[key] = r.Header.Clone()
		mu.Unlock()
		switch {
		case r.Method == http.MethodGet:
			http.Error(w, "none", http.StatusMethodNotAllowed)
		case r.Method == http.MethodDelete:
		case m.method == "initialize":
			w.Header().Set("Mcp-Session-Id", "s-1")
			writeTestJSON(w, `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"f","version":"1"}}}`)
		case m.isRequest():
			writeTestJSON(w, `{"jsonrpc":"2.0","id":`+string(m.id)+`,"result":{}}`)
		default:
			w.WriteHeader(http.StatusAccepted)
		}
	}))
	defer srv.Close()
	c := dialUp(t, &HTTPUpstream{URL: srv.URL, Header: http.Header{"Authorization": {"Bearer t0ken"}}}, 1<<20)
	writeUp(t, c, upInitialize)
	mustReadUp(t, c)
	writeUp(t, c, upInitalized)
	waitListen(t, c)
	writeUp(t, c, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"price"}}`)
	mustReadUp(t, c)
	writeUp(t, c, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"price",`+upMeta+`}}`)
	mustReadUp(t, c)
	_ = c.Close()
	const post = "application/json, text/event-stream"
	tests := []struct {
		request string
		header  string
		want    string
	}{
		{request: "initialize", header: "Authorization", want: "Bearer t0ken"},
		{request: "initialize", header: "Content-Type", want: "application/json"},
		{request: "initialize", header: "Accept", want: post},
		{request: "initialize", header: "Mcp-Session-Id", want: ""},
		{request: "initialize", header: "Mcp-Protocol-Version", want: ""},
		{request: "notifications/initialized", header: "Mcp-Session-Id", want: "s-1"},
		{request: "notifications/initialized", header: "Mcp-Protocol-Version", want: "2025-06-18"},
		{request: "GET", header: "Accept", want: "text/event-stream"},
		{request: "GET", header: "Mcp-Session-Id", want: "s-1"},
		{request: "GET", header: "Authorization", want: "Bearer t0ken"},
		{request: "tools/call 2", header: "Mcp-Protocol-Version", want: "2025-06-18"},
		{request: "tools/call 2", header: "Mcp-Method", want: ""},
		{request: "tools/call 3", header: "Mcp-Protocol-Version", want: "2026-07-28"},
		{request: "tools/call 3", header: "Mcp-Method", want: "tools/call"},
		{request: "tools/call 3", header: "Mcp-Name", want: "price"},
		{request: "tools/call 3", header: "Authorization", want: "Bearer t0ken"},
		{request: "DELETE", header: "Mcp-Session-Id", want: "s-1"},
		{request: "DELETE", header: "Authorization", want: "Bearer t0ken"},
	}
	mu.Lock()
	defer mu.Unlock()
	for _, tt := range tests {
		h, ok := got[tt.request]
		if !ok {
			t.Errorf("no %s request", tt.request)
			continue
		}
		if g := h.Get(tt.header); g != tt.want {
			t.Errorf("%s: %s: %q, want %q", tt.request, tt.header, g, tt.want)
		}
	}
}

// TestHTTPUpstreamListen: the GET stream delivers the server's own
// messages; when it breaks off it is opened once more (with the last
// event id), not again; a 405 is no stream and no error.
func TestHTTPUpstreamListen(t *testing.T) {
	note := func(n int) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/tools/list_changed","params":{"n":%d}}`, n)
	}
	tests := []struct {
		name     string
		get      func(w http.ResponseWriter, r *http.Request, n int)
		want     []string
		wantGets int
		wantLast string // the Last-Event-ID of the second GET
	}{
		{
			name: "breaks off",
			get: func(w http.ResponseWriter, r *http.Request, n int) {
				writeEvents(w, "retry: 0\nid: ev"+fmt.Sprint(n)+"\ndata: "+note(n)+"\n\n")
				panic(http.ErrAbortHandler)
			},
			want:     []string{note(1), note(2)},
			wantGets: 2,
			wantLast: "ev1",
		},
		{
			name: "ends",
			get: func(w http.ResponseWriter, r *http.Request, n int) {
				writeEvents(w, "data: "+note(n)+"\n\n")
			},
			want:     []string{note(1)},
			wantGets: 1,
		},
		{
			name: "405",
			get: func(w http.ResponseWriter, r *http.Request, n int) {
				http.Error(w, "none", http.StatusMethodNotAllowed)
			},
			wantGets: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
			var mu sync.Mutex
			var gets int
			var last string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Method == http.MethodGet {
					mu.Lock()
					gets++
					n := gets
					if n == 2 {
						last = r.Header.Get("Last-Event-ID")
					}
					mu.Unlock()
					tt.get(w, r, n)
					return
				}
				if m := rpc(t, r); m.method == "initialize" {
					writeTestJSON(w, `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25"}}`)
					return
				}
				w.WriteHeader(http.StatusAccepted)
			}))
			defer srv.Close()
			c := dialUp(t, &HTTPUpstream{URL: srv.URL}, 1<<20)
			defer c.Close()
			writeUp(t, c, upInitialize)
			mustReadUp(t, c)
			writeUp(t, c, upInitalized)
			for _, want := range tt.want {
				if got := mustReadUp(t, c); got != want {
					t.Errorf("got %s, want %s", got, want)
				}
			}
			waitListen(t, c)
			mu.Lock()
			defer mu.Unlock()
			if gets != tt.wantGets || last != tt.wantLast {
				t.Errorf("%d GETs, the second with Last-Event-ID %q; want %d, %q", gets, last, tt.wantGets, tt.wantLast)
			}
		})
	}
}

// TestHTTPUpstreamBatch: a JSON body that is a batch delivers each of its
// messages.
func TestHTTPUpstreamBatch(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	const (
		first  = `{"jsonrpc":"2.0","method":"notifications/message","params":{"data":1}}`
		answer = `{"jsonrpc":"2.0","id":1,"result":{"x":1.0}}`
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rpc(t, r)
		writeTestJSON(w, "[ "+first+" ,\n"+answer+"]\n")
	}))
	defer srv.Close()
	c := dialUp(t, &HTTPUpstream{URL: srv.URL}, 1<<20)
	defer c.Close()
	writeUp(t, c, `{"jsonrpc":"2.0","id":1,"method":"ping"}`)
	for _, want := range []string{first, answer} {
		if got := mustReadUp(t, c); got != want {
			t.Errorf("got %s, want %s", got, want)
		}
	}
}

// TestHTTPUpstreamBadInput: what cannot be sent or dialed says why.
func TestHTTPUpstreamBadInput(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	for _, bad := range []string{"", "ftp://x/mcp", "http://", "://x"} {
		if _, err := (&HTTPUpstream{URL: bad}).connect(context.Background(), 1<<20); err == nil {
			t.Errorf("Dial %q: no error", bad)
		}
	}
	c := dialUp(t, &HTTPUpstream{URL: "http://127.0.0.1:1/mcp"}, 1<<20)
	defer c.Close()
	for _, msg := range []string{"", "not json", "[1]", `{"jsonrpc":"2.0"}`} {
		if err := c.Write(context.Background(), []byte(msg)); err == nil {
			t.Errorf("Write %q: no error", msg)
		}
	}
	// Nothing listens on port 1: a request that cannot be sent fails its
	// Write, naming the URL.
	err := c.Write(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	if err == nil || !strings.Contains(err.Error(), "http://127.0.0.1:1/mcp") {
		t.Errorf("Write to nowhere: %v, want an error naming the URL", err)
	}
}

// TestSSEReader: how an event stream is cut into messages.
func TestSSEReader(t *testing.T) {
	tests := []struct {
		name string
		give string
		max  int
		want []string // a message, or "bad:ID" for a badMessage
	}{
		{name: "one", give: "data: {\"a\":1}\n\n", want: []string{`{"a":1}`}},
		{name: "no space", give: "data:{\"a\":1}\n\n", want: []string{`{"a":1}`}},
		{name: "lines joined", give: "data: [1,\ndata: 2]\n\n", want: []string{"[1,\n2]"}},
		{name: "CRLF", give: "data: 1\r\n\r\ndata: 2\r\n\r\n", want: []string{"1", "2"}},
		{name: "comments and fields", give: ":c\nid: 3\nretry: x\nfoo: bar\ndata: 1\n\n", want: []string{"1"}},
		{name: "other events", give: "event: ping\ndata: 1\n\nevent: message\ndata: 2\n\n", want: []string{"2"}},
		{name: "no data", give: "event: message\n\n\n\n", want: nil},
		{name: "unended event dropped", give: "data: 1\n\ndata: 2\n", want: []string{"1"}},
		{name: "oversize", give: "data: {\"id\":5,\"x\":\"0123456789\"}\n\ndata: 2\n\n", max: 10, want: []string{"bad:5", "2"}},
		{name: "oversize in lines", give: "data: {\"x\":\"01234\ndata: 56789\",\"id\":\"q\"}\n\n", max: 10, want: []string{`bad:"q"`}},
		{name: "oversize other event", give: "event: x\ndata: 0123456789012\n\ndata: 1\n\n", max: 10, want: []string{"1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			max := tt.max
			if max == 0 {
				max = 1 << 20
			}
			var got []string
			err := newSSEReader(strings.NewReader(tt.give), max).each(func(d delivery) bool {
				var bad *badMessage
				if errors.As(d.err, &bad) {
					got = append(got, "bad:"+string(bad.ID))
				} else {
					got = append(got, string(d.msg))
				}
				return true
			})
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// TestSSEReaderLongLines: lines longer than the read buffer, data or not,
// are read whole.
func TestSSEReaderLongLines(t *testing.T) {
	long := strings.Repeat("y", 200<<10)
	give := ": " + long + "\nevent: " + long + "\n\ndata: \"" + long + "\"\n\n"
	var got [][]byte
	err := newSSEReader(bytes.NewReader([]byte(give)), 1<<20).each(func(d delivery) bool {
		got = append(got, d.msg)
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || string(got[0]) != `"`+long+`"` {
		t.Errorf("got %d messages, want the long string", len(got))
	}
}

// quietHandler is an upstreamHandler that answers nothing.
type quietHandler struct{ ended chan error }

func (quietHandler) serverRequest(u *upstream, m *message) {
	u.respond(m.id, nil, errorObject(codeMethodNotFound, "no", nil))
}
func (quietHandler) serverNotify(*upstream, *message)     {}
func (h quietHandler) serverEnded(_ *upstream, err error) { h.ended <- err }

// TestHTTPUpstreamSession: the gateway's upstream session over HTTP: a
// result too large fails its call only, the next call's result keeps the
// server's bytes, and closing the session ends the msgConn.
func TestHTTPUpstreamSession(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	s := priceServer()
	s.AddTool(&mcp.Tool{Name: "huge", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Repeat("z", 2<<20)}}}, nil
		})
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	conn, err := (&HTTPUpstream{URL: srv.URL}).connect(ctx, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	h := quietHandler{ended: make(chan error, 1)}
	u := newUpstream(conn, h)
	res, err := u.call(ctx, "initialize", []byte(`{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(res, []byte(`"protocolVersion":"2025-11-25"`)) {
		t.Errorf("initialize: %s", res)
	}
	if err := u.notify(ctx, "notifications/initialized", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := u.call(ctx, "tools/call", []byte(`{"name":"huge","arguments":{}}`)); err == nil || !strings.Contains(err.Error(), "more than 1048576 bytes") {
		t.Errorf("the huge call: %v, want an error naming the bound", err)
	}
	res, err = u.call(ctx, "tools/call", []byte(`{"name":"price","arguments":{}}`))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(res, []byte(`"structuredContent":`+upStructured)) {
		t.Errorf("the price: %s", res)
	}
	u.close()
	if err := <-h.ended; err == nil {
		t.Error("the session ended without a reason")
	}
}

// BenchmarkHTTPUpstreamOversize reads a 20 MB answer under a bound of
// 1 MiB: the memory it takes is the bound's, not the answer's.
func BenchmarkHTTPUpstreamOversize(b *testing.B) {
	body := []byte(`{"jsonrpc":"2.0","result":{"content":[{"type":"text","text":"` + strings.Repeat("x", 20<<20) + `"}]},"id":1}`)
	tests := []struct {
		name   string
		header string
	}{
		{name: "json", header: "application/json"},
		{name: "events", header: "text/event-stream"},
	}
	for _, tt := range tests {
		b.Run(tt.name, func(b *testing.B) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				_, _ = io.Copy(io.Discard, r.Body)
				w.Header().Set("Content-Type", tt.header)
				if tt.header == "text/event-stream" {
					_, _ = io.WriteString(w, "data: ")
				}
				_, _ = w.Write(body)
				if tt.header == "text/event-stream" {
					_, _ = io.WriteString(w, "\n\n")
				}
			}))
			defer srv.Close()
			c := dialUpB(b, srv.URL)
			defer c.Close()
			b.ReportAllocs()
			b.SetBytes(int64(len(body)))
			for b.Loop() {
				if err := c.Write(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call"}`)); err != nil {
					b.Fatal(err)
				}
				if _, err := c.Read(context.Background()); !isBad(err) {
					b.Fatalf("read: %v, want a badMessage", err)
				}
			}
		})
	}
}

func dialUpB(b *testing.B, url string) msgConn {
	c, err := (&HTTPUpstream{URL: url}).connect(context.Background(), 1<<20)
	if err != nil {
		b.Fatal(err)
	}
	return c
}

// callUpstream is an HTTP upstream that answers the request with the id
// first by send, the one with the id nextID by next (a JSON-RPC response),
// and anything else with 202 Accepted.
func callUpstream(t *testing.T, first string, send func(http.ResponseWriter), nextID, next string) *httptest.Server {
	t.Helper()
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch string(rpc(t, r).id) {
		case first:
			send(w)
		case nextID:
			writeTestJSON(w, next)
		default:
			w.WriteHeader(http.StatusAccepted)
		}
	}))
}

// nextCall sends the call req on c and checks that its answer is want: a
// failed call before it left the upstream connection working.
func nextCall(t *testing.T, c msgConn, req, want string) {
	t.Helper()
	writeUp(t, c, req)
	if got := mustReadUp(t, c); got != want {
		t.Errorf("the next call: %s, want %s", got, want)
	}
}
