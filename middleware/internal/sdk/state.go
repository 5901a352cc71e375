package sdk

import (
	"reflect"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/internal/uritmpl"
)

// This file is the one place that reads the go-sdk's unexported state, and
// only that of go-sdk v1.8.0. The SDK offers no public lookup of what a
// server registered, and the wire does not always tell: a client may call a
// tool, or read a resource, without having listed them, and a list of the
// middleware's own would be a request that a user's middleware sees. So:
//
//   - a tool's output schema (RegisteredTool) decides whether a result keeps
//     structuredContent, and gives the fields' order and descriptions;
//   - whether a resource is registered under its own URI or served by a URI
//     template (ExactResource) decides which renderer applies;
//   - the resources and templates a server registered, with their handlers
//     (RegisteredResource), answer SEP-2093's resources/metadata.
//
// They are read from ServerSession.server, then Server.tools,
// Server.resources and Server.resourceTemplates (feature sets whose map
// features holds serverTool{tool}, serverResource{resource, handler} and
// serverResourceTemplate{resourceTemplate, handler}), under Server.mu.
//
// Only when the build says it links go-sdk v1.8.0 (debug.ReadBuildInfo; a
// test binary lists no dependencies, and go.mod pins v1.8.0:
// TestGoModPinsTheSDK), and only when the layout is the one expected (the
// *Pinned tests fail when it is not). Otherwise every lookup reports that it
// cannot read the state, and its caller falls back to what the wire told
// it: the tools/list results seen so far (middleware's catalog), listing
// through the handlers (resourcemeta), or no exact resource.

// pinnedSDK is the go-sdk version whose layout this file reads.
const pinnedSDK = "v1.8.0"

const sdkPath = "github.com/modelcontextprotocol/go-sdk"

// linkedVersion reports the go-sdk version the binary was built with
// (with replace directives applied), and whether the build says.
func linkedVersion() (version string, known bool) {
	bi, ok := debug.ReadBuildInfo()
	if !ok || len(bi.Deps) == 0 {
		return "", false
	}
	for _, d := range bi.Deps {
		if d.Path == sdkPath {
			if d.Replace != nil {
				return d.Replace.Version, true
			}
			return d.Version, true
		}
	}
	return "", true
}

// versionPinned reports whether the state may be read for this build.
func versionPinned(version string, known bool) bool { return !known || version == pinnedSDK }

// state holds the field indices of the SDK's state, found once.
type state struct {
	ok                       bool
	server, mu               []int // ServerSession.server, Server.mu
	tools                    []int // Server.tools
	resources, templates     []int // Server.resources, Server.resourceTemplates
	features                 []int // featureSet.features
	tool                     []int // serverTool.tool
	resource, resourceHandle []int // serverResource.resource, .handler
	template, templateHandle []int // serverResourceTemplate.resourceTemplate, .handler
}

// off, when set, makes every lookup report that it cannot read the state
// (ReadState).
var off atomic.Bool

// ReadState turns the reading of the SDK's state on or off, for the tests
// of the fallbacks; restore puts it back.
func ReadState(on bool) (restore func()) {
	was := off.Swap(!on)
	return func() { off.Store(was) }
}

var layout = sync.OnceValue(func() state {
	if !versionPinned(linkedVersion()) {
		return state{}
	}
	return findLayout()
})

// featureSet returns, for a *featureSet[T] field, the index of its
// features map and the struct its values point to.
func featureSet(set reflect.StructField) (features []int, item reflect.Type, ok bool) {
	if set.Type.Kind() != reflect.Pointer || set.Type.Elem().Kind() != reflect.Struct {
		return nil, nil, false
	}
	fs, ok := set.Type.Elem().FieldByName("features")
	if !ok || fs.Type.Kind() != reflect.Map || fs.Type.Key().Kind() != reflect.String ||
		fs.Type.Elem().Kind() != reflect.Pointer || fs.Type.Elem().Elem().Kind() != reflect.Struct {
		return nil, nil, false
	}
	return fs.Index, fs.Type.Elem().Elem(), true
}

// fieldOf returns the index of item's field name, when it has type want.
func fieldOf(item reflect.Type, name string, want reflect.Type) ([]int, bool) {
	f, ok := item.FieldByName(name)
	if !ok || f.Type != want {
		return nil, false
	}
	return f.Index, true
}

func findLayout() state {
	var l state
	ss, ok := reflect.TypeFor[mcp.ServerSession]().FieldByName("server")
	if !ok || ss.Type != reflect.TypeFor[*mcp.Server]() {
		return l
	}
	st := reflect.TypeFor[mcp.Server]()
	mu, ok1 := st.FieldByName("mu")
	tools, ok2 := st.FieldByName("tools")
	res, ok3 := st.FieldByName("resources")
	tmpl, ok4 := st.FieldByName("resourceTemplates")
	if !ok1 || !ok2 || !ok3 || !ok4 || mu.Type != reflect.TypeFor[sync.Mutex]() {
		return l
	}
	toolFeatures, toolItem, ok1 := featureSet(tools)
	resFeatures, resItem, ok2 := featureSet(res)
	tmplFeatures, tmplItem, ok3 := featureSet(tmpl)
	if !ok1 || !ok2 || !ok3 || !slices.Equal(toolFeatures, resFeatures) || !slices.Equal(resFeatures, tmplFeatures) {
		return l
	}
	handler := reflect.TypeFor[mcp.ResourceHandler]()
	tool, ok1 := fieldOf(toolItem, "tool", reflect.TypeFor[*mcp.Tool]())
	r, ok2 := fieldOf(resItem, "resource", reflect.TypeFor[*mcp.Resource]())
	rh, ok3 := fieldOf(resItem, "handler", handler)
	t, ok4 := fieldOf(tmplItem, "resourceTemplate", reflect.TypeFor[*mcp.ResourceTemplate]())
	th, ok5 := fieldOf(tmplItem, "handler", handler)
	if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 {
		return l
	}
	return state{ok: true, server: ss.Index, mu: mu.Index, tools: tools.Index, resources: res.Index, templates: tmpl.Index,
		features: toolFeatures, tool: tool, resource: r, resourceHandle: rh, template: t, templateHandle: th}
}

// field returns the value of the unexported field at index of the
// addressable struct v.
func field[T any](v reflect.Value, index []int) T {
	f := v.FieldByIndex(index)
	return *(*T)(unsafe.Pointer(f.UnsafeAddr()))
}

// lockServer returns the layout and the server of ss, locked with the
// SDK's own mutex mu (unlock it); ok is false when the state cannot be
// read.
func lockServer(ss *mcp.ServerSession) (l state, sv reflect.Value, mu *sync.Mutex, ok bool) {
	if l = layout(); !l.ok || off.Load() || ss == nil {
		return l, sv, nil, false
	}
	srv := field[*mcp.Server](reflect.ValueOf(ss).Elem(), l.server)
	if srv == nil {
		return l, sv, nil, false
	}
	sv = reflect.ValueOf(srv).Elem()
	mu = (*sync.Mutex)(unsafe.Pointer(sv.FieldByIndex(l.mu).UnsafeAddr()))
	mu.Lock()
	return l, sv, mu, true
}

// item returns the value registered under key in the feature set at
// index of sv, a pointer to its struct; ok is false when there is none.
func item(sv reflect.Value, l state, set []int, key string) (reflect.Value, bool) {
	s := sv.FieldByIndex(set)
	if s.IsNil() {
		return reflect.Value{}, false
	}
	v := s.Elem().FieldByIndex(l.features).MapIndex(reflect.ValueOf(key))
	if !v.IsValid() || v.IsNil() {
		return reflect.Value{}, false
	}
	return v.Elem(), true
}

// RegisteredTool returns the tool registered under name on the server of
// ss, as the SDK keeps it. readable is false when the state cannot be read
// (see above); found is false when no tool has the name.
func RegisteredTool(ss *mcp.ServerSession, name string) (tool *mcp.Tool, found, readable bool) {
	l, sv, mu, ok := lockServer(ss)
	if !ok {
		return nil, false, false
	}
	defer mu.Unlock()
	st, ok := item(sv, l, l.tools, name)
	if !ok {
		return nil, false, true
	}
	tool = field[*mcp.Tool](st, l.tool)
	return tool, tool != nil, true
}

// ExactResource reports whether the server of the request's session
// registers a resource under exactly uri (not through a URI template).
// readable is false when the state cannot be read, or the request has no
// session.
func ExactResource(req mcp.Request, uri string) (exact, readable bool) {
	ss, _ := req.GetSession().(*mcp.ServerSession)
	l, sv, mu, ok := lockServer(ss)
	if !ok {
		return false, false
	}
	defer mu.Unlock()
	_, exact = item(sv, l, l.resources, uri)
	return exact, true
}

// A Registration is what the server registered for a resource URI: the
// resource itself, or the template that serves it, with its handler.
type Registration struct {
	Resource *mcp.Resource         // registered under the URI itself
	Template *mcp.ResourceTemplate // else the first template (by URI template, as the SDK orders them) that matches
	Handler  mcp.ResourceHandler
}

// RegisteredResource returns what the server of ss registered for uri.
// readable is false when the state cannot be read; found is false when
// nothing serves uri.
func RegisteredResource(ss *mcp.ServerSession, uri string) (reg Registration, found, readable bool) {
	l, sv, mu, ok := lockServer(ss)
	if !ok {
		return reg, false, false
	}
	defer mu.Unlock()
	if it, ok := item(sv, l, l.resources, uri); ok {
		reg.Resource = field[*mcp.Resource](it, l.resource)
		reg.Handler = field[mcp.ResourceHandler](it, l.resourceHandle)
		return reg, reg.Resource != nil, true
	}
	set := sv.FieldByIndex(l.templates)
	if set.IsNil() {
		return reg, false, true
	}
	features := set.Elem().FieldByIndex(l.features)
	keys := make([]string, 0, features.Len())
	for _, k := range features.MapKeys() {
		keys = append(keys, k.String())
	}
	slices.Sort(keys)
	for _, k := range keys {
		it := features.MapIndex(reflect.ValueOf(k))
		if it.IsNil() {
			continue
		}
		t := field[*mcp.ResourceTemplate](it.Elem(), l.template)
		if t != nil && uritmpl.Matches(t.URITemplate, uri) {
			reg.Template, reg.Handler = t, field[mcp.ResourceHandler](it.Elem(), l.templateHandle)
			return reg, true, true
		}
	}
	return reg, false, true
}
