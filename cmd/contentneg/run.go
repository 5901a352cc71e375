package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/contentneg/contentneg/internal/gateway"
	"github.com/contentneg/contentneg/internal/gatewayconfig"
	"github.com/contentneg/contentneg/rest"
	"github.com/contentneg/contentneg/rest/gosdkbackend"
	"github.com/contentneg/contentneg/shaping"
)

const (
	name = "contentneg"
	// restBase is where the REST binding is served.
	restBase = "/mcp/v1"
	// apiKeyEnv holds the REST binding's API key.
	apiKeyEnv = "CONTENTNEG_API_KEY"
	// stopBudget bounds the shutdown: SIGTERM ends everything within 2 s.
	stopBudget = 1500 * time.Millisecond
	// terminate is how long the upstream command has to exit once its
	// stdin is closed, before SIGTERM (and as long again before SIGKILL).
	terminate = 300 * time.Millisecond
)

// config is what the command line asks for.
type config struct {
	command     []string
	upstream    string
	stdio       bool
	httpAddr    string
	stateless   bool
	restAddr    string
	callTimeout time.Duration
	sessionIdle time.Duration
	verbose     bool
	// defaults are the tags of clients that declare nothing (-default).
	defaults string
	// formatArgument names the per-call format argument (-format-argument).
	formatArgument string
	// configFile is the config file (-config), "" for none.
	configFile string
	// roots passes the upstream's roots/list on (-roots; by default only
	// when stdio, one client, is the only downstream).
	roots bool
	// set holds the flags given on the command line: they win over the
	// config file's keys, even when empty.
	set map[string]bool
}

// parse reads the command line; usage errors are written to stderr.
func parse(args []string, stderr io.Writer) (config, error) {
	var cfg config
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: %s [flags] -- COMMAND ARGS...\n       %s -upstream URL [flags]\n", name, name)
		fs.PrintDefaults()
	}
	fs.StringVar(&cfg.upstream, "upstream", "", "connect to this streamable-HTTP MCP server instead of running a command")
	fs.BoolVar(&cfg.stdio, "stdio", false, "serve on stdio (the default when neither -http nor -rest is given)")
	fs.StringVar(&cfg.httpAddr, "http", "", "serve streamable HTTP on this address (path /mcp)")
	fs.BoolVar(&cfg.stateless, "stateless", false, "with -http: serve the stateless protocol (no sessions)")
	fs.StringVar(&cfg.restAddr, "rest", "", "serve the REST binding on this address (path "+restBase+"); $"+apiKeyEnv+", when set, is the key it requires")
	fs.DurationVar(&cfg.callTimeout, "call-timeout", gateway.DefaultCallTimeout, "bound every request forwarded to the upstream")
	fs.DurationVar(&cfg.sessionIdle, "session-idle", 30*time.Minute, "with -http: close a session whose client sent nothing for this long (0: never)")
	fs.BoolVar(&cfg.verbose, "v", false, "log at debug level on stderr")
	fs.StringVar(&cfg.defaults, "default", "", `feature tags for clients that declare nothing, e.g. "human, format=markdown" (default: none, their results pass through unchanged)`)
	fs.StringVar(&cfg.formatArgument, "format-argument", "", "add an optional argument of this name to every tool, with which the model chooses a call's format (default: none)")
	fs.StringVar(&cfg.configFile, "config", "", "read per-tool settings, default tags, the format argument and the REST key's variable from this YAML file (docs/gateway.md); flags given win over its keys")
	fs.BoolVar(&cfg.roots, "roots", false, "pass the upstream's requests for roots to the calling client that has roots (default: on when stdio is the only downstream; every downstream client shares the upstream's roots)")
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	cfg.set = map[string]bool{}
	fs.Visit(func(f *flag.Flag) { cfg.set[f.Name] = true })
	cfg.command = fs.Args()
	if cfg.httpAddr == "" && cfg.restAddr == "" {
		cfg.stdio = true
		if !cfg.set["roots"] {
			cfg.roots = true
		}
	}
	var err error
	switch {
	case len(cfg.command) > 0 && cfg.upstream != "":
		err = errors.New("give either -upstream URL or -- COMMAND ARGS..., not both")
	case len(cfg.command) == 0 && cfg.upstream == "":
		err = errors.New("no upstream: give -- COMMAND ARGS... or -upstream URL")
	case cfg.stateless && cfg.httpAddr == "":
		err = errors.New("-stateless needs -http")
	case cfg.callTimeout <= 0:
		err = fmt.Errorf("-call-timeout %v: want a positive duration", cfg.callTimeout)
	case cfg.sessionIdle < 0:
		err = fmt.Errorf("-session-idle %v: want a duration of 0 or more", cfg.sessionIdle)
	}
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
	}
	return cfg, err
}

// run runs the gateway until ctx ends, stdin ends (in stdio mode) or the
// upstream goes away; it returns the exit code: 0, 1 for a failure, 2 for
// a usage error.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cfg, err := parse(args, stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	log := newLogger(cfg.verbose, stderr)
	if err := serve(ctx, cfg, log, stdin, stdout, stderr); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return 1
	}
	return 0
}

// upstreamTransport returns how the gateway reaches the upstream, anew for
// each (re)start.
func upstreamTransport(cfg config, stderr io.Writer) func() mcp.Transport {
	return func() mcp.Transport {
		if cfg.upstream != "" {
			return &mcp.StreamableClientTransport{Endpoint: cfg.upstream}
		}
		cmd := exec.Command(cfg.command[0], cfg.command[1:]...)
		cmd.Stderr = stderr
		return &mcp.CommandTransport{Command: cmd, TerminateDuration: terminate}
	}
}

// serve connects to the upstream and serves its mirror on the chosen
// transports until one of them ends or ctx is done.
func serve(ctx context.Context, cfg config, log *zap.Logger, stdin io.Reader, stdout, stderr io.Writer) error {
	opts, apiKey, conf, err := options(cfg, log, os.Getenv)
	if err != nil {
		return err
	}
	connectCtx, cancel := context.WithTimeout(ctx, cfg.callTimeout)
	g, err := gateway.New(connectCtx, upstreamTransport(cfg, stderr), &gateway.Options{
		Shaping:     opts,
		Logger:      log,
		CallTimeout: cfg.callTimeout,
		PassRoots:   cfg.roots,
	})
	cancel()
	if err != nil {
		return err
	}
	if conf != nil {
		for _, w := range conf.Unlisted(g.Names()) {
			log.Warn(w.Error())
		}
	}
	ctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)

	var servers []*http.Server
	listen := func(addr string, h http.Handler, what string) error {
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			return fmt.Errorf("serve %s: %w", what, err)
		}
		srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
		servers = append(servers, srv)
		fmt.Fprintf(stderr, "%s: serving %s at http://%s\n", name, what, ln.Addr())
		go func() {
			if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
				stop(fmt.Errorf("serve %s: %w", what, err))
			}
		}()
		return nil
	}
	var backend *gosdkbackend.Backend
	err = func() error {
		if cfg.httpAddr != "" {
			h := g.Middleware().Handler(mcp.NewStreamableHTTPHandler(
				func(*http.Request) *mcp.Server { return g.Server() },
				&mcp.StreamableHTTPOptions{Stateless: cfg.stateless, SessionTimeout: cfg.sessionIdle},
			))
			mux := http.NewServeMux()
			mux.Handle("/mcp", h)
			mode := "MCP (stateful)"
			if cfg.stateless {
				mode = "MCP (stateless)"
			}
			if err := listen(cfg.httpAddr, mux, mode+" under /mcp"); err != nil {
				return err
			}
		}
		if cfg.restAddr != "" {
			var err error
			// The session outlives this function: it must not end with ctx.
			if backend, err = gosdkbackend.New(context.WithoutCancel(ctx), g.Server(), nil); err != nil {
				return fmt.Errorf("serve REST: %w", err)
			}
			h := rest.New(backend, &rest.Options{
				BasePath:   restBase,
				Negotiator: g.Middleware().Shaper().Negotiator(),
				Logger:     log,
			})
			if err := listen(cfg.restAddr, h.RequireAPIKey(apiKey), "REST under "+restBase); err != nil {
				return err
			}
		}
		if cfg.stdio {
			go func() {
				t := &mcp.IOTransport{Reader: io.NopCloser(stdin), Writer: nopWriteCloser{stdout}}
				err := g.Server().Run(ctx, t)
				if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, io.EOF) {
					stop(nil) // stdin ended: the client is done
					return
				}
				stop(fmt.Errorf("serve stdio: %w", err))
			}()
		}
		return nil
	}()
	if err == nil {
		<-ctx.Done()
		if cause := context.Cause(ctx); cause != nil && !errors.Is(cause, context.Canceled) {
			err = cause
		}
	}
	shutdown(g, servers, backend, log)
	return err
}

// options returns the negotiation options and the REST binding's API key
// from the config file and the flags, checked before the upstream starts:
// the file's keys first, then the flags given on the command line, which
// win. conf is nil without -config.
func options(cfg config, log *zap.Logger, getenv func(string) string) (opts *shaping.Options, apiKey string, conf *gatewayconfig.Config, err error) {
	opts = &shaping.Options{Logger: log, Recover: true}
	apiKey = getenv(apiKeyEnv)
	if cfg.configFile != "" {
		if conf, err = gatewayconfig.Load(cfg.configFile); err != nil {
			return nil, "", nil, err
		}
		conf.Apply(opts)
		if cfg.restAddr != "" {
			key, named, err := conf.APIKey(getenv)
			if err != nil {
				return nil, "", nil, err
			}
			if named {
				apiKey = key
			}
		}
	}
	if cfg.set["format-argument"] {
		opts.FormatArgument = cfg.formatArgument
	}
	if cfg.set["default"] {
		opts.Default = shaping.ParseTags(cfg.defaults)
		// Checked before the upstream starts: a bad tag is a start-up error.
		if err := shaping.New(opts).Check(); err != nil {
			return nil, "", nil, fmt.Errorf("-default: %w", err)
		}
	}
	return opts, apiKey, conf, nil
}

// shutdown ends everything within stopBudget: open questions first, then
// the downstream sessions, the HTTP servers and the upstream.
func shutdown(g *gateway.Gateway, servers []*http.Server, backend *gosdkbackend.Backend, log *zap.Logger) {
	ctx, cancel := context.WithTimeout(context.Background(), stopBudget)
	defer cancel()
	g.Middleware().Close()
	for ss := range g.Server().Sessions() {
		_ = ss.Close()
	}
	for _, srv := range servers {
		if err := srv.Shutdown(ctx); err != nil {
			_ = srv.Close()
		}
	}
	if backend != nil {
		_ = backend.Close()
	}
	if err := g.Close(); err != nil {
		log.Debug("upstream closed", zap.Error(err))
	}
}

// newLogger logs to stderr only: stdout is the protocol's in stdio mode.
func newLogger(verbose bool, stderr io.Writer) *zap.Logger {
	level := zapcore.WarnLevel
	if verbose {
		level = zapcore.DebugLevel
	}
	enc := zap.NewDevelopmentEncoderConfig()
	return zap.New(zapcore.NewCore(zapcore.NewConsoleEncoder(enc), zapcore.Lock(zapcore.AddSync(stderr)), level))
}

// nopWriteCloser lets stdout serve as the write side of a transport
// without closing it.
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
