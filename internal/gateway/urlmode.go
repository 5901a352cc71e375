package gateway

import (
	"context"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap"
)

// maxURLRoutes bounds the URL-mode questions whose completion the gateway
// still routes: beyond it, a newly accepted question's completion is not
// passed on (the client still has the URL and the answer it gave).
const maxURLRoutes = 1024

// urlRoutes send an upstream's notifications/elicitation/complete to the
// downstream client that accepted the URL-mode question it completes: the
// upstream's session is every client's, and only the elicitation id says
// whose question it was. A route is used once, and goes when its client's
// session ends.
type urlRoutes struct {
	mu sync.Mutex
	by map[string]*mcp.ServerSession
}

// routeCompletion records where the completion of p goes, once ss accepted
// it; other questions and answers complete nothing.
func (g *Gateway) routeCompletion(ss *mcp.ServerSession, p *mcp.ElicitParams, res *mcp.ElicitResult) {
	if ss == nil || p == nil || p.Mode != "url" || p.ElicitationID == "" || res == nil || res.Action != "accept" {
		return
	}
	r := &g.urls
	r.mu.Lock()
	if r.by == nil {
		r.by = map[string]*mcp.ServerSession{}
	}
	full := len(r.by) >= maxURLRoutes
	if !full {
		r.by[p.ElicitationID] = ss
	}
	r.mu.Unlock()
	if full {
		g.log.Warn("URL-mode question's completion will not be passed on: too many open", zap.String("elicitationId", p.ElicitationID), zap.Int("open", maxURLRoutes))
		return
	}
	g.watch(ss)
}

// elicitationComplete passes the upstream's completion on to the client
// that accepted the question, and drops one that matches none.
func (g *Gateway) elicitationComplete(p *mcp.ElicitationCompleteParams) {
	if p == nil {
		return
	}
	r := &g.urls
	r.mu.Lock()
	ss := r.by[p.ElicitationID]
	delete(r.by, p.ElicitationID)
	r.mu.Unlock()
	if ss == nil {
		g.log.Debug("upstream completion of no question passed on: dropped", zap.String("elicitationId", p.ElicitationID))
		return
	}
	ctx, cancel := context.WithTimeout(g.life, progressGrace)
	defer cancel()
	if err := ss.NotifyElicitationComplete(ctx, p); err != nil {
		g.log.Debug("completion not passed on", zap.String("elicitationId", p.ElicitationID), zap.Error(err))
	}
}

// forgetCompletions drops the routes to ss, whose session ended.
func (g *Gateway) forgetCompletions(ss *mcp.ServerSession) {
	r := &g.urls
	r.mu.Lock()
	defer r.mu.Unlock()
	for id, s := range r.by {
		if s == ss {
			delete(r.by, id)
		}
	}
}
