package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/fx"
	"go.uber.org/zap"

	"github.com/contentneg/contentneg/middleware"
)

// modeParams is what every mode needs from the application.
type modeParams struct {
	fx.In

	Config Config
	App    App
	Server *mcp.Server
	Logger *zap.Logger
	// Middleware ends the open elicitations first when the application
	// stops, so that closing sessions does not wait on their clients; the
	// REST binding serves through it.
	Middleware *middleware.Middleware
}

// startMode hooks the chosen mode into the application's lifecycle. The
// showcase and stdio modes shut the application down when they are done.
func startMode(lc fx.Lifecycle, sd fx.Shutdowner, p modeParams, stdin io.Reader, stdout, stderr io.Writer) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	finish := func(err error) {
		code := 0
		if err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", p.App.Name, err)
			code = 1
		}
		close(done)
		_ = sd.Shutdown(fx.ExitCode(code))
	}

	// Every request under way ends when the application stops, whichever
	// server stops first.
	life := newLifetime()
	p.Server.AddReceivingMiddleware(life.middleware)
	if p.Config.RESTAddr != "" {
		// Hooked last, so stopped first: its requests end before the other
		// modes close the server's sessions, the REST binding's among them.
		defer startREST(lc, p, life, stderr)
	}
	switch {
	case p.Config.HTTPAddr != "":
		startHTTP(lc, p, life, stderr)
		cancel()
		return
	case p.Config.RESTAddr != "" && !p.Config.Stdio:
		cancel()
		return
	case p.Config.Stdio:
		lc.Append(fx.StartStopHook(
			func() {
				go func() {
					t := &mcp.IOTransport{Reader: io.NopCloser(stdin), Writer: nopWriteCloser{stdout}}
					err := p.Server.Run(ctx, t)
					if errors.Is(err, context.Canceled) {
						err = nil
					}
					finish(err)
				}()
			},
			func() { p.Middleware.Close(); cancel(); <-done },
		))
	default:
		lc.Append(fx.StartStopHook(
			func() { go func() { finish(p.App.Showcase(ctx, stdout, p.Server)) }() },
			func() { cancel(); <-done },
		))
	}
}

// startHTTP serves streamable HTTP at /mcp until the application stops.
func startHTTP(lc fx.Lifecycle, p modeParams, life *lifetime, stderr io.Writer) {
	handler := p.Middleware.Handler(mcp.NewStreamableHTTPHandler(
		func(*http.Request) *mcp.Server { return p.Server },
		&mcp.StreamableHTTPOptions{
			Stateless:           p.Config.Stateless,
			MaxRequestBodyBytes: maxBody,
			SessionTimeout:      p.Config.SessionIdle,
		},
	))
	mux := http.NewServeMux()
	mux.Handle("/mcp", handler)
	srv := newHTTPServer(mux, life)
	lc.Append(fx.Hook{
		OnStart: func(context.Context) error {
			mode := "stateful"
			if p.Config.Stateless {
				mode = "stateless"
			}
			if err := listen(srv, p.Config.HTTPAddr, stderr, p.Logger, p.App.Name+": serving MCP ("+mode+")", "/mcp"); err != nil {
				return fmt.Errorf("serve HTTP: %w", err)
			}
			return nil
		},
		OnStop: func(ctx context.Context) error {
			// The calls under way first, and open questions: closing a
			// session waits for its requests under way. Then sessions: a
			// stateful client's open SSE stream would otherwise keep
			// Shutdown waiting, and its session running.
			life.end()
			p.Middleware.Close()
			for ss := range p.Server.Sessions() {
				_ = ss.Close()
			}
			return life.stop(ctx, srv)
		},
	})
}

// nopWriteCloser lets stdout serve as the write side of a transport without
// closing it.
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
