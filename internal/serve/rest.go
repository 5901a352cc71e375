package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/fx"
	"go.uber.org/zap"

	"github.com/contentneg/contentneg/rest"
	"github.com/contentneg/contentneg/rest/gosdkbackend"
)

// RESTBase is the path the demo serves the REST binding under.
const RESTBase = "/mcp/v1"

// httpLimits are the limits of the demo's HTTP servers, the same on both
// SDKs: a client that sends its headers or body slowly, or stops reading,
// holds its own connection for at most this long, and never anyone
// else's; an MCP request body over maxBody is refused with 413.
type httpLimits struct {
	readHeader, read, write, idle time.Duration
	maxHeaderBytes                int
	maxBody                       int64
}

// limits are the demo's HTTP limits. Tests of this package shorten them
// (export_test.go); nothing else changes them.
var limits = httpLimits{
	readHeader:     10 * time.Second,
	read:           30 * time.Second,
	write:          60 * time.Second,
	idle:           120 * time.Second,
	maxHeaderBytes: 64 << 10,
	maxBody:        mcp.DefaultMaxRequestBodyBytes, // 4 MiB, the go-sdk's own
}

// DefaultSessionIdle is how long an MCP session over HTTP may stay idle
// (no request from its client) before the demo closes it: long enough for a
// person to read a result and come back, short enough that clients which
// go away without a DELETE do not hold memory for ever.
const DefaultSessionIdle = 30 * time.Minute

// newHTTPServer returns a server for h with the demo's timeouts.
func newHTTPServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: limits.readHeader,
		ReadTimeout:       limits.read,
		WriteTimeout:      limits.write,
		IdleTimeout:       limits.idle,
		MaxHeaderBytes:    limits.maxHeaderBytes,
	}
}

// startREST serves the REST binding under RESTBase until the application
// stops, through an in-memory session to the server, requiring the API key
// when one is configured.
func startREST(lc fx.Lifecycle, p modeParams, life *lifetime, stderr io.Writer) {
	srv := newHTTPServer(nil)
	life.serveHTTP(srv)
	srv.WriteTimeout = rest.DefaultCallTimeout + 5*time.Second // a call may take this long
	var backend *gosdkbackend.Backend
	lc.Append(fx.Hook{
		OnStart: func(ctx context.Context) error {
			ln, err := net.Listen("tcp", p.Config.RESTAddr)
			if err != nil {
				return fmt.Errorf("serve REST: %w", err) // err names the address
			}
			// The session outlives the start: it must not end with ctx.
			if backend, err = gosdkbackend.New(context.WithoutCancel(ctx), p.Server, nil); err != nil {
				_ = ln.Close()
				return fmt.Errorf("serve REST: %w", err)
			}
			h := rest.New(backend, &rest.Options{
				BasePath:       RESTBase,
				Negotiator:     p.Middleware.Shaper().Negotiator(),
				Logger:         p.Logger,
				FormatArgument: p.Middleware.Shaper().FormatArgument(),
			})
			srv.Handler = h.RequireAPIKey(p.Config.APIKey)
			fmt.Fprintf(stderr, "%s: serving REST at http://%s%s\n", p.App.Name, ln.Addr(), RESTBase)
			go func() {
				if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
					p.Logger.Error("rest server stopped", zap.Error(err))
				}
			}()
			return nil
		},
		OnStop: func(ctx context.Context) error {
			err := life.stop(ctx, srv) // the calls under way end, with 503
			if backend != nil {
				_ = backend.Close()
			}
			return err
		},
	})
}
