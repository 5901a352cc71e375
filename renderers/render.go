package renderers

import (
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/contentneg/contentneg/format"
	"github.com/contentneg/contentneg/internal/markup"
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
// escape data in markdown (with [EscapeMarkdown]) and add no markup in text; an invalid value or
// a media type the renderer cannot produce gives an error, on which the caller (package shaping)
// falls back to another rendering, as it does when a renderer panics. Renderers must be safe for
// concurrent use.
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

// Render renders value as opts.MediaType says (format.Markdown.MediaType when it is empty); any other
// media type than these four gives an error.
//
// Markdown (text/markdown) is for people. An object becomes a list of "- **Label:** value" items
// (plain "- Label: value" at compact) followed by a "## Label" section per nested object or array;
// a uniform array of objects becomes a GFM table, at any depth; an array of scalars a
// comma-separated list; any other array a list with one item per element, an object element
// written as a record: its scalar fields one per line ("**A:** 1" hard line breaks between), then
// each nested field under its label (a table, or a nested list). Text that holds line breaks keeps
// them (hard line breaks). Null reads "none", an empty array "empty list", an empty object "empty
// object" and an empty string `""`. The label of a property the schema declares is its title,
// else its name made readable ("precipitation_probability" gives "Precipitation probability"); a
// key the schema does not declare is made readable too when every key of its object reads as a
// property name ("entityType" gives "Entity type"), else it is data and shown as it is. Units
// (Options.Units, else the schema's "unit") follow values and head table columns; a schema
// fraction is shown as a percentage. Every string from the data, keys included, is escaped with
// [EscapeMarkdown]. Compact drops null and empty fields (and table columns); verbose adds schema
// descriptions after " — " and element counts in headings.
//
// Text (text/plain) holds no markup. Standard and verbose write "key: value" lines, nested objects
// indented by two spaces under "key:", arrays of scalars as "key[N]: a, b, c", uniform arrays of
// objects as "key[N]:" over a table of aligned columns while every cell is at most 40 display
// columns wide (else the records as other arrays' elements), and other arrays' elements labelled
// 1, 2, ... Standard text that would be more than 1.1 times the bytes of the minified JSON (deep
// nesting, uneven columns) is compact text instead. Compact is lossless, with a grammar of its own
// (docs/renderers.md): "key=value" lines (several as one line of pairs, "a=1 b=x"),
// "key[]=a,b,c", "key: a=1 b=x" for a flat object and, for a uniform array of objects, a
// "key[N]{a,b}:" header once and one comma-separated row per element. No value is dropped at any
// verbosity. A value is double-quoted (a JSON string literal) when it is empty, could read as
// null, a boolean, a number or JSON text, starts with '"', has leading or trailing blanks, holds
// '"', '=', control, separator or bidi characters or the delimiter of its place, or would start a
// line with markdown block syntax; inline characters such as '*' are kept verbatim.
//
// TOON (text/toon, Token-Oriented Object Notation, specification 4.0) is written by
// [toon.FromJSON]: any TOON 4 decoder reads the output back as the same JSON value, with members
// in the schema's order when opts.Schema gives one, else the value's own. opts.Verbosity, Title
// and Units do not apply: TOON carries the value, all of it and nothing else. A value nested
// deeper than 32 levels gives an error (the caller falls back to the structured rendering).
//
// HTML (text/html) is the markdown converted by goldmark, which writes no raw HTML and drops
// links to javascript:, vbscript:, file: and data: URLs, so no element or attribute comes from
// data.
func (g Generic) Render(value []byte, opts Options) (string, error) {
	switch baseType(opts.MediaType) {
	case format.TOON.MediaType:
		return g.toon(value, opts)
	case format.HTML.MediaType:
		md, err := g.markdown(value, opts)
		if err != nil {
			return "", err
		}
		return markup.ToHTML(md)
	}
	return byMediaType(g.markdown, g.text, value, opts)
}

// byMediaType calls markdown or text for opts.MediaType.
func byMediaType(markdown, text func([]byte, Options) (string, error), value []byte, opts Options) (string, error) {
	switch baseType(opts.MediaType) {
	case "", format.Markdown.MediaType:
		return markdown(value, opts)
	case format.Text.MediaType:
		return text(value, opts)
	default:
		return "", fmt.Errorf("renderers: %w: %q", errMediaType, opts.MediaType)
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
