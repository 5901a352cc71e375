package serve

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/fx"
	"go.uber.org/zap"

	"github.com/contentneg/contentneg/internal/httpserve"
	"github.com/contentneg/contentneg/mcpgo"
	"github.com/contentneg/contentneg/middleware/client"
	"github.com/contentneg/contentneg/rest/mcpgobackend"
)

// mcpgoOptions wires the mcp-go version of the application: logger, the
// app's mcp-go constructors, the adapter with the app's renderers, and the
// mode.
func mcpgoOptions(app App, cfg Config, stdin io.Reader, stdout, stderr io.Writer) []fx.Option {
	switch {
	case len(app.MCPGo) == 0:
		return []fx.Option{fx.Error(fmt.Errorf("%s has no %s version", app.Name, SDKMCPGo))}
	}
	return []fx.Option{
		fx.Supply(cfg, app),
		fx.Provide(func() *zap.Logger { return newLogger(cfg.Verbose, stderr) }),
		fx.Provide(app.MCPGo...),
		fx.NopLogger, // as for the go-sdk: -v is for the negotiation
		fx.Invoke(func(lc fx.Lifecycle, sd fx.Shutdowner, srv *server.MCPServer, log *zap.Logger) error {
			opts := cfg.contentnegOptions()
			opts.Logger, opts.Tools = log, app.Tools
			a := mcpgo.Install(srv, &opts)
			if err := a.Shaper().Check(); err != nil {
				return err
			}
			startMCPGo(lc, sd, cfg, app, srv, a, log, stdin, stdout, stderr)
			return nil
		}),
	}
}

// startMCPGo hooks the chosen mode of an mcp-go server into the
// application's lifecycle, as startMode does for the go-sdk.
func startMCPGo(lc fx.Lifecycle, sd fx.Shutdowner, cfg Config, app App, srv *server.MCPServer, a *mcpgo.Adapter, log *zap.Logger, stdin io.Reader, stdout, stderr io.Writer) {
	// mcp-go serves an HTTP request's MCP requests in the HTTP request's
	// context: the servers' BaseContext ends them all when the application
	// stops.
	life := newLifetime()
	if cfg.RESTAddr != "" {
		// Hooked last, so stopped first, as for the go-sdk.
		defer startMCPGoREST(lc, cfg, app, srv, a, life, log, stderr)
	}
	switch {
	case cfg.HTTPAddr != "":
		startMCPGoHTTP(lc, cfg, app, srv, life, log, stderr)
		return
	case cfg.RESTAddr != "" && !cfg.Stdio:
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	finish := func(err error) {
		code := 0
		if err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", app.Name, err)
			code = 1
		}
		close(done)
		_ = sd.Shutdown(fx.ExitCode(code))
	}
	run := func() error { return app.Showcase(withMCPGo(ctx, srv), stdout, nil) }
	if cfg.Stdio {
		run = func() error { return listenStdio(ctx, srv, stdin, stdout, log) }
	}
	lc.Append(fx.StartStopHook(
		func() { go func() { finish(run()) }() },
		func() { cancel(); <-done },
	))
}

// listenStdio serves srv over stdin and stdout until stdin ends or ctx is
// cancelled.
func listenStdio(ctx context.Context, srv *server.MCPServer, stdin io.Reader, stdout io.Writer, log *zap.Logger) error {
	s := server.NewStdioServer(srv)
	s.SetErrorLogger(zap.NewStdLog(log.Named("stdio")))
	err := s.Listen(ctx, stdin, stdout)
	if errors.Is(err, context.Canceled) || errors.Is(err, io.EOF) {
		return nil
	}
	return err
}

// startMCPGoHTTP serves streamable HTTP at /mcp until the application stops.
func startMCPGoHTTP(lc fx.Lifecycle, cfg Config, app App, srv *server.MCPServer, life *lifetime, log *zap.Logger, stderr io.Writer) {
	// mcp-go's transport logs with slog (its default: slog.Default, at
	// info): to stderr here too, warnings only unless -v.
	level := slog.LevelWarn
	if cfg.Verbose {
		level = slog.LevelDebug
	}
	httpLog := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	// Stateful: the session IDs are the server's own, so that an expired
	// or deleted session is 404 to its client, as on the go-sdk (mcp-go's
	// default accepts any well-formed ID).
	handler := server.NewStreamableHTTPServer(srv,
		server.WithStateLess(cfg.Stateless),
		server.WithStateful(!cfg.Stateless),
		server.WithSessionIdleTTL(cfg.SessionIdle),
		server.WithStreamableHTTPLogger(httpLog))
	mux := http.NewServeMux()
	mux.Handle("/mcp", limitBody(handler, maxBody))
	hs := newHTTPServer(mux, life) // the go-sdk mode's limits
	lc.Append(fx.Hook{
		OnStart: func(context.Context) error {
			mode := "stateful"
			if cfg.Stateless {
				mode = "stateless"
			}
			if err := listen(hs, cfg.HTTPAddr, stderr, log, app.Name+": "+SDKMCPGo+": serving MCP ("+mode+")", "/mcp"); err != nil {
				return fmt.Errorf("serve HTTP: %w", err) // as on the go-sdk
			}
			return nil
		},
		OnStop: func(ctx context.Context) error {
			// The calls under way first, then sessions: an open stream
			// would keep Shutdown waiting.
			life.end()
			sessionsCtx, cancel := context.WithDeadline(ctx, life.deadline)
			_ = handler.Shutdown(sessionsCtx)
			cancel()
			return life.stop(ctx, hs)
		},
	})
}

type mcpgoKey struct{}

func withMCPGo(ctx context.Context, srv *server.MCPServer) context.Context {
	return context.WithValue(ctx, mcpgoKey{}, srv)
}

// connectMCPGo connects a client described by opts to the mcp-go server
// over streamable HTTP on a loopback port of its own (mcp-go's stdio
// transport serves one session per process, and a showcase connects
// several); closeAll closes the client and stops that listener.
func connectMCPGo(ctx context.Context, srv *server.MCPServer, opts *client.Options) (cs *mcp.ClientSession, closeAll func(), err error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, nil, fmt.Errorf("listen: %w", err)
	}
	handler := server.NewStreamableHTTPServer(srv, server.WithStreamableHTTPLogger(slog.New(slog.DiscardHandler)))
	hs := &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = hs.Serve(ln) }()
	stop := func() {
		stopCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = handler.Shutdown(stopCtx)
		_ = hs.Shutdown(stopCtx)
	}
	transport := &mcp.StreamableClientTransport{Endpoint: "http://" + ln.Addr().String() + "/mcp"}
	cs, err = client.New(opts).Connect(ctx, transport, client.SessionOptions(opts))
	if err != nil {
		stop()
		return nil, nil, fmt.Errorf("connect client: %w", err)
	}
	return cs, func() { _ = cs.Close(); stop() }, nil
}

// startMCPGoREST serves the REST binding under RESTBase until the
// application stops, through the server's own dispatch (package
// mcpgobackend), requiring the API key when one is configured.
func startMCPGoREST(lc fx.Lifecycle, cfg Config, app App, srv *server.MCPServer, a *mcpgo.Adapter, life *lifetime, log *zap.Logger, stderr io.Writer) {
	hs := newRESTServer(life)
	// The backend adds a hook to the server: before any mode serves it.
	backend, backendErr := mcpgobackend.New(context.Background(), srv)
	lc.Append(fx.Hook{
		OnStart: func(ctx context.Context) error {
			if backendErr != nil {
				return fmt.Errorf("serve REST: %w", backendErr)
			}
			hs.Handler = httpserve.REST(backend, a.Shaper(), httpserve.RESTOptions{Logger: log, APIKey: cfg.APIKey})
			if err := listen(hs, cfg.RESTAddr, stderr, log, app.Name+": serving REST", RESTBase); err != nil {
				return fmt.Errorf("serve REST: %w", err)
			}
			return nil
		},
		OnStop: func(ctx context.Context) error { return life.stop(ctx, hs) }, // the calls under way end, with 503
	})
}

// limitBody refuses request bodies over max bytes with 413, as the go-sdk's
// handler does (mcp-go reads any body whole, and answers a parse error for
// one it could not read). The body is read here, under the server's read
// timeout, and handed on in memory.
func limitBody(h http.Handler, max int64) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body == nil || r.Body == http.NoBody {
			h.ServeHTTP(w, r)
			return
		}
		if r.ContentLength > max {
			http.Error(w, fmt.Sprintf("request body exceeds %d bytes", max), http.StatusRequestEntityTooLarge)
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, max))
		if err != nil {
			var tooLarge *http.MaxBytesError
			if errors.As(err, &tooLarge) {
				http.Error(w, fmt.Sprintf("request body exceeds %d bytes", max), http.StatusRequestEntityTooLarge)
				return
			}
			http.Error(w, "failed to read body", http.StatusBadRequest)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		h.ServeHTTP(w, r)
	})
}
