package renderers

import (
	"fmt"
	"strconv"

	"github.com/contentneg/contentneg/format"
	"github.com/contentneg/contentneg/internal/tokens"
	"github.com/tidwall/gjson"
)

// Text renders value as plain text with no markup. Standard and verbose write "key: value" lines,
// nested objects indented by two spaces under "key:", arrays of scalars as "key[N]: a, b, c",
// uniform arrays of objects as "key[N]:" over a table of aligned columns while every cell is at
// most 40 display columns wide (else the records as other arrays' elements), and other arrays'
// elements labelled 1, 2, ... Standard text that would be more than 1.1 times the bytes of the
// minified JSON (deep nesting, uneven columns) is compact text instead. Compact is lossless, with a grammar of its own (docs/renderers.md):
// "key=value" lines (several as one line of pairs, "a=1 b=x"), "key[]=a,b,c", "key: a=1 b=x" for
// a flat object and, for a uniform array of objects, a "key[N]{a,b}:" header once and one
// comma-separated row per element. No value is dropped at any verbosity. A value is double-quoted
// (a JSON string literal) when it is empty, could read as null, a boolean, a number or JSON text,
// starts with '"', has leading or trailing blanks, holds '"', '=', control, separator or bidi
// characters or the delimiter of its place, or would start a line with markdown block syntax;
// inline characters such as '*' are kept verbatim.
func (Generic) text(value []byte, opts Options) (string, error) {
	if err := validate(value); err != nil {
		return "", fmt.Errorf("renderers: text: %w", err)
	}
	var r render
	r.init(opts, len(value))
	r.text(gjson.Parse(string(value)))
	return r.finish(), nil
}

func (r *render) text(v gjson.Result) {
	if t := r.title(); t != "" {
		r.txtString(collapseSpace(t), atLineStart)
		r.b.WriteByte('\n')
	}
	if s := r.opts.Schema; r.verbose() && s != nil && s.Description != "" {
		r.txtString(collapseSpace(s.Description), atLineStart)
		r.b.WriteByte('\n')
	}
	if r.b.Len() > 0 && !r.compact() {
		r.b.WriteByte('\n') // the content starts at indent 0, so the blank line cannot open a code block
	}
	start := r.b.Len()
	if r.compact() {
		r.compactRoot(v, r.opts.Schema)
		r.noLargerThanJSON(v, start)
		return
	}
	switch {
	case v.IsObject():
		r.txtObject(v, r.opts.Schema, 0, 0)
	case v.IsArray():
		r.txtRootArray(v, itemsOf(r.opts.Schema))
	default:
		r.txtScalar(v, atLineStart)
		r.b.WriteByte('\n')
	}
	if r.b.Len() == start {
		r.writeEmpty(v)
	}
	if !r.verbose() {
		r.noLargerThanJSONTimes(v, start, 11, 10)
	}
}

// noLargerThanJSONTimes replaces what standard text wrote from start on by compact text (itself
// never larger than the JSON, see noLargerThanJSON) when it is more than num/den times the bytes of
// the minified JSON of v: padding and indentation add up in deep or uneven values, and standard
// text is never more than 1.1 times the JSON (SPEC 5).
func (r *render) noLargerThanJSONTimes(v gjson.Result, start, num, den int) {
	r.scratch.buf = appendJSONText(r.scratch.buf[:0], v.Raw)
	written := r.b.Len() - start
	if written > 0 && r.b.String()[r.b.Len()-1] == '\n' {
		written-- // finish trims it
	}
	if written*den <= len(r.scratch.buf)*num {
		return
	}
	out := r.b.String()[:start]
	r.b.Reset()
	r.b.WriteString(out)
	level := r.level
	r.level = format.Compact
	r.compactRoot(v, r.opts.Schema)
	r.noLargerThanJSON(v, start)
	r.level = level
}

func (r *render) txtObject(obj gjson.Result, s *Schema, indent, depth int) {
	fields, mark := r.objectFields(obj, s)
	for i := range fields {
		f := &fields[i]
		r.writeIndent(indent)
		r.txtString(f.key, keyRules)
		r.txtValue(f.key, f.value, f.prop, schemaOf(f.prop), indent, depth)
	}
	r.popFields(mark)
}

// txtValue writes what follows a key (or an element label): the separator and value, or a
// container's header line and its indented body.
func (r *render) txtValue(key string, v gjson.Result, p *Property, s *Schema, indent, depth int) {
	const sep = ": "
	switch {
	case v.Type != gjson.JSON:
		r.b.WriteString(sep)
		r.txtScalar(v, 0)
		r.txtUnit(key, v)
	case isEmpty(v):
		r.b.WriteString(sep)
		r.writeEmpty(v)
	case depth+1 >= maxDepth:
		r.b.WriteString(sep)
		r.scratch.buf = appendJSONText(r.scratch.buf[:0], v.Raw)
		r.b.Write(r.scratch.buf)
	case v.IsObject():
		r.b.WriteByte(':')
		r.txtDescription(p)
		r.b.WriteByte('\n')
		r.txtObject(v, s, indent+1, depth+1)
		return
	case scalarArray(v):
		r.txtCount(v)
		r.b.WriteString(sep)
		r.txtList(v)
		r.txtUnit(key, v)
	default:
		r.txtArray(v, itemsOf(s), p, indent, depth)
		return
	}
	r.txtDescription(p)
	r.b.WriteByte('\n')
}

// txtArray writes "[N]" and the body of an array that is not a list of scalars: an aligned table
// for a uniform array of objects whose cells are narrow (txtTableColumns), else the elements
// labelled 1, 2, ... one level deeper.
func (r *render) txtArray(arr gjson.Result, items *Schema, p *Property, indent, depth int) {
	r.txtCount(arr)
	if cols, mark, ok := r.txtTableColumns(arr, items); ok {
		r.b.WriteByte(':')
		r.txtDescription(p)
		r.b.WriteByte('\n')
		r.txtTable(arr, cols, indent+1)
		r.popColumns(mark)
		return
	}
	r.b.WriteByte(':')
	r.txtDescription(p)
	r.b.WriteByte('\n')
	r.txtElements(arr, items, indent+1, depth+1)
}

// txtElements writes the elements of arr as fields labelled 1, 2, ...
func (r *render) txtElements(arr gjson.Result, items *Schema, indent, depth int) {
	i := 0
	arr.ForEach(func(_, el gjson.Result) bool {
		i++
		r.writeIndent(indent)
		label := strconv.Itoa(i)
		r.b.WriteString(label)
		r.txtValue(label, el, nil, items, indent, depth)
		return true
	})
}

// txtRootArray writes an array that is the whole value. It has no key, so it has no header either
// ("[N]:" starting the text would read as a markdown link reference definition).
func (r *render) txtRootArray(arr gjson.Result, items *Schema) {
	switch {
	case isEmpty(arr):
		return
	case scalarArray(arr):
		r.txtItems(arr, ", ", atLineStart)
		r.b.WriteByte('\n')
		return
	}
	if cols, mark, ok := r.txtTableColumns(arr, items); ok {
		r.txtTable(arr, cols, 0)
		r.popColumns(mark)
		return
	}
	r.txtElements(arr, items, 0, 0)
}

func (r *render) txtCount(arr gjson.Result) {
	r.b.WriteByte('[')
	r.b.WriteString(strconv.Itoa(count(arr)))
	r.b.WriteByte(']')
}

// txtList writes an array of scalars as "a, b, c".
func (r *render) txtList(arr gjson.Result) {
	r.txtItems(arr, ", ", 0)
}

// txtItems writes the elements of arr separated by sep; the first one also follows the rules in
// first (atLineStart for a list that starts the line).
func (r *render) txtItems(arr gjson.Result, sep string, first quoteRule) {
	started := false
	arr.ForEach(func(_, el gjson.Result) bool {
		rule := quoteRule(commaSeparated)
		if started {
			r.b.WriteString(sep)
		} else {
			rule |= first
		}
		r.txtScalar(el, rule)
		started = true
		return true
	})
}

// txtScalar writes a string (quoted when rule requires it) or a number, boolean or null as its
// JSON text.
func (r *render) txtScalar(v gjson.Result, rule quoteRule) {
	if v.Type != gjson.String {
		r.b.WriteString(v.Raw)
		return
	}
	r.txtString(jsonText(v.Str, v.Raw), rule)
}

// txtString writes s, quoted when needsQuote says so under rule.
func (r *render) txtString(s string, rule quoteRule) {
	if needsQuote(s, rule) {
		writeQuoted(&r.b, s)
		return
	}
	r.b.WriteString(s)
}

// txtUnit writes " unit" at verbose when the field has a unit and a value.
func (r *render) txtUnit(key string, v gjson.Result) {
	if u := r.unit(key); u != "" && v.Type != gjson.Null {
		r.b.WriteByte(' ')
		r.b.WriteString(u)
	}
}

// txtDescription writes " — description" at verbose.
func (r *render) txtDescription(p *Property) {
	if d := r.description(p); d != "" {
		r.b.WriteString(" — ")
		r.b.WriteString(collapseSpace(d))
	}
}

func (r *render) writeIndent(indent int) {
	for ; indent > 0; indent-- {
		r.b.WriteString("  ")
	}
}

func isSpaceByte(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// noLargerThanJSON replaces what compact text wrote from start on by the minified JSON of v when
// that is shorter in bytes or in o200k tokens (fewerTokens): compact text is never larger than the
// JSON it comes from. The JSON is one line
// that starts with '{', '[' or '"' (or is a bare scalar), so it holds no block syntax, and the
// compact grammar reads a text that is one JSON value as that value.
func (r *render) noLargerThanJSON(v gjson.Result, start int) {
	r.scratch.buf = appendJSONText(r.scratch.buf[:0], v.Raw)
	written := r.b.Len() - start
	if written > 0 && r.b.String()[r.b.Len()-1] == '\n' {
		written--
	}
	if written <= len(r.scratch.buf) && r.fewerTokens(start, written) {
		return
	}
	out := r.b.String()[:start]
	r.b.Reset()
	r.b.WriteString(out)
	r.b.Write(r.scratch.buf)
}

// Where compact text counts tokens: a layout of at most tokenFreeShare of the JSON's bytes is
// taken to be fewer tokens too (no value of the corpus nor of 20,000 random values with quoting,
// nesting and wide characters is otherwise, see TestCompactTextTokensRandom); above it, the
// tokens of both are counted, for a JSON of up to maxTokenCount bytes. A larger JSON gets its own
// text there: counting costs about 3 MB/s.
const (
	tokenFreeShare = 0.75
	maxTokenCount  = 16 << 10
)

// fewerTokens reports whether the compact layout written from start on, written bytes long, is
// at most as many o200k tokens as the minified JSON in r.scratch.buf (see tokenFreeShare).
func (r *render) fewerTokens(start, written int) bool {
	json := len(r.scratch.buf)
	if float64(written) <= tokenFreeShare*float64(json) {
		return true
	}
	if json > maxTokenCount {
		return false
	}
	layout := r.b.String()[start : start+written]
	return tokens.Count(layout) <= tokens.Count(string(r.scratch.buf))
}
