package renderers

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"text/template"

	"github.com/contentneg/contentneg/format"
	"github.com/tidwall/gjson"
)

// maxTemplateOutput bounds what a template writes, like every other
// rendering, whose output is linear in its value: at most this, or four
// times the value's JSON when that is more. A template that writes more
// ({{range 30000000}}) fails with [errTemplateOutput] when it passes the
// bound, before it holds more memory, and the caller falls back.
const maxTemplateOutput = 1 << 20

// errTemplateOutput reports a template whose output passed its bound (see
// [maxTemplateOutput]).
var errTemplateOutput = errors.New("output larger than the bound")

// limitedWriter writes to b until n bytes are written, then fails. It is
// pooled with its buffer (bufferPool), so that bounding costs no
// allocation.
type limitedWriter struct {
	b bytes.Buffer
	n int
}

func (w *limitedWriter) Write(p []byte) (int, error) {
	if len(p) > w.n-w.b.Len() {
		return 0, fmt.Errorf("%w (%d bytes)", errTemplateOutput, w.n)
	}
	return w.b.Write(p)
}

// errMissingValue reports template output holding "<no value>", which text/template prints for a
// field the value does not have.
var errMissingValue = errors.New(`output holds "<no value>": a field is missing; guard it with with, if or default`)

// TemplateSpec describes a per-tool renderer.
type TemplateSpec struct {
	// Markdown templates (text/template syntax) by verbosity; a missing verbosity uses Standard's,
	// and when none is given the Generic markdown is used. VerbosityUnset as a key means Standard.
	// The template's data is the decoded value in which every string, map keys included, has
	// already been escaped with EscapeMarkdown (so a template cannot forget to escape); numbers
	// are json.Number, booleans bool, null the empty string. The output must pass CheckMarkdown.
	Markdown map[format.Verbosity]string
	// Compact is a gjson path or multipath (e.g. `{"city":location,"t":temperature_c}`) selecting
	// the fields compact text keeps; the projection is rendered by Generic text. When it selects
	// nothing (or an empty object or array), the whole value is rendered. Empty: Generic text.
	Compact string
	// Text templates by verbosity (optional): plain-text templates whose data is the decoded value,
	// unescaped, except that control and bidi characters in strings are written as \uXXXX so data
	// cannot drive the terminal. A verbosity without a template falls back, in order, to the
	// Compact projection (at compact), the Standard template, and Generic text.
	Text map[format.Verbosity]string
	// Funcs are further template functions, available to both kinds of template; a name given
	// here replaces a built-in one. A function must not panic: an error it returns makes the
	// rendering fail, and the caller fall back to Generic.
	Funcs template.FuncMap
}

// templateRenderer is the per-tool renderer [NewTemplate] makes: markdown and text templates by
// verbosity and a compact projection. It is safe for concurrent use.
type templateRenderer struct {
	markdown map[format.Verbosity]*template.Template
	text     map[format.Verbosity]*template.Template
	compact  string
	// The keys of the values rendered, escaped for each kind of template.
	markdownKeys, textKeys keyCache
}

// NewTemplate compiles spec and returns a per-tool Renderer of markdown and plain text; errors (a
// template that does not parse, a verbosity given twice or out of range, an unbalanced Compact path) come
// here, at registration. The Renderer is safe for concurrent use.
//
// Both kinds of template get these functions besides text/template's built-ins:
//
//	join SEP LIST     the elements of LIST separated by SEP: {{join ", " .tags}}
//	default DEF V     V, or DEF when V is empty (nil, "", false, empty list or map): {{default "n/a" .uv}}
//	get MAP KEY       MAP's field KEY given unescaped, for keys that are not identifiers: {{get . "_id"}}
//	percent N         a fraction as a whole percentage: {{percent .chance}} gives "61 %" for 0.61
//
// and the functions of spec.Funcs. A function given a value it cannot read (a string for percent)
// makes the rendering return an error (on which the caller falls back to Generic); no built-in
// function panics.
//
// A template's output is bounded like every other rendering's, whose output is linear in its
// value: at most 1 MiB, or four times the value's JSON when that is more. A template that writes
// more ({{range 30000000}}) fails when it passes the bound, before it holds more memory, and the
// caller falls back.
//
// Markdown output must pass [CheckMarkdown] (no raw HTML), else the rendering fails and the
// caller falls back.
//
// A template owns its whole output: Options.Title, Schema and Units are only used when a rendering
// falls back to Generic. text/template prints "<no value>" for a missing field; output holding it
// is an error, so templates guard optional fields with {{with}}, {{if}} or default.
func NewTemplate(spec TemplateSpec) (Renderer, error) {
	t, err := newTemplate(spec)
	if err != nil {
		return nil, err
	}
	return t, nil
}

// newTemplate is [NewTemplate], with the concrete type.
func newTemplate(spec TemplateSpec) (*templateRenderer, error) {
	md, err := parseTemplates("markdown", spec.Markdown, withFuncs(templateFuncs(EscapeMarkdown), spec.Funcs))
	if err != nil {
		return nil, err
	}
	text, err := parseTemplates("text", spec.Text, withFuncs(templateFuncs(func(s string) string { return s }), spec.Funcs))
	if err != nil {
		return nil, err
	}
	if err := checkPath(spec.Compact); err != nil {
		return nil, fmt.Errorf("renderers: template compact path %q: %w", spec.Compact, err)
	}
	return &templateRenderer{markdown: md, text: text, compact: spec.Compact}, nil
}

func parseTemplates(kind string, srcs map[format.Verbosity]string, funcs template.FuncMap) (
	map[format.Verbosity]*template.Template, error,
) {
	out := make(map[format.Verbosity]*template.Template, len(srcs))
	for v, src := range srcs {
		if v > format.Verbose {
			return nil, fmt.Errorf("renderers: template %s: verbosity %d is out of range", kind, v)
		}
		level := orStandard(v)
		if _, dup := out[level]; dup {
			return nil, fmt.Errorf("renderers: template %s: standard given twice (as unset and standard)", kind)
		}
		name := kind + " " + level.String()
		t, err := template.New(name).Funcs(funcs).Parse(src)
		if err != nil {
			return nil, fmt.Errorf("renderers: template %s: %w", name, err)
		}
		out[level] = t
	}
	return out, nil
}

// withFuncs returns base with extra laid over it.
func withFuncs(base, extra template.FuncMap) template.FuncMap {
	for name, fn := range extra {
		base[name] = fn
	}
	return base
}

// Render renders value as markdown or plain text, as opts.MediaType says.
func (t *templateRenderer) Render(value []byte, opts Options) (string, error) {
	return byMediaType(t.renderMarkdown, t.renderText, value, opts)
}

// renderMarkdown renders value with the template for opts.Verbosity (or Standard's), or with Generic
// markdown when there is none.
func (t *templateRenderer) renderMarkdown(value []byte, opts Options) (string, error) {
	tmpl := t.markdown[orStandard(opts.Verbosity)]
	if tmpl == nil {
		tmpl = t.markdown[format.Standard]
	}
	if tmpl == nil {
		return Generic{}.markdown(value, opts)
	}
	out, err := execute(tmpl, value, EscapeMarkdown, &t.markdownKeys)
	if err != nil {
		return "", err
	}
	if err := CheckMarkdown(out); err != nil {
		return "", fmt.Errorf("renderers: %s: %w", tmpl.Name(), err)
	}
	return out, nil
}

// renderText renders value with the text template for opts.Verbosity, else (at compact) Generic text of
// the Compact projection, else the Standard text template, else Generic text.
func (t *templateRenderer) renderText(value []byte, opts Options) (string, error) {
	level := orStandard(opts.Verbosity)
	if tmpl := t.text[level]; tmpl != nil {
		return execute(tmpl, value, escapeControls, &t.textKeys)
	}
	if level == format.Compact && t.compact != "" {
		return t.projected(value, opts)
	}
	if tmpl := t.text[format.Standard]; tmpl != nil {
		return execute(tmpl, value, escapeControls, &t.textKeys)
	}
	return Generic{}.text(value, opts)
}

// projected renders the Compact projection of value with Generic text, in the projection's order.
func (t *templateRenderer) projected(value []byte, opts Options) (string, error) {
	if err := validate(value); err != nil {
		return "", fmt.Errorf("renderers: template text compact: %w", err)
	}
	p := gjson.GetBytes(value, t.compact)
	if !p.Exists() || isEmpty(p) {
		return Generic{}.text(value, opts)
	}
	opts.Schema = nil
	return Generic{}.text([]byte(p.Raw), opts)
}

// execute runs tmpl on value decoded with every string passed through str (object keys by way
// of keys).
func execute(tmpl *template.Template, value []byte, str func(string) string, keys *keyCache) (string, error) {
	if err := validate(value); err != nil {
		return "", fmt.Errorf("renderers: %s: %w", tmpl.Name(), err)
	}
	w := bufferPool.Get().(*limitedWriter)
	defer func() {
		if w.b.Cap() <= maxPooledBuffer {
			w.b.Reset()
			bufferPool.Put(w)
		}
	}()
	w.n = max(maxTemplateOutput, 4*len(value))
	data := templateData(gjson.Parse(string(value)), str, keys, 0)
	err := tmpl.Execute(w, data)
	releaseData(data)
	if err != nil {
		return "", fmt.Errorf("renderers: %s: %w", tmpl.Name(), err)
	}
	out := string(bytes.TrimRight(w.b.Bytes(), "\n"))
	if strings.Contains(out, "<no value>") {
		return "", fmt.Errorf("renderers: %s: %w", tmpl.Name(), errMissingValue)
	}
	return out, nil
}

// checkPath reports an unbalanced gjson path: brackets, braces, parentheses and quotes must pair.
func checkPath(path string) error {
	var stack []byte
	for i := 0; i < len(path); i++ {
		switch c := path[i]; c {
		case '\\':
			i++
		case '"':
			j := i + 1
			for j < len(path) && path[j] != '"' {
				if path[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(path) {
				return errors.New("unterminated string")
			}
			i = j
		case '{', '[', '(':
			stack = append(stack, c)
		case '}', ']', ')':
			open := map[byte]byte{'}': '{', ']': '[', ')': '('}[c]
			if len(stack) == 0 || stack[len(stack)-1] != open {
				return fmt.Errorf("unbalanced %q at offset %d", c, i)
			}
			stack = stack[:len(stack)-1]
		}
	}
	if len(stack) > 0 {
		return fmt.Errorf("unclosed %q", stack[len(stack)-1])
	}
	return nil
}
