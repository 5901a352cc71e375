package renderers

import (
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/contentneg/contentneg/negotiation"
	"github.com/tidwall/gjson"
)

// maxDepth bounds the nesting the renderers walk. A container deeper than this is written as its
// minified JSON text: an escaped string in markdown, verbatim in text.
const maxDepth = 32

// Options configure one rendering.
type Options struct {
	// Verbosity selects compact, standard or verbose output; VerbosityUnset behaves as Standard.
	Verbosity negotiation.Verbosity
	// Schema, when set, gives field order and (at verbose) descriptions.
	Schema *Schema
	// Title, when set, is a "# Title" heading (markdown) or the first line (text).
	Title string
	// Units maps a field name to its unit (e.g. "temperature_c": "°C"), shown at verbose.
	Units map[string]string
}

// Renderer renders one JSON value as markdown or as plain text. Implementations escape data in
// markdown and add no markup in text. An invalid value gives an error wrapping [ErrInvalidJSON].
type Renderer interface {
	// Markdown renders value as markdown.
	Markdown(value []byte, opts Options) (string, error)
	// Text renders value as plain text.
	Text(value []byte, opts Options) (string, error)
}

// Generic renders any JSON value; see the package documentation and docs/renderers.md for the
// layouts. Its zero value is ready to use and it is safe for concurrent use.
type Generic struct{}

var _ Renderer = Generic{}

// field is one member of an object, in rendering order.
type field struct {
	key   string
	value gjson.Result
	prop  *Property // the schema property, or nil
	rank  int       // the property's index in the schema; extras rank after all properties
}

// column is one column of a table rendered from a uniform array of objects.
type column struct {
	key    string
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
	level   negotiation.Verbosity // never VerbosityUnset
	scratch *scratch
}

// init prepares r for rendering a value of size bytes with opts.
func (r *render) init(opts Options, size int) {
	r.opts, r.level = opts, opts.Verbosity.OrStandard()
	r.scratch = scratchPool.Get().(*scratch)
	r.b.Grow(size + size/2 + len(opts.Title) + 32)
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

func (r *render) compact() bool { return r.level == negotiation.Compact }
func (r *render) verbose() bool { return r.level == negotiation.Verbose }

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
