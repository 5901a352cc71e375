// Package serve runs the project's example MCP servers from the command
// line: a default mode (the server's showcase), -stdio, or -http ADDR with
// -stateless, and -rest ADDR (the REST binding under /mcp/v1, alone or
// beside the others), wired with fx and zap, with the content-negotiation
// module installed. It is shared by cmd/demo-weather and examples/journey.
package serve

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/fx"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/contentneg/contentneg/contentnegfx"
	"github.com/contentneg/contentneg/internal/cmdline"
	"github.com/contentneg/contentneg/middleware"
	"github.com/contentneg/contentneg/negotiation"
	"github.com/contentneg/contentneg/shaping"
)

// App describes one example server.
type App struct {
	// Name is the command's name, for usage and messages.
	Name string
	// Provide lists fx constructors; one of them must provide *mcp.Server.
	Provide []any
	// Tools is the per-tool rendering configuration given to the middleware.
	Tools map[string]shaping.Tool
	// Showcase runs the default mode (no -stdio, no -http) and writes to w.
	// With -sdk mcp-go, server is nil and ConnectInProcess connects to the
	// mcp-go server.
	Showcase func(ctx context.Context, w io.Writer, server *mcp.Server) error
	// MCPGo lists the fx constructors of the mcp-go version of the server
	// (-sdk mcp-go); one of them must provide *server.MCPServer of
	// github.com/mark3labs/mcp-go. Empty when there is none.
	MCPGo []any
}

// Config is what the command line asks for.
type Config struct {
	Stdio     bool
	HTTPAddr  string
	Stateless bool
	Verbose   bool
	// MCPGo serves the mcp-go version of the server (-sdk mcp-go).
	MCPGo bool
	// RESTAddr is where the REST binding listens ("" for nowhere).
	RESTAddr string
	// SessionIdle is how long an MCP session over HTTP may stay idle
	// before it is closed (-session-idle, DefaultSessionIdle by default;
	// 0 keeps idle sessions for ever).
	SessionIdle time.Duration
	// APIKey, when set, is required of REST clients; Run reads it from the
	// environment variable CONTENTNEG_API_KEY.
	APIKey string
	// DefaultTags are the feature tags of clients that declare nothing
	// (-default-tags "human, format=markdown"; Options.Default).
	DefaultTags string
	// FormatArgument names the per-call format argument
	// (-format-argument response_format; Options.FormatArgument).
	FormatArgument string
}

// contentnegOptions are the options the command line gives every front
// end.
func (cfg Config) contentnegOptions() shaping.Options {
	return shaping.Options{Default: negotiation.Settings{Features: cmdline.SplitList(cfg.DefaultTags)}, FormatArgument: cfg.FormatArgument}
}

// APIKeyEnv is the environment variable holding the REST binding's API key.
const APIKeyEnv = "CONTENTNEG_API_KEY"

// The SDKs -sdk chooses from, and the environment variable that gives its
// default, so that a black-box test can run the same binary on both.
const (
	SDKGo    = "go-sdk"
	SDKMCPGo = "mcp-go"
	SDKEnv   = "CONTENTNEG_SDK"
)

// Run parses args and runs the chosen mode until it is done, a signal
// arrives or ctx is cancelled; it returns the process's exit code: 0, 1 for
// a failure, 2 for a usage error.
func Run(ctx context.Context, app App, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cfg, err := ParseFlags(app.Name, args, stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	cfg.APIKey = os.Getenv(APIKeyEnv)
	fxApp := fx.New(options(app, cfg, stdin, stdout, stderr)...)
	if err := fxApp.Err(); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", app.Name, err)
		return 1
	}
	// Start under a context of its own: fx's Start gives up as soon as its
	// context ends, even when every hook has run and the servers are up,
	// and reports context.Canceled. A stop asked for while the application
	// starts is a stop like any other: it waits for the start, then stops
	// below with exit code 0.
	startCtx, cancelStart := context.WithTimeout(context.WithoutCancel(ctx), fxApp.StartTimeout())
	defer cancelStart()
	if err := fxApp.Start(startCtx); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", app.Name, err)
		return 1
	}
	code := 0
	select {
	case signal := <-fxApp.Wait():
		code = signal.ExitCode
	case <-ctx.Done():
	}
	stopCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := fxApp.Stop(stopCtx); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", app.Name, err)
		return 1
	}
	return code
}

// ParseFlags reads the command line. Usage errors are written to stderr.
func ParseFlags(name string, args []string, stderr io.Writer) (Config, error) {
	var cfg Config
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.BoolVar(&cfg.Stdio, "stdio", false, "serve over stdio")
	fs.StringVar(&cfg.HTTPAddr, "http", "", "serve streamable HTTP on this address (path /mcp)")
	fs.BoolVar(&cfg.Stateless, "stateless", false, "with -http: serve the stateless protocol (no sessions)")
	fs.BoolVar(&cfg.Verbose, "v", false, "log at debug level on stderr")
	fs.DurationVar(&cfg.SessionIdle, "session-idle", DefaultSessionIdle, "with -http: close a session whose client sent nothing for this long (0: never)")
	sdk := os.Getenv(SDKEnv)
	if sdk == "" {
		sdk = SDKGo
	}
	fs.StringVar(&sdk, "sdk", sdk, "the MCP SDK to serve with: "+SDKGo+" or "+SDKMCPGo+" (default from $"+SDKEnv+")")
	fs.StringVar(&cfg.DefaultTags, "default-tags", "", `feature tags for clients that declare none, as "human, format=markdown" (default: none, results as the tools give them)`)
	fs.StringVar(&cfg.FormatArgument, "format-argument", "", "add an optional argument of this name to every tool, with which the model picks a call's format (default: none)")
	fs.StringVar(&cfg.RESTAddr, "rest", "", "serve the REST binding on this address (path "+RESTBase+"); $"+APIKeyEnv+", when set, is the key it requires")
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	cfg.MCPGo = sdk == SDKMCPGo
	var err error
	switch {
	case sdk != SDKGo && sdk != SDKMCPGo:
		err = fmt.Errorf("unknown SDK %q: want %s or %s", sdk, SDKGo, SDKMCPGo)
	case fs.NArg() > 0:
		err = fmt.Errorf("unexpected arguments %q", fs.Args())
	case cfg.Stdio && cfg.HTTPAddr != "":
		err = errors.New("-stdio and -http exclude each other")
	case cfg.Stateless && cfg.HTTPAddr == "":
		err = errors.New("-stateless needs -http")
	case cfg.SessionIdle < 0:
		err = fmt.Errorf("-session-idle %v: want a duration of 0 or more", cfg.SessionIdle)
	}
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
	}
	return cfg, err
}

// options wires the application: logger, the app's constructors, the
// content-negotiation module with the app's renderers, and the mode.
func options(app App, cfg Config, stdin io.Reader, stdout, stderr io.Writer) []fx.Option {
	if cfg.MCPGo {
		return mcpgoOptions(app, cfg, stdin, stdout, stderr)
	}
	opts := []fx.Option{
		fx.Supply(cfg, app),
		// The example servers recover a panicking handler into a failed
		// request and an error log line, and go on serving.
		fx.Supply(func() *middleware.Options {
			opts := cfg.contentnegOptions()
			opts.Recover = true
			return &opts
		}()),
		fx.Provide(func() *zap.Logger { return newLogger(cfg.Verbose, stderr) }),
		fx.Provide(app.Provide...),
		// fx's own events (what it provided, invoked, started) are not the
		// server's business: -v is for the negotiation. Its errors still
		// come back from New, Start and Stop, and are printed once.
		fx.NopLogger,
		contentnegfx.Module,
		fx.Invoke(func(lc fx.Lifecycle, sd fx.Shutdowner, p modeParams) {
			startMode(lc, sd, p, stdin, stdout, stderr)
		}),
	}
	for name, t := range app.Tools {
		opts = append(opts, contentnegfx.Tool(name, t))
	}
	return opts
}

// newLogger logs to stderr only, so that stdout stays the protocol's in
// -stdio mode and the showcase's otherwise.
func newLogger(verbose bool, stderr io.Writer) *zap.Logger {
	level := zapcore.WarnLevel
	if verbose {
		level = zapcore.DebugLevel
	}
	enc := zap.NewDevelopmentEncoderConfig()
	core := zapcore.NewCore(zapcore.NewConsoleEncoder(enc), zapcore.Lock(zapcore.AddSync(stderr)), level)
	return zap.New(core)
}
