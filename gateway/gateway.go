package gateway

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/contentneg/contentneg/internal/rawjson"
	"github.com/contentneg/contentneg/shaping"
)

// The defaults of [Options], which its fields' comments state.
const (
	defaultCallTimeout  = 60 * time.Second
	defaultMaxUpstreams = 16
	defaultMaxResult    = 16 << 20
	defaultMaxCalls     = 64
	defaultIdle         = 30 * time.Minute
)

// Options configures a [Gateway]. A nil *Options is not allowed: Upstream
// is required.
type Options struct {
	// Upstream is how the gateway reaches the upstream server, a
	// connection for each upstream session: a *[Command] or an
	// *[HTTPUpstream].
	Upstream Dialer
	// Shaping are the negotiation options (contract section 9: the options
	// of every front end).
	Shaping *shaping.Options
	// Logger receives the gateway's log lines; nil means none.
	Logger *zap.Logger
	// CallTimeout bounds every request forwarded to the upstream; zero
	// means 60 seconds.
	CallTimeout time.Duration
	// MaxUpstreams bounds the upstream sessions open at once, one per
	// downstream session (zero: 16). A client beyond it gets an error,
	// never a session of someone else's.
	MaxUpstreams int
	// MaxResult bounds the size of one message from the upstream (zero:
	// 16 MiB): a larger answer fails its request, and nothing else. It
	// bounds a message of a client of [Gateway.ServeStdio] too.
	MaxResult int
	// MaxCalls bounds the requests under way at once, over every session
	// (zero: 64); a request beyond it is refused at once.
	MaxCalls int
	// Idle ends a downstream session, and its upstream session, that sent
	// nothing for this long (zero: 30 minutes; negative: never).
	Idle time.Duration
	// Shared serves every downstream session over one upstream session,
	// for an upstream that keeps no state per session. A question of the
	// upstream's then reaches a client only when it can be tied to exactly
	// one running call of one client; otherwise it is declined.
	Shared bool
}

// Gateway puts content negotiation in front of an MCP server that the
// gateway reaches as a client (the upstream). Each downstream session
// (a stdio connection, an HTTP session) gets an upstream session of its
// own, started on its first request; requests with no session (REST,
// stateless HTTP) share one upstream session among themselves.
//
// What it does not render passes byte for byte: lists, errors,
// notifications and the results of clients that declared nothing. It
// renders tools/call, resources/read and prompts/get results through
// package shaping's core, from the upstream's raw JSON.
type Gateway struct {
	dial     Dialer
	shaper   *shaping.Shaper
	refusal  string // the gate's answer, "decline" or "cancel" (shaping.Options.Refusal)
	log      *zap.Logger
	timeout  time.Duration
	maxUp    int
	maxMsg   int
	idle     time.Duration
	sharedOK bool
	calls    chan struct{} // a token per request under way

	mu       sync.Mutex
	sessions map[*session]struct{}
	ups      int // upstream sessions of their own open
	shared   *sharedUpstream
	closed   bool
	// questions are the gateway's requests to clients waiting for their
	// answers, by id; nextQ numbers them. askShared says whether the
	// shared session declares elicitation: some of its clients can answer.
	questions map[string]chan *message
	nextQ     int64
	askShared bool

	life context.Context
	end  context.CancelFunc
	wg   sync.WaitGroup
}

// New returns a gateway; it starts nothing until a client asks (see
// [Gateway.Check] for a start-up check).
func New(opts *Options) (*Gateway, error) {
	if opts == nil || opts.Upstream == nil {
		return nil, errors.New("gateway: Options.Upstream is required")
	}
	g := &Gateway{
		dial:      opts.Upstream,
		log:       opts.Logger,
		timeout:   opts.CallTimeout,
		maxUp:     opts.MaxUpstreams,
		maxMsg:    opts.MaxResult,
		idle:      opts.Idle,
		sharedOK:  opts.Shared,
		sessions:  map[*session]struct{}{},
		questions: map[string]chan *message{},
		askShared: opts.Shared,
	}
	if g.log == nil {
		g.log = zap.NewNop()
	}
	if g.timeout <= 0 {
		g.timeout = defaultCallTimeout
	}
	if g.maxUp <= 0 {
		g.maxUp = defaultMaxUpstreams
	}
	if g.maxMsg <= 0 {
		g.maxMsg = defaultMaxResult
	}
	if g.idle == 0 {
		g.idle = defaultIdle
	}
	maxCalls := opts.MaxCalls
	if maxCalls <= 0 {
		maxCalls = defaultMaxCalls
	}
	g.calls = make(chan struct{}, maxCalls)
	sopts := shaping.Options{}
	if opts.Shaping != nil {
		sopts = *opts.Shaping
	}
	if sopts.Logger == nil {
		sopts.Logger = g.log
	}
	g.shaper = shaping.New(&sopts)
	g.refusal = sopts.Refusal.String()
	if err := g.shaper.Check(); err != nil {
		return nil, fmt.Errorf("gateway: %w", err)
	}
	g.life, g.end = context.WithCancel(context.Background())
	g.shared = newSharedUpstream(g)
	return g, nil
}

// Shaper returns the negotiation core the gateway serves through, made of
// [Options].Shaping (see [Gateway.RESTBackend] for what the REST binding
// takes of it).
func (g *Gateway) Shaper() *shaping.Shaper { return g.shaper }

// Check starts one upstream session, initializes it, lists its tools and
// resources and ends it: a start-up check that says why an upstream
// cannot serve (it exits, writes something that is not JSON-RPC, or does
// not answer initialize in ctx).
func (g *Gateway) Check(ctx context.Context) (*ServerInfo, error) {
	conn, err := g.dial.connect(ctx, g.maxMsg)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	u := newUpstream(conn, checkHandler{cancel})
	defer u.close()
	res, err := u.call(ctx, "initialize", ownInitialize(false))
	if err != nil {
		var notRPC *notJSONRPC
		switch cause := context.Cause(ctx); {
		case errors.As(cause, &notRPC):
			return nil, cause
		case ctx.Err() != nil:
			return nil, fmt.Errorf("the upstream did not answer initialize in time: %w", cause)
		}
		return nil, fmt.Errorf("initialize the upstream: %w", err)
	}
	_ = u.notify(ctx, "notifications/initialized", nil)
	info := serverInfo(res)
	s := &session{g: g}
	for _, l := range []struct {
		method, member, key string
		into                *[]string
	}{
		{"tools/list", "tools", "name", &info.Tools},
		{"resources/list", "resources", "uri", &info.Resources},
		{"resources/templates/list", "resourceTemplates", "uriTemplate", &info.Resources},
	} {
		var cursor []byte
		for page := 0; page < 100; page++ {
			var params []byte
			if cursor != nil {
				params = rawjson.Object([]string{"cursor"}, [][]byte{cursor})
			}
			res, err := s.call(ctx, u, l.method, params)
			if err != nil {
				break
			}
			v, _ := rawjson.Get(res, l.member)
			els, _ := rawjson.Elements(v)
			for _, e := range els {
				*l.into = append(*l.into, str(e, l.key))
			}
			next, ok := rawjson.Get(res, "nextCursor")
			if !ok || string(next) == "null" {
				break
			}
			cursor = next
		}
	}
	return info, nil
}

// checkHandler declines what an upstream asks during the start-up check,
// and ends it at the first message that is not JSON-RPC.
type checkHandler struct{ cancel context.CancelCauseFunc }

func (h checkHandler) broken(raw []byte, reason string) {
	h.cancel(&notJSONRPC{line: clip(raw, 200), reason: reason})
}

// notJSONRPC is a line of the upstream's that is not JSON-RPC.
type notJSONRPC struct{ line, reason string }

func (e *notJSONRPC) Error() string {
	return fmt.Sprintf("the upstream wrote something that is not JSON-RPC on stdout (%s): %q", e.reason, e.line)
}

func (checkHandler) serverRequest(u *upstream, m *message) {
	u.respond(m.id, nil, errorObject(codeMethodNotFound, "the gateway is starting", nil))
}
func (checkHandler) serverNotify(*upstream, *message) {}
func (checkHandler) serverEnded(*upstream, error)     {}

// clip returns at most n bytes of b.
func clip(b []byte, n int) string {
	if len(b) > n {
		return string(b[:n]) + "…"
	}
	return string(b)
}

// question registers a request to a client: its id, the channel its
// answer comes on, and done to call when it is no longer awaited.
func (g *Gateway) question() (id []byte, answer chan *message, done func()) {
	answer = make(chan *message, 1)
	g.mu.Lock()
	g.nextQ++
	key := strconv.Quote("contentneg-" + strconv.FormatInt(g.nextQ, 10))
	g.questions[key] = answer
	g.mu.Unlock()
	return []byte(key), answer, func() {
		g.mu.Lock()
		delete(g.questions, key)
		g.mu.Unlock()
	}
}

// answered routes a client's answer to the request that waits for it.
func (g *Gateway) answered(m *message) {
	g.mu.Lock()
	ch := g.questions[string(m.id)]
	delete(g.questions, string(m.id))
	g.mu.Unlock()
	if ch != nil {
		ch <- m
	}
}

// acquireUpstream takes a slot for an upstream session of a downstream
// session's own.
func (g *Gateway) acquireUpstream() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return newRPCError(codeUnavailable, "the gateway is shutting down")
	}
	if g.ups >= g.maxUp {
		return newRPCError(codeUnavailable, fmt.Sprintf("all %d upstream sessions are in use (-max-upstreams); try again when a client has left", g.maxUp))
	}
	g.ups++
	return nil
}

func (g *Gateway) releaseUpstream() {
	g.mu.Lock()
	g.ups--
	g.mu.Unlock()
}

// upstreams returns how many upstream sessions of downstream sessions'
// own are open.
func (g *Gateway) upstreams() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.ups
}

// acquireCall takes a token for one request under way.
func (g *Gateway) acquireCall() bool {
	select {
	case g.calls <- struct{}{}:
		return true
	default:
		return false
	}
}

func (g *Gateway) releaseCall() { <-g.calls }

func (g *Gateway) add(s *session) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return false
	}
	g.sessions[s] = struct{}{}
	return true
}

func (g *Gateway) remove(s *session) {
	g.mu.Lock()
	delete(g.sessions, s)
	g.mu.Unlock()
}

// Close ends every session, upstream and open question. It returns at
// once for the sessions; the upstream processes are ended in the
// background within twice their grace.
func (g *Gateway) Close() error {
	g.mu.Lock()
	if g.closed {
		g.mu.Unlock()
		return nil
	}
	g.closed = true
	all := make([]*session, 0, len(g.sessions))
	for s := range g.sessions {
		all = append(all, s)
	}
	g.mu.Unlock()
	g.end()
	g.shaper.Close()
	var wg sync.WaitGroup
	for _, s := range all {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.close()
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		g.shared.close()
	}()
	wg.Wait()
	g.wg.Wait()
	return nil
}
