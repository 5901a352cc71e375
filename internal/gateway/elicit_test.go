package gateway_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestUpstreamQuestionsThroughTheGate: the everything server's elicitation
// tool asks the gateway a question during the call, in both downstream
// eras (legacy: the gateway sends elicitation/create; stateless: the call
// returns the question as inputRequests, and the client's retry carries
// the answer). A client that declared !interactive, or that declared the
// extension without the elicitation capability, is never asked and the
// upstream gets "decline"; an interactive client, and one that declared
// nothing (the SDK's own behaviour), is asked and its answer reaches the
// upstream, whose result shows it.
func TestUpstreamQuestionsThroughTheGate(t *testing.T) {
	u := everythingServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	g := startGateway(ctx, t, u, t.TempDir())
	tests := []struct {
		name      string
		features  []string
		cannot    bool // the client has no elicitation handler, so no capability
		wantAsked int32
		want      string
	}{
		{name: "not interactive", features: []string{"human", "!interactive"}, wantAsked: 0, want: `"action": "decline"`},
		{name: "declared without the capability", features: []string{"human"}, cannot: true, wantAsked: 0, want: `"action": "decline"`},
		{name: "interactive", features: []string{"human"}, wantAsked: 1, want: `"name": "Zoë"`},
		{name: "undeclared", features: nil, wantAsked: 1, want: `"name": "Zoë"`},
	}
	for _, era := range eras {
		for _, tt := range tests {
			t.Run(era.name+"/"+tt.name, func(t *testing.T) {
				var asked atomic.Int32
				opts := &mcp.ClientOptions{}
				if !tt.cannot {
					opts.ElicitationHandler = func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
						asked.Add(1)
						return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Zoë", "check": true}}, nil
					}
				}
				cs := connectGateway(ctx, t, g, era.version, tt.features, opts)
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "trigger-elicitation-request", Arguments: map[string]any{}})
				if err != nil {
					t.Fatal(err)
				}
				if n := asked.Load(); n != tt.wantAsked {
					t.Errorf("the client was asked %d times, want %d", n, tt.wantAsked)
				}
				if got := text(res); !strings.Contains(got, tt.want) {
					t.Errorf("the upstream's result %q does not show %s", got, tt.want)
				}
			})
		}
	}
}

// TestVanishedClientEndsTheQuestion: an interactive client that goes away
// while it is being asked ends the question: the upstream gets "cancel"
// and the next client's question reaches that client.
func TestVanishedClientEndsTheQuestion(t *testing.T) {
	u := everythingServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	g := startGateway(ctx, t, u, t.TempDir())
	asked := make(chan struct{})
	st, ct := mcp.NewInMemoryTransports()
	ss, err := g.Server().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	vanishing := &vanishingTransport{Transport: ct}
	caps := &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{Form: &mcp.FormElicitationCapabilities{}}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "gone", Version: "1"}, &mcp.ClientOptions{
		Capabilities: caps,
		ElicitationHandler: func(ctx context.Context, _ *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			close(asked)
			<-ctx.Done()
			return nil, ctx.Err()
		},
	}).Connect(ctx, vanishing, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	callDone := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "trigger-elicitation-request", Arguments: map[string]any{}})
		callDone <- err
	}()
	select {
	case <-asked:
	case <-ctx.Done():
		t.Fatal("the client was not asked")
	}
	_ = vanishing.conn.Close() // the client's connection goes away
	select {
	case <-callDone:
	case <-ctx.Done():
		t.Fatal("the call did not end when its client went away")
	}
	// The question ended with its client: the next client's question
	// reaches it (a question still open would leave two requests under way,
	// and the gateway would decline the next one).
	var asked2 atomic.Int32
	next := connectGateway(ctx, t, g, "2025-11-25", []string{"human"}, &mcp.ClientOptions{
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			asked2.Add(1)
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Zoë"}}, nil
		},
	})
	res, err := next.CallTool(ctx, &mcp.CallToolParams{Name: "trigger-elicitation-request", Arguments: map[string]any{}})
	if err != nil || res.IsError || asked2.Load() != 1 {
		t.Fatalf("the next call: %v %+v, asked %d times, want once", err, res, asked2.Load())
	}
}

// vanishingTransport keeps its connection, so that a test can close it
// under the session: a client that goes away without a word.
type vanishingTransport struct {
	mcp.Transport
	conn mcp.Connection
}

func (v *vanishingTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := v.Transport.Connect(ctx)
	v.conn = c
	return c, err
}
