// Package contentnegfx provides content negotiation to go.uber.org/fx
// applications: include [Module] in an application that provides an
// *mcp.Server, and the server gets the middleware. The constructors work
// without fx as well.
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
// negotiation.Store and *middleware.Options when they are provided, and
// every [NamedTool] in the "contentneg.tools" group (see [Tool]).
var Module = fx.Module("contentneg",
	fx.Provide(New),
	fx.Invoke(Install),
	fx.Invoke(Check),
)

// NamedTool is a per-tool rendering configuration for the "contentneg.tools" group.
type NamedTool struct {
	Name string
	Tool shaping.Tool
}

// Tool returns an option that registers a per-tool rendering configuration
// with the middleware of [Module].
func Tool(name string, t shaping.Tool) fx.Option {
	return fx.Provide(fx.Annotate(
		func() NamedTool { return NamedTool{Name: name, Tool: t} },
		fx.ResultTags(`group:"contentneg.tools"`),
	))
}

// Params are what [New] takes from the application; every one is optional.
type Params struct {
	fx.In

	Logger  *zap.Logger         `optional:"true"`
	Store   negotiation.Store   `optional:"true"`
	Options *middleware.Options `optional:"true"`
	Tools   []NamedTool         `group:"contentneg.tools"`
}

// New returns the middleware Params describe. The logger and store of
// Params win over those in Params.Options.
func New(p Params) *middleware.Middleware {
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

// Install adds m to server.
func Install(m *middleware.Middleware, server *mcp.Server) { m.Install(server) }

// Check checks the middleware's options when the application starts
// (shaping.Shaper.Check: default tags naming a format the server does not
// render, for instance), after every constructor and invocation has had
// the chance to add formats: a failed check stops the start with the error.
func Check(lc fx.Lifecycle, m *middleware.Middleware) {
	lc.Append(fx.StartHook(m.Shaper().Check))
}
