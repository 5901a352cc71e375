package middleware

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"runtime"
	"testing"
	"time"
	"weak"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/negotiation"
	"github.com/contentneg/contentneg/shaping"
)

// eventually polls cond until it holds or the deadline passes.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		runtime.GC() // sessions are forgotten by a cleanup, when the SDK has let go of them
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func clientWith(tags ...string) *mcp.Client {
	caps := &mcp.ClientCapabilities{}
	caps.AddExtension(negotiation.ExtensionID, negotiation.Settings{Features: tags}.Map())
	return mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, &mcp.ClientOptions{Capabilities: caps})
}

func TestLegacySessionsAreForgottenWhenTheyEnd(t *testing.T) {
	ctx := context.Background()
	s := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, nil)
	m := Install(s, nil)

	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := clientWith("agent").Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	if got := m.shaper.Sessions(); got != 1 {
		t.Fatalf("%d sessions kept after initialize, want 1", got)
	}
	p := keptProfile(ctx, m.shaper, weak.Make(ss))
	if p.Audience() != negotiation.Agent {
		t.Fatalf("session profile = %v", p)
	}
	_ = cs.Close()
	_ = ss.Close()
	ss = nil
	eventually(t, "the session is forgotten", func() bool { return m.shaper.Sessions() == 0 })
}

func TestStatelessSessionsAreNotKept(t *testing.T) {
	ctx := context.Background()
	s := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, nil)
	m := Install(s, nil)
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := clientWith("agent").Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if _, err := cs.ListTools(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if got := m.shaper.Sessions(); got != 0 {
		t.Errorf("%d sessions kept for a stateless client, want 0: its profile is per request", got)
	}
}

func TestStoreKeepsProfilesBySessionID(t *testing.T) {
	store := negotiation.NewMemoryStore(10)
	s := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, nil)
	Install(s, &Options{Store: store})
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	defer srv.Close()

	ctx := context.Background()
	cs, err := clientWith("human").Connect(ctx, &mcp.StreamableClientTransport{Endpoint: srv.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	id := cs.ID()
	if id == "" {
		t.Fatal("stateful HTTP gave no session id")
	}
	p, ok := store.Load(id)
	if !ok || p.Audience() != negotiation.Human {
		t.Fatalf("store holds %v, %v for session %s", p, ok, id)
	}
	_ = cs.Close()
	eventually(t, "the store forgets the session", func() bool { _, ok := store.Load(id); return !ok })
}

// keptProfile returns the profile the shaper resolves for a request of the
// connection key that carries nothing of its own: the one it kept for the
// session.
func keptProfile(ctx context.Context, s *shaping.Shaper, key any) *negotiation.Profile {
	var p *negotiation.Profile
	_, _ = shaping.Serve(ctx, s, keyPort{key: key, seen: &p}, struct{}{}, "ping")
	return p
}

// keyPort is a shaping.Port for a request that carries only its
// connection key; its handler records the profile in its context.
type keyPort struct {
	key  any
	seen **negotiation.Profile
}

func (p keyPort) Facts(struct{}) (shaping.Request, string) {
	return shaping.Request{SessionKey: p.key}, ""
}
func (p keyPort) SessionKey(struct{}) any { return p.key }
func (p keyPort) Run(ctx context.Context, _ struct{}, _ shaping.Refused) (struct{}, error) {
	*p.seen, _ = negotiation.FromContext(ctx)
	return struct{}{}, nil
}
func (keyPort) Answered(struct{}) ([]string, string) { return nil, "" }
func (keyPort) Asked(struct{}) ([]string, string)    { return nil, "" }
func (keyPort) Internal(text string) error           { return errors.New(text) }
