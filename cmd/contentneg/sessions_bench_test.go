package main

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkSessionCost runs the contentneg binary with -http in front of
// an upstream and opens b.N MCP sessions, each with a call made: every
// session has an upstream session of its own (for a command, its own
// process). It reports the resident memory of the gateway and its
// upstream processes together, per session above the gateway alone
// (MB/session), and the gateway's own share (gateway-MB/session).
// Upstreams: the small go-sdk server (this test binary) and the npm
// everything server (node).
//
//	go test -run '^$' -bench SessionCost -benchtime 16x ./cmd/contentneg/
func BenchmarkSessionCost(b *testing.B) {
	bin := buildGateway(b)
	b.Run("go", func(b *testing.B) { benchmarkSessionCost(b, bin, goUpstream(b)) })
	b.Run("everything", func(b *testing.B) { benchmarkSessionCost(b, bin, everything(b)) })
}

func benchmarkSessionCost(b *testing.B, bin string, upstream []string) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd, url := startGatewayHTTP(b, bin, append([]string{"-max-upstreams", strconv.Itoa(b.N + 1), "--"}, upstream...))
	time.Sleep(500 * time.Millisecond)
	baseTotal, baseGateway := rss(cmd.Process.Pid)
	b.ResetTimer()
	for range b.N {
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).
			Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, &mcp.ClientSessionOptions{ProtocolVersion: legacy})
		if err != nil {
			b.Fatal(err)
		}
		defer cs.Close()
		if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get-structured-content", Arguments: map[string]any{"location": "Chicago"}}); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	time.Sleep(500 * time.Millisecond)
	total, gateway := rss(cmd.Process.Pid)
	b.ReportMetric(float64(total-baseTotal)/float64(b.N)/(1<<20), "MB/session")
	b.ReportMetric(float64(gateway-baseGateway)/float64(b.N)/(1<<20), "gateway-MB/session")
}

// BenchmarkSixteenClients: sixteen MCP clients over -http call at once,
// each on its own upstream session; it reports calls per second over all
// of them.
//
//	go test -run '^$' -bench SixteenClients -benchtime 2000x ./cmd/contentneg/
func BenchmarkSixteenClients(b *testing.B) {
	bin := buildGateway(b)
	b.Run("go", func(b *testing.B) { benchmarkSixteen(b, bin, goUpstream(b)) })
	b.Run("everything", func(b *testing.B) { benchmarkSixteen(b, bin, everything(b)) })
}

func benchmarkSixteen(b *testing.B, bin string, upstream []string) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	_, url := startGatewayHTTP(b, bin, append([]string{"--"}, upstream...))
	const clients = 16
	sessions := make([]*mcp.ClientSession, clients)
	params := &mcp.CallToolParams{Name: "get-structured-content", Arguments: map[string]any{"location": "Chicago"}}
	for i := range sessions {
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, declaring([]string{"human"})).
			Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, &mcp.ClientSessionOptions{ProtocolVersion: legacy})
		if err != nil {
			b.Fatal(err)
		}
		defer cs.Close()
		if _, err := cs.CallTool(ctx, params); err != nil {
			b.Fatal(err)
		}
		sessions[i] = cs
	}
	b.ResetTimer()
	start := time.Now()
	var wg sync.WaitGroup
	for i, cs := range sessions {
		n := b.N / clients
		if i < b.N%clients {
			n++
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range n {
				if res, err := cs.CallTool(ctx, params); err != nil || res.IsError {
					b.Errorf("call: %v", err)
					return
				}
			}
		}()
	}
	wg.Wait()
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "calls/s")
}

// startGatewayHTTP runs the gateway binary with -http on a free port and
// args, until b ends; it returns the process and the MCP URL.
func startGatewayHTTP(b *testing.B, bin string, args []string) (*exec.Cmd, string) {
	b.Helper()
	cmd := exec.Command(bin, append([]string{"-http", "127.0.0.1:0"}, args...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		_ = cmd.Wait()
	})
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		if m := regexp.MustCompile(`under /mcp at (http://\S+)`).FindStringSubmatch(sc.Text()); m != nil {
			go func() {
				for sc.Scan() {
				}
			}()
			return cmd, m[1] + "/mcp"
		}
	}
	b.Fatal("the gateway did not say where it listens")
	return nil, ""
}

// rss returns the resident memory of pid and its descendants, and of pid
// alone, in bytes (Linux /proc).
func rss(pid int) (total, self int64) {
	children := map[int][]int{}
	procs, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, p := range procs {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) < 2 {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		child, _ := strconv.Atoi(filepath.Base(filepath.Dir(p)))
		children[ppid] = append(children[ppid], child)
	}
	var walk func(int)
	walk = func(p int) {
		n := statusRSS(p)
		if p == pid {
			self = n
		}
		total += n
		for _, c := range children[p] {
			walk(c)
		}
	}
	walk(pid)
	return total, self
}

func statusRSS(pid int) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "VmRSS:") {
			kb, _ := strconv.ParseInt(strings.Fields(line)[1], 10, 64)
			return kb << 10
		}
	}
	return 0
}
