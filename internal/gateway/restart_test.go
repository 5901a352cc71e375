package gateway_test

import (
	"context"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap/zaptest"

	"github.com/contentneg/contentneg/internal/gateway"
)

// TestUpstreamCrashMidCall: the upstream is killed during a call. The call
// ends as a tool error (never hangs), the gateway restarts the upstream,
// and the next call works. Both eras.
func TestUpstreamCrashMidCall(t *testing.T) {
	u := everythingServer(t)
	for _, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			dir := t.TempDir()
			var mu sync.Mutex
			var last *exec.Cmd
			g, err := gateway.New(ctx, func() mcp.Transport {
				cmd := u.command(t, dir)
				mu.Lock()
				last = cmd
				mu.Unlock()
				return &mcp.CommandTransport{Command: cmd}
			}, &gateway.Options{Logger: zaptest.NewLogger(t), CallTimeout: 30 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = g.Close() })
			progress := make(chan struct{}, 64)
			cs := connectGateway(ctx, t, g, era.version, []string{"human"}, &mcp.ClientOptions{
				ProgressNotificationHandler: func(context.Context, *mcp.ProgressNotificationClientRequest) {
					progress <- struct{}{}
				},
			})
			params := &mcp.CallToolParams{Name: "trigger-long-running-operation", Arguments: map[string]any{"duration": 20, "steps": 40}}
			params.SetProgressToken("long")
			type outcome struct {
				res *mcp.CallToolResult
				err error
			}
			done := make(chan outcome, 1)
			go func() {
				res, err := cs.CallTool(ctx, params)
				done <- outcome{res, err}
			}()
			select {
			case <-progress: // the call is under way upstream
			case <-ctx.Done():
				t.Fatal("the long call made no progress")
			}
			mu.Lock()
			_ = last.Process.Kill()
			mu.Unlock()
			o := <-done
			if o.err != nil || o.res == nil || !o.res.IsError || !strings.Contains(text(o.res), "ended during the call") {
				t.Fatalf("the call cut short: %+v %v, want a tool error saying the server ended", o.res, o.err)
			}
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get-structured-content", Arguments: map[string]any{"location": "Chicago"}})
			if err != nil || res.IsError || !strings.Contains(text(res), "- **Temperature:**") {
				t.Fatalf("the call after the restart: %+v %v", res, err)
			}
		})
	}
}

// TestCallTimeout: an upstream that does not answer within the call
// timeout ends the call as a tool error naming the timeout.
func TestCallTimeout(t *testing.T) {
	u := everythingServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	dir := t.TempDir()
	u.command(t, dir)
	g, err := gateway.New(ctx, func() mcp.Transport {
		return &mcp.CommandTransport{Command: u.command(t, dir)}
	}, &gateway.Options{Logger: zaptest.NewLogger(t), CallTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = g.Close() })
	cs := connectGateway(ctx, t, g, "", nil, nil)
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "trigger-long-running-operation", Arguments: map[string]any{"duration": 30, "steps": 3}})
	if err != nil || !res.IsError || !strings.Contains(text(res), "did not answer within 1s") {
		t.Fatalf("got %+v %v, want a tool error naming the 1s timeout", res, err)
	}
}

// text is the text of a result's text blocks.
func text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// TestCloseDuringRestart: closing the gateway while it restarts an upstream
// that never answers the handshake returns at once, not after the call
// timeout (SIGTERM must end everything within 2 s).
func TestCloseDuringRestart(t *testing.T) {
	u := everythingServer(t)
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip("no sleep command")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	dir := t.TempDir()
	var mu sync.Mutex
	var first *exec.Cmd
	redialed := make(chan struct{}, 16)
	g, err := gateway.New(ctx, func() mcp.Transport {
		mu.Lock()
		defer mu.Unlock()
		if first == nil {
			first = u.command(t, dir)
			return &mcp.CommandTransport{Command: first}
		}
		redialed <- struct{}{}
		// An upstream that never says a word.
		return &mcp.CommandTransport{Command: exec.Command(sleep, "60"), TerminateDuration: 100 * time.Millisecond}
	}, &gateway.Options{Logger: zaptest.NewLogger(t)})
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	_ = first.Process.Kill()
	mu.Unlock()
	select {
	case <-redialed:
	case <-ctx.Done():
		t.Fatal("the gateway did not restart the upstream")
	}
	closed := make(chan error, 1)
	go func() { closed <- g.Close() }()
	bound := time.NewTimer(10 * time.Second) // far under the 60 s call timeout
	defer bound.Stop()
	select {
	case <-closed:
	case <-bound.C:
		t.Fatal("Close waited on the restart")
	}
}
