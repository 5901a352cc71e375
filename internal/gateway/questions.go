package gateway

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap"

	"github.com/contentneg/contentneg/shaping"
)

// The upstream's questions (elicitation/create, sampling/createMessage,
// roots/list) reach the downstream client whose forwarded request is the
// only one under way (see [Gateway.soleCaller]): a legacy-era client as a
// request on its session, a stateless-era client as its era's
// inputRequests. For the latter the upstream's call is held open between
// the client's rounds: the downstream request returns the question with a
// requestState naming the held call, and the client's retry carrying the
// answers resumes it (docs/gateway.md).

// upstreamCapabilities is what the gateway declares to the upstream: form
// and URL elicitation and sampling, and roots (with list_changed) when it passes
// them on, so that the upstream offers what needs them; each request
// reaches only a downstream client that has the capability.
func upstreamCapabilities(roots bool) *mcp.ClientCapabilities {
	c := &mcp.ClientCapabilities{
		Elicitation: &mcp.ElicitationCapabilities{Form: &mcp.FormElicitationCapabilities{}, URL: &mcp.URLElicitationCapabilities{}},
		Sampling:    &mcp.SamplingCapabilities{},
	}
	if roots {
		c.RootsV2 = &mcp.RootCapabilities{ListChanged: true}
	}
	return c
}

// askingOptions sets the parts of the gateway's client options that pass
// the upstream's questions on (roots only when Options.PassRoots).
func (g *Gateway) askingOptions(o *mcp.ClientOptions, roots bool) {
	o.Capabilities = upstreamCapabilities(roots)
	o.ElicitationHandler = g.elicit
	o.CreateMessageHandler = g.sample
}

// rootsMiddleware answers the upstream's roots/list (the go-sdk client
// would answer it from a fixed list of its own).
func (g *Gateway) rootsMiddleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method != "roots/list" {
			return next(ctx, method, req)
		}
		p, _ := req.GetParams().(*mcp.ListRootsParams)
		return g.roots(ctx, p)
	}
}

// notPassed is the error the upstream gets for a sampling or roots request
// that no downstream client can answer: what a client without the
// capability answers itself, -32601 (the go-sdk words its message:
// `method not found: "sampling/createMessage"`; why goes to the log).
func notPassed(method, why string) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: fmt.Sprintf("%s: %s", method, why)}
}

// asker is the one downstream client an upstream request may reach: the
// sole caller, if it has the capability; else why not.
func (g *Gateway) asker(method string, has func(*mcp.ClientCapabilities) bool) (*caller, error) {
	c := g.soleCaller()
	if c == nil || c.ss == nil {
		g.log.Debug("upstream request not passed on: no single request under way", zap.String("method", method))
		return nil, notPassed(method, "no single request under way at the gateway to ask for")
	}
	if c.caps == nil || !has(c.caps) {
		g.log.Debug("upstream request not passed on: the client lacks the capability", zap.String("method", method))
		return nil, notPassed(method, "the client of the request under way does not have the capability")
	}
	return c, nil
}

// sample passes an upstream's sampling/createMessage to the client whose
// request is the only one under way, if it has the sampling capability;
// otherwise the upstream gets an error and nothing is sent.
func (g *Gateway) sample(ctx context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	c, err := g.asker("sampling/createMessage", func(caps *mcp.ClientCapabilities) bool { return caps.Sampling != nil })
	if err != nil {
		return nil, err
	}
	if c.held != nil {
		r, err := c.held.ask(ctx, req.Params)
		if err != nil {
			return nil, fmt.Errorf("gateway: sampling for the upstream: %w", err)
		}
		return sampled(r)
	}
	askCtx, end := g.askContext(ctx, c)
	defer end()
	return c.ss.CreateMessage(askCtx, req.Params)
}

// sampled is the answer of a stateless-era client to a sampling input
// request, as the upstream's basic sampling request expects it.
func sampled(r mcp.InputResponse) (*mcp.CreateMessageResult, error) {
	switch r := r.(type) {
	case *mcp.CreateMessageResult:
		return r, nil
	case *mcp.CreateMessageWithToolsResult:
		if len(r.Content) != 1 {
			return nil, fmt.Errorf("gateway: the client's sampling answer has %d content blocks, want 1", len(r.Content))
		}
		return &mcp.CreateMessageResult{Meta: r.Meta, Content: r.Content[0], Model: r.Model, Role: r.Role, StopReason: r.StopReason}, nil
	}
	return nil, fmt.Errorf("gateway: the client answered a sampling request with %T", r)
}

// roots passes an upstream's roots/list to the client whose request is the
// only one under way, if it has the roots capability; otherwise (no request
// under way, as after the upstream's initialize) the upstream gets an
// error, so that a server such as server-filesystem keeps the directories
// of its command line.
func (g *Gateway) roots(ctx context.Context, p *mcp.ListRootsParams) (*mcp.ListRootsResult, error) {
	if !g.passRoots {
		g.log.Debug("upstream request not passed on: the gateway declared no roots", zap.String("method", "roots/list"))
		return nil, notPassed("roots/list", "the gateway declared no roots")
	}
	c, err := g.asker("roots/list", func(caps *mcp.ClientCapabilities) bool { return caps.RootsV2 != nil })
	if err != nil {
		return nil, err
	}
	if p == nil {
		p = &mcp.ListRootsParams{}
	}
	if c.held != nil {
		r, err := c.held.ask(ctx, p)
		if err != nil {
			return nil, fmt.Errorf("gateway: roots for the upstream: %w", err)
		}
		if lr, ok := r.(*mcp.ListRootsResult); ok {
			return lr, nil
		}
		return nil, fmt.Errorf("gateway: the client answered a roots request with %T", r)
	}
	askCtx, end := g.askContext(ctx, c)
	defer end()
	return c.ss.ListRoots(askCtx, p)
}

// rootsChanged passes a downstream client's notifications/roots/list_changed
// to the upstream, which then asks roots/list: that goes to the client
// whose request is then the only one under way, if it has the capability.
func (g *Gateway) rootsChanged(context.Context, *mcp.RootsListChangedRequest) {
	// The go-sdk client sends the notification only when its own list of
	// roots changes; that list is never read (rootsMiddleware answers
	// roots/list), so adding the same placeholder again just notifies.
	g.client.AddRoots(&mcp.Root{URI: "contentneg:downstream", Name: "the roots of the downstream client"})
}

// askContext is the context of a sampling or roots request put to a
// legacy-era client: its forwarded request's, bounded by the question
// timeout and ended by Close (one of the middleware's open questions, as
// the middleware makes an elicitation/create), and ended too when the
// upstream gives up on it. Without it Close would wait for the client's
// answer: the go-sdk client's Close waits for its handlers.
func (g *Gateway) askContext(upstream context.Context, c *caller) (context.Context, func()) {
	qctx, done := g.mw.Shaper().Question(c.ctx, c, "")
	askCtx, end := elicitContext(qctx, upstream)
	return askCtx, func() { end(); done() }
}

// elicitContext is the context of an elicitation/create put to a
// legacy-era client (the middleware bounds it as an open question): ctx,
// ended too when the upstream gives up on it.
func elicitContext(ctx, upstream context.Context) (context.Context, func()) {
	askCtx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(upstream, cancel)
	return askCtx, func() { stop(); cancel() }
}

// elicitHeld passes an upstream's question to a stateless-era client as an
// input request of its held call, through its gate: a client whose gate is
// closed, or that has not the elicitation capability for the question's
// mode, is never asked, and the upstream gets "decline".
func (g *Gateway) elicitHeld(ctx context.Context, c *caller, p *mcp.ElicitParams) (*mcp.ElicitResult, error) {
	if call, ok := shaping.CallFrom(c.ctx); ok && call.Closed {
		call.Gated("inputRequests")
		return &mcp.ElicitResult{Action: call.Refusal()}, nil
	}
	if !canElicit(c.caps, p) {
		g.log.Debug("upstream question declined: the client has not the elicitation capability for it",
			zap.String("method", c.held.method), zap.String("name", c.held.name))
		return &mcp.ElicitResult{Action: "decline"}, nil
	}
	r, err := c.held.ask(ctx, p)
	if err != nil {
		g.log.Debug("upstream question ended unanswered", zap.String("method", c.held.method),
			zap.String("name", c.held.name), zap.Error(err))
		return &mcp.ElicitResult{Action: "cancel"}, nil
	}
	if er, ok := r.(*mcp.ElicitResult); ok {
		return er, nil
	}
	g.log.Debug("upstream question got an answer of another kind: cancel", zap.String("type", fmt.Sprintf("%T", r)))
	return &mcp.ElicitResult{Action: "cancel"}, nil
}

// canElicit reports whether a client with caps can answer p, as the go-sdk
// decides it for a legacy-era session: form mode needs the form capability
// (or neither form nor url, as before modes), url mode the url capability.
func canElicit(caps *mcp.ClientCapabilities, p *mcp.ElicitParams) bool {
	if caps == nil || caps.Elicitation == nil {
		return false
	}
	e := caps.Elicitation
	switch {
	case p != nil && p.Mode == "url":
		return e.URL != nil
	case p != nil && p.URL != "" && p.Mode == "":
		return e.URL != nil
	}
	return e.Form != nil || e.URL == nil
}

// clientCapabilities are the capabilities of the client of req: the
// request's own (_meta, stateless era), else its session's.
func clientCapabilities(req mcp.Request) *mcp.ClientCapabilities {
	if r, ok := req.(interface {
		ClientCapabilities() *mcp.ClientCapabilities
	}); ok {
		return r.ClientCapabilities()
	}
	return nil
}

// held is an upstream request held open across a stateless-era client's
// rounds: each downstream request (the first, then each retry) waits for
// the next question of the upstream or its result.
type held struct {
	g      *Gateway
	token  string // the requestState the client echoes, from its first question on (under g.mu)
	method string
	name   string
	c      *caller
	raw    *rawCall // the upstream's result bytes
	// asks carries the upstream's questions to the downstream request
	// waiting on the call; done its outcome (buffered).
	asks   chan *ask
	done   chan outcome
	ended  chan struct{} // closed when the call is given up
	cancel context.CancelFunc

	mu       sync.Mutex
	pending  map[string]*ask // the questions out to the client, by id
	attached bool            // a downstream request is waiting on the call
	over     bool
	stopWait func() bool // ends the wait for the client's retry; false when it already fired
	nextID   int
}

// ask is one question of the upstream and where its answer goes.
type ask struct {
	params mcp.InputRequest
	answer chan mcp.InputResponse // buffered: one answer
}

type outcome struct {
	res mcp.Result
	err error
}

// errGivenUp: the client did not come back within the question timeout, its
// session ended, or the gateway closed.
var errGivenUp = errors.New("gateway: the client did not answer the question (it timed out, went away, or the gateway closed)")

// ask puts a question to the client of the held call and waits for its
// answer, until the upstream gives up (ctx) or the call is given up.
func (h *held) ask(ctx context.Context, p mcp.InputRequest) (mcp.InputResponse, error) {
	a := &ask{params: p, answer: make(chan mcp.InputResponse, 1)}
	select {
	case h.asks <- a:
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-h.ended:
		return nil, errGivenUp
	}
	select {
	case r := <-a.answer:
		return r, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-h.ended:
		return nil, errGivenUp
	}
}

// stateMark starts every requestState the gateway hands out.
const stateMark = "contentneg-held-"

// roundTrip forwards a stateless-era request: its upstream call runs on
// its own, so that a question of the upstream can go back to the client
// as inputRequests while the call stays open; a retry carrying the answers
// resumes the call its requestState names.
func (g *Gateway) roundTrip(ctx context.Context, method string, req mcp.Request, up *mcp.ClientSession) (mcp.Result, error) {
	responses, state := inputResponses(req)
	if state != "" {
		return g.resume(ctx, method, req, state, responses)
	}
	ss, _ := req.GetSession().(*mcp.ServerSession)
	// The call outlives this request when it asks: its context keeps the
	// request's values (the client's profile) but not its end.
	hctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	stopLife := context.AfterFunc(g.life, cancel)
	// The upstream's result bytes (raw.go) are the call's, whichever
	// downstream request gets its result.
	hrc := new(rawCall)
	hctx = context.WithValue(hctx, rawCallKey{}, hrc)
	h := &held{
		g:      g,
		raw:    hrc,
		method: method,
		name:   requestName(req),
		asks:   make(chan *ask),
		done:   make(chan outcome, 1),
		ended:  make(chan struct{}),
		cancel: cancel,
	}
	h.c = &caller{ctx: ctx, ss: ss, caps: clientCapabilities(req), held: h}
	g.mu.Lock()
	g.calls[h.c] = struct{}{}
	g.mu.Unlock()
	if ss != nil && persistent(req) {
		g.watch(ss)
	}
	call, endRoute := g.upstreamCall(up, h.c, req)
	h.attached = true
	go func() {
		res, err := call(hctx)
		hrc.done()
		endRoute()
		stopLife()
		cancel()
		g.mu.Lock()
		delete(g.calls, h.c)
		g.mu.Unlock()
		if err != nil && ended(err) {
			g.markDead(up)
		}
		h.done <- outcome{res: res, err: err}
	}()
	return h.serve(ctx, req)
}

// upstreamCall is the upstream request req forwards, with the caller's
// progress token routed; the function it returns forgets the route.
func (g *Gateway) upstreamCall(up *mcp.ClientSession, c *caller, req mcp.Request) (func(context.Context) (mcp.Result, error), func()) {
	switch p := req.GetParams().(type) {
	case *mcp.CallToolParamsRaw:
		var args any
		if len(p.Arguments) > 0 {
			args = p.Arguments
		}
		meta, end := g.route(c, upstreamMeta(p.Meta))
		params := &mcp.CallToolParams{Meta: meta, Name: p.Name, Arguments: args}
		return func(ctx context.Context) (mcp.Result, error) { return up.CallTool(ctx, params) }, end
	case *mcp.ReadResourceParams:
		meta, end := g.route(c, upstreamMeta(p.Meta))
		params := &mcp.ReadResourceParams{Meta: meta, URI: p.URI}
		return func(ctx context.Context) (mcp.Result, error) { return up.ReadResource(ctx, params) }, end
	case *mcp.GetPromptParams:
		meta, end := g.route(c, upstreamMeta(p.Meta))
		params := &mcp.GetPromptParams{Meta: meta, Name: p.Name, Arguments: p.Arguments}
		return func(ctx context.Context) (mcp.Result, error) { return up.GetPrompt(ctx, params) }, end
	}
	return func(context.Context) (mcp.Result, error) {
		return nil, fmt.Errorf("gateway: unexpected params %T", req.GetParams())
	}, func() {}
}

// serve waits, for the downstream request of ctx, for the held call's
// next question (returned as inputRequests, the call staying open) or its
// outcome. A request that ends first (cancelled, or past the call timeout)
// cancels the call upstream.
func (h *held) serve(ctx context.Context, req mcp.Request) (mcp.Result, error) {
	g := h.g
	select {
	case a := <-h.asks:
		batch := []*ask{a}
		for more := true; more; {
			select {
			case b := <-h.asks:
				batch = append(batch, b)
			default:
				more = false
			}
		}
		h.mu.Lock()
		if h.over { // given up meanwhile (its session ended, the gateway closed): no one to ask
			h.mu.Unlock()
			return nil, errGivenUp
		}
		g.mu.Lock()
		if h.token == "" { // the first question: from now on a retry can name the call
			h.token = stateMark + randomToken()
			if g.held == nil {
				g.held = map[string]*held{}
			}
			g.held[h.token] = h
		}
		g.mu.Unlock()
		if h.pending == nil {
			h.pending = map[string]*ask{}
		}
		for _, a := range batch {
			h.nextID++
			h.pending["q"+strconv.Itoa(h.nextID)] = a
		}
		res, err := h.detach()
		h.mu.Unlock()
		return res, err
	case o := <-h.done:
		h.finish()
		if o.err != nil {
			return g.failed(ctx, h.method, req, o.err)
		}
		// As forward does for a call of its own: this request's rawCall
		// gets the upstream's bytes.
		rc, _ := rawCallOf(ctx)
		if raw := h.raw.bytes(); raw != nil {
			rc.received(raw)
		}
		rc.exact(o.res)
		res, err := complete(o.res)
		if err != nil {
			return nil, err
		}
		rc.keep(res)
		return res, nil
	case <-ctx.Done():
		h.giveUp("the request ended")
		return g.failed(ctx, h.method, req, ctx.Err())
	}
}

// detach returns the open questions to the client as its era's input
// request result, and starts the wait for its retry: bounded by the
// question timeout, the client's session and the gateway's life. h.mu is
// held.
func (h *held) detach() (mcp.Result, error) {
	h.attached = false
	qctx, done := h.g.mw.Shaper().Question(context.Background(), h, "")
	stop := context.AfterFunc(qctx, func() { h.giveUp(fmt.Sprint(context.Cause(qctx))) })
	h.stopWait = func() bool {
		if !stop() {
			return false
		}
		done()
		return true
	}
	requests := make(mcp.InputRequestMap, len(h.pending))
	for id, a := range h.pending {
		requests[id] = a.params
	}
	return inputRequired(h.method, requests, h.token)
}

// resume serves a retry: its answers go to the open questions of the held
// call its state names, then it waits on the call as the first request did.
func (g *Gateway) resume(ctx context.Context, method string, req mcp.Request, state string, responses mcp.InputResponseMap) (mcp.Result, error) {
	g.mu.Lock()
	h := g.held[state]
	g.mu.Unlock()
	if h == nil || h.method != method || h.name != requestName(req) {
		return g.expired(ctx, method, req)
	}
	h.mu.Lock()
	if h.over || h.attached || !h.stopWait() {
		h.mu.Unlock()
		return g.expired(ctx, method, req)
	}
	h.attached = true
	for id, r := range responses {
		if a, ok := h.pending[id]; ok {
			a.answer <- r
			delete(h.pending, id)
		}
	}
	if len(h.pending) > 0 {
		res, err := h.detach()
		h.mu.Unlock()
		return res, err
	}
	h.mu.Unlock()
	// The client's session of the retry is the one that gets the next
	// question's progress and log messages too.
	if ss, ok := req.GetSession().(*mcp.ServerSession); ok && ss != nil && persistent(req) {
		g.watch(ss)
	}
	return h.serve(ctx, req)
}

// expired answers a retry whose held call is gone (it was given up, its
// result was delivered, or the state is not one of the gateway's).
func (g *Gateway) expired(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
	msg := "the question this request answers is no longer open (it timed out, was answered already, or the gateway restarted); make the request again"
	if method != "tools/call" {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: msg}
	}
	return complete(&mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "The gateway: " + msg + "."}}})
}

// Lock order: h.mu, then g.mu; never the other way round.

// giveUp ends a held call that no downstream request waits on (the client
// did not come back in time, went away, or the gateway closed; or the
// request waiting on it ended): its open questions end (an elicitation as
// "cancel") and the call is cancelled upstream.
func (h *held) giveUp(why string) {
	h.mu.Lock()
	if h.over {
		h.mu.Unlock()
		return
	}
	h.over = true
	h.pending = nil
	h.mu.Unlock()
	close(h.ended)
	h.cancel()
	h.g.mu.Lock()
	delete(h.g.held, h.token)
	h.g.mu.Unlock()
	h.g.log.Debug("a held upstream call ended without its client", zap.String("method", h.method), zap.String("name", h.name), zap.String("why", why))
}

// finish forgets a held call whose outcome was delivered.
func (h *held) finish() {
	h.mu.Lock()
	h.over = true
	h.mu.Unlock()
	h.g.mu.Lock()
	delete(h.g.held, h.token)
	h.g.mu.Unlock()
}

// watch ends the held calls, the resource subscriptions and the URL-mode
// completion routes of ss when the session ends (a client that went away; on stateless HTTP, the request),
// once per session.
func (g *Gateway) watch(ss *mcp.ServerSession) {
	g.mu.Lock()
	if g.watched == nil {
		g.watched = map[*mcp.ServerSession]bool{}
	}
	if g.watched[ss] {
		g.mu.Unlock()
		return
	}
	g.watched[ss] = true
	g.mu.Unlock()
	go func() {
		_ = ss.Wait()
		g.mu.Lock()
		delete(g.watched, ss)
		var gone []*held
		for _, h := range g.held {
			if h.c.ss == ss {
				gone = append(gone, h)
			}
		}
		g.mu.Unlock()
		for _, h := range gone {
			h.giveUp("the client's session ended")
		}
		g.leave(ss)             // its resource subscriptions (subscribe.go)
		g.forgetCompletions(ss) // and URL-mode completions (urlmode.go)
	}()
}

// persistent reports whether req came over a session that lasts beyond
// the request (stdio, in memory), whose end says the client went away; on
// stateless HTTP every request has a session of its own.
func persistent(req mcp.Request) bool {
	extra := req.GetExtra()
	return extra == nil || extra.Header == nil
}

// inputResponses are the answers and the request state a retry carries.
func inputResponses(req mcp.Request) (mcp.InputResponseMap, string) {
	switch p := req.GetParams().(type) {
	case *mcp.CallToolParamsRaw:
		return p.InputResponses, p.RequestState
	case *mcp.ReadResourceParams:
		return p.InputResponses, p.RequestState
	case *mcp.GetPromptParams:
		return p.InputResponses, p.RequestState
	}
	return nil, ""
}

// requestName names what a request is about: the tool or prompt, or the
// resource URI.
func requestName(req mcp.Request) string {
	switch p := req.GetParams().(type) {
	case *mcp.CallToolParamsRaw:
		return p.Name
	case *mcp.ReadResourceParams:
		return p.URI
	case *mcp.GetPromptParams:
		return p.Name
	}
	return ""
}

// inputRequired is the stateless era's result that asks: the input requests
// and the state to echo, "resultType": "input_required" (the SDK keeps
// the field unexported and sets it only by decoding).
func inputRequired(method string, requests mcp.InputRequestMap, state string) (mcp.Result, error) {
	var in, out mcp.Result
	switch method {
	case "tools/call":
		in, out = &mcp.CallToolResult{InputRequests: requests, RequestState: state}, new(mcp.CallToolResult)
	case "resources/read":
		in, out = &mcp.ReadResourceResult{InputRequests: requests, RequestState: state}, new(mcp.ReadResourceResult)
	default:
		in, out = &mcp.GetPromptResult{InputRequests: requests, RequestState: state}, new(mcp.GetPromptResult)
	}
	b, err := json.Marshal(in)
	if err != nil || len(b) < 2 || b[len(b)-1] != '}' {
		return nil, fmt.Errorf("gateway: encode the input requests: %w", err)
	}
	b = append(b[:len(b)-1], `,"resultType":"input_required"}`...)
	if err := json.Unmarshal(b, out); err != nil {
		return nil, fmt.Errorf("gateway: decode the input requests: %w", err)
	}
	return out, nil
}

// randomToken is 128 random bits in hex: a held call's state cannot be
// guessed by another client.
func randomToken() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
