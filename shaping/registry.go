package shaping

import (
	"sync"

	"github.com/contentneg/contentneg/format"
	"github.com/contentneg/contentneg/internal/mediatype"
	"github.com/contentneg/contentneg/internal/uritmpl"
	"github.com/contentneg/contentneg/renderers"
)

// registry holds renderers by media type: generic ones that render any value, and per-name ones
// that render the values of one tool (by its name) or one resource (by its URI, or a URI template
// such as "weather://{city}" that covers every URI it matches). It is the open set of renderings:
// a new media type is one [renderers.Renderer] registered under it. It is safe for concurrent use.
//
// newRegistry registers [renderers.Generic] for text/markdown, text/plain, text/toon and text/html;
// application/json needs no renderer (the structured rendering is the value itself). A name with a
// markdown renderer of its own but no text/html one gets that markdown converted to HTML
// ([renderers.HTMLOf]), so the HTML rendering always reads as the markdown one.
type registry struct {
	mu        sync.RWMutex
	generic   map[string]renderers.Renderer
	named     map[string]map[string]renderers.Renderer // name -> media type -> renderer
	templates uritmpl.Set                              // the names that are URI templates, in registration order
}

// newRegistry returns a registry with the generic markdown, text, TOON and HTML renderers.
func newRegistry() *registry {
	return &registry{
		generic: map[string]renderers.Renderer{format.MediaMarkdown: renderers.Generic{}, format.MediaText: renderers.Generic{}, format.MediaTOON: renderers.Generic{}, format.MediaHTML: renderers.Generic{}},
		named:   make(map[string]map[string]renderers.Renderer),
	}
}

// Handle registers r as the generic renderer of mediaType, used for every value without a
// renderer of its own; a nil r removes it.
func (g *registry) Handle(mediaType string, r renderers.Renderer) {
	mt := mediatype.Base(mediaType)
	g.mu.Lock()
	defer g.mu.Unlock()
	if r == nil {
		delete(g.generic, mt)
		return
	}
	g.generic[mt] = r
}

// HandleName registers r as the renderer of mediaType for the values of name: a tool name, a
// resource URI, or a URI template. A nil r removes the registration.
func (g *registry) HandleName(name, mediaType string, r renderers.Renderer) {
	mt := mediatype.Base(mediaType)
	g.mu.Lock()
	defer g.mu.Unlock()
	byType, known := g.named[name]
	if r == nil {
		delete(byType, mt)
		return
	}
	if !known {
		byType = make(map[string]renderers.Renderer, 2)
		g.named[name] = byType
		g.templates.Add(name)
	}
	byType[mt] = r
}

// Lookup returns the renderer of mediaType for a tool's values: the tool's own, else the generic
// one. ok is false when there is neither.
func (g *registry) Lookup(tool, mediaType string) (r renderers.Renderer, own, ok bool) {
	mt := mediatype.Base(mediaType)
	g.mu.RLock()
	defer g.mu.RUnlock()
	if r, ok := g.named[tool][mt]; ok {
		return r, true, true
	}
	if r, ok := g.named[tool][format.MediaMarkdown]; ok && mt == format.MediaHTML {
		return renderers.HTMLOf(r), true, true
	}
	r, ok = g.generic[mt]
	return r, false, ok
}

// LookupResource is [registry.Lookup] for a resource the server serves through a URI template:
// the renderer registered under the URI, else under the first URI template that matches it, else
// the generic one. A resource the server registers under its own exact URI is looked up with
// Lookup, so that no template's renderer applies to it (weather://cities beside weather://{city}).
func (g *registry) LookupResource(uri, mediaType string) (r renderers.Renderer, own, ok bool) {
	mt := mediatype.Base(mediaType)
	g.mu.RLock()
	defer g.mu.RUnlock()
	if r, ok := g.named[uri][mt]; ok {
		return r, true, true
	}
	if r, ok := g.named[uri][format.MediaMarkdown]; ok && mt == format.MediaHTML {
		return renderers.HTMLOf(r), true, true
	}
	g.templates.Match(uri, func(name string) bool {
		r, ok = g.named[name][mt]
		if !ok && mt == format.MediaHTML {
			if md, found := g.named[name][format.MediaMarkdown]; found {
				r, ok = renderers.HTMLOf(md), true
			}
		}
		return !ok
	})
	if ok {
		return r, true, true
	}
	r, ok = g.generic[mt]
	return r, false, ok
}

// Has reports whether some renderer, generic or per name, produces mediaType.
func (g *registry) Has(mediaType string) bool {
	mt := mediatype.Base(mediaType)
	g.mu.RLock()
	defer g.mu.RUnlock()
	if _, ok := g.generic[mt]; ok {
		return true
	}
	for _, byType := range g.named {
		if _, ok := byType[mt]; ok {
			return true
		}
	}
	return false
}
