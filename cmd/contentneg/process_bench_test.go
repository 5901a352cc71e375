package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// runAsUpstream, set in the environment, makes the test binary serve
// goUpstream on stdio: a Go upstream for the benchmarks, with little noise
// of its own.
const runAsUpstream = "CONTENTNEG_RUN_AS_UPSTREAM"

// weather is the structured result of the Go upstream's one tool.
type weather struct {
	Temperature float64 `json:"temperature"`
	Conditions  string  `json:"conditions"`
	Humidity    float64 `json:"humidity"`
}

// serveGoUpstream serves, on stdio, a go-sdk server whose
// get-structured-content answers as the everything server's does: a
// structured value and its JSON as text.
func serveGoUpstream() error {
	s := mcp.NewServer(&mcp.Implementation{Name: "bench-upstream", Version: "1.0.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "get-structured-content", Description: "the weather of a location"},
		func(context.Context, *mcp.CallToolRequest, struct {
			Location string `json:"location"`
		}) (*mcp.CallToolResult, weather, error) {
			return nil, weather{Temperature: 22.5, Conditions: "Partly cloudy", Humidity: 65}, nil
		})
	return s.Run(context.Background(), &mcp.StdioTransport{})
}

// goUpstream is the command line of the Go upstream: this test binary,
// with runAsUpstream set in the environment for the rest of b (which the
// gateway's upstream inherits).
func goUpstream(b *testing.B) []string {
	b.Setenv(runAsUpstream, "1")
	return []string{os.Args[0]}
}

// buildGateway builds the contentneg command into a temporary directory.
func buildGateway(b *testing.B) string {
	b.Helper()
	bin := filepath.Join(b.TempDir(), name)
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// BenchmarkGatewayProcess calls get-structured-content over stdio directly
// to the upstream and through the contentneg binary as a separate process
// (the client on its stdio, the upstream on the gateway's), in rounds that
// take each session in turn, from a different first one each round, so that
// all of them see the same machine. Upstreams: a small go-sdk server (this
// test binary) and, when installed, the npm everything server. It reports
// the median time of a call each way and the median over rounds of the time
// the gateway adds to a call ("added"); "undeclared" is a client that
// declares nothing (the result passes through), "human" one that gets the
// markdown rendering. Allocations are this process's, the client's: the
// same each way; the gateway's own are BenchmarkGatewayOverhead's.
//
//	go test -run '^$' -bench GatewayProcess -benchtime 1000x ./cmd/contentneg/
func BenchmarkGatewayProcess(b *testing.B) {
	bin := buildGateway(b)
	b.Run("go", func(b *testing.B) { benchmarkProcess(b, bin, goUpstream(b)) })
	b.Run("everything", func(b *testing.B) { benchmarkProcess(b, bin, everything(b)) })
}

func benchmarkProcess(b *testing.B, gateway string, upstream []string) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	connect := func(features []string, argv ...string) *mcp.ClientSession {
		cmd := exec.Command(argv[0], argv[1:]...)
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, declaring(features)).
			Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { _ = cs.Close() })
		return cs
	}
	through := append([]string{gateway, "--"}, upstream...)
	sessions := []struct {
		name string
		cs   *mcp.ClientSession
	}{
		{"direct", connect(nil, upstream...)},
		{"undeclared", connect(nil, through...)},
		{"human", connect([]string{"human"}, through...)},
	}
	params := &mcp.CallToolParams{Name: "get-structured-content", Arguments: map[string]any{"location": "Chicago"}}
	call := func(cs *mcp.ClientSession) {
		res, err := cs.CallTool(ctx, params)
		if err != nil || res.IsError {
			b.Fatalf("call: %v %+v", err, res)
		}
	}
	for range 20 { // warm up: connections, caches, the JIT of node
		for _, s := range sessions {
			call(s.cs)
		}
	}
	times := make([][]time.Duration, len(sessions))
	allocs := make([]uint64, len(sessions))
	var before, after runtime.MemStats
	b.ReportAllocs()
	b.ResetTimer()
	for round := range b.N {
		for j := range sessions {
			i := (round + j) % len(sessions)
			runtime.ReadMemStats(&before)
			start := time.Now()
			call(sessions[i].cs)
			times[i] = append(times[i], time.Since(start))
			runtime.ReadMemStats(&after)
			allocs[i] += after.Mallocs - before.Mallocs
		}
	}
	b.StopTimer()
	for i, s := range sessions {
		b.ReportMetric(median(times[i]), s.name+"-µs/call")
		b.ReportMetric(float64(allocs[i])/float64(b.N), s.name+"-client-allocs/call")
		if i > 0 {
			added := make([]time.Duration, b.N)
			for r := range added {
				added[r] = times[i][r] - times[0][r]
			}
			b.ReportMetric(median(added), s.name+"-added-µs/call")
		}
	}
}

// median is the median of ds in microseconds.
func median(ds []time.Duration) float64 {
	s := slices.Clone(ds)
	slices.Sort(s)
	n := len(s)
	if n == 0 {
		return 0
	}
	m := s[n/2]
	if n%2 == 0 {
		m = (s[n/2-1] + s[n/2]) / 2
	}
	return float64(m) / float64(time.Microsecond)
}
