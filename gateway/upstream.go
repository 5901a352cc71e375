package gateway

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"

	"github.com/contentneg/contentneg/internal/rawjson"
)

// Dialer is how the gateway reaches the upstream server, a connection for
// each upstream session: a *[Command] starts a process for each, an
// *[HTTPUpstream] opens a session with a streamable-HTTP server. These two
// are the only ones.
type Dialer interface {
	// connect opens the connection; maxMessage bounds the size of a
	// message read from it.
	connect(ctx context.Context, maxMessage int) (msgConn, error)
}

// upstream is one session with the upstream server: the gateway's
// requests go out under ids of its own, and the answers come back to the
// caller that waits for them. Its server's requests and notifications go
// to handler.
type upstream struct {
	conn    msgConn
	handler upstreamHandler
	// onBroken hears of each message that could not be read, when the
	// handler wants to (a brokenLines).
	onBroken func(raw []byte, reason string)

	mu      sync.Mutex
	pending map[int64]chan reply
	next    int64
	err     error // why it ended, once it did
	done    chan struct{}
}

// upstreamHandler receives what the upstream server sends unasked.
type upstreamHandler interface {
	// serverRequest is a request of the server's (elicitation, sampling, roots,
	// ping); answer it with u.respond.
	serverRequest(u *upstream, m *message)
	// serverNotify is a notification of the server's.
	serverNotify(u *upstream, m *message)
	// serverEnded says the session ended, with why.
	serverEnded(u *upstream, err error)
}

// brokenLines is an upstreamHandler that hears of the messages that could
// not be read.
type brokenLines interface {
	broken(raw []byte, reason string)
}

// reply is the upstream's answer to one request.
type reply struct {
	result []byte
	err    error
}

func newUpstream(conn msgConn, h upstreamHandler) *upstream {
	u := &upstream{conn: conn, handler: h, pending: map[int64]chan reply{}, done: make(chan struct{})}
	if b, ok := h.(brokenLines); ok {
		u.onBroken = b.broken
	}
	go u.read()
	return u
}

// read reads the upstream's messages until its connection ends. A message
// it cannot read fails the request it answers, if that can be told, and
// nothing else.
func (u *upstream) read() {
	ctx := context.Background()
	for {
		raw, err := u.conn.Read(ctx)
		if err != nil {
			var bad *badMessage
			if errors.As(err, &bad) {
				if u.onBroken != nil {
					u.onBroken(nil, bad.Reason)
				}
				u.broken(bad.ID, bad.Reason)
				continue
			}
			u.end(err)
			return
		}
		m, err := parseMessage(raw)
		if err != nil {
			if u.onBroken != nil {
				u.onBroken(raw, err.Error())
			}
			var f idFinder
			f.feed(raw)
			u.broken(f.id(), err.Error())
			continue
		}
		switch {
		case m.isResponse():
			u.answer(m)
		case m.isRequest():
			go u.handler.serverRequest(u, m)
		default:
			u.handler.serverNotify(u, m)
		}
	}
}

// broken fails the request whose answer could not be read.
func (u *upstream) broken(id []byte, reason string) {
	n, ok := rawjson.Int(id)
	if !ok {
		return
	}
	u.mu.Lock()
	ch := u.pending[n]
	delete(u.pending, n)
	u.mu.Unlock()
	if ch != nil {
		ch <- reply{err: newRPCError(codeInternalError, "the upstream's answer could not be read: "+reason)}
	}
}

func (u *upstream) answer(m *message) {
	n, ok := rawjson.Int(m.id)
	if !ok {
		return // not an id of ours
	}
	u.mu.Lock()
	ch := u.pending[n]
	delete(u.pending, n)
	u.mu.Unlock()
	if ch == nil {
		return // a request that was cancelled meanwhile
	}
	if m.err != nil {
		ch <- reply{err: rpcError(m.err)}
		return
	}
	ch <- reply{result: m.result}
}

// end fails every request under way and tells the handler.
func (u *upstream) end(err error) {
	u.mu.Lock()
	if u.err != nil {
		u.mu.Unlock()
		return
	}
	u.err = err
	pending := u.pending
	u.pending = nil
	u.mu.Unlock()
	gone := newRPCError(codeUnavailable, "the upstream session ended: "+err.Error())
	for _, ch := range pending {
		ch <- reply{err: gone}
	}
	close(u.done)
	_ = u.conn.Close()
	u.handler.serverEnded(u, err)
}

// errEnded is what a request to an upstream session that ended wraps.
var errEnded = errors.New("the upstream session ended")

// call sends a request and waits for its answer in ctx; when ctx ends
// first, the upstream is told that the request is cancelled.
func (u *upstream) call(ctx context.Context, method string, params []byte) ([]byte, error) {
	ch := make(chan reply, 1)
	u.mu.Lock()
	if u.err != nil {
		err := u.err
		u.mu.Unlock()
		return nil, fmt.Errorf("%w: %v", errEnded, err)
	}
	u.next++
	id := u.next
	u.pending[id] = ch
	u.mu.Unlock()
	idRaw := strconv.AppendInt(nil, id, 10)
	if err := u.conn.Write(ctx, encodeRequest(idRaw, method, params)); err != nil {
		u.forget(id)
		return nil, fmt.Errorf("write to the upstream: %w", err)
	}
	select {
	case r := <-ch:
		return r.result, r.err
	case <-ctx.Done():
		if u.forget(id) {
			u.cancelled(idRaw, context.Cause(ctx))
		}
		return nil, context.Cause(ctx)
	}
}

// forget gives up waiting for the answer to id; it reports whether the
// request was still under way.
func (u *upstream) forget(id int64) bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	_, ok := u.pending[id]
	delete(u.pending, id)
	return ok
}

// cancelled tells the upstream that the request id is cancelled.
func (u *upstream) cancelled(id []byte, cause error) {
	reason := "the client cancelled the request"
	if cause != nil && !errors.Is(cause, context.Canceled) {
		reason = cause.Error()
	}
	params := rawjson.Object([]string{"requestId", "reason"}, [][]byte{id, rawjson.Quote(reason)})
	_ = u.conn.Write(context.Background(), encodeNotification("notifications/cancelled", params))
}

// notify sends a notification.
func (u *upstream) notify(ctx context.Context, method string, params []byte) error {
	return u.conn.Write(ctx, encodeNotification(method, params))
}

// respond answers the server's request id with result (raw JSON), or with
// the error object errObj when result is nil.
func (u *upstream) respond(id, result, errObj []byte) {
	var msg []byte
	if result != nil {
		msg = encodeResult(id, result)
	} else {
		msg = encodeErrorObject(id, errObj)
	}
	_ = u.conn.Write(context.Background(), msg)
}

// inFlight returns how many requests wait for the upstream's answer.
func (u *upstream) inFlight() int {
	u.mu.Lock()
	defer u.mu.Unlock()
	return len(u.pending)
}

// close ends the session.
func (u *upstream) close() {
	u.end(errors.New("closed by the gateway"))
}
