package serve

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/fx"
	"go.uber.org/zap"

	"github.com/contentneg/contentneg/internal/httpserve"
	"github.com/contentneg/contentneg/rest/gosdkbackend"
)

// RESTBase is the path the demo serves the REST binding under.
const RESTBase = httpserve.RESTBase

// limits are the demo's HTTP limits, the same on both SDKs
// (httpserve.Bounded); an MCP request body over maxBody is refused with
// 413. Tests of this package shorten them (export_test.go); nothing else
// changes them.
var (
	limits  = httpserve.Bounded
	maxBody = int64(mcp.DefaultMaxRequestBodyBytes) // 4 MiB, the go-sdk's own
)

// DefaultSessionIdle is how long an MCP session over HTTP may stay idle
// (no request from its client) before the demo closes it: long enough for a
// person to read a result and come back, short enough that clients which
// go away without a DELETE do not hold memory for ever.
const DefaultSessionIdle = 30 * time.Minute

// newHTTPServer returns a server for h with the demo's limits, whose
// requests end with life.
func newHTTPServer(h http.Handler, life *lifetime) *http.Server {
	srv := limits.Server(h)
	life.serveHTTP(srv)
	return srv
}

// newRESTServer returns a server for the REST binding with the demo's
// limits, whose requests end with life; its handler is set when it
// starts.
func newRESTServer(life *lifetime) *http.Server {
	l := limits
	l.Write = httpserve.RESTWrite // a call may take this long
	srv := l.Server(nil)
	life.serveHTTP(srv)
	return srv
}

// listen serves srv on addr, saying where on stderr, and logs an error
// that ends it early.
func listen(srv *http.Server, addr string, stderr io.Writer, log *zap.Logger, what, path string) error {
	return httpserve.Listen(srv, addr,
		func(at net.Addr) { fmt.Fprintf(stderr, "%s at http://%s%s\n", what, at, path) },
		func(err error) { log.Error("http server stopped", zap.String("serving", path), zap.Error(err)) })
}

// startREST serves the REST binding under RESTBase until the application
// stops, through an in-memory session to the server, requiring the API key
// when one is configured.
func startREST(lc fx.Lifecycle, p modeParams, life *lifetime, stderr io.Writer) {
	srv := newRESTServer(life)
	var backend gosdkbackend.Backend
	lc.Append(fx.Hook{
		OnStart: func(ctx context.Context) error {
			// The session outlives the start: it must not end with ctx.
			var err error
			if backend, err = gosdkbackend.New(context.WithoutCancel(ctx), p.Server, nil); err != nil {
				return fmt.Errorf("serve REST: %w", err)
			}
			srv.Handler = httpserve.REST(backend, p.Middleware.Shaper(), httpserve.RESTOptions{Logger: p.Logger, APIKey: p.Config.APIKey})
			if err := listen(srv, p.Config.RESTAddr, stderr, p.Logger, p.App.Name+": serving REST", RESTBase); err != nil {
				_ = backend.Close()
				backend = nil
				return fmt.Errorf("serve REST: %w", err)
			}
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
