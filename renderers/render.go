package renderers

import (
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/contentneg/contentneg/format"
	"github.com/tidwall/gjson"
)

// maxDepth bounds the nesting the renderers walk. A container deeper than this is written as its
// minified JSON text: an escaped string in markdown, verbatim in text.
const maxDepth = 32

// Options configure one rendering.
type Options struct {
	// MediaType is the media type to produce: format.Markdown.MediaType, format.Text.MediaType, or one a server registered.
	// Renderers that produce one media type only may ignore it; the empty string means markdown.
	MediaType string
	// Verbosity selects compact, standard or verbose output; VerbosityUnset behaves as Standard.
	Verbosity format.Verbosity
	// Schema, when set, gives field order and (at verbose) descriptions.
	Schema *Schema
	// ValueOrder makes members and table columns follow the value's own
	// order even with a Schema, which then gives labels, units and
	// descriptions only. Package shaping sets it: it puts the value in the
	// order the contract says (a typed tool's struct order on every SDK)
	// before rendering.
	ValueOrder bool
	// Title, when set, is a "# Title" heading (markdown) or the first line (text).
	Title string
	// Units maps a field name to its unit (e.g. "temperature_c": "°C"), shown at verbose.
	Units map[string]string
}

// Renderer renders one JSON value as the media type opts.MediaType asks for. Implementations
// escape data in markdown and add no markup in text; an invalid value gives an error wrapping
// [ErrInvalidJSON], a media type the renderer cannot produce an error wrapping [ErrMediaType].
// Renderers must be safe for concurrent use.
type Renderer interface {
	Render(value []byte, opts Options) (string, error)
}

// Func adapts a plain function to a [Renderer], as http.HandlerFunc adapts one to a handler.
type Func func(value []byte, opts Options) (string, error)

// Render calls f.
func (f Func) Render(value []byte, opts Options) (string, error) { return f(value, opts) }

// Generic renders any JSON value as markdown, plain text, TOON or HTML; see the package documentation and
// docs/renderers.md for the layouts. Its zero value is ready to use and it is safe for concurrent
// use.
type Generic struct{}

var (
	_ Renderer = Generic{}
	_ Renderer = Func(nil)
)

// Render renders value as markdown, plain text, TOON or HTML (the markdown converted by
// [MarkdownToHTML]), as opts.MediaType says.
func (g Generic) Render(value []byte, opts Options) (string, error) {
	switch baseType(opts.MediaType) {
	case format.TOON.MediaType:
		return g.TOON(value, opts)
	case format.HTML.MediaType:
		return HTMLOf(Func(g.Markdown)).Render(value, opts)
	}
	return byMediaType(g.Markdown, g.Text, value, opts)
}

// byMediaType calls markdown or text for opts.MediaType.
func byMediaType(markdown, text func([]byte, Options) (string, error), value []byte, opts Options) (string, error) {
	switch baseType(opts.MediaType) {
	case "", format.Markdown.MediaType:
		return markdown(value, opts)
	case format.Text.MediaType:
		return text(value, opts)
	default:
		return "", fmt.Errorf("renderers: %w: %q", ErrMediaType, opts.MediaType)
	}
}

// field is one member of an object, in rendering order.
type field struct {
	key   string
	raw   string // the key's JSON text, escapes and all
	value gjson.Result
	prop  *Property // the schema property, or nil
	rank  int       // the property's index in the schema; extras rank after all properties
}

// column is one column of a table rendered from a uniform array of objects.
type column struct {
	key    string
	sub    string // compact text: the member of key's object this column holds ("key.sub")
	list   bool   // compact text: the column holds a list of scalars, its items the row's last cells
	prop   *Property
	rank   int
	filled bool // some row has a non-empty value (compact drops the other columns)
	width  int  // display width in runes, for aligned text tables
}

// scratch holds the reusable buffers of one rendering; scratches are pooled.
type scratch struct {
	fields []field
	cols   []column
	cells  []gjson.Result
	buf    []byte
	// indexes holds the property indexes built during this rendering for schemas built by hand.
	indexes map[*Schema]names
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// render is the state of one rendering.
type render struct {
	b       strings.Builder
	opts    Options
	level   format.Verbosity // never VerbosityUnset
	scratch *scratch
	// mdInList is set while markdown writes a comma-separated list, where text cannot be a block.
	mdInList bool
	// mdBlockEnd is set when markdown text ended with a code block (and a line break): what follows
	// starts a new line.
	mdBlockEnd bool
	// mdQuiet is set while markdown writes the elements of an array after the first: they share
	// the first one's schema, whose descriptions verbose shows once.
	mdQuiet bool
}

// init prepares r for rendering a value of size bytes with opts.
func (r *render) init(opts Options, size int) {
	r.opts, r.level = opts, orStandard(opts.Verbosity)
	r.scratch = scratchPool.Get().(*scratch)
	r.b.Grow(size + size/2 + len(opts.Title) + 32)
}

// orStandard returns v, or Standard when v is unset: the verbosity the
// renderers write at.
func orStandard(v format.Verbosity) format.Verbosity {
	if v == 0 {
		return format.Standard
	}
	return v
}

// finish returns the output and gives the scratch buffers back.
func (r *render) finish() string {
	s := r.scratch
	clear(s.fields[:cap(s.fields)])
	clear(s.cells[:cap(s.cells)])
	clear(s.cols[:cap(s.cols)])
	s.fields, s.cols, s.cells, s.buf = s.fields[:0], s.cols[:0], s.cells[:0], s.buf[:0]
	s.indexes = nil
	scratchPool.Put(s)
	r.scratch = nil
	return strings.TrimRight(r.b.String(), "\n")
}

func (r *render) compact() bool { return r.level == format.Compact }
func (r *render) verbose() bool { return r.level == format.Verbose }

// title returns the title to show: Options.Title, or at verbose the schema's title.
func (r *render) title() string {
	if r.opts.Title == "" && r.verbose() && r.opts.Schema != nil {
		return r.opts.Schema.Title
	}
	return r.opts.Title
}

// description returns the schema description shown at verbose for p, or "".
func (r *render) description(p *Property) string {
	if p == nil || !r.verbose() {
		return ""
	}
	return p.Description
}

// unit returns the unit shown at verbose for the field named key, or "".
func (r *render) unit(key string) string {
	if !r.verbose() || r.opts.Units == nil {
		return ""
	}
	return collapseSpace(r.opts.Units[key])
}

// writeEmpty writes "{}" or "[]" for an empty object or array.
func (r *render) writeEmpty(v gjson.Result) {
	if v.IsArray() {
		r.b.WriteString("[]")
		return
	}
	r.b.WriteString("{}")
}

// collapseSpace returns s with each run of white space replaced by one space, trimmed; descriptions
// and titles are prose, so their line breaks carry no meaning.
func collapseSpace(s string) string {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f' || c >= utf8.RuneSelf ||
			c == ' ' && (i == 0 || i == len(s)-1 || s[i+1] == ' ') {
			return strings.Join(strings.Fields(s), " ")
		}
	}
	return s
}
