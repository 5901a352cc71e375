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
	"strings"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/contentneg/contentneg/gateway"
	"github.com/contentneg/contentneg/internal/cmdline"
	"github.com/contentneg/contentneg/internal/gatewayconfig"
	"github.com/contentneg/contentneg/internal/httpserve"
	"github.com/contentneg/contentneg/shaping"
)

const (
	name = "contentneg"
	// apiKeyEnv holds the REST binding's API key.
	apiKeyEnv = "CONTENTNEG_API_KEY"
	// stopBudget bounds the shutdown: SIGTERM ends everything within 2 s.
	stopBudget = 1500 * time.Millisecond
	// terminate is how long the upstream command has to exit once its
	// stdin is closed, before SIGTERM (and as long again before SIGKILL).
	terminate = 300 * time.Millisecond
)

// The flags' defaults: those of gateway.Options.
const (
	defaultCallTimeout  = 60 * time.Second
	defaultMaxUpstreams = 16
	defaultMaxResult    = 16 << 20
	defaultMaxCalls     = 64
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
	// defaults are the tags of clients that declare nothing
	// (-default-tags).
	defaults string
	// formatArgument names the per-call format argument (-format-argument).
	formatArgument string
	// configFile is the config file (-config), "" for none.
	configFile string
	// maxUpstreams, maxResult and maxCalls bound the upstream sessions,
	// the size of one upstream message and the requests under way.
	maxUpstreams int
	maxResult    int
	maxCalls     int
	// shared serves every client over one upstream session
	// (-shared-upstream).
	shared bool
	// hosts are Host names a loopback listener answers besides the
	// loopback ones (-allow-hosts).
	hosts []string
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
	fs.StringVar(&cfg.restAddr, "rest", "", "serve the REST binding on this address (path "+httpserve.RESTBase+"); $"+apiKeyEnv+", when set, is the key it requires")
	fs.DurationVar(&cfg.callTimeout, "call-timeout", defaultCallTimeout, "bound every request forwarded to the upstream")
	fs.DurationVar(&cfg.sessionIdle, "session-idle", 30*time.Minute, "with -http: close a session whose client sent nothing for this long (0: never)")
	fs.BoolVar(&cfg.verbose, "v", false, "log at debug level on stderr")
	fs.StringVar(&cfg.defaults, "default-tags", "", `feature tags for clients that declare nothing, e.g. "human, format=markdown" (default: none, their results pass through unchanged)`)
	fs.StringVar(&cfg.defaults, "default", "", "the former name of -default-tags")
	fs.StringVar(&cfg.formatArgument, "format-argument", "", "add an optional argument of this name to every tool, with which the model chooses a call's format (default: none)")
	fs.StringVar(&cfg.configFile, "config", "", "read per-tool settings, default tags, the format argument and the REST key's variable from this YAML file (docs/gateway.md); flags given win over its keys")
	fs.IntVar(&cfg.maxUpstreams, "max-upstreams", defaultMaxUpstreams, "bound the upstream sessions (one per downstream session; for a command, one process each)")
	fs.IntVar(&cfg.maxResult, "max-result", defaultMaxResult, "bound the size in bytes of one message from the upstream; a larger answer fails its call")
	fs.IntVar(&cfg.maxCalls, "max-calls", defaultMaxCalls, "bound the requests under way at once")
	fs.Func("allow-hosts", "comma-separated Host names that -http and -rest answer on a loopback address besides localhost, 127.0.0.1 and [::1] (a reverse proxy's name; DNS rebinding protection refuses the others)", func(v string) error {
		for _, h := range strings.Split(v, ",") {
			if h = strings.TrimSpace(h); h != "" {
				cfg.hosts = append(cfg.hosts, h)
			}
		}
		return nil
	})
	fs.BoolVar(&cfg.shared, "shared-upstream", false, "serve every client over one upstream session (only for an upstream that keeps no state per session); a question that cannot be tied to one running call is declined")
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	cfg.set = map[string]bool{}
	fs.Visit(func(f *flag.Flag) { cfg.set[f.Name] = true })
	cfg.command = fs.Args()
	if cfg.set["default"] {
		cfg.set["default-tags"] = true
	}
	if cfg.httpAddr == "" && cfg.restAddr == "" {
		cfg.stdio = true
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
	case cfg.maxUpstreams <= 0 || cfg.maxResult <= 0 || cfg.maxCalls <= 0:
		err = errors.New("-max-upstreams, -max-result and -max-calls want a positive number")
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

// dialer returns how the gateway reaches the upstream: one process, or
// one HTTP session, per upstream session.
func dialer(cfg config, stderr io.Writer) gateway.Dialer {
	if cfg.upstream != "" {
		return &gateway.HTTPUpstream{URL: cfg.upstream}
	}
	return &gateway.Command{Path: cfg.command[0], Args: cfg.command[1:], Stderr: stderr, Grace: terminate}
}

// serve checks the upstream and serves it on the chosen transports until
// one of them ends or ctx is done.
func serve(ctx context.Context, cfg config, log *zap.Logger, stdin io.Reader, stdout, stderr io.Writer) error {
	opts, apiKey, conf, err := options(cfg, log, os.Getenv)
	if err != nil {
		return err
	}
	idle := cfg.sessionIdle
	if idle == 0 {
		idle = -1 // never
	}
	g, err := gateway.New(&gateway.Options{
		Upstream:     dialer(cfg, stderr),
		Shaping:      opts,
		Logger:       log,
		CallTimeout:  cfg.callTimeout,
		MaxUpstreams: cfg.maxUpstreams,
		MaxResult:    cfg.maxResult,
		MaxCalls:     cfg.maxCalls,
		Idle:         idle,
		Shared:       cfg.shared,
	})
	if err != nil {
		return err
	}
	defer func() { _ = g.Close() }()
	// The start-up check ends with SIGTERM too, and names the flag that
	// bounds it.
	checkCtx, cancel := context.WithTimeoutCause(ctx, cfg.callTimeout, fmt.Errorf("no answer within %v (-call-timeout)", cfg.callTimeout))
	info, err := g.Check(checkCtx)
	cancel()
	if err != nil {
		if ctx.Err() != nil {
			return nil // SIGTERM during the start-up
		}
		return fmt.Errorf("the upstream cannot serve: %w", err)
	}
	if conf != nil {
		for _, w := range conf.Unlisted(info.Tools, info.Resources) {
			log.Warn(w.Error())
		}
	}
	ctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)

	var servers []*http.Server
	listen := func(addr string, h http.Handler, what string) error {
		srv := httpserve.Streaming.Server(h)
		if err := httpserve.Listen(srv, addr,
			func(at net.Addr) { fmt.Fprintf(stderr, "%s: serving %s at http://%s\n", name, what, at) },
			func(err error) { stop(fmt.Errorf("serve %s: %w", what, err)) },
		); err != nil {
			return fmt.Errorf("serve %s: %w", what, err)
		}
		servers = append(servers, srv)
		return nil
	}
	err = func() error {
		if cfg.httpAddr != "" {
			mux := http.NewServeMux()
			mux.Handle("/mcp", g.Handler(&gateway.HTTPOptions{Stateless: cfg.stateless, Hosts: cfg.hosts}))
			mode := "MCP (stateful)"
			if cfg.stateless {
				mode = "MCP (stateless)"
			}
			if err := listen(cfg.httpAddr, mux, mode+" under /mcp"); err != nil {
				return err
			}
		}
		if cfg.restAddr != "" {
			h := httpserve.REST(g.RESTBackend(), g.Shaper(), httpserve.RESTOptions{Logger: log, Hosts: cfg.hosts, APIKey: apiKey})
			if err := listen(cfg.restAddr, h, "REST under "+httpserve.RESTBase); err != nil {
				return err
			}
		}
		if cfg.stdio {
			go func() {
				// A client's message is bounded by -max-result, as the
				// upstream's are.
				_ = g.ServeStdio(ctx, stdin, stdout)
				stop(nil) // stdin ended: the client is done
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
	shutdown(g, servers, log)
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
	if cfg.set["default-tags"] {
		opts.Default.Features = cmdline.SplitList(cfg.defaults)
		// Checked before the upstream starts: a bad tag is a start-up error.
		if err := shaping.New(opts).Check(); err != nil {
			return nil, "", nil, fmt.Errorf("-default-tags: %w", err)
		}
	}
	return opts, apiKey, conf, nil
}

// shutdown ends everything within stopBudget: the sessions, their open
// questions and calls under way, and the upstreams first, so that no
// request waits on them; then the HTTP servers.
func shutdown(g *gateway.Gateway, servers []*http.Server, log *zap.Logger) {
	ctx, cancel := context.WithTimeout(context.Background(), stopBudget)
	defer cancel()
	closed := make(chan struct{})
	go func() {
		if err := g.Close(); err != nil {
			log.Debug("gateway closed", zap.Error(err))
		}
		close(closed)
	}()
	for _, srv := range servers {
		_ = httpserve.Stop(ctx, srv)
	}
	select {
	case <-closed:
	case <-ctx.Done():
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
