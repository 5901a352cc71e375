package gateway

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/contentneg/contentneg/internal/rawjson"
)

// sharedUpstream is the one upstream session that requests without a
// session of their own (REST, stateless HTTP) share, and every client
// with [Options].Shared. The gateway initializes it with its own
// handshake. What its server sends unasked reaches a client only when it
// can be tied to that client: progress by its token, a question or a log
// line when exactly one call of one client is under way (and none was
// given up lately), list changes to every client, resource updates to the
// clients that subscribed.
type sharedUpstream struct {
	g *Gateway

	up slot

	mu        sync.Mutex
	init      []byte // the upstream's initialize result
	callers   map[*session]int
	abandoned time.Time // when a call was last given up while under way
	tokens    map[string]progressRoute
	nextToken int64
	subs      map[string]map[*session]bool
	closed    bool
}

// progressRoute is where the progress of one call goes.
type progressRoute struct {
	s     *session
	token []byte
}

// maxSubscriptions bounds the URIs subscribed over the shared session, and
// maxSubscriptionsPerClient what one client may hold of them.
const (
	maxSubscriptions          = 4096
	maxSubscriptionsPerClient = 256
)

func newSharedUpstream(g *Gateway) *sharedUpstream {
	return &sharedUpstream{g: g, callers: map[*session]int{}, tokens: map[string]progressRoute{}, subs: map[string]map[*session]bool{}}
}

// ownInitialize is the gateway's own initialize params: it declares
// elicitation only when questions may be passed on (Options.Shared).
func ownInitialize(elicitation bool) []byte {
	caps := "{}"
	if elicitation {
		caps = `{"elicitation":{}}`
	}
	return []byte(`{"protocolVersion":"2025-11-25","capabilities":` + caps + `,"clientInfo":{"name":"contentneg","version":"1.0.0"}}`)
}

// get returns the shared session, started (again) when there is none.
func (h *sharedUpstream) get(ctx context.Context) (*upstream, error) {
	return h.up.get(ctx, h.start, func() error { return newRPCError(codeUnavailable, "the gateway is shutting down") })
}

// start opens the shared session with the gateway's own initialize, and
// keeps its result.
func (h *sharedUpstream) start(ctx context.Context) (*upstream, error) {
	dctx, cancel := context.WithTimeout(ctx, h.g.timeout)
	defer cancel()
	conn, err := h.g.dial.connect(dctx, h.g.maxMsg)
	if err != nil {
		return nil, newRPCError(codeUnavailable, "start the upstream: "+err.Error())
	}
	u := newUpstream(conn, h)
	h.g.mu.Lock()
	ask := h.g.askShared
	h.g.mu.Unlock()
	init, err := u.call(dctx, "initialize", ownInitialize(ask))
	if err != nil {
		u.close()
		return nil, newRPCError(codeUnavailable, "initialize the upstream: "+err.Error())
	}
	_ = u.notify(dctx, "notifications/initialized", nil)
	h.mu.Lock()
	h.init = init
	h.mu.Unlock()
	return u, nil
}

// handshake returns the shared session's initialize result.
func (h *sharedUpstream) handshake(ctx context.Context) ([]byte, error) {
	if _, err := h.get(ctx); err != nil {
		return nil, err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.init, nil
}

// calling records a call of s under way and gives its progress token one
// of the gateway's own; done ends the record.
func (h *sharedUpstream) calling(s *session, params []byte) ([]byte, func()) {
	h.mu.Lock()
	h.callers[s]++
	var token string
	if t, ok := rawjson.Path(params, "_meta", "progressToken"); ok {
		h.nextToken++
		token = strconv.Quote("contentneg-" + strconv.FormatInt(h.nextToken, 10))
		h.tokens[token] = progressRoute{s: s, token: t}
		meta, _ := rawjson.Get(params, "_meta")
		params = rawjson.Set(params, "_meta", rawjson.Set(meta, "progressToken", []byte(token)))
	}
	h.mu.Unlock()
	return params, func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		if h.callers[s]--; h.callers[s] <= 0 {
			delete(h.callers, s)
		}
		if token != "" {
			delete(h.tokens, token)
		}
	}
}

// gaveUp notes that a call was given up while the upstream may still run
// it: a question that comes later cannot be tied to anyone for a while.
func (h *sharedUpstream) gaveUp() {
	h.mu.Lock()
	h.abandoned = time.Now()
	h.mu.Unlock()
}

// sole returns the one client with a call under way, when there is
// exactly one call and none was given up within the call timeout.
func (h *sharedUpstream) sole() *session {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.callers) != 1 || time.Since(h.abandoned) < h.g.timeout {
		return nil
	}
	for s, n := range h.callers {
		if n == 1 && s.down != nil && s.canAsk {
			return s
		}
	}
	return nil
}

func (h *sharedUpstream) serverRequest(u *upstream, m *message) {
	if s := h.sole(); s != nil {
		s.relay(u, m)
		return
	}
	if m.method == "elicitation/create" {
		h.g.log.Debug("question declined: it cannot be tied to one client's call", zap.String("method", m.method))
		u.respond(m.id, askPort{}.Answer("decline"), nil)
		return
	}
	u.respond(m.id, nil, errorObject(codeMethodNotFound, fmt.Sprintf("%s cannot be tied to one client over a shared session", m.method), nil))
}

func (h *sharedUpstream) serverNotify(_ *upstream, m *message) {
	switch m.method {
	case "notifications/progress":
		t, _ := rawjson.Get(m.params, "progressToken")
		h.mu.Lock()
		route, ok := h.tokens[string(t)]
		h.mu.Unlock()
		if ok && route.s.down != nil {
			params := rawjson.Set(m.params, "progressToken", route.token)
			_ = route.s.down.send(h.g.life, encodeNotification(m.method, params))
		}
	case "notifications/message":
		if s := h.sole(); s != nil {
			_ = s.down.send(h.g.life, m.raw)
		}
	case "notifications/tools/list_changed", "notifications/resources/list_changed", "notifications/prompts/list_changed":
		for _, s := range h.clients() {
			s.serverNotify(nil, m)
		}
	case "notifications/resources/updated":
		v, _ := rawjson.Get(m.params, "uri")
		uri, _ := rawjson.String(v)
		h.mu.Lock()
		var to []*session
		for s := range h.subs[uri] {
			to = append(to, s)
		}
		h.mu.Unlock()
		for _, s := range to {
			if s.down != nil {
				_ = s.down.send(h.g.life, m.raw)
			}
		}
	}
}

// clients returns the sessions served over the shared session that can
// be reached unasked.
func (h *sharedUpstream) clients() []*session {
	h.g.mu.Lock()
	defer h.g.mu.Unlock()
	var out []*session
	for s := range h.g.sessions {
		if s.shared && s.down != nil {
			out = append(out, s)
		}
	}
	return out
}

func (h *sharedUpstream) serverEnded(u *upstream, err error) {
	h.up.forget(u)
	h.mu.Lock()
	closed := h.closed
	h.mu.Unlock()
	if !closed {
		h.g.log.Warn("shared upstream session ended", zap.Error(err))
	}
}

// subscription serves resources/subscribe and unsubscribe over the shared
// session: the upstream is subscribed by the first client and
// unsubscribed when the last leaves.
func (h *sharedUpstream) subscription(ctx context.Context, s *session, m *message) ([]byte, error) {
	v, _ := rawjson.Get(m.params, "uri")
	uri, _ := rawjson.String(v)
	h.mu.Lock()
	holders := h.subs[uri]
	if m.method == "resources/subscribe" {
		if holders[s] {
			h.mu.Unlock()
			return []byte("{}"), nil
		}
		if len(holders) == 0 && len(h.subs) >= maxSubscriptions {
			h.mu.Unlock()
			return nil, newRPCError(codeUnavailable, fmt.Sprintf("the gateway holds %d subscriptions, its bound", maxSubscriptions))
		}
		if h.heldBy(s) >= maxSubscriptionsPerClient {
			h.mu.Unlock()
			return nil, newRPCError(codeInvalidRequest, fmt.Sprintf("a client may hold at most %d subscriptions", maxSubscriptionsPerClient))
		}
		first := len(holders) == 0
		h.mu.Unlock()
		if first {
			if _, err := s.forward(ctx, m.method, m.params); err != nil {
				return nil, err
			}
		}
		h.mu.Lock()
		if h.subs[uri] == nil {
			h.subs[uri] = map[*session]bool{}
		}
		h.subs[uri][s] = true
		h.mu.Unlock()
		return []byte("{}"), nil
	}
	last := holders[s] && len(holders) == 1
	delete(holders, s)
	if len(holders) == 0 {
		delete(h.subs, uri)
	}
	h.mu.Unlock()
	if last {
		return s.forward(ctx, m.method, m.params)
	}
	return []byte("{}"), nil
}

// heldBy counts the URIs s subscribed; h.mu is held.
func (h *sharedUpstream) heldBy(s *session) int {
	n := 0
	for _, holders := range h.subs {
		if holders[s] {
			n++
		}
	}
	return n
}

// leave forgets a session that ended: its calls, progress routes and
// subscriptions (the upstream is unsubscribed from URIs no one holds).
func (h *sharedUpstream) leave(s *session) {
	h.mu.Lock()
	delete(h.callers, s)
	for t, r := range h.tokens {
		if r.s == s {
			delete(h.tokens, t)
		}
	}
	var drop []string
	for uri, holders := range h.subs {
		if holders[s] {
			delete(holders, s)
			if len(holders) == 0 {
				delete(h.subs, uri)
				drop = append(drop, uri)
			}
		}
	}
	h.mu.Unlock()
	up := h.up.current()
	if up == nil {
		return
	}
	for _, uri := range drop {
		ctx, cancel := context.WithTimeout(h.g.life, time.Second)
		_, _ = up.call(ctx, "resources/unsubscribe", rawjson.Object([]string{"uri"}, [][]byte{rawjson.Quote(uri)}))
		cancel()
	}
}

func (h *sharedUpstream) close() {
	h.mu.Lock()
	h.closed = true
	h.mu.Unlock()
	if up := h.up.close(); up != nil {
		up.close()
	}
}
