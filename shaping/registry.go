package shaping

import (
	"maps"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/contentneg/contentneg/format"
	"github.com/contentneg/contentneg/internal/markup"
	"github.com/contentneg/contentneg/internal/mediatype"
	"github.com/contentneg/contentneg/internal/uritmpl"
	"github.com/contentneg/contentneg/renderers"
)

// registry is the one table of what a server registered by name: a tool's
// name, a resource's URI, or a URI template ("weather://{city}") that
// covers every URI it matches. Each name has one entry holding its settings
// ([Tool], from [Shaper.Register]) and its own renderers by media type
// ([Shaper.Handle]); beside the entries are the generic renderers, by media
// type, for every value without a renderer of its own. It is the open set
// of renderings: a new media type is one [renderers.Renderer] registered
// under it.
//
// The table is built when the shaper is made ([Options.Tools]) and never
// changes once published: a registration after that ([Shaper.Register],
// [Shaper.Handle], [Shaper.AddFormat]) copies it, changes the copy and
// publishes the copy, as goldmark freezes its renderer table. Serving reads
// the published table with one atomic load and no lock, and one call sees
// one table from its start to its end.
type registry struct {
	mu        sync.Mutex // serialises the writers
	published atomic.Pointer[table]
}

// table is one published state of the registry. Nothing in it changes
// once it is published.
//
// The generic renderers are [renderers.Generic] for text/markdown,
// text/plain, text/toon and text/html from the start; application/json
// needs no renderer (the structured rendering is the value itself). A name
// with a markdown renderer of its own but no text/html one gets that
// markdown converted to HTML ([htmlOf]), so that the HTML
// rendering always reads as the markdown one.
type table struct {
	generic map[string]renderers.Renderer // media type -> renderer of every value
	entries map[string]*entry             // name -> what is registered under it
	// withSettings and withRenderers are the names that are URI templates,
	// in the order of their first registration of settings and of a
	// renderer respectively (the two orders may differ): a resource served
	// through templates gets the settings of the first template with
	// settings that matches its URI, and the renderer of the first one
	// with a renderer of the media type.
	withSettings, withRenderers uritmpl.Set
}

// entry is what is registered under one name.
type entry struct {
	settings    Tool
	hasSettings bool                          // settings were registered under the name
	renderers   map[string]renderers.Renderer // media type -> the name's own renderer
}

// newRegistry returns a registry of the generic renderers and the settings
// of tools, registered in the order of their names.
func newRegistry(tools map[string]Tool) *registry {
	t := &table{
		generic: map[string]renderers.Renderer{
			format.Markdown.MediaType: renderers.Generic{},
			format.Text.MediaType:     renderers.Generic{},
			format.TOON.MediaType:     renderers.Generic{},
			format.HTML.MediaType:     renderers.Generic{},
		},
		entries: make(map[string]*entry, len(tools)),
	}
	for _, name := range slices.Sorted(maps.Keys(tools)) {
		t.register(name, tools[name])
	}
	g := &registry{}
	g.published.Store(t)
	return g
}

// load returns the published table.
func (g *registry) load() *table { return g.published.Load() }

// update publishes a copy of the table that change made: the published
// table is never changed, so that readers need no lock.
func (g *registry) update(change func(t *table)) {
	g.mu.Lock()
	defer g.mu.Unlock()
	old := g.published.Load()
	t := &table{
		generic:       maps.Clone(old.generic),
		entries:       maps.Clone(old.entries),
		withSettings:  old.withSettings.Clone(),
		withRenderers: old.withRenderers.Clone(),
	}
	change(t)
	g.published.Store(t)
}

// register sets name's settings, and its markdown and text renderers to
// tool.Renderer (none when nil: the generic ones then apply).
func (t *table) register(name string, tool Tool) {
	e := t.edit(name)
	e.settings, e.hasSettings = tool, true
	t.withSettings.Add(name)
	t.handle(e, name, format.Markdown.MediaType, tool.Renderer)
	t.handle(e, name, format.Text.MediaType, tool.Renderer)
}

// handleName sets name's own renderer of mediaType; nil removes it.
func (t *table) handleName(name, mediaType string, r renderers.Renderer) {
	t.handle(t.edit(name), name, mediaType, r)
}

// handle sets the renderer of mediaType in e, the entry of name being
// edited.
func (t *table) handle(e *entry, name, mediaType string, r renderers.Renderer) {
	mt := mediatype.Base(mediaType)
	if r == nil {
		delete(e.renderers, mt)
		return
	}
	if e.renderers == nil {
		e.renderers = make(map[string]renderers.Renderer, 2)
	}
	e.renderers[mt] = r
	t.withRenderers.Add(name)
}

// handleGeneric sets the generic renderer of mediaType; nil removes it.
func (t *table) handleGeneric(mediaType string, r renderers.Renderer) {
	mt := mediatype.Base(mediaType)
	if r == nil {
		delete(t.generic, mt)
		return
	}
	t.generic[mt] = r
}

// edit returns a copy of name's entry, put in its place in t: the entry of
// a published table is never changed.
func (t *table) edit(name string) *entry {
	e := &entry{}
	if old := t.entries[name]; old != nil {
		*e = *old
		e.renderers = maps.Clone(old.renderers)
	}
	t.entries[name] = e
	return e
}

// settings returns the settings registered under name; the zero Tool when
// there are none.
func (t *table) settings(name string) Tool {
	if e := t.entries[name]; e != nil {
		return e.settings
	}
	return Tool{}
}

// renderer returns the renderer of mediaType for the values of name (a
// tool, or a resource registered under its exact URI): the name's own,
// else the generic one. ok is false when there is neither.
func (t *table) renderer(name, mediaType string) (r renderers.Renderer, ok bool) {
	mt := mediatype.Base(mediaType)
	if r, ok := t.entries[name].renderer(mt); ok {
		return r, true
	}
	r, ok = t.generic[mt]
	return r, ok
}

// resource returns the settings and the renderer of mediaType for the
// resource at uri. For a resource registered under its exact URI (exact),
// they are those of [table.settings] and [table.renderer]: never a
// template's, even when a template matches its URI (weather://cities
// beside weather://{city}). For a resource served through a URI template,
// the settings are those registered under uri, else under the first
// template with settings that matches it; the renderer is uri's own, else
// the first matching template's of the media type, else the generic one.
// This is the one place that decides which registration a resource gets.
func (t *table) resource(uri string, exact bool, mediaType string) (settings Tool, r renderers.Renderer, ok bool) {
	if exact {
		r, ok = t.renderer(uri, mediaType)
		return t.settings(uri), r, ok
	}
	if e := t.entries[uri]; e != nil && e.hasSettings {
		settings = e.settings
	} else {
		t.withSettings.Match(uri, func(name string) bool {
			settings = t.entries[name].settings
			return false
		})
	}
	mt := mediatype.Base(mediaType)
	if r, ok = t.entries[uri].renderer(mt); ok {
		return settings, r, true
	}
	t.withRenderers.Match(uri, func(name string) bool {
		r, ok = t.entries[name].renderer(mt)
		return !ok
	})
	if ok {
		return settings, r, true
	}
	r, ok = t.generic[mt]
	return settings, r, ok
}

// htmlOf returns a renderer of text/html from a markdown renderer: md's
// markdown, converted with markup.ToHTML. A tool or resource
// with its own markdown renderer (a template) gets its HTML this way, so
// the HTML rendering always reads as the markdown one does.
func htmlOf(md renderers.Renderer) renderers.Renderer {
	return renderers.Func(func(value []byte, opts renderers.Options) (string, error) {
		opts.MediaType = format.Markdown.MediaType
		out, err := md.Render(value, opts)
		if err != nil {
			return "", err
		}
		return markup.ToHTML(out)
	})
}

// renderer returns e's own renderer of the media type mt (a base type),
// for text/html the HTML made of its markdown renderer's output when it
// has no HTML renderer of its own. A nil entry has none.
func (e *entry) renderer(mt string) (renderers.Renderer, bool) {
	if e == nil {
		return nil, false
	}
	if r, ok := e.renderers[mt]; ok {
		return r, true
	}
	if md, ok := e.renderers[format.Markdown.MediaType]; ok && mt == format.HTML.MediaType {
		return htmlOf(md), true
	}
	return nil, false
}
