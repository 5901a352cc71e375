package sdk

import (
	"reflect"
	"slices"
	"sync"
	"unsafe"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/internal/uritmpl"
)

// What resources/metadata (SEP-2093) needs of a go-sdk v1.8.0 server's
// registrations, read as tools.go reads the tools (Server.resources and
// Server.resourceTemplates, feature sets of serverResource{resource,
// handler} and serverResourceTemplate{resourceTemplate, handler}, under
// Server.mu), so that answering it makes no request through the
// middleware below: TestRegisteredResourcePinned fails when the layout
// changes, and the lookups then report that they cannot read it.

type registryLayout struct {
	ok                       bool
	server, mu               []int
	resources, templates     []int // Server.resources, Server.resourceTemplates
	features                 []int // featureSet.features
	resource, resourceHandle []int // serverResource.resource, .handler
	template, templateHandle []int // serverResourceTemplate.resourceTemplate, .handler
}

var registry = sync.OnceValue(func() registryLayout {
	var l registryLayout
	ss, ok := reflect.TypeFor[mcp.ServerSession]().FieldByName("server")
	if !ok || ss.Type != reflect.TypeFor[*mcp.Server]() {
		return l
	}
	st := reflect.TypeFor[mcp.Server]()
	mu, ok1 := st.FieldByName("mu")
	res, ok2 := st.FieldByName("resources")
	tmpl, ok3 := st.FieldByName("resourceTemplates")
	if !ok1 || !ok2 || !ok3 || mu.Type != reflect.TypeFor[sync.Mutex]() {
		return l
	}
	elem := func(set reflect.StructField, field, handler string, want reflect.Type) (features, f, h []int, ok bool) {
		if set.Type.Kind() != reflect.Pointer || set.Type.Elem().Kind() != reflect.Struct {
			return nil, nil, nil, false
		}
		fs, ok := set.Type.Elem().FieldByName("features")
		if !ok || fs.Type.Kind() != reflect.Map || fs.Type.Key().Kind() != reflect.String ||
			fs.Type.Elem().Kind() != reflect.Pointer || fs.Type.Elem().Elem().Kind() != reflect.Struct {
			return nil, nil, nil, false
		}
		item := fs.Type.Elem().Elem()
		fv, ok1 := item.FieldByName(field)
		hv, ok2 := item.FieldByName(handler)
		if !ok1 || !ok2 || fv.Type != want || hv.Type != reflect.TypeFor[mcp.ResourceHandler]() {
			return nil, nil, nil, false
		}
		return fs.Index, fv.Index, hv.Index, true
	}
	features, r, rh, ok1 := elem(res, "resource", "handler", reflect.TypeFor[*mcp.Resource]())
	features2, t, th, ok2 := elem(tmpl, "resourceTemplate", "handler", reflect.TypeFor[*mcp.ResourceTemplate]())
	if !ok1 || !ok2 || !slices.Equal(features, features2) {
		return l
	}
	return registryLayout{ok: true, server: ss.Index, mu: mu.Index, resources: res.Index, templates: tmpl.Index,
		features: features, resource: r, resourceHandle: rh, template: t, templateHandle: th}
})

// field returns the value of the unexported field at index of the
// addressable struct v.
func field[T any](v reflect.Value, index []int) T {
	f := v.FieldByIndex(index)
	return *(*T)(unsafe.Pointer(f.UnsafeAddr()))
}

// A Registration is what the server registered for a resource URI: the
// resource itself, or the template that serves it, with its handler.
type Registration struct {
	Resource *mcp.Resource         // registered under the URI itself
	Template *mcp.ResourceTemplate // else the first template (by URI template, as the SDK orders them) that matches
	Handler  mcp.ResourceHandler
}

// RegisteredResource returns what the server of ss registered for uri.
// readable is false when this SDK version's state cannot be read; found is
// false when nothing serves uri.
func RegisteredResource(ss *mcp.ServerSession, uri string) (reg Registration, found, readable bool) {
	l := registry()
	if !l.ok || ss == nil {
		return reg, false, false
	}
	srv := field[*mcp.Server](reflect.ValueOf(ss).Elem(), l.server)
	if srv == nil {
		return reg, false, false
	}
	sv := reflect.ValueOf(srv).Elem()
	mu := (*sync.Mutex)(unsafe.Pointer(sv.FieldByIndex(l.mu).UnsafeAddr()))
	mu.Lock()
	defer mu.Unlock()
	if set := sv.FieldByIndex(l.resources); !set.IsNil() {
		if item := set.Elem().FieldByIndex(l.features).MapIndex(reflect.ValueOf(uri)); item.IsValid() && !item.IsNil() {
			reg.Resource = field[*mcp.Resource](item.Elem(), l.resource)
			reg.Handler = field[mcp.ResourceHandler](item.Elem(), l.resourceHandle)
			return reg, reg.Resource != nil, true
		}
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
		item := features.MapIndex(reflect.ValueOf(k))
		if item.IsNil() {
			continue
		}
		t := field[*mcp.ResourceTemplate](item.Elem(), l.template)
		if t != nil && uritmpl.Matches(t.URITemplate, uri) {
			reg.Template, reg.Handler = t, field[mcp.ResourceHandler](item.Elem(), l.templateHandle)
			return reg, true, true
		}
	}
	return reg, false, true
}
