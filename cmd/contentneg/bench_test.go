package main

import (
	"context"
	"os/exec"
	"runtime"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkGatewayOverhead calls get-structured-content directly (a
// go-sdk client, the upstream on stdio) and through the gateway (the same
// client on the gateway's stdio, the gateway in this process, the upstream
// on its stdio), interleaved in one run so that both see the same machine.
// Upstreams: a small go-sdk server (this test binary) and the npm
// everything server. It reports the time of a call each way and the
// allocations of this process per call: the client's alone directly, the
// client's and the whole gateway's through it (BenchmarkGatewayProcess runs
// the gateway as the separate process it is in use). The "human" client
// gets the markdown rendering; "undeclared" the result as it is.
//
//	go test -run '^$' -bench GatewayOverhead -benchtime 200x ./cmd/contentneg/
func BenchmarkGatewayOverhead(b *testing.B) {
	b.Run("go", func(b *testing.B) { benchmarkOverhead(b, goUpstream(b)) })
	b.Run("everything", func(b *testing.B) { benchmarkOverhead(b, everything(b)) })
}

func benchmarkOverhead(b *testing.B, cmdline []string) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	direct, err := mcp.NewClient(&mcp.Implementation{Name: "direct", Version: "1"}, nil).
		Connect(ctx, &mcp.CommandTransport{Command: exec.Command(cmdline[0], cmdline[1:]...)}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer direct.Close()
	undeclared, _ := stdioSession(ctx, b, append([]string{"--"}, cmdline...), nil)
	defer undeclared.Close()
	human, _ := stdioSession(ctx, b, append([]string{"--"}, cmdline...), []string{"human"})
	defer human.Close()
	sessions := []struct {
		name string
		cs   *mcp.ClientSession
	}{{"direct", direct}, {"gateway-undeclared", undeclared}, {"gateway-human", human}}
	params := &mcp.CallToolParams{Name: "get-structured-content", Arguments: map[string]any{"location": "Chicago"}}
	for _, s := range sessions { // warm up
		if _, err := s.cs.CallTool(ctx, params); err != nil {
			b.Fatal(err)
		}
	}
	durations := make([]time.Duration, len(sessions))
	allocs := make([]uint64, len(sessions))
	var before, after runtime.MemStats
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		for i, s := range sessions {
			runtime.ReadMemStats(&before)
			start := time.Now()
			if _, err := s.cs.CallTool(ctx, params); err != nil {
				b.Fatal(err)
			}
			durations[i] += time.Since(start)
			runtime.ReadMemStats(&after)
			allocs[i] += after.Mallocs - before.Mallocs
		}
	}
	for i, s := range sessions {
		b.ReportMetric(float64(durations[i].Microseconds())/float64(b.N), s.name+"-µs/call")
		b.ReportMetric(float64(allocs[i])/float64(b.N), s.name+"-allocs/call")
	}
}
