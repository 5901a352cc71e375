package gateway

import (
	"context"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// quietTransport drops the upstream's resources/list_changed notifications,
// so that only the test asks for a re-sync of the resources.
type quietTransport struct{ mcp.Transport }

func (q quietTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := q.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return quietConn{c}, nil
}

type quietConn struct{ mcp.Connection }

func (q quietConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		msg, err := q.Connection.Read(ctx)
		if r, ok := msg.(*jsonrpc.Request); err == nil && ok && r.Method == "notifications/resources/list_changed" {
			continue
		}
		return msg, err
	}
}

// TestNoReSyncIsLost: a burst of tools list_changed while a re-sync is
// under way must not crowd out a resources list_changed that follows it.
// The re-sync queue dropped asks once it held 8, whatever their kind.
func TestNoReSyncIsLost(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	upServer := mcp.NewServer(&mcp.Implementation{Name: "up", Version: "1"}, nil)
	upServer.AddTool(&mcp.Tool{Name: "t", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{}, nil
		})
	read := func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{}, nil
	}
	upServer.AddResource(&mcp.Resource{Name: "first", URI: "test://first"}, read)
	dial := func() mcp.Transport {
		ct, st := mcp.NewInMemoryTransports()
		go func() { _ = upServer.Run(context.Background(), st) }()
		return quietTransport{ct}
	}
	g, err := New(ctx, dial, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()

	g.syncMu.Lock() // a re-sync under way, which the burst waits behind
	for range 20 {
		g.ask(kindTools)
	}
	upServer.AddResource(&mcp.Resource{Name: "second", URI: "test://second"}, read)
	g.ask(kindResources)
	g.syncMu.Unlock()

	ct, st := mcp.NewInMemoryTransports()
	if _, err := g.Server().Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "down", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	for {
		res, err := cs.ListResources(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Resources) == 2 {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the resources re-sync was lost: the mirror lists %d resources, the upstream 2", len(res.Resources))
		case <-time.After(20 * time.Millisecond):
		}
	}
}
