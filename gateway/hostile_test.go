package gateway_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/gateway"
)

const legacy = "2025-11-25"

// asker is a client whose elicitation handler counts the questions it
// gets and accepts them.
type asker struct {
	asked atomic.Int32
}

func (a *asker) options() *mcp.ClientOptions {
	return &mcp.ClientOptions{
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			a.asked.Add(1)
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"ok": true}}, nil
		},
	}
}

func text(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

func call(ctx context.Context, t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) string {
	t.Helper()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return text(t, res)
}

// TestQuestionAfterCancelReachesNoOtherClient: an upstream call whose
// client cancelled it asks afterwards. Its question must not reach the
// other client, whose call is the only one under way: on sessions of
// their own it goes to the client that made the call (and through the
// gate: a !interactive one is asked nothing); over -shared-upstream it is
// declined, since no running call can be tied to it.
func TestQuestionAfterCancelReachesNoOtherClient(t *testing.T) {
	for _, tt := range []struct {
		name      string
		shared    bool
		features  []string // of the client that cancels
		wantFirst int32    // questions the cancelling client gets
		wantState string   // what the upstream got as the answer
	}{
		{name: "own sessions", features: []string{"human"}, wantFirst: 1, wantState: "accept"},
		{name: "own sessions, !interactive", features: []string{"human", "!interactive"}, wantFirst: 0, wantState: "decline"},
		{name: "shared", shared: true, features: []string{"human"}, wantFirst: 0, wantState: "decline"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			g := newGateway(t, hostile(t), &gateway.Options{Shared: tt.shared})
			var a, b asker
			first := sdkClient(ctx, t, g, legacy, tt.features, a.options())
			other := sdkClient(ctx, t, g, legacy, []string{"human"}, b.options())

			cctx, stop := context.WithCancel(ctx)
			done := make(chan error, 1)
			go func() {
				_, err := first.CallTool(cctx, &mcp.CallToolParams{Name: "ask", Arguments: map[string]any{"ms": 60000}})
				done <- err
			}()
			time.Sleep(200 * time.Millisecond) // the call is under way upstream
			var wg sync.WaitGroup
			wg.Add(1)
			go func() {
				defer wg.Done()
				call(ctx, t, other, "slow", map[string]any{"ms": 1500})
			}()
			time.Sleep(200 * time.Millisecond) // the other call is under way
			stop()                             // the upstream asks now
			if err := <-done; !errors.Is(err, context.Canceled) {
				t.Fatalf("the cancelled call: %v", err)
			}
			wg.Wait()
			var got string
			for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
				asker := first
				if tt.shared {
					asker = other
				}
				if got = call(ctx, t, asker, "last_answer", nil); got != "(none)" {
					break
				}
			}
			if !strings.Contains(got, tt.wantState) {
				t.Errorf("the upstream got %s, want %s", got, tt.wantState)
			}
			if n := b.asked.Load(); n != 0 {
				t.Errorf("the other client was asked %d times, want 0", n)
			}
			if n := a.asked.Load(); n != tt.wantFirst {
				t.Errorf("the cancelling client was asked %d times, want %d", n, tt.wantFirst)
			}
		})
	}
}

// TestClientsShareNoState: what one client sets upstream, another does not
// read; one client's upstream log lines reach it alone.
func TestClientsShareNoState(t *testing.T) {
	for _, era := range []string{legacy, stateless} {
		t.Run(era, func(t *testing.T) { clientsShareNoState(t, era) })
	}
}

// stateless is the first protocol version of the stateless era.
const stateless = "2026-07-28"

func clientsShareNoState(t *testing.T, era string) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	g := newGateway(t, hostile(t), nil)
	var logsA, logsB atomic.Int32
	logs := func(n *atomic.Int32) *mcp.ClientOptions {
		return &mcp.ClientOptions{LoggingMessageHandler: func(context.Context, *mcp.LoggingMessageRequest) { n.Add(1) }}
	}
	a := sdkClient(ctx, t, g, era, nil, logs(&logsA))
	b := sdkClient(ctx, t, g, era, nil, logs(&logsB))
	if got := a.InitializeResult().ProtocolVersion; got != era {
		t.Fatalf("the client speaks %s, want %s", got, era)
	}
	call(ctx, t, a, "set_dir", map[string]any{"dir": "/home/a"})
	if got := call(ctx, t, b, "status", nil); got != "dir=(none)" {
		t.Errorf("b reads %q: a's state", got)
	}
	if got := call(ctx, t, a, "status", nil); got != "dir=/home/a" {
		t.Errorf("a reads %q", got)
	}
	call(ctx, t, a, "log", nil)
	time.Sleep(200 * time.Millisecond)
	if logsA.Load() != 1 || logsB.Load() != 0 {
		t.Errorf("log lines: a got %d, b got %d; want 1 and 0", logsA.Load(), logsB.Load())
	}
	if n := g.Upstreams(); n != 2 {
		t.Errorf("%d upstream sessions, want 2", n)
	}
}

// TestOneBadAnswerFailsOneCall: an upstream answer that is too large, too
// deep or not JSON fails that call with a clear error; the session goes on
// (no restart: its state stays), and so do the other clients' calls.
func TestOneBadAnswerFailsOneCall(t *testing.T) {
	for _, tt := range []struct {
		era    string
		shared bool
	}{{legacy, false}, {legacy, true}, {stateless, false}, {stateless, true}} {
		era, shared := tt.era, tt.shared
		t.Run(era+map[bool]string{false: " own sessions", true: " shared"}[shared], func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			g := newGateway(t, hostile(t), &gateway.Options{MaxResult: 256 << 10, Shared: shared})
			a := sdkClient(ctx, t, g, era, nil, nil)
			b := sdkClient(ctx, t, g, era, nil, nil)
			call(ctx, t, a, "set_dir", map[string]any{"dir": "/kept"})
			var failed atomic.Int32
			var wg sync.WaitGroup
			for i := 0; i < 20; i++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					if _, err := b.CallTool(ctx, &mcp.CallToolParams{Name: "slow", Arguments: map[string]any{"ms": 20}}); err != nil {
						failed.Add(1)
						t.Errorf("b's call failed: %v", err)
					}
				}()
			}
			for _, tt := range []struct {
				tool string
				args map[string]any
				want string
			}{
				{"oversize", map[string]any{"bytes": 1 << 20}, "more than 262144 bytes"},
				{"deep", nil, "nested too deeply"},
				{"malformed", nil, "could not be read"},
			} {
				_, err := a.CallTool(ctx, &mcp.CallToolParams{Name: tt.tool, Arguments: tt.args})
				if err == nil || !strings.Contains(err.Error(), tt.want) {
					t.Errorf("%s: error %v, want one saying %q", tt.tool, err, tt.want)
				}
			}
			wg.Wait()
			if got := call(ctx, t, a, "status", nil); got != "dir=/kept" {
				t.Errorf("after the bad answers a reads %q: its upstream restarted", got)
			}
		})
	}
}
