package shaping

import (
	"strings"
	"sync"

	"github.com/yosida95/uritemplate/v3"

	"go.uber.org/zap"

	"github.com/contentneg/contentneg/renderers"
)

// Mirror says what content carries beside structuredContent in the
// structured rendering, for clients that explicitly declared "format=json".
// Other clients that get the structured rendering (an "agent" without an
// explicit format) always get the JSON mirror the specification recommends.
type Mirror uint8

const (
	// MirrorJSON: one text block with the minified JSON (the default, and
	// the specification's backwards-compatibility SHOULD).
	MirrorJSON Mirror = iota
	// MirrorCompactText: one text block with the compact text rendering,
	// about a quarter of the JSON's size.
	MirrorCompactText
	// MirrorNone: no text block; structuredContent alone.
	MirrorNone
)

// Options configures a [Shaper]. A nil *Options means the defaults.
type Options struct {
	// Logger receives renderer failures (warn). nil means zap.NewNop().
	Logger *zap.Logger
	// Mirror is the text beside structuredContent for format=json clients.
	Mirror Mirror
}

// Tool configures how one tool's values are rendered.
type Tool struct {
	// Renderer renders the tool's values; nil means renderers.Generic.
	Renderer renderers.Renderer
	// Title is shown as a heading (markdown) or first line (text); empty for none.
	Title string
	// Units maps field names to units shown at verbose verbosity ("°C").
	Units map[string]string
}

// Shaper holds the per-tool rendering configuration and plans results. It
// is safe for concurrent use.
type Shaper struct {
	log    *zap.Logger
	mirror Mirror

	mu        sync.RWMutex
	tools     map[string]Tool
	templates []template // the registered names that are URI templates, in registration order
}

// template is a registration under a URI template ("weather://{city}").
type template struct {
	name string
	tmpl *uritemplate.Template
}

// New returns a Shaper.
func New(opts *Options) *Shaper {
	s := &Shaper{log: zap.NewNop(), tools: make(map[string]Tool)}
	if opts != nil {
		if opts.Logger != nil {
			s.log = opts.Logger.Named("shaping")
		}
		s.mirror = opts.Mirror
	}
	return s
}

// Register sets how the named tool's values are rendered, replacing any
// earlier registration. Resources use the same registry: name is then a
// resource URI, or a URI template ("weather://{city}") that covers every
// URI it matches.
func (s *Shaper) Register(name string, t Tool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, known := s.tools[name]; !known && strings.Contains(name, "{") {
		if tmpl, err := uritemplate.New(name); err == nil {
			s.templates = append(s.templates, template{name: name, tmpl: tmpl})
		}
	}
	s.tools[name] = t
}

// resource returns the configuration for a resource URI: registered under
// the URI itself, else under the first registered URI template matching it.
func (s *Shaper) resource(uri string) Tool {
	s.mu.RLock()
	_, exact := s.tools[uri]
	name := uri
	for _, t := range s.templates {
		if exact {
			break
		}
		if t.tmpl.Match(uri) != nil {
			name = t.name
			break
		}
	}
	s.mu.RUnlock()
	return s.tool(name)
}

// tool returns the configuration for name, with the generic renderer when
// none was registered.
func (s *Shaper) tool(name string) Tool {
	s.mu.RLock()
	t, ok := s.tools[name]
	s.mu.RUnlock()
	if !ok || t.Renderer == nil {
		t.Renderer = renderers.Generic{}
	}
	return t
}
