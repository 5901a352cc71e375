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
	"time"

	"github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/examples/weather"
	"github.com/contentneg/contentneg/examples/weather/weathermcp"
	"github.com/contentneg/contentneg/examples/weather/weathermcpgo"
	"github.com/contentneg/contentneg/internal/serve"
	"github.com/contentneg/contentneg/internal/serve/servetest"
	"github.com/contentneg/contentneg/mcpgo"
	"github.com/contentneg/contentneg/middleware"
	"github.com/contentneg/contentneg/middleware/middlewaretest"
)

// Noon is the fixed clock of the kit's servers: 2026-11-20 13:00 UTC.
func Noon() time.Time { return time.Date(2026, 11, 20, 13, 0, 0, 0, time.UTC) }

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

// App describes the demo weather server to package serve, on the fixed
// clock, with both SDKs' versions.
func App() serve.App {
	svc := func() *weather.Service { return weather.NewService(Noon) }
	return serve.App{
		Name:    "demo-weather",
		Provide: []any{svc, weathermcp.NewServer},
		MCPGo:   []any{svc, weathermcpgo.NewServer},
		Tools:   weathermcp.Tools(),
	}
}

// GoSDKServer returns the go-sdk demo with the middleware, or without it.
func GoSDKServer(negotiated bool) *mcp.Server {
	s := weathermcp.NewServer(weather.NewService(Noon))
	if negotiated {
		middleware.Install(s, &middleware.Options{Tools: weathermcp.Tools()})
	}
	return s
}

// MCPGoServer returns the mcp-go demo with the adapter, or without it.
func MCPGoServer(negotiated bool) *server.MCPServer {
	s := weathermcpgo.NewServer(weather.NewService(Noon))
	if negotiated {
		mcpgo.Install(s, &mcpgo.Options{Tools: weathermcp.Tools()})
	}
	return s
}

// Server is one running demo server that clients connect to.
type Server struct {
	SDK       SDK
	Transport Transport
	url       string // HTTP transports
}

// Start starts the demo on sdk for transport; it stops when the test ends.
// In-process and stdio servers start anew for every connection.
func Start(t *testing.T, sdk SDK, transport Transport) *Server {
	t.Helper()
	s := &Server{SDK: sdk, Transport: transport}
	if transport == HTTPStateful || transport == HTTPStateless {
		t.Setenv(serve.SDKEnv, string(sdk))
		s.url = servetest.HTTP(t, App(), transport == HTTPStateless)
	}
	return s
}

// Connect connects a client described by opts; the session closes when the
// test ends.
func (s *Server) Connect(t *testing.T, opts *middlewaretest.Options) *mcp.ClientSession {
	t.Helper()
	switch s.Transport {
	case InProcess:
		if s.SDK == serve.SDKMCPGo {
			return ConnectMCPGo(t, MCPGoServer(true), opts)
		}
		return middlewaretest.Connect(t, GoSDKServer(true), opts)
	case Stdio:
		t.Setenv(serve.SDKEnv, string(s.SDK))
		return servetest.Stdio(t, App(), opts)
	}
	return servetest.HTTPSession(t, s.url, opts)
}

// ConnectMCPGo serves srv over in-process pipes with mcp-go's stdio
// transport and connects a client described by opts to it; both end when
// the test does. mcp-go's stdio transport has one session per process:
// connections made this way must not overlap.
func ConnectMCPGo(t testing.TB, srv *server.MCPServer, opts *middlewaretest.Options) *mcp.ClientSession {
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
	cs, err := middlewaretest.NewClient(opts).Connect(connectCtx, &mcp.IOTransport{Reader: clientR, Writer: clientW}, middlewaretest.SessionOptions(opts))
	if err != nil {
		stop()
		t.Fatalf("connect over pipes: %v", err)
	}
	t.Cleanup(func() { _ = cs.Close(); stop() })
	return cs
}
