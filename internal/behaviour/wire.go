package behaviour

import (
	"context"
	"io"
	"testing"

	"github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/internal/rawjson"
	"github.com/contentneg/contentneg/internal/serve/servetest"
	"github.com/contentneg/contentneg/middleware/client"
	"github.com/contentneg/contentneg/middleware/middlewaretest"
)

// RawResults serves srv (mcp-go) over in-process pipes, connects a client
// described by opts, runs do with its session, and returns the raw bytes of
// the "result" of every JSON-RPC response the server wrote, by request id,
// exactly as they went over the wire.
func RawResults(tb testing.TB, srv *server.MCPServer, opts *client.Options, do func(*mcp.ClientSession) error) map[string]string {
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
	cs, err := client.New(opts).Connect(ctx, &mcp.IOTransport{Reader: clientR, Writer: clientW}, client.SessionOptions(opts))
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
// unless every response is byte for byte the same, the handshake's (and
// server/discover's) once the one member the adapter adds is taken out:
// the extension in capabilities.extensions. It fails too when it compared
// nothing.
func CheckSameResults(tb testing.TB, without, with *server.MCPServer, opts *client.Options, do func(*mcp.ClientSession) error) {
	tb.Helper()
	want := RawResults(tb, without, opts, do)
	got := RawResults(tb, with, opts, do)
	if len(got) != len(want) || len(want) < 2 {
		tb.Fatalf("%d responses without the adapter, %d with it", len(want), len(got))
	}
	compared := 0
	for id, w := range want {
		g, ok := got[id]
		if !ok {
			tb.Errorf("response %s: none with the adapter", id)
			continue
		}
		compared++
		if withoutExtension(g) != w {
			tb.Errorf("response %s differs (the extension's advertisement taken out)\n got %s\nwant %s", id, g, w)
		}
	}
	if compared != len(want) || compared == 0 {
		tb.Errorf("compared %d responses of %d", compared, len(want))
	}
}

// extensionID is the content-negotiation extension's name in
// capabilities.extensions.
const extensionID = "io.modelcontextprotocol/content-negotiation"

// withoutExtension returns result without the extension's member of
// capabilities.extensions (and without extensions when that was its only
// member), every other byte as it was; result itself when it has none.
func withoutExtension(result string) string {
	doc := []byte(result)
	caps, ok := rawjson.Get(doc, "capabilities")
	if !ok {
		return result
	}
	ext, ok := rawjson.Get(caps, "extensions")
	if !ok {
		return result
	}
	if _, ok := rawjson.Get(ext, extensionID); !ok {
		return result
	}
	ext = rawjson.Delete(ext, extensionID)
	if members, ok := rawjson.Members(ext); ok && len(members) == 0 {
		caps = rawjson.Delete(caps, "extensions")
	} else {
		caps = rawjson.Set(caps, "extensions", ext)
	}
	return string(rawjson.Set(doc, "capabilities", caps))
}
