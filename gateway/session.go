package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"go.uber.org/zap"

	"github.com/contentneg/contentneg/internal/rawjson"
	"github.com/contentneg/contentneg/shaping"
)

// downstream is how a session reaches its client with what the server
// sends unasked (requests and notifications).
type downstream interface {
	send(ctx context.Context, msg []byte) error
}

// session is one downstream client: its upstream session (its own, or the
// shared one), what its client declared, and the requests between them.
type session struct {
	g      *Gateway
	id     string     // the transport's session id; "" for none
	down   downstream // nil when the client cannot be reached unasked
	shared bool       // served over the shared upstream session
	// canAsk says the client can be asked (it has a downstream that
	// carries requests and brings answers back): not a stateless HTTP
	// request's, whose client's declaration the gateway cannot read.
	canAsk bool
	// stateless says the session is one request of stateless HTTP: an
	// initialize-era client's declaration, made at its initialize, is not
	// there (shaping.Request.Unreadable).
	stateless bool

	up slot // its upstream session (unused on the shared one)

	mu      sync.Mutex
	initReq []byte // the client's initialize params, replayed to a new upstream
	caps    shaping.Capabilities
	hasCaps bool
	tools   map[string]toolInfo // from tools/list, nil until listed
	exact   map[string]bool     // resource URIs listed
	calls   map[string]context.CancelFunc
	closed  bool
	done    chan struct{}
}

// toolInfo is what a tools/list said of one tool: its schemas' bytes.
type toolInfo struct {
	input, output []byte
}

func (g *Gateway) newSession(id string, down downstream, shared bool) *session {
	return &session{g: g, id: id, down: down, shared: shared, canAsk: down != nil, calls: map[string]context.CancelFunc{}, done: make(chan struct{})}
}

// ServeStdio serves one downstream client that speaks MCP's stdio
// transport, newline-delimited JSON-RPC messages: it reads them from r and
// writes the answers and the upstream's messages to w (a command's
// os.Stdin and os.Stdout, or any pipe), until r ends or ctx is done. The
// client gets an upstream session of its own (the shared one with
// [Options].Shared); a message of the client's is bounded as the
// upstream's are, by [Options].MaxResult. r and w are not closed. The
// error is not nil only when the gateway is closed.
func (g *Gateway) ServeStdio(ctx context.Context, r io.Reader, w io.Writer) error {
	return g.serveConn(ctx, newStreamConn(r, w, nil, g.maxMsg))
}

// serveConn serves one downstream client on c (stdio, a pipe) until c
// ends or ctx is done; the client gets an upstream session of its own
// (the shared one with [Options].Shared).
func (g *Gateway) serveConn(ctx context.Context, c msgConn) error {
	s := g.newSession("", connDown{c}, g.sharedOK)
	if !g.add(s) {
		return errors.New("gateway: closed")
	}
	defer func() {
		g.remove(s)
		s.close()
	}()
	stop := context.AfterFunc(ctx, func() { _ = c.Close() })
	defer stop()
	reply := func(resp []byte) { _ = c.Write(context.Background(), resp) }
	for {
		raw, err := c.Read(ctx)
		if err != nil {
			var bad *badMessage
			if errors.As(err, &bad) {
				reply(encodeError(bad.ID, codeInvalidRequest, bad.Reason))
				continue
			}
			return nil
		}
		s.receive(ctx, raw, reply)
	}
}

// connDown sends to a client over its msgConn.
type connDown struct{ c msgConn }

func (d connDown) send(ctx context.Context, msg []byte) error { return d.c.Write(ctx, msg) }

// receive takes one message of the client's. A request is served in a
// goroutine of its own, and its response given to reply; notifications
// and answers are taken in order, before receive returns.
func (s *session) receive(ctx context.Context, raw []byte, reply func([]byte)) {
	m, err := parseMessage(raw)
	if err != nil {
		var f idFinder
		f.feed(raw)
		code := int64(codeInvalidRequest)
		if errors.Is(err, rawjson.ErrSyntax) {
			code = codeParseError
		}
		reply(encodeError(f.id(), code, err.Error()))
		return
	}
	switch {
	case m.isResponse():
		s.answered(m)
	case m.isNotification():
		s.notified(ctx, m)
	default:
		if !s.g.acquireCall() {
			reply(encodeErrorObject(m.id, newRPCError(codeUnavailable, fmt.Sprintf("the gateway has %d requests under way (-max-calls); try again", cap(s.g.calls))).Raw))
			return
		}
		cctx, cancel := context.WithCancelCause(ctx)
		key := string(m.id)
		s.mu.Lock()
		s.calls[key] = func() { cancel(errors.New("the client cancelled the request")) }
		s.mu.Unlock()
		go func() {
			defer s.g.releaseCall()
			defer func() {
				s.mu.Lock()
				delete(s.calls, key)
				s.mu.Unlock()
				cancel(nil)
			}()
			reply(s.serve(cctx, m))
		}()
	}
}

// serve answers one request of the client's.
func (s *session) serve(ctx context.Context, m *message) []byte {
	res, err := s.request(ctx, m)
	if err != nil {
		return encodeErrorObject(m.id, errorOf(err).Raw)
	}
	return encodeResult(m.id, res)
}

func (s *session) request(ctx context.Context, m *message) ([]byte, error) {
	switch m.method {
	case "initialize":
		return s.initialize(ctx, m)
	case "server/discover":
		res, err := s.forward(ctx, m.method, m.params)
		if err != nil {
			return nil, err
		}
		return advertise(res), nil
	case "tools/call":
		x := s.exchange(ctx, m)
		res, err := shaping.ServeTool(ctx, s.g.shaper, toolPortV, x)
		return complete(x, res), err
	case "resources/read":
		return shaping.ServeResource(ctx, s.g.shaper, resourcePortV, s.exchange(ctx, m))
	case "prompts/get":
		return shaping.ServePrompt(ctx, s.g.shaper, promptPortV, s.exchange(ctx, m))
	case "tools/list":
		res, err := s.forward(ctx, m.method, m.params)
		if err != nil {
			return nil, err
		}
		return s.listedTools(res, m.params), nil
	case "resources/list":
		res, err := s.forward(ctx, m.method, m.params)
		if err == nil {
			s.listedResources(res)
		}
		return res, err
	case "resources/subscribe", "resources/unsubscribe":
		if s.shared {
			return s.g.shared.subscription(ctx, s, m)
		}
	}
	return s.forward(ctx, m.method, m.params)
}

// initialize serves the client's handshake: on a session of its own, the
// client's initialize goes to a new upstream session as it is (the
// upstream sees the client's own capabilities); on the shared session it
// is answered with the shared session's handshake. The result advertises
// the extension.
func (s *session) initialize(ctx context.Context, m *message) ([]byte, error) {
	caps := capabilitiesOf(m.params, "capabilities")
	s.mu.Lock()
	s.initReq = m.params
	s.caps, s.hasCaps = caps, true
	s.mu.Unlock()
	var key any
	if s.down != nil {
		key = s
	}
	s.g.shaper.Initialize(key, s.id, caps)
	if s.shared {
		res, err := s.g.shared.handshake(ctx)
		if err != nil {
			return nil, err
		}
		return advertise(res), nil
	}
	up, err := s.fresh(ctx)
	if err != nil {
		return nil, err
	}
	res, err := s.call(ctx, up, m.method, m.params)
	if err != nil {
		return nil, err
	}
	return advertise(res), nil
}

// notified takes a notification of the client's.
func (s *session) notified(ctx context.Context, m *message) {
	switch m.method {
	case "notifications/cancelled":
		id, _ := rawjson.Get(m.params, "requestId")
		s.mu.Lock()
		cancel := s.calls[string(id)]
		s.mu.Unlock()
		if cancel != nil {
			cancel() // the call tells the upstream, under its own id
		}
		return
	}
	if s.shared {
		return // the shared session's handshake is the gateway's own
	}
	if up := s.up.current(); up != nil {
		_ = up.notify(ctx, m.method, m.params)
	}
}

// forward sends a request to the upstream and returns its result bytes.
func (s *session) forward(ctx context.Context, method string, params []byte) ([]byte, error) {
	up, err := s.upstream(ctx)
	if err != nil {
		return nil, err
	}
	return s.call(ctx, up, method, params)
}

// call sends a request on up, bounded by the call timeout.
func (s *session) call(ctx context.Context, up *upstream, method string, params []byte) ([]byte, error) {
	ctx, cancel := context.WithTimeoutCause(ctx, s.g.timeout, fmt.Errorf("the upstream did not answer %s within %v (-call-timeout)", method, s.g.timeout))
	defer cancel()
	if s.shared {
		var done func()
		params, done = s.g.shared.calling(s, params)
		defer done()
	}
	res, err := up.call(ctx, method, params)
	if err != nil && ctx.Err() != nil && s.shared {
		s.g.shared.gaveUp()
	}
	if err != nil {
		var rpc *jsonRPCError
		if !errors.As(err, &rpc) {
			err = newRPCError(codeInternalError, err.Error())
		}
		return nil, err
	}
	return res, nil
}

// upstream returns the session's upstream session, started (again) when
// there is none: a session that ended (the server crashed) is replaced by
// a new one, to which the client's initialize is replayed.
func (s *session) upstream(ctx context.Context) (*upstream, error) {
	if s.shared {
		return s.g.shared.get(ctx)
	}
	return s.get(ctx, true)
}

// fresh returns a new upstream session for the client's initialize,
// ending the one it had.
func (s *session) fresh(ctx context.Context) (*upstream, error) {
	if old := s.up.take(); old != nil {
		old.close()
	}
	return s.get(ctx, false)
}

// get returns the session's upstream session, started when there is
// none; replay says to replay the client's initialize to a new one.
func (s *session) get(ctx context.Context, replay bool) (*upstream, error) {
	return s.up.get(ctx, func(ctx context.Context) (*upstream, error) {
		var init []byte
		if replay {
			s.mu.Lock()
			init = s.initReq
			s.mu.Unlock()
		}
		return s.start(ctx, init)
	}, func() error { return newRPCError(codeUnavailable, "the session has ended") })
}

// start opens an upstream session of the client's own; init, when not
// nil, is the client's initialize, replayed.
func (s *session) start(ctx context.Context, init []byte) (*upstream, error) {
	if err := s.g.acquireUpstream(); err != nil {
		return nil, err
	}
	dctx, cancel := context.WithTimeout(ctx, s.g.timeout)
	defer cancel()
	conn, err := s.g.dial.connect(dctx, s.g.maxMsg)
	if err != nil {
		s.g.releaseUpstream()
		return nil, newRPCError(codeUnavailable, "start the upstream: "+err.Error())
	}
	u := newUpstream(conn, s)
	if init != nil {
		if _, err := u.call(dctx, "initialize", init); err != nil {
			u.close()
			return nil, newRPCError(codeUnavailable, "initialize the restarted upstream: "+err.Error())
		}
		_ = u.notify(dctx, "notifications/initialized", nil)
		s.g.log.Info("upstream session restarted", zap.String("session", s.id))
	}
	return u, nil
}

// serverRequest serves a request of the upstream server's: it reaches
// this session's client only, elicitation through the gate.
func (s *session) serverRequest(u *upstream, m *message) {
	s.relay(u, m)
}

// relay passes a request of the upstream server's to this session's
// client and its answer back: elicitation through the gate (contract
// section 6), the rest as they are.
func (s *session) relay(u *upstream, m *message) {
	if s.down == nil || !s.canAsk {
		if m.method == "elicitation/create" {
			u.respond(m.id, askPortV.Answer(s.g.refusal), nil)
			return
		}
		u.respond(m.id, nil, errorObject(codeMethodNotFound, "the client cannot be asked", nil))
		return
	}
	ctx, cancel := context.WithCancel(s.g.life)
	defer cancel()
	stop := context.AfterFunc(contextOf(s.done), cancel)
	defer stop()
	var res []byte
	var err error
	if m.method == "elicitation/create" {
		res, err = shaping.Send(ctx, s.g.shaper, askPortV, &question{s: s, m: m})
	} else {
		qctx, qcancel := context.WithTimeout(ctx, s.g.timeout)
		res, err = s.ask(qctx, m)
		qcancel()
	}
	if err != nil {
		u.respond(m.id, nil, errorOf(err).Raw)
		return
	}
	u.respond(m.id, res, nil)
}

// contextOf returns a context that ends when done is closed.
func contextOf(done chan struct{}) context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-done
		cancel()
	}()
	return ctx
}

// ask sends a request to the client and waits for its answer. Its id is
// unique in the gateway, so that the answer finds it whichever session
// it arrives on (a stateless client answers in a request of its own).
func (s *session) ask(ctx context.Context, m *message) ([]byte, error) {
	if s.isClosed() {
		return nil, newRPCError(codeUnavailable, "the client has gone")
	}
	id, ch, done := s.g.question()
	defer done()
	if err := s.down.send(ctx, encodeRequest(id, m.method, m.params)); err != nil {
		return nil, newRPCError(codeInternalError, "the client cannot be reached: "+err.Error())
	}
	select {
	case a := <-ch:
		if a.err != nil {
			return nil, rpcError(a.err)
		}
		return a.result, nil
	case <-ctx.Done():
		return nil, newRPCError(codeInternalError, "the client did not answer: "+context.Cause(ctx).Error())
	case <-s.done:
		return nil, newRPCError(codeInternalError, "the client has gone")
	}
}

// answered takes a client's answer to one of the gateway's requests.
func (s *session) answered(m *message) {
	s.g.answered(m)
}

// serverNotify passes a notification of the upstream server's to the
// client, as it is.
func (s *session) serverNotify(_ *upstream, m *message) {
	if m.method == "notifications/tools/list_changed" {
		s.mu.Lock()
		s.tools = nil
		s.mu.Unlock()
	}
	if s.down != nil {
		_ = s.down.send(s.g.life, m.raw)
	}
}

// serverEnded forgets an upstream session that ended; the next request
// starts another.
func (s *session) serverEnded(u *upstream, err error) {
	s.up.forget(u)
	s.g.releaseUpstream()
	if !s.isClosed() {
		s.g.log.Warn("upstream session ended", zap.String("session", s.id), zap.Error(err))
	}
}

func (s *session) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

// close ends the session, its upstream session and its open questions.
func (s *session) close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	close(s.done)
	cancels := make([]context.CancelFunc, 0, len(s.calls))
	for _, c := range s.calls {
		cancels = append(cancels, c)
	}
	s.mu.Unlock()
	for _, c := range cancels {
		c()
	}
	var key any
	if s.down != nil {
		key = s
	}
	s.g.shaper.EndSession(key, s.id)
	if s.shared {
		s.g.shared.leave(s)
	}
	if up := s.up.close(); up != nil {
		up.close()
	}
}

// capabilitiesOf reads the capability object at params[member]: the
// extension's maps and whether elicitation is there.
func capabilitiesOf(params []byte, path ...string) shaping.Capabilities {
	var c shaping.Capabilities
	raw, ok := rawjson.Path(params, path...)
	if !ok {
		return c
	}
	var v struct {
		Extensions   map[string]any  `json:"extensions"`
		Experimental map[string]any  `json:"experimental"`
		Elicitation  json.RawMessage `json:"elicitation"`
	}
	if json.Unmarshal(raw, &v) != nil {
		return c
	}
	c.Extensions, c.Experimental = v.Extensions, v.Experimental
	c.Elicitation = len(v.Elicitation) > 0 && string(v.Elicitation) != "null"
	return c
}

// advertise returns a handshake result whose capabilities advertise the
// extension; every other byte stays.
func advertise(res []byte) []byte {
	caps, ok := rawjson.Get(res, "capabilities")
	if !ok || len(caps) == 0 || caps[0] != '{' {
		caps = []byte("{}")
	}
	ext, ok := rawjson.Get(caps, "extensions")
	if !ok || len(ext) == 0 || ext[0] != '{' {
		ext = []byte("{}")
	}
	if _, has := rawjson.Get(ext, shaping.ExtensionID); has {
		return res
	}
	ext = rawjson.Set(ext, shaping.ExtensionID, []byte("{}"))
	caps = rawjson.Set(caps, "extensions", ext)
	return rawjson.Set(res, "capabilities", caps)
}

// listedTools records what a tools/list result says of each tool and
// returns it, with the format argument added to every input schema when
// the operator turned it on.
func (s *session) listedTools(res, params []byte) []byte {
	tools, ok := rawjson.Get(res, "tools")
	if !ok {
		return res
	}
	elems, ok := rawjson.Elements(tools)
	if !ok {
		return res
	}
	first := true
	if c, ok := rawjson.Get(params, "cursor"); ok && string(c) != "null" {
		first = false
	}
	s.mu.Lock()
	if first || s.tools == nil {
		s.tools = make(map[string]toolInfo, len(elems))
	}
	for _, t := range elems {
		nameRaw, _ := rawjson.Get(t, "name")
		name, _ := rawjson.String(nameRaw)
		in, _ := rawjson.Get(t, "inputSchema")
		out, _ := rawjson.Get(t, "outputSchema")
		if len(s.tools) < maxItems {
			s.tools[name] = toolInfo{input: in, output: out}
		}
	}
	s.mu.Unlock()
	if s.g.shaper.FormatArgument() == "" {
		return res
	}
	changed := false
	for i, t := range elems {
		in, ok := rawjson.Get(t, "inputSchema")
		if !ok {
			continue
		}
		out, did := s.g.shaper.ToolInputSchema(in)
		if did {
			elems[i] = rawjson.Set(t, "inputSchema", out)
			changed = true
		}
	}
	if !changed {
		return res
	}
	return rawjson.Set(res, "tools", rawjson.Array(elems))
}

// maxItems bounds what the gateway keeps of one list.
const maxItems = 10000

// listedResources records the URIs a resources/list result lists.
func (s *session) listedResources(res []byte) {
	list, ok := rawjson.Get(res, "resources")
	if !ok {
		return
	}
	elems, _ := rawjson.Elements(list)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.exact == nil {
		s.exact = map[string]bool{}
	}
	for _, r := range elems {
		u, _ := rawjson.Get(r, "uri")
		uri, _ := rawjson.String(u)
		if len(s.exact) < maxItems {
			s.exact[uri] = true
		}
	}
}

// tool returns what the upstream lists of a tool, listing its tools when
// the session has not seen them yet.
func (s *session) tool(ctx context.Context, name string) (toolInfo, bool) {
	s.mu.Lock()
	tools := s.tools
	s.mu.Unlock()
	if tools == nil {
		_ = s.listAll(ctx, "tools/list", func(res, params []byte) { s.listedTools(res, params) })
		s.mu.Lock()
		tools = s.tools
		s.mu.Unlock()
	}
	t, ok := tools[name]
	return t, ok
}

// isExact reports whether the upstream lists a resource at exactly uri.
func (s *session) isExact(ctx context.Context, uri string) bool {
	s.mu.Lock()
	exact := s.exact
	s.mu.Unlock()
	if exact == nil {
		_ = s.listAll(ctx, "resources/list", func(res, _ []byte) { s.listedResources(res) })
		s.mu.Lock()
		exact = s.exact
		s.mu.Unlock()
	}
	return exact[uri]
}

// listAll reads every page of a list (at most 100), giving each result to
// take; it returns the first error.
func (s *session) listAll(ctx context.Context, method string, take func(res, params []byte)) error {
	var cursor []byte
	for page := 0; page < 100; page++ {
		var params []byte
		if cursor != nil {
			params = rawjson.Object([]string{"cursor"}, [][]byte{cursor})
		}
		res, err := s.forward(ctx, method, params)
		if err != nil {
			return err
		}
		take(res, params)
		next, ok := rawjson.Get(res, "nextCursor")
		if !ok || string(next) == "null" || string(next) == `""` {
			return nil
		}
		cursor = next
	}
	return nil
}
