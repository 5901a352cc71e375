package sdk

import (
	"reflect"
	"sync"
	"unsafe"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The go-sdk (v1.8.0) keeps a server's tools in Server.tools, a feature set
// whose map features holds a serverTool{tool *Tool, handler} per name,
// guarded by Server.mu; a ServerSession knows its server in
// ServerSession.server. It offers no public lookup of a registered tool, and
// the output schema it declares decides whether a result keeps
// structuredContent (and gives the fields' order and descriptions). Reading
// the registration is the only way to know it without a request of the
// middleware's own (a tools/list through the handlers below it, which a
// user's middleware would see). This file is the one place that reads the
// SDK's unexported state; TestRegisteredToolPinned fails when v1.8.0's
// layout changes, and the lookup then reports that it cannot read it, so
// that the middleware falls back to the tools/list results it has seen.

// layout holds the field indices of the SDK's state, found once.
type layout struct {
	ok       bool
	server   []int // ServerSession.server
	mu       []int // Server.mu
	tools    []int // Server.tools
	features []int // featureSet.features
	tool     []int // serverTool.tool
}

var sdkLayout = sync.OnceValue(func() layout {
	var l layout
	ss, ok := reflect.TypeFor[mcp.ServerSession]().FieldByName("server")
	if !ok || ss.Type != reflect.TypeFor[*mcp.Server]() {
		return l
	}
	st := reflect.TypeFor[mcp.Server]()
	mu, ok1 := st.FieldByName("mu")
	tools, ok2 := st.FieldByName("tools")
	if !ok1 || !ok2 || mu.Type != reflect.TypeFor[sync.Mutex]() || tools.Type.Kind() != reflect.Pointer {
		return l
	}
	fs := tools.Type.Elem()
	if fs.Kind() != reflect.Struct {
		return l
	}
	features, ok := fs.FieldByName("features")
	if !ok || features.Type.Kind() != reflect.Map || features.Type.Key().Kind() != reflect.String {
		return l
	}
	elem := features.Type.Elem()
	if elem.Kind() != reflect.Pointer || elem.Elem().Kind() != reflect.Struct {
		return l
	}
	tool, ok := elem.Elem().FieldByName("tool")
	if !ok || tool.Type != reflect.TypeFor[*mcp.Tool]() {
		return l
	}
	return layout{ok: true, server: ss.Index, mu: mu.Index, tools: tools.Index, features: features.Index, tool: tool.Index}
})

// RegisteredTool returns the tool registered under name on the server of
// ss, as the SDK keeps it. readable is false when this SDK version's state
// cannot be read (see above); found is false when no tool has the name.
func RegisteredTool(ss *mcp.ServerSession, name string) (tool *mcp.Tool, found, readable bool) {
	l := sdkLayout()
	if !l.ok || ss == nil {
		return nil, false, false
	}
	srvField := reflect.ValueOf(ss).Elem().FieldByIndex(l.server)
	srv := *(**mcp.Server)(unsafe.Pointer(srvField.UnsafeAddr()))
	if srv == nil {
		return nil, false, false
	}
	sv := reflect.ValueOf(srv).Elem()
	mu := (*sync.Mutex)(unsafe.Pointer(sv.FieldByIndex(l.mu).UnsafeAddr()))
	mu.Lock()
	defer mu.Unlock()
	set := sv.FieldByIndex(l.tools)
	if set.IsNil() {
		return nil, false, true
	}
	st := set.Elem().FieldByIndex(l.features).MapIndex(reflect.ValueOf(name))
	if !st.IsValid() || st.IsNil() {
		return nil, false, true
	}
	tf := st.Elem().FieldByIndex(l.tool)
	tool = *(**mcp.Tool)(unsafe.Pointer(tf.UnsafeAddr()))
	return tool, tool != nil, true
}
