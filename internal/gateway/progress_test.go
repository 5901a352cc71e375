package gateway_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap/zaptest"

	"github.com/contentneg/contentneg/internal/gateway"
)

// recordingTransport records the methods of the requests and notifications
// the gateway writes to the upstream.
type recordingTransport struct {
	mcp.Transport
	mu      sync.Mutex
	methods []string
}

func (r *recordingTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := r.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &recordingConn{Connection: c, r: r}, nil
}

func (r *recordingTransport) sent(method string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, m := range r.methods {
		if m == method {
			return true
		}
	}
	return false
}

type recordingConn struct {
	mcp.Connection
	r *recordingTransport
}

func (c *recordingConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if req, ok := msg.(*jsonrpc.Request); ok {
		c.r.mu.Lock()
		c.r.methods = append(c.r.methods, req.Method)
		c.r.mu.Unlock()
	}
	return c.Connection.Write(ctx, msg)
}

// TestProgressAndCancellation: the progress notifications of a long
// upstream call reach the client that made it, under its own token; when
// that client cancels the call, the gateway cancels it upstream. Both eras.
func TestProgressAndCancellation(t *testing.T) {
	u := everythingServer(t)
	for _, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			rec := &recordingTransport{Transport: &mcp.CommandTransport{Command: u.command(t, t.TempDir())}}
			g, err := gateway.New(ctx, func() mcp.Transport { return rec }, &gateway.Options{Logger: zaptest.NewLogger(t)})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = g.Close() })
			progress := make(chan *mcp.ProgressNotificationParams, 16)
			cs := connectGateway(ctx, t, g, era.version, nil, &mcp.ClientOptions{
				ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
					progress <- req.Params
				},
			})

			// A short call: its steps' notifications, under the client's
			// token. The last one, which the upstream sends just before its
			// result, may come after the result (the SDK's client hands
			// notifications on apart from responses), or be lost with the
			// request in the stateless era: the test waits for the others.
			params := &mcp.CallToolParams{Name: "trigger-long-running-operation", Arguments: map[string]any{"duration": 0.3, "steps": 3}}
			params.SetProgressToken("mine")
			if _, err := cs.CallTool(ctx, params); err != nil {
				t.Fatal(err)
			}
			for i := 1; i <= 2; i++ {
				select {
				case p := <-progress:
					if p.ProgressToken != "mine" || p.Progress != float64(i) || p.Total != 3 {
						t.Errorf("progress %d: %+v, want token mine, %d of 3", i, p, i)
					}
				case <-ctx.Done():
					t.Fatalf("progress %d did not reach the client", i)
				}
			}

			// A long call, cancelled after its first step.
			callCtx, cancelCall := context.WithCancel(ctx)
			params = &mcp.CallToolParams{Name: "trigger-long-running-operation", Arguments: map[string]any{"duration": 30, "steps": 30}}
			params.SetProgressToken("long")
			done := make(chan error, 1)
			go func() { _, err := cs.CallTool(callCtx, params); done <- err }()
			for started := false; !started; {
				select {
				case p := <-progress:
					started = p.ProgressToken == "long"
				case <-ctx.Done():
					t.Fatal("no progress of the long call")
				}
			}
			cancelCall()
			if err := <-done; !errors.Is(err, context.Canceled) {
				t.Errorf("the cancelled call ended with %v, want context.Canceled", err)
			}
			for !rec.sent("notifications/cancelled") {
				select {
				case <-ctx.Done():
					t.Fatal("the gateway did not cancel the call upstream")
				case <-time.After(20 * time.Millisecond):
				}
			}
		})
	}
}
