package middlewaretest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/middleware/client"
)

// RawResults connects a client described by opts to server over a pipe,
// makes the calls in order, and returns the raw bytes of the "result" of
// every JSON-RPC response the server wrote, by request id, exactly as they
// went over the wire. Comparing two servers' RawResults proves that a
// middleware leaves results byte for byte as they were.
func RawResults(tb testing.TB, server *mcp.Server, opts *client.Options, calls []mcp.CallToolParams) map[string]string {
	tb.Helper()
	return RawExchange(tb, server, opts, func(ctx context.Context, cs *mcp.ClientSession) error {
		for _, c := range calls {
			if _, err := cs.CallTool(ctx, &c); err != nil {
				return fmt.Errorf("call %s: %w", c.Name, err)
			}
		}
		return nil
	})
}

// RawExchange is [RawResults] for any exchange: it connects a client
// described by opts to server over a pipe, runs do with the session, and
// returns the raw bytes of the "result" of every JSON-RPC response the
// server wrote, by request id (the handshake's included), as they went
// over the wire. An error from do fails the test.
func RawExchange(tb testing.TB, server *mcp.Server, opts *client.Options, do func(context.Context, *mcp.ClientSession) error) map[string]string {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	clientOut, serverIn := io.Pipe()
	serverOut, clientIn := io.Pipe()
	rec := &Recorder{}
	// The recorder is written first, so a response is recorded before the
	// client can read it.
	serverT := &mcp.IOTransport{Reader: clientOut, Writer: writeCloser{io.MultiWriter(rec, clientIn), clientIn.Close}}
	clientT := &mcp.IOTransport{Reader: serverOut, Writer: serverIn}
	ss, err := server.Connect(ctx, serverT, nil)
	if err != nil {
		tb.Fatalf("connect server: %v", err)
	}
	defer ss.Close()
	cs, err := client.New(opts).Connect(ctx, clientT, client.SessionOptions(opts))
	if err != nil {
		tb.Fatalf("connect client: %v", err)
	}
	defer cs.Close()
	if err := do(ctx, cs); err != nil {
		tb.Fatal(err)
	}
	return rec.Results()
}

// Recorder keeps every line a server writes, for [Recorder.Results]. Put
// it before the client's reader in an io.MultiWriter. It is safe for
// concurrent use.
type Recorder struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

// Write records p.
func (r *Recorder) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.buf.Write(p)
}

// Results returns the raw bytes of the "result" of every JSON-RPC response
// recorded, by request id, exactly as they went over the wire; an error
// response is "error " and the raw bytes of its "error".
func (r *Recorder) Results() map[string]string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(r.buf.Bytes()))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		if json.Unmarshal(sc.Bytes(), &msg) != nil {
			continue
		}
		switch {
		case msg.Result != nil:
			out[string(msg.ID)] = string(msg.Result)
		case msg.Error != nil:
			out[string(msg.ID)] = "error " + string(msg.Error)
		}
	}
	return out
}

type writeCloser struct {
	io.Writer
	close func() error
}

func (w writeCloser) Close() error { return w.close() }

// CheckSameResults makes the same calls, from a client described by opts,
// to without (a server without the middleware) and to with (the same server
// with it), and fails the test unless every call's result is byte for byte
// the same on the wire. Only the handshake's result may differ: it
// advertises the extension.
func CheckSameResults(tb testing.TB, without, with *mcp.Server, opts *client.Options, calls []mcp.CallToolParams) {
	tb.Helper()
	want := RawResults(tb, without, opts, calls)
	got := RawResults(tb, with, opts, calls)
	if len(want) != len(calls)+1 || len(got) != len(want) {
		tb.Fatalf("%d results without the middleware, %d with it, for %d calls and the handshake", len(want), len(got), len(calls))
	}
	compared := 0
	for id, w := range want {
		if strings.Contains(w, `"capabilities"`) {
			continue // the handshake
		}
		compared++
		if got[id] != w {
			tb.Errorf("request %s: the result differs\n got %s\nwant %s", id, got[id], w)
		}
	}
	if compared != len(calls) {
		tb.Errorf("compared %d results, want %d", compared, len(calls))
	}
}
