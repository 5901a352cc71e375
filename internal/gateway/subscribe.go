package gateway

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap"
)

// MaxSubscriptions is how many distinct resource URIs the gateway's
// downstream clients may be subscribed to at once; a subscription beyond
// it is refused with an error that says so.
const MaxSubscriptions = 4096

// subscriptions are the resource subscriptions of the downstream clients.
// The gateway holds one upstream subscription per URI while any downstream
// session holds one: the first subscriber subscribes upstream, the last to
// leave (by unsubscribing or by its session ending) unsubscribes it. The
// mirror server keeps which of its sessions an update goes to.
type subscriptions struct {
	// mu is held across the upstream's subscribe and unsubscribe, so that
	// they reach the upstream in the order they were decided.
	mu sync.Mutex
	by map[string]map[*mcp.ServerSession]struct{}

	// held are the URIs of by, for the upstream's reading goroutine, which
	// must not wait for mu: mu may be waiting for a response that
	// goroutine reads.
	hmu  sync.Mutex
	held map[string]bool
	// updated are the upstream's updates not yet passed on, only of held
	// URIs, so bounded by them: one repeated meanwhile goes out once.
	updated *pending[string, *mcp.ResourceUpdatedNotificationParams]
}

// newSubscriptions is the gateway's empty record of subscriptions.
func newSubscriptions() *subscriptions {
	return &subscriptions{
		by:      map[string]map[*mcp.ServerSession]struct{}{},
		held:    map[string]bool{},
		updated: newPending[string, *mcp.ResourceUpdatedNotificationParams](),
	}
}

// subscribing lets the mirror server take resource subscriptions when the
// upstream offers them.
func (g *Gateway) subscribing(up *mcp.ServerCapabilities, sopts *mcp.ServerOptions) {
	if up == nil || up.Resources == nil || !up.Resources.Subscribe {
		return
	}
	sopts.SubscribeHandler = g.subscribe
	sopts.UnsubscribeHandler = g.unsubscribe
}

// subscribe is the mirror server's SubscribeHandler: the downstream session
// of req is subscribed to the URI, and the upstream too if it is the first.
func (g *Gateway) subscribe(ctx context.Context, req *mcp.SubscribeRequest) error {
	if req.Params == nil || req.Params.URI == "" {
		return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "resources/subscribe: missing uri"}
	}
	uri := req.Params.URI
	s := g.subs
	s.mu.Lock()
	defer s.mu.Unlock()
	set := s.by[uri]
	if set == nil {
		if len(s.by) >= MaxSubscriptions {
			return fmt.Errorf("gateway: subscribe to %s: the clients hold %d subscriptions already, the most the gateway keeps", uri, MaxSubscriptions)
		}
		ctx, cancel := context.WithTimeout(ctx, g.bound())
		defer cancel()
		defer context.AfterFunc(g.life, cancel)()
		s.hold(uri, true) // before the upstream may send an update
		up, err := g.session(ctx)
		if err == nil {
			err = up.Subscribe(ctx, &mcp.SubscribeParams{URI: uri})
		}
		if err != nil {
			s.hold(uri, false)
			var we *jsonrpc.Error
			if errors.As(err, &we) {
				return we // the upstream's refusal, as it is
			}
			return fmt.Errorf("gateway: subscribe the upstream to %s: %w", uri, err)
		}
		set = map[*mcp.ServerSession]struct{}{}
		s.by[uri] = set
	}
	set[req.Session] = struct{}{}
	if req.Session != nil {
		g.watch(req.Session)
	}
	return nil
}

// unsubscribe is the mirror server's UnsubscribeHandler: when no session
// is left on the URI, the upstream is unsubscribed too, within the call
// timeout, before the client gets its answer; an upstream that fails to
// unsubscribe is logged, not the client's error.
func (g *Gateway) unsubscribe(_ context.Context, req *mcp.UnsubscribeRequest) error {
	if req.Params == nil {
		return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "resources/unsubscribe: missing uri"}
	}
	g.leave(req.Session, req.Params.URI)
	return nil
}

// leave takes ss off the URIs given, or off all of them when none is (its
// session ended), and unsubscribes the upstream from those that no
// session holds any more. Its context is the gateway's own: the request
// that asked may be over (a stateless-era listen stream unsubscribes as
// it ends). Once the gateway closes, only the record is kept.
func (g *Gateway) leave(ss *mcp.ServerSession, uris ...string) {
	s := g.subs
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(uris) == 0 {
		for uri, set := range s.by {
			if _, ok := set[ss]; ok {
				uris = append(uris, uri)
			}
		}
	}
	for _, uri := range uris {
		set, ok := s.by[uri]
		if !ok {
			continue
		}
		delete(set, ss)
		if len(set) > 0 {
			continue
		}
		delete(s.by, uri)
		s.hold(uri, false)
		if g.life.Err() != nil {
			continue // the gateway closes, and the upstream session with it
		}
		ctx, cancel := context.WithTimeout(g.life, g.bound())
		up, err := g.session(ctx)
		if err == nil {
			err = up.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: uri})
		}
		cancel()
		if err != nil && g.life.Err() == nil {
			g.log.Warn("unsubscribing the upstream failed", zap.String("uri", uri), zap.Error(err))
		}
	}
}

// hold records whether a downstream session holds uri; a URI no one holds
// has no update due.
func (s *subscriptions) hold(uri string, held bool) {
	s.hmu.Lock()
	defer s.hmu.Unlock()
	if held {
		s.held[uri] = true
		return
	}
	delete(s.held, uri)
	s.updated.forget(uri)
}

// resubscribe subscribes a restarted upstream to every URI a downstream
// session holds.
func (g *Gateway) resubscribe(ctx context.Context, up *mcp.ClientSession) {
	s := g.subs
	s.mu.Lock()
	defer s.mu.Unlock()
	for uri := range s.by {
		if err := up.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}); err != nil {
			g.log.Warn("subscribing the restarted upstream failed", zap.String("uri", uri), zap.Error(err))
		}
	}
}

// resourceUpdated records an upstream's update for the forwarding
// goroutine; it never blocks the upstream session's reading goroutine. An
// update for a URI no one holds is dropped.
func (g *Gateway) resourceUpdated(p *mcp.ResourceUpdatedNotificationParams) {
	s := g.subs
	if p == nil {
		return
	}
	s.hmu.Lock()
	defer s.hmu.Unlock() // so that hold cannot forget p before it is asked
	if !s.held[p.URI] {
		g.log.Debug("upstream update of a resource no client holds: dropped", zap.String("uri", p.URI))
		return
	}
	s.updated.ask(p.URI, p)
}

// updating passes the upstream's updates on to the subscribed downstream
// sessions, until the gateway closes.
func (g *Gateway) updating() {
	defer g.wg.Done()
	s := g.subs
	for {
		select {
		case <-g.done:
			return
		case <-s.updated.wake:
		}
		for _, p := range s.updated.take() {
			// The go-sdk bounds each session's send (10 s).
			if err := g.server.ResourceUpdated(g.life, p); err != nil {
				g.log.Debug("resource update not passed on", zap.String("uri", p.URI), zap.Error(err))
			}
		}
	}
}
