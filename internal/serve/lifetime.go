package serve

import (
	"context"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/internal/httpserve"
)

// stopGrace is how long a stopping server waits for the requests under way
// to end once their calls are cancelled (http.Server.Shutdown) before it
// closes their connections (http.Server.Close): the contract's bound on the
// exit after SIGTERM is 2 s (section 10), for every front end.
const stopGrace = time.Second

// lifetime is the life of the application's servers: every request they
// serve (HTTP requests, through the server's BaseContext; MCP requests of
// go-sdk sessions, through receiving middleware) ends when it ends, so that
// a stop never waits for a call under way: in-flight calls end with an
// error, their clients are answered, and the servers stop.
type lifetime struct {
	// ctx ends HTTP requests (the servers' BaseContext); calls ends MCP
	// requests, after ctx: a REST call whose MCP request fails because the
	// stop ended it then finds its own context already ended, and answers
	// 503, never 500 (context.AfterFunc runs in a goroutine of its own, so
	// one context for both let the MCP error overtake the HTTP request's
	// cancellation).
	ctx         context.Context
	cancel      context.CancelFunc
	calls       context.Context
	cancelCalls context.CancelFunc

	once     sync.Once
	deadline time.Time // stopGrace after the first end: shared by every server's stop
}

func newLifetime() *lifetime {
	ctx, cancel := context.WithCancel(context.Background())
	calls, cancelCalls := context.WithCancel(context.Background())
	return &lifetime{ctx: ctx, cancel: cancel, calls: calls, cancelCalls: cancelCalls}
}

// end cancels every request under way; it may be called more than once.
func (l *lifetime) end() {
	l.once.Do(func() {
		l.deadline = time.Now().Add(stopGrace)
		l.cancel()      // every HTTP request's context has ended when it returns
		l.cancelCalls() // then the MCP requests'
	})
}

// serveHTTP makes srv's requests end with l.
func (l *lifetime) serveHTTP(srv *http.Server) {
	srv.BaseContext = func(net.Listener) context.Context { return l.ctx }
}

// middleware makes every MCP request of a go-sdk server end with l: a go-sdk
// session's requests live in the session's context, not in an HTTP
// request's.
func (l *lifetime) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		stop := context.AfterFunc(l.calls, cancel)
		defer stop()
		return next(ctx, method, req)
	}
}

// stop ends srv's requests (l.end), waits for their answers until
// stopGrace after the first end (every server of the application shares
// it, so that stopping them one after the other takes no longer), never
// past ctx, then closes what is left.
func (l *lifetime) stop(ctx context.Context, srv *http.Server) error {
	l.end()
	ctx, cancel := context.WithDeadline(ctx, l.deadline)
	defer cancel()
	return httpserve.Stop(ctx, srv)
}
