package gateway

import (
	"context"
	"io"
)

// Conn is a connection that carries JSON-RPC messages, for the tests'
// own upstreams and clients.
type Conn = msgConn

// DefaultMaxResult is the default of Options.MaxResult.
const DefaultMaxResult = defaultMaxResult

// NewStreamConn returns a Conn of newline-delimited messages on r and w;
// Close closes closer (nil for none).
func NewStreamConn(r io.Reader, w io.Writer, closer io.Closer, maxMessage int) Conn {
	return newStreamConn(r, w, closer, maxMessage)
}

// DialFunc is a Dialer made of a function: an upstream of a test's own.
type DialFunc func(ctx context.Context, maxMessage int) (Conn, error)

func (f DialFunc) connect(ctx context.Context, maxMessage int) (msgConn, error) {
	return f(ctx, maxMessage)
}

// ServeConn serves one downstream client on c.
func (g *Gateway) ServeConn(ctx context.Context, c Conn) error { return g.serveConn(ctx, c) }

// Upstreams returns how many upstream sessions of downstream sessions'
// own are open.
func (g *Gateway) Upstreams() int { return g.upstreams() }
