// Package httpserve is the project's one serving assembly over HTTP: the
// REST binding of a shaped server, and HTTP listeners with the project's
// limits that say where they listen and stop within a deadline. The example
// servers on both SDKs (internal/serve, for cmd/demo-weather and
// examples/journey) and the gateway (cmd/contentneg) serve through it, so
// that what they serve cannot drift apart. It imports no MCP SDK: the
// gateway stays free of them.
package httpserve

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"

	"go.uber.org/zap"

	"github.com/contentneg/contentneg/rest"
	"github.com/contentneg/contentneg/shaping"
)

// RESTBase is the path the REST binding is served under.
const RESTBase = "/mcp/v1"

// RESTOptions are what a command line gives the REST binding besides its
// backend and shaper.
type RESTOptions struct {
	// Logger receives a line per backend failure; nil for none.
	Logger *zap.Logger
	// Hosts are the Host names a loopback listener answers besides the
	// loopback ones (rest.Options.Hosts).
	Hosts []string
	// APIKey, when set, is required of every request but the public ones
	// (rest.Options.APIKey).
	APIKey string
}

// REST returns the REST binding of backend under RESTBase. The media types
// it negotiates and the per-call format argument it honours are shaper's,
// the ones the server's MCP front end uses: they are not options, so that
// the binding cannot disagree with the server it wraps.
func REST(backend rest.Backend, shaper *shaping.Shaper, o RESTOptions) http.Handler {
	return rest.New(backend, &rest.Options{
		BasePath:       RESTBase,
		Negotiator:     shaper.Negotiator(),
		FormatArgument: shaper.FormatArgument(),
		CallTimeout:    restCall,
		Logger:         o.Logger,
		Hosts:          o.Hosts,
		APIKey:         o.APIKey,
	})
}

// Limits bound what one client can hold of a listener: a client that sends
// its headers or body slowly, or stops reading, holds its own connection
// for at most this long, and never anyone else's. A zero duration is no
// bound; MaxHeaderBytes 0 is net/http's default (1 MiB).
type Limits struct {
	ReadHeader, Read, Write, Idle time.Duration
	MaxHeaderBytes                int
}

// Bounded are the example servers' limits (docs/mcpgo.md, docs/rest.md):
// every request, body and answer included, is bounded in time.
var Bounded = Limits{
	ReadHeader:     10 * time.Second,
	Read:           30 * time.Second,
	Write:          60 * time.Second,
	Idle:           120 * time.Second,
	MaxHeaderBytes: 64 << 10,
}

// Streaming are the gateway's limits: headers and idle connections are
// bounded as in Bounded, but not the whole request or its answer, which
// last as long as the upstream's answer or stream does (its -call-timeout
// bounds a call, the REST binding its own body and call times).
var Streaming = Limits{
	ReadHeader: Bounded.ReadHeader,
	Idle:       Bounded.Idle,
}

// restCall bounds a REST binding's call to its backend (rest.Options.
// CallTimeout; the binding's own default too).
const restCall = 60 * time.Second

// RESTWrite is the write timeout of a listener serving the REST binding
// alone: a call may take restCall, and its answer a little more.
const RESTWrite = restCall + 5*time.Second

// Server returns a server for h with the limits l.
func (l Limits) Server(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: l.ReadHeader,
		ReadTimeout:       l.Read,
		WriteTimeout:      l.Write,
		IdleTimeout:       l.Idle,
		MaxHeaderBytes:    l.MaxHeaderBytes,
	}
}

// Listen listens on addr and serves srv there in the background until srv
// is shut down. say is called with the address listened on before the
// first request is served (to print where); failed, if not nil, with the
// error that ends the serving early. net.Listen's error is returned as
// it is: it names the address.
func Listen(srv *http.Server, addr string, say func(net.Addr), failed func(error)) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err // "listen tcp ADDR: ...": it says what failed
	}
	say(ln.Addr())
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) && failed != nil {
			failed(err)
		}
	}()
	return nil
}

// Stop shuts srv down, waiting for the requests under way until ctx ends,
// then closes the connections left.
func Stop(ctx context.Context, srv *http.Server) error {
	err := srv.Shutdown(ctx)
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return srv.Close()
	}
	return err
}
