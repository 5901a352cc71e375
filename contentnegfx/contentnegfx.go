// Package contentnegfx provides content negotiation to go.uber.org/fx
// applications: include [Module] in an application that provides an
// *mcp.Server, and the server gets the middleware; [Tool] gives a tool its
// own renderings. Without fx, package middleware's Install is the one call.
package contentnegfx

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/fx"
	"go.uber.org/zap"

	"github.com/contentneg/contentneg/middleware"
	"github.com/contentneg/contentneg/negotiation"
	"github.com/contentneg/contentneg/shaping"
)

// Module provides a *middleware.Middleware and installs it on the
// application's *mcp.Server. It uses the application's *zap.Logger,
// negotiation.Store and *middleware.Options when they are provided (the
// logger and store win over those of the options), and the tools given
// with [Tool]. When the application starts, after every constructor and
// invocation has had the chance to add formats, it checks the
// middleware's options (shaping.Shaper.Check: default tags naming a
// format the server does not render, for instance): a failed check stops
// the start with the error.
var Module = fx.Module("contentneg",
	fx.Provide(newMiddleware),
	fx.Invoke(install),
	fx.Invoke(check),
)

// namedTool is a per-tool rendering configuration for the "contentneg.tools" group.
type namedTool struct {
	Name string
	Tool shaping.Tool
}

// Tool returns an option that registers a per-tool rendering configuration
// with the middleware of [Module], as middleware.Middleware.Register does.
func Tool(name string, t shaping.Tool) fx.Option {
	return fx.Provide(fx.Annotate(
		func() namedTool { return namedTool{Name: name, Tool: t} },
		fx.ResultTags(`group:"contentneg.tools"`),
	))
}

// params are what [newMiddleware] takes from the application; every one is optional.
type params struct {
	fx.In

	Logger  *zap.Logger         `optional:"true"`
	Store   negotiation.Store   `optional:"true"`
	Options *middleware.Options `optional:"true"`
	Tools   []namedTool         `group:"contentneg.tools"`
}

// newMiddleware returns the middleware p describes. The logger and store
// of p win over those in p.Options.
func newMiddleware(p params) *middleware.Middleware {
	var opts middleware.Options
	if p.Options != nil {
		opts = *p.Options
	}
	if p.Logger != nil {
		opts.Logger = p.Logger
	}
	if p.Store != nil {
		opts.Store = p.Store
	}
	m := middleware.New(&opts)
	for _, t := range p.Tools {
		m.Register(t.Name, t.Tool)
	}
	return m
}

// install adds m to server.
func install(m *middleware.Middleware, server *mcp.Server) { m.Install(server) }

// check checks the middleware's options when the application starts
// (shaping.Shaper.Check: default tags naming a format the server does not
// render, for instance), after every constructor and invocation has had
// the chance to add formats: a failed check stops the start with the error.
func check(lc fx.Lifecycle, m *middleware.Middleware) {
	lc.Append(fx.StartHook(m.Shaper().Check))
}
