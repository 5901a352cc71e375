package behaviour

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/internal/serve/servetest"
	"github.com/contentneg/contentneg/middleware/middlewaretest"
)

// RawResults serves srv (mcp-go) over in-process pipes, connects a client
// described by opts, runs do with its session, and returns the raw bytes of
// the "result" of every JSON-RPC response the server wrote, by request id,
// exactly as they went over the wire.
func RawResults(tb testing.TB, srv *server.MCPServer, opts *middlewaretest.Options, do func(*mcp.ClientSession) error) map[string]string {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), servetest.Timeout)
	defer cancel()
	clientR, serverW := io.Pipe()
	serverR, clientW := io.Pipe()
	rec := &middlewaretest.Recorder{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		// The recorder is written first, so a response is recorded before
		// the client can read it.
		_ = server.NewStdioServer(srv).Listen(ctx, serverR, io.MultiWriter(rec, serverW))
		serverW.Close()
	}()
	defer func() { clientW.Close(); cancel(); serverR.Close(); <-done }()
	cs, err := middlewaretest.NewClient(opts).Connect(ctx, &mcp.IOTransport{Reader: clientR, Writer: clientW}, middlewaretest.SessionOptions(opts))
	if err != nil {
		tb.Fatalf("connect: %v", err)
	}
	defer cs.Close()
	if err := do(cs); err != nil {
		tb.Fatal(err)
	}
	return rec.Results()
}

// CheckSameResults runs do on without (an mcp-go server without the
// adapter) and on with (the same server with it), and fails the test
// unless every response but the handshake's is byte for byte the same.
func CheckSameResults(tb testing.TB, without, with *server.MCPServer, opts *middlewaretest.Options, do func(*mcp.ClientSession) error) {
	tb.Helper()
	want := RawResults(tb, without, opts, do)
	got := RawResults(tb, with, opts, do)
	if len(got) != len(want) || len(want) < 2 {
		tb.Fatalf("%d responses without the adapter, %d with it", len(want), len(got))
	}
	for id, w := range want {
		if strings.Contains(w, `"capabilities"`) {
			continue // the handshake or server/discover: they advertise the extension
		}
		if got[id] != w {
			tb.Errorf("response %s differs\n got %s\nwant %s", id, got[id], w)
		}
	}
}
