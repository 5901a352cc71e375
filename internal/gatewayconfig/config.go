// Package gatewayconfig reads the gateway's config file (contentneg
// -config FILE): for an upstream MCP server not written in Go, what a Go
// server would set in code, mapped onto the same APIs (shaping.Tool,
// renderers.NewTemplate, shaping.Options). It stands in for a server
// author's code, and decides nothing of the negotiation.
package gatewayconfig

import (
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"

	"github.com/contentneg/contentneg/format"
	"github.com/contentneg/contentneg/internal/cmdline"
	"github.com/contentneg/contentneg/internal/yamlrefuse"
	"github.com/contentneg/contentneg/negotiation"
	"github.com/contentneg/contentneg/renderers"
	"github.com/contentneg/contentneg/shaping"
)

// MaxSize bounds a config file, which is read whole: 256 KiB holds
// thousands of tools' settings, and bounds the parse, which grows faster
// than the file (docs/decisions.md).
const MaxSize = 256 << 10

// Config is a gateway's config file (contentneg -config FILE): what a Go
// server would set in code, for an upstream that is not written in Go. Each
// key maps onto one existing API, and the gateway adds no rendering of its
// own: a tool's settings are a [shaping.Tool] (its Renderer made by
// [renderers.NewTemplate]), the default tags [shaping.Options].Default, the
// format argument [shaping.Options].FormatArgument. docs/gateway.md lists
// the keys.
type Config struct {
	// File is the path the config was read from, as its errors name it.
	File string
	// Tools are the settings of tools, by name.
	Tools map[string]shaping.Tool
	// Resources are the settings of resources, by URI or URI template.
	Resources map[string]shaping.Tool

	def       *negotiation.Settings // nil when the file sets no default
	formatArg *string               // nil when the file sets no format argument
	apiKeyEnv string                // "" when the file names no variable
	apiKeyAt  *ast.MappingValueNode
	entries   []entry // every tool and resource named, in the file's order
}

// entry is one tool or resource the file names, and where.
type entry struct {
	resource bool
	name     string
	key      ast.Node
}

// Error is an error in a config file, at a line and column (0 when
// unknown), under a key path such as "tools.echo.markdown".
type Error struct {
	File   string
	Line   int
	Column int
	Key    string
	Err    error
}

// Error reads "gateway.yaml:12:5: tools.echo.markdown: want true or false, got a string".
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
		if e.Column > 0 {
			fmt.Fprintf(&b, ":%d", e.Column)
		}
	}
	b.WriteString(": ")
	if e.Key != "" {
		b.WriteString(e.Key)
		b.WriteString(": ")
	}
	b.WriteString(e.Err.Error())
	return b.String()
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// Load reads and checks the config file at path (at most
// [MaxSize] bytes); see [Parse].
func Load(path string) (*Config, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("gatewayconfig: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxSize+1))
	if err != nil {
		return nil, fmt.Errorf("gatewayconfig: %s: %w", path, err)
	}
	if len(data) > MaxSize {
		return nil, &Error{File: path, Err: fmt.Errorf("larger than %d bytes", MaxSize)}
	}
	return Parse(path, data)
}

// Parse reads a config file's YAML; file names it in errors. Every
// error of the file is reported, each as a [*Error] with its line
// (joined with errors.Join): an unknown key, a value of the wrong type,
// default tags the negotiation refuses, a compact projection or a template
// that renderers.NewTemplate refuses, a setting that could never apply
// (a verbatim tool is never rendered). Anchors, aliases and YAML tags are
// refused: a config needs none, and refusing aliases rules out expansion
// bombs. A file nested deeper than yamlrefuse.MaxDepth or holding more
// than yamlrefuse.MaxNodes tokens is refused before the YAML parser sees
// it (yamlrefuse.Bound), with the line and column where it went past: the
// parser's cost grows with the nesting times the size. Tool and resource
// names are checked against the upstream later, with [Config.Unlisted].
func Parse(file string, data []byte) (*Config, error) {
	d := &decoder{file: file}
	c := &Config{File: file}
	if err := yamlrefuse.Bound(data); err != nil {
		e := &Error{File: file, Err: fmt.Errorf("YAML: %w", err)}
		if be, ok := errors.AsType[*yamlrefuse.BoundError](err); ok {
			e.Line, e.Column, e.Err = be.Line, be.Column, fmt.Errorf("YAML: %w", be.Err)
		}
		return nil, e
	}
	f, err := parser.ParseBytes(data, 0)
	if err != nil {
		return nil, d.syntax(data, err)
	}
	var body ast.Node
	for _, doc := range f.Docs {
		if doc == nil || doc.Body == nil {
			continue
		}
		if body != nil {
			d.fail(doc.Body, "", "a second YAML document; want one")
			return nil, d.err()
		}
		body = doc.Body
	}
	if body == nil {
		return c, nil // an empty file sets nothing
	}
	if d.indirection(body) {
		return nil, d.err()
	}
	if _, null := body.(*ast.NullNode); null {
		return c, nil
	}
	for _, p := range d.mapping(body, "") {
		key := keyText(p.Key)
		switch key {
		case "default":
			c.def = d.defaults(p.Value, key)
		case "format_argument":
			if s, ok := d.str(p.Value, key); ok {
				if strings.TrimSpace(s) == "" {
					d.fail(p.Value, key, "want the argument's name, got an empty string")
				} else {
					c.formatArg = &s
				}
			}
		case "rest":
			c.rest(d, p.Value)
		case "tools":
			c.Tools = c.section(d, p.Value, key, false)
		case "resources":
			c.Resources = c.section(d, p.Value, key, true)
		default:
			d.fail(p.Key, key, "unknown key; want default, format_argument, rest, tools or resources")
		}
	}
	for _, e := range c.entries {
		if _, both := c.Tools[e.name]; both && e.resource {
			d.fail(e.key, "resources."+e.name, "named under tools too; a name has one set of settings")
		}
	}
	if err := d.err(); err != nil {
		return nil, err
	}
	return c, nil
}

// Apply sets what the file sets on opts: its tools and resources (added to
// opts.Tools, replacing any of the same name), the default tags and the
// format argument. Command-line flags, applied after, win.
func (c *Config) Apply(opts *shaping.Options) {
	if len(c.Tools)+len(c.Resources) > 0 && opts.Tools == nil {
		opts.Tools = make(map[string]shaping.Tool, len(c.Tools)+len(c.Resources))
	}
	for name, t := range c.Tools {
		opts.Tools[name] = t
	}
	for name, t := range c.Resources {
		opts.Tools[name] = t
	}
	if c.def != nil {
		opts.Default = *c.def
	}
	if c.formatArg != nil {
		opts.FormatArgument = *c.formatArg
	}
}

// APIKey returns the REST binding's API key when the file names the
// environment variable that holds it (rest.api_key_env), read with getenv;
// named is false when the file names none. A named variable that is unset
// or empty is an error naming the file's line: the operator asked for a
// key, and the REST API would be open without one.
func (c *Config) APIKey(getenv func(string) string) (key string, named bool, err error) {
	if c.apiKeyEnv == "" {
		return "", false, nil
	}
	if key = getenv(c.apiKeyEnv); key == "" {
		line, col := position(c.apiKeyAt.Value)
		return "", true, &Error{File: c.File, Line: line, Column: col, Key: "rest.api_key_env",
			Err: fmt.Errorf("$%s is not set or empty; the REST API would need no key", c.apiKeyEnv)}
	}
	return key, true, nil
}

// Unlisted returns one [*Error] for each tool and resource the file names
// that the upstream does not list (tools are its tools' names, resources
// the URIs of its resources and URI templates of its resource templates;
// see gateway.Gateway.Names): a warning, not an error, since an upstream
// may list a tool later (the npm everything server adds some once the
// handshake is over) and its settings then apply.
func (c *Config) Unlisted(toolNames, resourceNames []string) []error {
	tools := make(map[string]bool, len(toolNames))
	for _, n := range toolNames {
		tools[n] = true
	}
	resources := make(map[string]bool, len(resourceNames))
	for _, n := range resourceNames {
		resources[n] = true
	}
	var out []error
	for _, e := range c.entries {
		line, col := position(e.key)
		switch {
		case e.resource && !resources[e.name]:
			out = append(out, &Error{File: c.File, Line: line, Column: col, Key: "resources." + e.name,
				Err: errors.New("the upstream lists no resource or resource template of this URI (yet); its settings apply if it lists one")})
		case !e.resource && !tools[e.name]:
			out = append(out, &Error{File: c.File, Line: line, Column: col, Key: "tools." + e.name,
				Err: errors.New("the upstream lists no tool of this name (yet); its settings apply if it lists one")})
		}
	}
	return out
}

// rest reads the rest section.
func (c *Config) rest(d *decoder, n ast.Node) {
	for _, p := range d.mapping(n, "rest") {
		key := "rest." + keyText(p.Key)
		switch keyText(p.Key) {
		case "api_key_env":
			if s, ok := d.str(p.Value, key); ok {
				if s == "" || strings.ContainsAny(s, "=\x00") {
					d.fail(p.Value, key, "want the name of an environment variable, got %q", s)
					continue
				}
				c.apiKeyEnv, c.apiKeyAt = s, p
			}
		case "api_key":
			d.fail(p.Key, key, "a key is not read from the file, where it would be one more copy of a secret; put it in an environment variable and name that with api_key_env")
		default:
			d.fail(p.Key, key, "unknown key; want api_key_env")
		}
	}
}

// section reads tools or resources: settings by name.
func (c *Config) section(d *decoder, n ast.Node, path string, resource bool) map[string]shaping.Tool {
	pairs := d.mapping(n, path)
	if len(pairs) == 0 {
		return nil
	}
	out := make(map[string]shaping.Tool, len(pairs))
	for _, p := range pairs {
		name := keyText(p.Key)
		if name == "" {
			d.fail(p.Key, path, "want a name, got an empty key")
			continue
		}
		c.entries = append(c.entries, entry{resource: resource, name: name, key: p.Key})
		if t, ok := d.entry(p.Value, path+"."+name, resource); ok {
			out[name] = t
		}
	}
	return out
}

// decoder collects the errors of one file.
type decoder struct {
	file string
	errs []error
}

func (d *decoder) fail(n ast.Node, key, format string, args ...any) {
	d.failErr(n, key, fmt.Errorf(format, args...))
}

func (d *decoder) failErr(n ast.Node, key string, err error) {
	line, col := position(n)
	d.errs = append(d.errs, &Error{File: d.file, Line: line, Column: col, Key: key, Err: err})
}

func (d *decoder) err() error { return errors.Join(d.errs...) }

// syntax turns the parser's error into one with a line. A YAML tag is
// most likely a negated feature tag written unquoted (- !interactive),
// which the parser's own message would not say.
func (d *decoder) syntax(data []byte, err error) error {
	if tk, tag := yamlrefuse.FirstTag(data); tk != nil {
		return d.tokenError(tk, "", errors.New(yamlrefuse.TagMessage(tag)))
	}
	var ye yaml.Error
	if errors.As(err, &ye) {
		return d.tokenError(ye.GetToken(), "", fmt.Errorf("YAML: %s", ye.GetMessage()))
	}
	return &Error{File: d.file, Err: fmt.Errorf("YAML: %w", err)}
}

func (d *decoder) tokenError(tk *token.Token, key string, err error) error {
	e := &Error{File: d.file, Key: key, Err: err}
	if tk != nil && tk.Position != nil {
		e.Line, e.Column = tk.Position.Line, tk.Position.Column
	}
	return e
}

// indirection reports the anchors, aliases and tags under n.
func (d *decoder) indirection(n ast.Node) bool {
	found := false
	yamlrefuse.Walk(n, func(n ast.Node, tag string) bool {
		if tag != "" {
			d.fail(n, "", "%s", yamlrefuse.TagMessage(tag))
		} else {
			d.fail(n, "", "YAML anchors and aliases are not supported in a config file")
		}
		found = true
		return true
	})
	return found
}

// mapping returns the pairs of a mapping; null is an empty one. Anything
// else, and a key given twice, is an error.
func (d *decoder) mapping(n ast.Node, path string) []*ast.MappingValueNode {
	var pairs []*ast.MappingValueNode
	switch v := n.(type) {
	case nil, *ast.NullNode:
		return nil
	case *ast.MappingNode:
		pairs = v.Values
	case *ast.MappingValueNode:
		pairs = []*ast.MappingValueNode{v}
	default:
		d.fail(n, path, "want a mapping, got %s", kindOf(n))
		return nil
	}
	seen := make(map[string]ast.Node, len(pairs))
	out := pairs[:0:0]
	for _, p := range pairs {
		k := keyText(p.Key)
		if first, dup := seen[k]; dup {
			line, _ := position(first)
			d.fail(p.Key, join(path, k), "given twice (first on line %d)", line)
			continue
		}
		seen[k] = p.Key
		out = append(out, p)
	}
	return out
}

// join appends key to a key path.
func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// str reads a string: quoted, plain or a block scalar.
func (d *decoder) str(n ast.Node, path string) (string, bool) {
	switch v := n.(type) {
	case *ast.StringNode:
		return v.Value, true
	case *ast.LiteralNode:
		return v.Value.Value, true
	}
	d.fail(n, path, "want a string, got %s", kindOf(n))
	return "", false
}

// boolean reads true or false.
func (d *decoder) boolean(n ast.Node, path string) bool {
	if v, ok := n.(*ast.BoolNode); ok {
		return v.Value
	}
	d.fail(n, path, "want true or false, got %s", kindOf(n))
	return false
}

// defaults reads the default tags: a string of comma-separated tags or a
// list of tags, checked as shaping.Shaper.Check checks them at start.
func (d *decoder) defaults(n ast.Node, path string) *negotiation.Settings {
	var s negotiation.Settings
	switch v := n.(type) {
	case *ast.SequenceNode:
		for _, e := range v.Values {
			tag, ok := d.str(e, path)
			if !ok {
				return nil
			}
			s.Features = append(s.Features, cmdline.SplitList(tag)...)
		}
	default:
		list, ok := d.str(n, path)
		if !ok {
			return nil
		}
		s.Features = cmdline.SplitList(list)
	}
	if err := shaping.New(&shaping.Options{Default: s}).Check(); err != nil {
		d.failErr(n, path, err)
		return nil
	}
	return &s
}

// entry reads the settings of one tool or resource.
func (d *decoder) entry(n ast.Node, path string, resource bool) (shaping.Tool, bool) {
	var (
		t        shaping.Tool
		spec     renderers.TemplateSpec
		rendered []string // the keys that only apply when the tool is rendered
		verbatim ast.Node
		textAt   ast.Node // templates.text.compact, which the projection yields to
		compact  ast.Node
	)
	before := len(d.errs)
	for _, p := range d.mapping(n, path) {
		k := keyText(p.Key)
		key := path + "." + k
		switch k {
		case "verbatim", "markdown":
			if resource {
				d.fail(p.Key, key, "applies to tools only; a resource's text is rendered only when its MIME type is JSON or markdown")
				continue
			}
			b := d.boolean(p.Value, key)
			if k == "verbatim" {
				t.Verbatim = b
				if b {
					verbatim = p.Key
				}
			} else {
				t.Markdown = b
				if b {
					rendered = append(rendered, k)
				}
			}
		case "title":
			t.Title, _ = d.str(p.Value, key)
			rendered = append(rendered, k)
		case "units":
			t.Units = d.units(p.Value, key)
			rendered = append(rendered, k)
		case "compact":
			s, ok := d.str(p.Value, key)
			if !ok {
				continue
			}
			if s == "" {
				d.fail(p.Value, key, "want a gjson path, got an empty string")
				continue
			}
			if _, err := renderers.NewTemplate(renderers.TemplateSpec{Compact: s}); err != nil {
				d.failErr(p.Value, key, err)
				continue
			}
			spec.Compact, compact = s, p.Key
			rendered = append(rendered, k)
		case "templates":
			for _, q := range d.mapping(p.Value, key) {
				kind := keyText(q.Key)
				switch kind {
				case "markdown":
					spec.Markdown = d.templates(q.Value, key+"."+kind, false)
				case "text":
					spec.Text = d.templates(q.Value, key+"."+kind, true)
					if _, ok := spec.Text[format.Compact]; ok {
						textAt = q.Key
					}
				default:
					d.fail(q.Key, key+"."+kind, "unknown key; want markdown or text")
				}
			}
			rendered = append(rendered, k)
		default:
			want := "verbatim, markdown, title, units, compact or templates"
			if resource {
				want = "title, units, compact or templates"
			}
			d.fail(p.Key, key, "unknown key; want %s", want)
		}
	}
	if verbatim != nil && len(rendered) > 0 {
		d.fail(verbatim, path+".verbatim", "a verbatim tool's result is never rendered or converted, so %s would never apply", strings.Join(rendered, ", "))
	}
	if compact != nil && textAt != nil {
		d.fail(compact, path+".compact", "templates.text.compact renders compact text, so the projection would never apply")
	}
	if len(d.errs) > before {
		return t, false
	}
	if spec.Compact != "" || len(spec.Markdown)+len(spec.Text) > 0 {
		tmpl, err := renderers.NewTemplate(spec)
		if err != nil { // each part was checked above; this is the whole
			d.failErr(n, path, err)
			return t, false
		}
		t.Renderer = tmpl
	}
	return t, true
}

// units reads field names to units.
func (d *decoder) units(n ast.Node, path string) map[string]string {
	pairs := d.mapping(n, path)
	out := make(map[string]string, len(pairs))
	for _, p := range pairs {
		k := keyText(p.Key)
		if s, ok := d.str(p.Value, path+"."+k); ok {
			out[k] = s
		}
	}
	return out
}

// templates reads markdown or text templates: one string (the standard
// template, which every verbosity without one of its own uses) or a
// mapping of compact, standard and verbose to templates. Each is parsed
// by renderers.NewTemplate, and its error given at its line.
func (d *decoder) templates(n ast.Node, path string, text bool) map[format.Verbosity]string {
	out := map[format.Verbosity]string{}
	add := func(n ast.Node, key string, v format.Verbosity) {
		src, ok := d.str(n, key)
		if !ok {
			return
		}
		spec := renderers.TemplateSpec{Markdown: map[format.Verbosity]string{v: src}}
		if text {
			spec = renderers.TemplateSpec{Text: map[format.Verbosity]string{v: src}}
		}
		if _, err := renderers.NewTemplate(spec); err != nil {
			d.failErr(n, key, err)
			if lit, ok := n.(*ast.LiteralNode); ok {
				atTemplateLine(d.errs[len(d.errs)-1].(*Error), lit, err)
			}
			return
		}
		out[v] = src
	}
	switch n.(type) {
	case *ast.MappingNode, *ast.MappingValueNode:
		for _, p := range d.mapping(n, path) {
			k := keyText(p.Key)
			v, ok := format.ParseVerbosity(k)
			if !ok {
				d.fail(p.Key, path+"."+k, "unknown verbosity; want compact, standard or verbose")
				continue
			}
			add(p.Value, path+"."+k, v)
		}
	default:
		add(n, path, format.Standard)
	}
	return out
}

// templateLine finds the line text/template names in a parse error
// ("template: markdown standard:2: ...").
var templateLine = regexp.MustCompile(`template: [a-z]+ [a-z]+:(\d+):`)

// atTemplateLine moves e to the line of the file that a template's parse
// error names, for a template written as a block scalar (| or >-), whose
// first line follows the indicator's.
func atTemplateLine(e *Error, lit *ast.LiteralNode, err error) {
	m := templateLine.FindStringSubmatch(err.Error())
	if m == nil || lit.Start == nil || lit.Start.Position == nil || strings.HasPrefix(lit.Start.Value, ">") {
		return // a folded scalar's lines are not the template's
	}
	if k, convErr := strconv.Atoi(m[1]); convErr == nil && k > 0 {
		e.Line, e.Column = lit.Start.Position.Line+k, 0
	}
}

// keyText is a mapping key as written: a string's value, else the token's
// text (a tool named 42).
func keyText(k ast.MapKeyNode) string {
	switch v := k.(type) {
	case nil:
		return ""
	case *ast.StringNode:
		return v.Value
	}
	if tk := k.GetToken(); tk != nil {
		return tk.Value
	}
	return ""
}

// position returns a node's line and column, 0 when it has none: a
// mapping's is its first key's.
func position(n ast.Node) (line, col int) {
	switch v := n.(type) {
	case nil:
		return 0, 0
	case *ast.MappingValueNode:
		return position(v.Key)
	case *ast.MappingNode:
		if !v.IsFlowStyle && len(v.Values) > 0 {
			return position(v.Values[0].Key)
		}
	}
	tk := n.GetToken()
	if tk == nil || tk.Position == nil {
		return 0, 0
	}
	return tk.Position.Line, tk.Position.Column
}

// kindOf names a node's type for errors: "a mapping", "an integer" ...
func kindOf(n ast.Node) string {
	if n == nil {
		return "nothing"
	}
	switch n.(type) {
	case *ast.NullNode:
		return "null"
	case *ast.MappingNode, *ast.MappingValueNode:
		return "a mapping"
	case *ast.SequenceNode:
		return "a list"
	case *ast.BoolNode:
		return "a boolean"
	case *ast.IntegerNode:
		return "an integer"
	case *ast.FloatNode, *ast.InfinityNode, *ast.NanNode:
		return "a number"
	case *ast.StringNode, *ast.LiteralNode:
		return "a string"
	}
	return strings.ToLower(n.Type().String())
}
