package sdk

import (
	"reflect"
	"sync"
	"unsafe"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The go-sdk (v1.8.0) keeps a server's resources in Server.resources, a
// feature set whose map features is keyed by URI, guarded by Server.mu; a
// ServerSession knows its server in ServerSession.server. It offers no
// public way to tell a resource registered under its own URI from one a
// URI template serves (the contract gives them different renderers), and
// listing the resources through the handlers below would be a request a
// user's middleware sees. This file reads that state, and only it;
// TestExactResourcePinned fails when v1.8.0's layout changes, and
// ExactResource then reports that it cannot tell.

// resourceLayout holds the field indices of the SDK's state, found once.
type resourceLayout struct {
	ok        bool
	server    []int // ServerSession.server
	mu        []int // Server.mu
	resources []int // Server.resources
	features  []int // featureSet.features
}

var resourcesLayout = sync.OnceValue(func() resourceLayout {
	var l resourceLayout
	ss, ok := reflect.TypeFor[mcp.ServerSession]().FieldByName("server")
	if !ok || ss.Type != reflect.TypeFor[*mcp.Server]() {
		return l
	}
	st := reflect.TypeFor[mcp.Server]()
	mu, ok1 := st.FieldByName("mu")
	resources, ok2 := st.FieldByName("resources")
	if !ok1 || !ok2 || mu.Type != reflect.TypeFor[sync.Mutex]() || resources.Type.Kind() != reflect.Pointer ||
		resources.Type.Elem().Kind() != reflect.Struct {
		return l
	}
	features, ok := resources.Type.Elem().FieldByName("features")
	if !ok || features.Type.Kind() != reflect.Map || features.Type.Key().Kind() != reflect.String {
		return l
	}
	return resourceLayout{ok: true, server: ss.Index, mu: mu.Index, resources: resources.Index, features: features.Index}
})

// ExactResource reports whether the server of the request's session
// registers a resource under exactly uri (not through a URI template).
// readable is false when this SDK version's state cannot be read, or the
// request has no session.
func ExactResource(req mcp.Request, uri string) (exact, readable bool) {
	l := resourcesLayout()
	ss, _ := req.GetSession().(*mcp.ServerSession)
	if !l.ok || ss == nil {
		return false, false
	}
	srvField := reflect.ValueOf(ss).Elem().FieldByIndex(l.server)
	srv := *(**mcp.Server)(unsafe.Pointer(srvField.UnsafeAddr()))
	if srv == nil {
		return false, false
	}
	sv := reflect.ValueOf(srv).Elem()
	mu := (*sync.Mutex)(unsafe.Pointer(sv.FieldByIndex(l.mu).UnsafeAddr()))
	mu.Lock()
	defer mu.Unlock()
	set := sv.FieldByIndex(l.resources)
	if set.IsNil() {
		return false, true
	}
	found := set.Elem().FieldByIndex(l.features).MapIndex(reflect.ValueOf(uri))
	return found.IsValid(), true
}
