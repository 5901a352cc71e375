package shaping_test

import (
	"testing"

	"github.com/contentneg/contentneg/format"
	"github.com/contentneg/contentneg/negotiation"
	"github.com/contentneg/contentneg/shaping"
)

func declaring(tags ...string) shaping.Capabilities {
	return shaping.Capabilities{Extensions: map[string]any{negotiation.ExtensionID: negotiation.Settings{Features: tags}.Map()}}
}

// The contract's resolution order (section 1): the request's own _meta, the
// session's initialize capabilities, the store, not declared.
func TestResolutionOrder(t *testing.T) {
	store := negotiation.NewMemoryStore(10)
	store.Save("stored", negotiation.FromTags("format=text"))
	tests := []struct {
		name string
		give shaping.Request
		want format.Rendering // PassThrough: not declared
	}{
		{"nothing known", shaping.Request{}, format.RenderingPassThrough},
		{"request meta first", shaping.Request{HasMeta: true, Meta: declaring("agent"), HasSession: true, Session: declaring("human"), SessionID: "stored"}, format.RenderingStructured},
		{"request meta without the extension", shaping.Request{HasMeta: true, Meta: shaping.Capabilities{}, HasSession: true, Session: declaring("human")}, format.RenderingPassThrough},
		{"session next", shaping.Request{HasSession: true, Session: declaring("human"), SessionID: "stored"}, format.RenderingMarkdown},
		{"store when the session does not declare", shaping.Request{HasSession: true, Session: shaping.Capabilities{}, SessionID: "stored"}, format.RenderingText},
		{"store when the session is unknown", shaping.Request{SessionID: "stored"}, format.RenderingText},
		{"unknown session id", shaping.Request{SessionID: "other"}, format.RenderingPassThrough},
		{"stateless: only the request counts", shaping.Request{Stateless: true, HasSession: true, Session: declaring("human"), SessionID: "stored"}, format.RenderingPassThrough},
		{"stateless with meta", shaping.Request{Stateless: true, HasMeta: true, Meta: declaring("format=markdown")}, format.RenderingMarkdown},
	}
	s := shaping.New(&shaping.Options{Store: store})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := s.Resolve(&tt.give).Profile.Rendering(); got != tt.want {
				t.Errorf("rendering = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestSessionsAreKeptOnlyForDeclaredClients(t *testing.T) {
	s := shaping.New(&shaping.Options{Store: negotiation.NewMemoryStore(10)})
	if _, kept := s.Initialize("undeclared", "a", shaping.Capabilities{}); kept || s.Sessions() != 0 {
		t.Fatalf("an undeclared session was kept")
	}
	if _, kept := s.Initialize("declared", "b", declaring("human")); !kept || s.Sessions() != 1 {
		t.Fatalf("a declared session was not kept")
	}
	if got := s.Resolve(&shaping.Request{SessionKey: "declared"}).Profile.Rendering(); got != format.RenderingMarkdown {
		t.Errorf("kept session resolves to %v", got)
	}
	s.EndSession("declared", "b")
	if s.Sessions() != 0 {
		t.Errorf("%d sessions after the end, want 0", s.Sessions())
	}
}

// The stateless transport's throwaway initialize connection ends while its
// session id lives on: its store entry stays; a connection that served
// requests takes the entry with it.
func TestStoreOutlivesTheInitializeConnection(t *testing.T) {
	store := negotiation.NewMemoryStore(10)
	s := shaping.New(&shaping.Options{Store: store})
	s.Initialize("init", "id", declaring("human"))
	s.EndSession("init", "id")
	if _, ok := store.Load("id"); !ok {
		t.Fatal("the store forgot the session when its initialize connection ended")
	}
	s.Initialize("conn", "id2", declaring("human"))
	s.Resolve(&shaping.Request{SessionKey: "conn"})
	s.EndSession("conn", "id2")
	if _, ok := store.Load("id2"); ok {
		t.Error("the store kept a session whose connection served requests and ended")
	}
}

func TestGateRounds(t *testing.T) {
	s := shaping.New(nil)
	closed := s.Begin(shaping.Client{Profile: negotiation.FromTags("!interactive"), Elicitation: true}, nil, "tools/call", "t")
	defer closed.Done()
	var calls [][]string
	res, err := shaping.Gate(closed, func(refused []string, state string) (string, error) {
		calls = append(calls, refused)
		if refused == nil {
			return "ask", nil
		}
		return "done:" + state, nil
	}, func(r string) ([]string, string) {
		if r == "ask" {
			return []string{"q"}, "s1"
		}
		return nil, ""
	})
	if err != nil || res != "done:s1" || len(calls) != 2 || calls[1][0] != "q" {
		t.Errorf("res %q, err %v, calls %v; want one retry answering q with the state", res, err, calls)
	}
	_, err = shaping.Gate(closed, func([]string, string) (string, error) { return "ask", nil },
		func(string) ([]string, string) { return []string{"q"}, "" })
	if _, ok := err.(*shaping.StillAskingError); !ok {
		t.Errorf("a handler that never stops asking: err = %v, want *StillAskingError", err)
	}
	open := s.Begin(shaping.Client{Profile: negotiation.FromTags("interactive"), Elicitation: true}, nil, "tools/call", "t")
	defer open.Done()
	n := 0
	res, _ = shaping.Gate(open, func([]string, string) (string, error) { n++; return "ask", nil },
		func(string) ([]string, string) { return []string{"q"}, "" })
	if res != "ask" || n != 1 {
		t.Errorf("open gate: %q after %d calls, want the question passed on after 1", res, n)
	}
	if got := closed.Forged([]string{"a", "b"}); len(got) != 2 {
		t.Errorf("closed gate: forged %v, want every answer", got)
	}
	if got := open.Forged([]string{"a"}); got != nil {
		t.Errorf("open gate: forged %v, want none", got)
	}
}

func TestPlanContent(t *testing.T) {
	plan := shaping.Plan{ReplaceText: true, Text: "rendered", Hints: "h"}
	got := plan.Content([]bool{true, false, true})
	want := []shaping.Block{{From: -1, Text: "rendered"}, {From: 1}, {From: -1, Text: "h", ForAssistant: true}}
	if len(got) != len(want) {
		t.Fatalf("blocks = %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("block %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	converted := shaping.Plan{Texts: []string{"plain"}}.Content([]bool{false, true})
	if len(converted) != 2 || converted[1] != (shaping.Block{From: 1, Text: "plain", Replaced: true}) {
		t.Errorf("converted = %+v", converted)
	}
}

// TestUnreadableDeclarationClosesTheGate: a request whose client may have
// declared where the front end cannot read it is served as declared with
// no preference (pass-through), or with the default tags, and the gate is
// closed either way (contract section 2).
func TestUnreadableDeclarationClosesTheGate(t *testing.T) {
	for _, tt := range []struct {
		name     string
		defaults negotiation.Settings
		want     format.Rendering
	}{
		{"no default", negotiation.Settings{}, format.RenderingPassThrough},
		{"default human", shaping.ParseTags("human"), format.RenderingMarkdown},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := shaping.New(&shaping.Options{Default: tt.defaults})
			c := s.Resolve(&shaping.Request{Unreadable: true, Session: shaping.Capabilities{Elicitation: true}, HasSession: true})
			if !c.Profile.Declared() || c.Elicitation {
				t.Fatalf("declared %v, elicitation %v: want a declared client that cannot be asked", c.Profile.Declared(), c.Elicitation)
			}
			if got := c.Profile.Rendering(); got != tt.want {
				t.Errorf("rendering %v, want %v", got, tt.want)
			}
			open := s.Resolve(&shaping.Request{Session: shaping.Capabilities{Elicitation: true}, HasSession: true})
			if open.Profile.Declared() != (len(tt.defaults.Features) > 0) {
				t.Errorf("a readable undeclared client: declared %v", open.Profile.Declared())
			}
		})
	}
}
