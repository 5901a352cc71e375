package middleware

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap"
)

// call is what the middleware knows of a request from a client that
// declared the extension; it rides in the handler's context so that the
// sending gate and the helpers see it.
type call struct {
	m      *Middleware
	client client
	method string
	name   string // the tool or prompt name, or the resource URI
	closed bool   // the elicitation gate is closed for this client
	reason string // why it is closed
}

type callKey struct{}

func (m *Middleware) newCall(c client, method string, req mcp.Request) *call {
	closed, reason := c.profile.ElicitationGate(c.elicitation)
	return &call{m: m, client: c, method: method, name: requestName(req), closed: closed, reason: reason}
}

func withCall(ctx context.Context, c *call) context.Context {
	return context.WithValue(ctx, callKey{}, c)
}

func callFrom(ctx context.Context) (*call, bool) {
	c, ok := ctx.Value(callKey{}).(*call)
	return c, ok && c != nil
}

// requestName names what a request is about, for logs.
func requestName(req mcp.Request) string {
	switch p := req.GetParams().(type) {
	case *mcp.CallToolParamsRaw:
		if p != nil {
			return p.Name
		}
	case *mcp.GetPromptParams:
		if p != nil {
			return p.Name
		}
	case *mcp.ReadResourceParams:
		if p != nil {
			return p.URI
		}
	}
	return ""
}

// logGated records one gated elicitation at debug level.
func (c *call) logGated(path string) {
	if ce := c.m.log.Check(zap.DebugLevel, "elicitation gated"); ce != nil {
		ce.Write(
			zap.String("tool", c.name),
			zap.String("method", c.method),
			zap.String("reason", c.reason),
			zap.String("path", path),
			zap.Stringer("answer", c.m.refusal),
		)
	}
}
