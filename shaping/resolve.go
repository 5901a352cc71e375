package shaping

import (
	"strings"
	"sync"

	"go.uber.org/zap"

	"github.com/contentneg/contentneg/negotiation"
)

// Capabilities is what the contract reads of a client's capability object.
type Capabilities struct {
	// Extensions and Experimental are the capability maps the extension's
	// settings are looked up in (extensions first).
	Extensions   map[string]any
	Experimental map[string]any
	// Elicitation says the client has the real elicitation capability.
	Elicitation bool
}

// declares reports whether the capabilities hold a map in which the
// extension's settings could be.
func (c Capabilities) declares() bool { return len(c.Extensions) > 0 || len(c.Experimental) > 0 }

// Request holds the facts a front end knows of one request, in plain
// values; the core turns them into the client's profile. It is
// meant to live on the front end's stack: resolving allocates nothing for
// a client that did not declare the extension.
type Request struct {
	// Meta are the client capabilities the request carries in its own
	// _meta (the stateless era's envelope, or a legacy client that sends
	// them), when HasMeta.
	Meta    Capabilities
	HasMeta bool
	// Session are the capabilities the client gave at initialize, when the
	// SDK keeps them for the request's session (HasSession).
	Session    Capabilities
	HasSession bool
	// SessionID is the transport's session id ("" when there is none).
	SessionID string
	// SessionKey identifies the connection for the profile cache: any
	// comparable value that stays the same for the connection's requests
	// (a weak pointer to the SDK's session); nil for none.
	SessionKey any
	// Stateless says the request follows the stateless protocol
	// (2026-07-28 and later): its own capabilities are all there is.
	Stateless bool
	// Argument is the per-call format argument the front end took out of
	// a tools/call's arguments ([Shaper.TakeArgument]).
	Argument Argument
	// Unreadable says the client may have declared the extension where
	// the front end cannot read it (an initialize-era request over
	// stateless HTTP: its initialize went on another connection). Consent
	// never rests on a declaration the server could not read (contract
	// section 2): the gate is closed for it, and its results are rendered
	// as the default tags say, or passed through.
	Unreadable bool
}

// client is what the contract knows of the client behind a request.
type client struct {
	// Profile is the client's profile; nil when it did not declare the
	// extension.
	Profile *negotiation.Profile
	// Elicitation says the client has the real elicitation capability.
	Elicitation bool
}

// Resolve finds the client's profile in the order of the contract
// (section 1): the request's own _meta capabilities; the session's
// initialize capabilities (parsed once per connection and kept); the
// profile store, by session id; the server's default tags
// ([Options].Default); and "not declared". A profile from the store comes
// without the elicitation capability, so the gate stays closed for it.
func (s *Shaper) resolve(r *Request) client {
	c := s.declared(r)
	if !c.Profile.Declared() {
		if p := s.fallback(); p != nil {
			c.Profile = p
		}
	}
	if r.Unreadable {
		if !c.Profile.Declared() {
			c.Profile = s.unread
		}
		c.Elicitation = false // the gate is closed (section 6)
	}
	return c
}

// fallback returns the profile of the default tags, nil when there are
// none or they do not check (logged once).
func (s *Shaper) fallback() *negotiation.Profile {
	if len(s.defaults.Features) == 0 && s.defaults.Version == "" {
		return nil
	}
	p, err := s.defaultProfile()
	if err != nil {
		s.warnDefault.Do(func() {
			s.log.Error("default tags not applied", zap.Error(err))
		})
	}
	return p
}

// declared is resolve without the default: steps 1 to 3.
func (s *Shaper) declared(r *Request) client {
	switch {
	case r.HasMeta:
		return s.negotiate(r.Meta)
	case r.Stateless:
		// The contract forbids inferring a stateless client's capabilities
		// from its earlier requests: this request's are all there is.
		return client{}
	}
	if c, ok := s.sessions.load(r.SessionKey); ok {
		return c
	}
	var c client
	if r.HasSession {
		if c = s.negotiate(r.Session); c.Profile.Declared() {
			return c
		}
	}
	if p, ok := s.sessions.fromStore(r.SessionID); ok {
		return client{Profile: p}
	}
	return c
}

// Initialize negotiates a legacy-era session once, from its initialize
// capabilities, and returns the client's profile (nil when it did not
// declare the extension). When the client declared it, the profile is kept
// for the connection (key) and saved in the store under the session id,
// and Initialize reports kept when there is a key: the front end then
// calls [Shaper.EndSession] when the connection ends. Nothing is kept for
// other clients.
func (s *Shaper) Initialize(key any, sessionID string, caps Capabilities) (profile *negotiation.Profile, kept bool) {
	c := s.negotiate(caps)
	if !c.Profile.Declared() {
		return c.Profile, false
	}
	s.sessions.keep(key, c)
	s.sessions.save(sessionID, c.Profile)
	return c.Profile, key != nil
}

// EndSession forgets what was kept for the connection key, and ends the
// connection's open questions (see [Shaper.EndQuestions]). The store's
// entry for the session id goes too, unless the connection carried nothing
// but its initialize request: that is stateless HTTP's throwaway
// connection, and the session lives on under its id for the requests that
// follow on other connections (resolution step 3).
func (s *Shaper) EndSession(key any, sessionID string) {
	s.EndQuestions(key, "")
	s.sessions.end(key, sessionID)
}

// Sessions returns the number of connections whose client is kept, for
// tests and metrics.
func (s *Shaper) Sessions() int { return s.sessions.len() }

func (s *Shaper) negotiate(caps Capabilities) client {
	return client{Profile: s.negotiator.Negotiate(caps.Extensions, caps.Experimental), Elicitation: caps.Elicitation}
}

// sessions keeps the client of each connection that declared the extension
// (nothing for the others), with the tool calls it has under way, and reads
// and writes the store.
type sessions struct {
	store negotiation.Store

	mu    sync.Mutex
	byKey map[any]*session
}

type session struct {
	client client
	served int      // requests after initialize
	calls  []string // the names of the calls under way, for logs
}

func (t *sessions) load(key any) (client, bool) {
	if key == nil {
		return client{}, false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if e, ok := t.byKey[key]; ok {
		e.served++
		return e.client, true
	}
	return client{}, false
}

func (t *sessions) keep(key any, c client) {
	if key == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.byKey == nil {
		t.byKey = make(map[any]*session)
	}
	if e, ok := t.byKey[key]; ok {
		e.client = c
		return
	}
	t.byKey[key] = &session{client: c}
}

func (t *sessions) save(id string, p *negotiation.Profile) {
	if t.store != nil && id != "" {
		t.store.Save(id, p)
	}
}

func (t *sessions) fromStore(id string) (*negotiation.Profile, bool) {
	if t.store == nil || id == "" {
		return nil, false
	}
	// A copy: the store is an interface, and handing it the request's own
	// id would make every request's facts escape to the heap.
	return t.store.Load(strings.Clone(id))
}

func (t *sessions) end(key any, id string) {
	served := 0
	if key != nil {
		t.mu.Lock()
		if e, ok := t.byKey[key]; ok {
			served = e.served
			delete(t.byKey, key)
		}
		t.mu.Unlock()
	}
	if t.store != nil && id != "" && served > 0 {
		t.store.Forget(id)
	}
}

func (t *sessions) len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.byKey)
}

// begin records a call under way on the connection; end removes it.
func (t *sessions) begin(key any, name string) {
	if key == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if e, ok := t.byKey[key]; ok {
		e.calls = append(e.calls, name)
	}
}

func (t *sessions) done(key any, name string) {
	if key == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if e, ok := t.byKey[key]; ok {
		for i, n := range e.calls {
			if n == name {
				e.calls = append(e.calls[:i], e.calls[i+1:]...)
				break
			}
		}
	}
}

// underway returns the names of the connection's calls under way, joined
// for a log field.
func (t *sessions) underway(key any) string {
	if key == nil {
		return ""
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	e, ok := t.byKey[key]
	if !ok {
		return ""
	}
	out := ""
	for i, n := range e.calls {
		if i > 0 {
			out += ","
		}
		out += n
	}
	return out
}
