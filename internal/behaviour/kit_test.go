package behaviour

import (
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
	"github.com/contentneg/contentneg/middleware/client"
	"github.com/contentneg/contentneg/middleware/middlewaretest"
)

// The demo weather server the kit starts: in a test file, so that no
// package that is not a test imports examples/.

// Noon is the fixed clock of the kit's servers: 2026-11-20 13:00 UTC.
func Noon() time.Time { return time.Date(2026, 11, 20, 13, 0, 0, 0, time.UTC) }

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
func (s *Server) Connect(t *testing.T, opts *client.Options) *mcp.ClientSession {
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
