package gateway_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap/zaptest"

	"github.com/contentneg/contentneg/internal/gateway"
)

// subscribedUpstream is a go-sdk server with a tool (echo), a prompt
// (greet), a resource (test://r) and a template (test://items/{id}). It
// takes resource subscriptions and records how often each URI was
// subscribed and unsubscribed.
type subscribedUpstream struct {
	server *mcp.Server
	// legacy makes the upstream a legacy-era server: it refuses
	// server/discover, and the gateway's client falls back to initialize.
	legacy bool
	last   atomic.Pointer[mcp.ServerSession] // the gateway's session

	mu           sync.Mutex
	subscribes   map[string]int
	unsubscribes map[string]int
	changed      chan struct{} // a subscribe or unsubscribe happened
}

func newSubscribedUpstream(t *testing.T, legacy bool) *subscribedUpstream {
	t.Helper()
	u := &subscribedUpstream{legacy: legacy, subscribes: map[string]int{}, unsubscribes: map[string]int{}, changed: make(chan struct{}, 64)}
	record := func(m map[string]int, uri string) {
		u.mu.Lock()
		m[uri]++
		u.mu.Unlock()
		select {
		case u.changed <- struct{}{}:
		default:
		}
	}
	u.server = mcp.NewServer(&mcp.Implementation{Name: "subscribed", Version: "1"}, &mcp.ServerOptions{
		SubscribeHandler: func(_ context.Context, req *mcp.SubscribeRequest) error {
			if req.Params.URI == "test://refused" {
				return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "no such resource: test://refused"}
			}
			record(u.subscribes, req.Params.URI)
			return nil
		},
		UnsubscribeHandler: func(_ context.Context, req *mcp.UnsubscribeRequest) error {
			record(u.unsubscribes, req.Params.URI)
			return nil
		},
	})
	read := func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, Text: req.Params.URI}}}, nil
	}
	u.server.AddResource(&mcp.Resource{Name: "r", URI: "test://r"}, read)
	u.server.AddResourceTemplate(&mcp.ResourceTemplate{Name: "item", URITemplate: "test://items/{id}"}, read)
	mcp.AddTool(u.server, &mcp.Tool{Name: "echo"}, func(_ context.Context, _ *mcp.CallToolRequest, in struct {
		Text string `json:"text"`
	}) (*mcp.CallToolResult, struct {
		Text string `json:"text"`
	}, error) {
		return nil, in, nil
	})
	u.server.AddPrompt(&mcp.Prompt{Name: "greet", Arguments: []*mcp.PromptArgument{{Name: "who"}}}, func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: "hello " + req.Params.Arguments["who"]}}}}, nil
	})
	return u
}

func (u *subscribedUpstream) dial() mcp.Transport {
	ct, st := mcp.NewInMemoryTransports()
	var tr mcp.Transport = st
	if u.legacy {
		tr = legacyOnly{st}
	}
	ss, err := u.server.Connect(context.Background(), tr, nil)
	if err == nil {
		u.last.Store(ss)
	}
	return ct
}

// legacyOnly is a server's transport that answers server/discover with
// "method not found", as a legacy-era server does.
type legacyOnly struct{ mcp.Transport }

func (l legacyOnly) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := l.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return legacyConn{c}, nil
}

type legacyConn struct{ mcp.Connection }

func (c legacyConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		msg, err := c.Connection.Read(ctx)
		if r, ok := msg.(*jsonrpc.Request); err == nil && ok && r.Method == "server/discover" {
			if err := c.Connection.Write(ctx, &jsonrpc.Response{ID: r.ID, Error: &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "server/discover"}}); err != nil {
				return nil, err
			}
			continue
		}
		return msg, err
	}
}

// upstreamEras are the eras of the subscribed upstream: a legacy-era one
// answers resources/subscribe before the gateway answers its client; to a
// stateless-era one the go-sdk client opens a subscriptions/listen stream
// and returns without waiting for it (its refusal reaches no one).
var upstreamEras = []struct {
	name   string
	legacy bool
}{{"legacy upstream", true}, {"stateless upstream", false}}

// start starts a gateway in front of u, closed when the test ends.
func (u *subscribedUpstream) start(ctx context.Context, t *testing.T) *gateway.Gateway {
	t.Helper()
	g, err := gateway.New(ctx, u.dial, &gateway.Options{Logger: zaptest.NewLogger(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = g.Close() })
	return g
}

// counts are how often uri was subscribed and unsubscribed upstream.
func (u *subscribedUpstream) counts(uri string) (sub, unsub int) {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.subscribes[uri], u.unsubscribes[uri]
}

// waitCounts waits until uri's counts are sub and unsub (any, if unsub is
// negative).
func (u *subscribedUpstream) waitCounts(ctx context.Context, t *testing.T, uri string, sub, unsub int) {
	t.Helper()
	for {
		s, un := u.counts(uri)
		if s == sub && (un == unsub || unsub < 0) {
			return
		}
		select {
		case <-u.changed:
		case <-ctx.Done():
			t.Fatalf("upstream subscribes/unsubscribes of %s: %d/%d, want %d/%d", uri, s, un, sub, unsub)
		}
	}
}

// updates is a downstream client that records the resource updates it gets.
func updates() (*mcp.Client, chan string) {
	ch := make(chan string, 16)
	return mcp.NewClient(&mcp.Implementation{Name: "subscriber", Version: "1"}, &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) { ch <- req.Params.URI },
	}), ch
}

func wantUpdate(ctx context.Context, t *testing.T, who string, ch chan string, uri string) {
	t.Helper()
	select {
	case got := <-ch:
		if got != uri {
			t.Fatalf("%s got an update of %s, want %s", who, got, uri)
		}
	case <-ctx.Done():
		t.Fatalf("%s got no update of %s", who, uri)
	}
}

// TestSubscriptionsThroughTheGate: the mirror offers subscriptions as its
// upstream does; the upstream holds one subscription per URI while any
// downstream client holds one, whose updates reach every subscriber; the
// last to leave, by unsubscribing or by going away, unsubscribes it; a
// restarted upstream is subscribed again. The gateway dropped the
// capability before, and a client could not subscribe at all.
func TestSubscriptionsThroughTheGate(t *testing.T) {
	for _, ue := range upstreamEras {
		t.Run(ue.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			u := newSubscribedUpstream(t, ue.legacy)
			g := u.start(ctx, t)
			const uri = "test://r"
			ca, updA := updates()
			a := connectClient(ctx, t, g, ca, "2025-11-25", nil)
			if c := a.InitializeResult().Capabilities; c.Resources == nil || !c.Resources.Subscribe {
				t.Fatalf("the mirror's resources capability: %+v; want subscribe, as the upstream offers", c.Resources)
			}
			cb, updB := updates()
			b := connectClient(ctx, t, g, cb, "2025-11-25", nil)

			if err := a.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}); err != nil {
				t.Fatal(err)
			}
			if err := b.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}); err != nil {
				t.Fatal(err)
			}
			u.waitCounts(ctx, t, uri, 1, 0)
			if err := u.server.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: uri}); err != nil {
				t.Fatal(err)
			}
			wantUpdate(ctx, t, "a", updA, uri)
			wantUpdate(ctx, t, "b", updB, uri)
			if s, un := u.counts(uri); s != 1 || un != 0 {
				t.Fatalf("two clients subscribed: the upstream got %d subscribes, %d unsubscribes; want 1, 0", s, un)
			}

			if err := a.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: uri}); err != nil {
				t.Fatal(err)
			}
			// An update now reaches b, so the upstream still holds the URI.
			if err := u.server.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: uri}); err != nil {
				t.Fatal(err)
			}
			wantUpdate(ctx, t, "b, after a left", updB, uri)
			if s, un := u.counts(uri); s != 1 || un != 0 {
				t.Fatalf("b still holds %s, yet the upstream got %d unsubscribes", uri, un)
			}
			_ = b.Close() // the last subscriber goes away without unsubscribing
			u.waitCounts(ctx, t, uri, 1, 1)

			// A restarted upstream is subscribed again, and its updates reach a.
			if err := a.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}); err != nil {
				t.Fatal(err)
			}
			u.waitCounts(ctx, t, uri, 2, 1)
			first := u.last.Load()
			_ = first.Close() // a stateless-era upstream unsubscribes its listen stream as it ends
			u.waitCounts(ctx, t, uri, 3, -1)
			if u.last.Load() == first {
				t.Fatal("no new upstream session")
			}
			if err := u.server.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: uri}); err != nil {
				t.Fatal(err)
			}
			wantUpdate(ctx, t, "a, after the restart", updA, uri)
		})
	}
}

// TestSubscriptionsOfAStatelessClient: a stateless-era client subscribes
// over subscriptions/listen; the upstream is subscribed while the stream is
// open, its updates reach the client, and it is unsubscribed when the
// client ends the stream.
func TestSubscriptionsOfAStatelessClient(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	u := newSubscribedUpstream(t, false)
	g := u.start(ctx, t)
	const uri = "test://r"
	c, upd := updates()
	cs := connectClient(ctx, t, g, c, "", nil)
	if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}); err != nil {
		t.Fatal(err)
	}
	u.waitCounts(ctx, t, uri, 1, 0)
	if err := u.server.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: uri}); err != nil {
		t.Fatal(err)
	}
	wantUpdate(ctx, t, "the stateless client", upd, uri)
	if err := cs.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: uri}); err != nil {
		t.Fatal(err)
	}
	u.waitCounts(ctx, t, uri, 1, 1)
}

// TestSubscriptionRefused: a legacy-era upstream's refusal reaches the
// client as it is, and leaves nothing held; a subscription beyond MaxSubscriptions is
// refused with an error that says so, and nothing reaches the upstream.
func TestSubscriptionRefused(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	u := newSubscribedUpstream(t, true)
	g := u.start(ctx, t)
	c, _ := updates()
	cs := connectClient(ctx, t, g, c, "2025-11-25", nil)

	err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "test://refused"})
	var we *jsonrpc.Error
	if !errors.As(err, &we) || we.Code != jsonrpc.CodeInvalidParams || we.Message != "no such resource: test://refused" {
		t.Fatalf("subscribe to a URI the upstream refuses: %v; want its error as it is", err)
	}

	// All MaxSubscriptions are taken below, which they could not be if the
	// refused URI were held.
	for i := range gateway.MaxSubscriptions {
		if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: fmt.Sprintf("test://%d", i)}); err != nil {
			t.Fatalf("subscription %d: %v", i, err)
		}
	}
	// Again to a held URI: no new subscription, so no refusal.
	if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "test://0"}); err != nil {
		t.Fatalf("subscribe again to a held URI: %v", err)
	}
	over := fmt.Sprintf("test://%d", gateway.MaxSubscriptions)
	err = cs.Subscribe(ctx, &mcp.SubscribeParams{URI: over})
	if err == nil || !strings.Contains(err.Error(), fmt.Sprint(gateway.MaxSubscriptions)) {
		t.Fatalf("subscription beyond the bound: %v; want an error naming %d", err, gateway.MaxSubscriptions)
	}
	if s, _ := u.counts(over); s != 0 {
		t.Fatalf("the upstream got %d subscribes of %s, beyond the bound", s, over)
	}
	// Leaving one makes room for another.
	if err := cs.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: "test://0"}); err != nil {
		t.Fatal(err)
	}
	if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: over}); err != nil {
		t.Fatalf("subscribe after one left: %v", err)
	}
}

// TestNoSubscriptionsWithoutTheUpstreams: an upstream that takes no
// subscriptions has a mirror that offers none.
func TestNoSubscriptionsWithoutTheUpstreams(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	up := mcp.NewServer(&mcp.Implementation{Name: "plain", Version: "1"}, nil)
	up.AddResource(&mcp.Resource{Name: "r", URI: "test://r"}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{}, nil
	})
	g, err := gateway.New(ctx, func() mcp.Transport {
		ct, st := mcp.NewInMemoryTransports()
		_, _ = up.Connect(context.Background(), st, nil)
		return ct
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	c, _ := updates()
	cs := connectClient(ctx, t, g, c, "2025-11-25", nil)
	if r := cs.InitializeResult().Capabilities.Resources; r == nil || r.Subscribe {
		t.Fatalf("the mirror's resources capability: %+v; want resources without subscribe", r)
	}
	var we *jsonrpc.Error
	if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "test://r"}); !errors.As(err, &we) || we.Code != jsonrpc.CodeMethodNotFound {
		t.Fatalf("subscribe: %v; want method not found", err)
	}
}

// TestEverythingServerUpdates: the everything server's subscriptions,
// through the gateway, in both eras: a client subscribes to one of its
// resources, its toggle-subscriber-updates tool starts the updates, and
// the first reaches the client.
func TestEverythingServerUpdates(t *testing.T) {
	u := everythingServer(t)
	for _, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			g := startGateway(ctx, t, u, t.TempDir())
			c, upd := updates()
			cs := connectClient(ctx, t, g, c, era.version, nil)
			res, err := cs.ListResources(ctx, nil)
			if err != nil || len(res.Resources) == 0 {
				t.Fatalf("list resources: %v, %d", err, len(res.Resources))
			}
			uri := res.Resources[0].URI
			if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}); err != nil {
				t.Fatal(err)
			}
			if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "toggle-subscriber-updates", Arguments: map[string]any{}}); err != nil {
				t.Fatal(err)
			}
			wantUpdate(ctx, t, "the client", upd, uri)
		})
	}
}
