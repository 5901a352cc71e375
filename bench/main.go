// Command bench measures what content negotiation costs on this machine and
// prints one side-by-side table: a tools/call of the demo's get_weather
// unwrapped (no middleware), passed through (the middleware, a client that
// did not declare the extension) and in each rendering, in both protocol
// eras; and the memory of 10,000 concurrent streamable HTTP sessions,
// declared and not, and what is left when they are closed. It writes the
// per-call figures as a chart (PNG) for docs/benchmarks.md.
//
// It is a module of its own (as zap keeps its benchmarks), so that its
// dependencies stay out of the library's. From the repository's root:
//
//	(cd bench && go run . -chart ../docs/benchmarks.png)
//
// Other front ends add themselves to [frontEnds]: the mcp-go adapter and
// the REST binding each get their own rows.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"text/tabwriter"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/examples/weather"
	"github.com/contentneg/contentneg/examples/weather/weathermcp"
	"github.com/contentneg/contentneg/middleware"
	"github.com/contentneg/contentneg/middleware/client"
)

func main() {
	chart := flag.String("chart", "", "write the per-call chart to this PNG file")
	sessions := flag.Int("sessions", 10000, "concurrent HTTP sessions for the memory figures")
	benchtime := flag.Duration("benchtime", time.Second, "how long each call benchmark runs")
	flag.IntVar(&rounds, "rounds", 3, "rounds of the call benchmarks; the fastest of each is kept")
	flag.Parse()
	testing.Init()
	_ = flag.Set("test.benchtime", benchtime.String())
	if err := run(os.Stdout, *chart, *sessions); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

// profile is a client profile of the table, and the rendering it gets.
type profile struct {
	name string
	tags []string // nil: not declared
}

// rows are the table's rows after "unwrapped": the client profiles.
var rows = []profile{
	{"pass-through (not declared)", nil},
	{"structured (agent, format=json)", []string{"agent", "format=json"}},
	{"markdown (human)", []string{"human", "format=markdown"}},
	{"text (format=text)", []string{"format=text"}},
	{"compact text", []string{"format=text", "verbosity=compact"}},
}

// frontEnd serves the demo weather server through one front end: server
// returns a server whose calls a client session of the era makes, with the
// front end installed or not. Other front ends add entries here.
type frontEnd struct {
	name    string
	connect func(negotiated bool, tags []string, legacy bool) (call func() error, closeAll func(), err error)
}

var frontEnds = []frontEnd{
	{name: "go-sdk", connect: goSDK},
	// The REST binding's baseline: the same MCP call behind a bare net/http
	// handler, over a loopback socket; then the binding itself.
	{name: "bare HTTP + MCP", connect: bareHTTP},
	{name: "REST", connect: restBinding},
	// The mcp-go adapter adds its entries here.
}

// goSDK connects a go-sdk client to the demo server over in-memory
// transports.
func goSDK(negotiated bool, tags []string, legacy bool) (func() error, func(), error) {
	s := weathermcp.NewServer(weather.NewService(func() time.Time { return time.Date(2026, 11, 20, 13, 0, 0, 0, time.UTC) }))
	if negotiated {
		middleware.Install(s, &middleware.Options{Tools: weathermcp.Tools()})
	}
	opts := &client.Options{Legacy: legacy}
	if tags != nil {
		opts.Settings = client.Declare(tags...)
	}
	ctx := context.Background()
	cs, closeSessions, err := connect(ctx, s, opts)
	if err != nil {
		return nil, nil, err
	}
	params := &mcp.CallToolParams{Name: "get_weather", Arguments: map[string]any{"city": "Bern"}}
	call := func() error {
		res, err := cs.CallTool(ctx, params)
		if err == nil && res.IsError {
			err = fmt.Errorf("tool error: %v", res.Content)
		}
		return err
	}
	return call, closeSessions, nil
}

// connect connects a client described by opts to s over in-memory
// transports, and returns the client session and a function that closes
// both sessions.
func connect(ctx context.Context, s *mcp.Server, opts *client.Options) (*mcp.ClientSession, func(), error) {
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		return nil, nil, err
	}
	cs, err := client.New(opts).Connect(ctx, ct, client.SessionOptions(opts))
	if err != nil {
		ss.Close()
		return nil, nil, err
	}
	return cs, func() { cs.Close(); ss.Close() }, nil
}

// figure is one benchmark's result.
type figure struct {
	nsPerOp, allocs, bytes int64
}

func measure(fe frontEnd, negotiated bool, tags []string, legacy bool) (figure, error) {
	call, closeAll, err := fe.connect(negotiated, tags, legacy)
	if err != nil {
		return figure{}, err
	}
	defer closeAll()
	if err := call(); err != nil {
		return figure{}, err
	}
	var failed error
	r := testing.Benchmark(func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := call(); err != nil {
				failed = err
				b.FailNow()
			}
		}
	})
	if failed != nil {
		return figure{}, failed
	}
	return figure{nsPerOp: r.NsPerOp(), allocs: r.AllocsPerOp(), bytes: r.AllocedBytesPerOp()}, nil
}

// rounds is how often every call benchmark runs, interleaved with the
// others; the table keeps the fastest time of each (allocations are the
// same every time). On a machine shared with other work, the fastest round
// is the one least disturbed.
var rounds = 3

// faster keeps the fastest of two figures.
func faster(a, b figure) figure {
	if a.nsPerOp == 0 || b.nsPerOp < a.nsPerOp {
		return b
	}
	return a
}

// line is one row of the call table.
type line struct {
	frontEnd, name string
	legacy, state  figure
}

func run(w io.Writer, chartPath string, sessions int) error {
	type config struct {
		fe         frontEnd
		name       string
		negotiated bool
		tags       []string
	}
	var configs []config
	for _, fe := range frontEnds {
		configs = append(configs, config{fe, "unwrapped (no middleware)", false, nil})
		for _, p := range rows {
			configs = append(configs, config{fe, p.name, true, p.tags})
		}
	}
	lines := make([]line, len(configs))
	for range rounds {
		for i, c := range configs {
			l := &lines[i]
			l.frontEnd, l.name = c.fe.name, c.name
			legacy, err := measure(c.fe, c.negotiated, c.tags, true)
			if errors.Is(err, errNotApplicable) {
				l.name = ""
				continue
			}
			if err != nil {
				return fmt.Errorf("%s, %s, legacy era: %w", c.fe.name, c.name, err)
			}
			state, err := measure(c.fe, c.negotiated, c.tags, false)
			if err != nil {
				return fmt.Errorf("%s, %s, stateless era: %w", c.fe.name, c.name, err)
			}
			l.legacy, l.state = faster(l.legacy, legacy), faster(l.state, state)
		}
	}
	fmt.Fprintf(w, "One tools/call of get_weather (Bern) through a connected client session, in-memory transport (%s; the fastest of %d rounds).\n\n", machine(), rounds)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "front end\trendering\tlegacy µs\tallocs\tKiB\tstateless µs\tallocs\tKiB\t")
	for _, l := range lines {
		if l.name == "" {
			continue // a row the front end has no request for
		}
		fmt.Fprintf(tw, "%s\t%s\t%.0f\t%d\t%.1f\t%.0f\t%d\t%.1f\t\n", l.frontEnd, l.name,
			float64(l.legacy.nsPerOp)/1e3, l.legacy.allocs, float64(l.legacy.bytes)/1024,
			float64(l.state.nsPerOp)/1e3, l.state.allocs, float64(l.state.bytes)/1024)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w)

	mem, err := sessionMemory(sessions)
	if err != nil {
		return fmt.Errorf("session memory: %w", err)
	}
	fmt.Fprintf(w, "%d concurrent legacy-era sessions over streamable HTTP (go-sdk server; the clients are bare HTTP requests).\n\n", sessions)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "server\tclients\tbytes per session\tgoroutines per session\tsessions kept\tleft after closing\t")
	for _, m := range mem {
		fmt.Fprintf(tw, "%s\t%s\t%.0f\t%.2f\t%d\t%s\t\n", m.server, m.clients, m.perSession, m.goroutinesPerSession, m.kept, m.left)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if chartPath != "" {
		var kept []line
		for _, l := range lines {
			if l.name != "" {
				kept = append(kept, l)
			}
		}
		if err := writeChart(chartPath, kept); err != nil {
			return fmt.Errorf("chart: %w", err)
		}
		fmt.Fprintf(w, "\nchart: %s\n", chartPath)
	}
	return nil
}

func machine() string {
	out := fmt.Sprintf("%d CPUs", numCPU())
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(l, "model name") {
				if _, name, ok := strings.Cut(l, ":"); ok {
					return strings.TrimSpace(name) + ", " + out
				}
			}
		}
	}
	return out
}
