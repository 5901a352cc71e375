package sdk

import (
	"context"
	"net/http"
	"reflect"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Post is one HTTP POST of a streamable HTTP session under way: whether a
// question (elicitation/create) sent for one of its requests waits for its
// answer. The go-sdk sends a request's questions on the stream of the POST
// that carried the request, so when the POST's client goes away while one
// waits, the answer cannot come. The gate's HTTP handler registers each
// POST by its headers, which the go-sdk hands the request's handlers as
// they are (mcp.RequestExtra.Header, the same map); the receiving
// middleware finds the POST of a request by them and puts it in the
// context, where the sending middleware finds it. Types and identities,
// not the stream's bytes.
type Post struct{ asking atomic.Int32 }

// Ask records a question sent for the POST's requests; call done when it
// is answered or its wait ended.
func (p *Post) Ask() (done func()) {
	p.asking.Add(1)
	return func() { p.asking.Add(-1) }
}

// Asking reports whether a question of the POST waits for its answer.
func (p *Post) Asking() bool { return p.asking.Load() > 0 }

// posts are the POSTs under way, by the identity of their header map (the
// map's address, compared, never followed: the map is alive while its POST
// is registered).
var posts struct {
	n        atomic.Int32 // len(byHeader), read without the lock
	mu       sync.Mutex
	byHeader map[uintptr]*Post
}

func headerKey(h http.Header) uintptr { return reflect.ValueOf(h).Pointer() }

// BeginPost registers the POST whose request headers are h; call end when
// the POST is served.
func BeginPost(h http.Header) (p *Post, end func()) {
	p, key := &Post{}, headerKey(h)
	posts.mu.Lock()
	if posts.byHeader == nil {
		posts.byHeader = make(map[uintptr]*Post)
	}
	posts.byHeader[key] = p
	posts.n.Store(int32(len(posts.byHeader)))
	posts.mu.Unlock()
	return p, func() {
		posts.mu.Lock()
		delete(posts.byHeader, key)
		posts.n.Store(int32(len(posts.byHeader)))
		posts.mu.Unlock()
	}
}

// PostOfHeader returns the POST registered with headers h, or nil.
func PostOfHeader(h http.Header) *Post {
	if h == nil || posts.n.Load() == 0 {
		return nil
	}
	posts.mu.Lock()
	defer posts.mu.Unlock()
	return posts.byHeader[headerKey(h)]
}

type postKey struct{}

// WithPost returns ctx carrying the POST req arrived on, when the gate's
// HTTP handler registered it; else ctx itself, at no cost.
func WithPost(ctx context.Context, req mcp.Request) context.Context {
	if posts.n.Load() == 0 {
		return ctx
	}
	extra := req.GetExtra()
	if extra == nil {
		return ctx
	}
	if p := PostOfHeader(extra.Header); p != nil {
		return context.WithValue(ctx, postKey{}, p)
	}
	return ctx
}

// PostFrom returns the POST ctx carries, or nil.
func PostFrom(ctx context.Context) *Post {
	p, _ := ctx.Value(postKey{}).(*Post)
	return p
}
