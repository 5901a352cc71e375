// Command demo-weather shows content negotiation for MCP on an offline
// weather server.
//
// With no flags it is a showcase: it starts the server in-process, connects
// four clients with different profiles, calls get_weather and get_forecast
// for Bern, and prints what each client got, with sizes.
//
//	demo-weather                        the showcase
//	demo-weather -stdio                 serve over stdio (logs on stderr only)
//	demo-weather -http :8080            serve streamable HTTP at /mcp
//	demo-weather -http :8080 -stateless serve the stateless protocol only
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"go.uber.org/fx"
	"go.uber.org/fx/fxevent"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/contentneg/contentneg/contentnegfx"
	"github.com/contentneg/contentneg/examples/weather"
	"github.com/contentneg/contentneg/examples/weather/weathermcp"
)

// config is what the command line asks for.
type config struct {
	stdio     bool
	httpAddr  string
	stateless bool
	verbose   bool
}

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run parses args and runs the chosen mode until it is done, a signal
// arrives or ctx is cancelled; it returns the exit code.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cfg, err := parseFlags(args, stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	app := fx.New(appOptions(cfg, stdin, stdout, stderr)...)
	if err := app.Err(); err != nil {
		fmt.Fprintf(stderr, "demo-weather: %v\n", err)
		return 1
	}
	if err := app.Start(ctx); err != nil {
		fmt.Fprintf(stderr, "demo-weather: %v\n", err)
		return 1
	}
	code := 0
	select {
	case signal := <-app.Wait():
		code = signal.ExitCode
	case <-ctx.Done():
	}
	stopCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := app.Stop(stopCtx); err != nil {
		fmt.Fprintf(stderr, "demo-weather: %v\n", err)
		return 1
	}
	return code
}

func parseFlags(args []string, stderr io.Writer) (config, error) {
	var cfg config
	fs := flag.NewFlagSet("demo-weather", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.BoolVar(&cfg.stdio, "stdio", false, "serve over stdio")
	fs.StringVar(&cfg.httpAddr, "http", "", "serve streamable HTTP on this address (path /mcp)")
	fs.BoolVar(&cfg.stateless, "stateless", false, "with -http: serve the stateless protocol (no sessions)")
	fs.BoolVar(&cfg.verbose, "v", false, "log at debug level on stderr")
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	switch {
	case fs.NArg() > 0:
		err := fmt.Errorf("unexpected arguments %q", fs.Args())
		fmt.Fprintln(stderr, "demo-weather:", err)
		return cfg, err
	case cfg.stdio && cfg.httpAddr != "":
		err := errors.New("-stdio and -http exclude each other")
		fmt.Fprintln(stderr, "demo-weather:", err)
		return cfg, err
	case cfg.stateless && cfg.httpAddr == "":
		err := errors.New("-stateless needs -http")
		fmt.Fprintln(stderr, "demo-weather:", err)
		return cfg, err
	}
	return cfg, nil
}

// appOptions wires the application: logger, weather service, MCP server,
// the content-negotiation module with the demo's renderers, and the mode.
func appOptions(cfg config, stdin io.Reader, stdout, stderr io.Writer) []fx.Option {
	opts := []fx.Option{
		fx.Supply(cfg),
		fx.Provide(
			func() *zap.Logger { return newLogger(cfg.verbose, stderr) },
			func() *weather.Service { return weather.NewService(nil) },
			weathermcp.NewServer,
		),
		fx.WithLogger(func(log *zap.Logger) fxevent.Logger {
			l := &fxevent.ZapLogger{Logger: log.Named("fx")}
			l.UseLogLevel(zapcore.DebugLevel)
			return l
		}),
		contentnegfx.Module,
		fx.Invoke(func(lc fx.Lifecycle, sd fx.Shutdowner, m modeParams) {
			startMode(lc, sd, m, stdin, stdout, stderr)
		}),
	}
	for name, t := range weathermcp.Tools() {
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
