// Package behaviour is the front-end-neutral test kit of the project's
// demo weather server: it starts the server on either SDK (the official
// go-sdk with package middleware, or mark3labs/mcp-go with package mcpgo),
// over any transport (in-process, stdio, streamable HTTP stateful or
// stateless), and connects the same go-sdk test clients to it, so that one
// table of cases with one set of expected wire results runs against both
// front ends. It decides nothing; it only starts and connects.
package behaviour

import (
	"context"
	"errors"
	"io"
	"testing"

	"github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/internal/serve"
	"github.com/contentneg/contentneg/internal/serve/servetest"
	"github.com/contentneg/contentneg/middleware/client"
)

// SDK names a front end: serve.SDKGo or serve.SDKMCPGo.
type SDK string

// The two front ends.
var SDKs = []SDK{serve.SDKGo, serve.SDKMCPGo}

// Transport is how a client reaches the server.
type Transport string

// The transports.
const (
	InProcess     Transport = "in-process"
	Stdio         Transport = "stdio"
	HTTPStateful  Transport = "http-stateful"
	HTTPStateless Transport = "http-stateless"
)

// Transports lists every transport.
var Transports = []Transport{InProcess, Stdio, HTTPStateful, HTTPStateless}

// ConnectMCPGo serves srv over in-process pipes with mcp-go's stdio
// transport and connects a client described by opts to it; both end when
// the test does. mcp-go's stdio transport has one session per process:
// connections made this way must not overlap.
func ConnectMCPGo(t testing.TB, srv *server.MCPServer, opts *client.Options) *mcp.ClientSession {
	t.Helper()
	clientR, serverW := io.Pipe()
	serverR, clientW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		err := server.NewStdioServer(srv).Listen(ctx, serverR, serverW)
		serverW.Close()
		done <- err
	}()
	stop := func() {
		clientW.Close()
		cancel()
		serverR.Close()
		if err := <-done; err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrClosedPipe) {
			t.Errorf("stdio server: %v", err)
		}
	}
	connectCtx, cancelConnect := context.WithTimeout(ctx, servetest.Timeout)
	defer cancelConnect()
	cs, err := client.New(opts).Connect(connectCtx, &mcp.IOTransport{Reader: clientR, Writer: clientW}, client.SessionOptions(opts))
	if err != nil {
		stop()
		t.Fatalf("connect over pipes: %v", err)
	}
	t.Cleanup(func() { _ = cs.Close(); stop() })
	return cs
}
