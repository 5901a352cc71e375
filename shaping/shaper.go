package shaping

import (
	"sync"

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

	mu    sync.RWMutex
	tools map[string]Tool
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
// earlier registration. Resources use the same registry, by URI template or
// URI.
func (s *Shaper) Register(name string, t Tool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tools[name] = t
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
