package rest

import (
	"bytes"
	"encoding/json"
	"errors"
	"html/template"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/contentneg/contentneg/shaping"
)

// indexCSP is the Content-Security-Policy of the index and result pages:
// no script at all, the page's own inline style, forms that post to this
// origin only, and no framing.
const indexCSP = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

// Form field names that are not arguments: the rendering the person picks.
const formFormat = "_format"

// fieldKind is how a form field is shown and converted to JSON.
type fieldKind string

const (
	kindString  fieldKind = "string"
	kindNumber  fieldKind = "number"
	kindInteger fieldKind = "integer"
	kindBoolean fieldKind = "boolean"
	kindEnum    fieldKind = "enum"
	kindArray   fieldKind = "array" // of scalars: one per line
	kindJSON    fieldKind = "json"  // anything else: a JSON text
)

// formField is one input of a tool's form, from one property of its input
// schema.
type formField struct {
	Name, Description string
	Kind              fieldKind
	Item              fieldKind // the element kind of an array
	Required          bool
	Options           []enumOption // of an enum, or an array of one
}

type enumOption struct{ Label, Value string } // Value is the option's JSON

// formFields reads an input schema's properties, in the schema's order.
func formFields(schema json.RawMessage) []formField {
	s := gjson.ParseBytes(schema)
	required := map[string]bool{}
	for _, r := range s.Get("required").Array() {
		required[r.String()] = true
	}
	var out []formField
	s.Get("properties").ForEach(func(k, p gjson.Result) bool {
		f := formField{Name: k.String(), Description: p.Get("description").String(), Required: required[k.String()]}
		f.Kind, f.Options = kindOf(p)
		if f.Kind == kindArray {
			f.Item, f.Options = kindOf(p.Get("items"))
			if f.Item == kindArray || f.Item == kindJSON {
				f.Kind, f.Item = kindJSON, ""
			}
		}
		out = append(out, f)
		return len(out) < maxFormFields
	})
	return out
}

// maxFormFields bounds the fields of one form (and of one submission).
const maxFormFields = 256

func kindOf(p gjson.Result) (fieldKind, []enumOption) {
	if e := p.Get("enum"); e.IsArray() {
		var opts []enumOption
		scalar := true
		e.ForEach(func(_, v gjson.Result) bool {
			scalar = !v.IsObject() && !v.IsArray()
			label := v.String()
			if v.Type == gjson.Null {
				label = "null"
			}
			opts = append(opts, enumOption{Label: label, Value: v.Raw})
			return scalar
		})
		if scalar {
			return kindEnum, opts
		}
		return kindJSON, nil
	}
	t := p.Get("type")
	if t.IsArray() { // ["string","null"]: the first non-null type
		for _, x := range t.Array() {
			if x.String() != "null" {
				t = x
				break
			}
		}
	}
	switch t.String() {
	case "string":
		return kindString, nil
	case "number":
		return kindNumber, nil
	case "integer":
		return kindInteger, nil
	case "boolean":
		return kindBoolean, nil
	case "array":
		return kindArray, nil
	}
	return kindJSON, nil
}

// formArguments converts a submitted form to a tool's arguments, by its
// input schema: an empty field is left out; a field that does not convert is
// a 400 naming it.
func formArguments(schema json.RawMessage, form url.Values) (json.RawMessage, *Error) {
	var b bytes.Buffer
	b.WriteByte('{')
	var details []Detail
	n := 0
	for _, f := range formFields(schema) {
		raw := strings.TrimSpace(form.Get("arg." + f.Name))
		if raw == "" {
			continue
		}
		v, err := convert(f.Kind, f.Item, f.Options, raw)
		if err != "" {
			details = append(details, Detail{Field: f.Name, Error: err})
			continue
		}
		if n > 0 {
			b.WriteByte(',')
		}
		n++
		key, _ := json.Marshal(f.Name)
		b.Write(key)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	if details != nil {
		return nil, invalid("invalid form fields", details...)
	}
	return b.Bytes(), nil
}

// convert turns one field's text into JSON, or says why it cannot.
func convert(kind, item fieldKind, opts []enumOption, raw string) ([]byte, string) {
	switch kind {
	case kindString:
		return trimNL(marshal(raw)), ""
	case kindNumber:
		if _, err := strconv.ParseFloat(raw, 64); err != nil || !json.Valid([]byte(raw)) {
			return nil, "must be a number"
		}
		return []byte(raw), ""
	case kindInteger:
		if _, err := strconv.ParseInt(raw, 10, 64); err != nil {
			return nil, "must be an integer"
		}
		return []byte(raw), ""
	case kindBoolean:
		if raw != "true" && raw != "false" {
			return nil, "must be true or false"
		}
		return []byte(raw), ""
	case kindEnum:
		for _, o := range opts {
			if o.Value == raw {
				return []byte(raw), ""
			}
		}
		return nil, "must be one of the listed values"
	case kindArray:
		var b bytes.Buffer
		b.WriteByte('[')
		n := 0
		for _, line := range strings.Split(raw, "\n") {
			line = strings.TrimSpace(line)
			if line == "" {
				continue
			}
			v, err := convert(item, "", opts, line)
			if err != "" {
				return nil, "item " + strconv.Itoa(n+1) + ": " + err
			}
			if n > 0 {
				b.WriteByte(',')
			}
			n++
			b.Write(v)
		}
		b.WriteByte(']')
		return b.Bytes(), ""
	}
	if !json.Valid([]byte(raw)) {
		return nil, "must be JSON"
	}
	return []byte(raw), ""
}

// readForm reads the body of a request that says it is an HTML form
// (bounded like any body); crossSite lets such a request through only from
// this server's own origin (the index page). A body that is a JSON object
// is not a form: ok is false then, and the body is put back for the JSON
// path.
func (h *handler) readForm(q *request) (form url.Values, ok bool, e *Error) {
	ct := strings.ToLower(q.r.Header.Get("Content-Type"))
	if !strings.HasPrefix(ct, mediaForm) {
		return nil, false, nil
	}
	body, err := io.ReadAll(http.MaxBytesReader(q.w, q.r.Body, h.maxBody))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return nil, false, newError(http.StatusRequestEntityTooLarge, codePayloadTooLarge,
				"the request body is larger than "+itoa(int(h.maxBody))+" bytes")
		}
		if isTimeout(err) {
			return nil, false, bodyTimedOut(q.w, h.bodyTimeout)
		}
		return nil, false, invalid("the request body could not be read", Detail{Field: "body", Error: err.Error()})
	}
	if t := bytes.TrimLeft(body, " \t\r\n"); len(t) == 0 || t[0] == '{' {
		q.r.Body = io.NopCloser(bytes.NewReader(body))
		return nil, false, nil
	}
	form, err = url.ParseQuery(string(body))
	if err != nil {
		return nil, false, invalid("the form could not be read", Detail{Field: "body", Error: err.Error()})
	}
	return form, true, nil
}

// sameOrigin reports whether a form submission comes from a page of this
// origin (CSRF): a browser names the page's origin in Origin (and in
// Sec-Fetch-Site); a request with neither is not from a browser's page.
func sameOrigin(r *http.Request) bool {
	if site := r.Header.Get("Sec-Fetch-Site"); site != "" && site != "same-origin" && site != "none" {
		return false
	}
	origin := r.Header.Get("Origin")
	if origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	return err == nil && u.Host != "" && strings.EqualFold(u.Host, r.Host)
}

// executeForm runs a tool from its form on the index page and answers a
// page with the result in the rendering the person picked (the form's
// _format; HTML by default). The arguments come from the form's fields,
// converted by the tool's input schema, then go the way of any execution.
func (h *handler) executeForm(q *request, tool Tool, form url.Values) *Error {
	if !sameOrigin(q.r) {
		return newError(http.StatusForbidden, codeForbidden, "a form may only be submitted from this server's own index page")
	}
	format := strings.ToLower(form.Get(formFormat))
	if format == "" {
		format = "html"
	}
	mt := ""
	for _, m := range h.neg.MediaTypes() {
		if h.neg.FormatName(m) == format {
			mt = m
		}
	}
	if mt == "" {
		return invalid("unknown format", Detail{Field: formFormat, Error: "not a format this server renders"})
	}
	if e := q.readVerbosity(); e != nil {
		return e
	}
	args, e := formArguments(tool.InputSchema, form)
	if e != nil {
		return e
	}
	if e := h.validateArguments(tool.InputSchema, args); e != nil {
		return e
	}
	res, err := h.backend.CallTool(q.ctx, tool.Name, args, q.features(format))
	if err != nil {
		return h.backendError(err, "call tool "+tool.Name)
	}
	page := resultPage{Tool: tool.Name, Format: format, Index: h.href() + "/", Text: res.Text}
	switch {
	case res.IsError:
		page.Error = res.Text
	case res.NeedsInput:
		page.Error = "the tool asks the client for input that a form cannot give"
	case mt == shaping.JSON.MediaType:
		var b bytes.Buffer
		v := res.Structured
		if len(v) == 0 {
			v = res.Content
		}
		if json.Indent(&b, v, "", "  ") == nil {
			page.Text = b.String()
		}
	case mt == shaping.HTML.MediaType:
		// The HTML rendering: markdown converted with every data value
		// escaped and no HTML from data (see docs/rest.md).
		page.HTML = template.HTML(res.Text) //nolint:gosec // the rendering, escaped by construction
	}
	var b bytes.Buffer
	if err := resultTemplate.Execute(&b, page); err != nil {
		return newError(http.StatusInternalServerError, codeInternal, "the page could not be written")
	}
	q.w.Header().Set("Content-Security-Policy", indexCSP)
	servePOST(q, shaping.HTML.MediaType, b.Bytes())
	return nil
}

// index answers GET {base}/ for a browser: the server, its tools with a
// form each, its resources and its prompts.
func (h *handler) index(q *request) *Error {
	s, err := h.backend.Server(q.ctx)
	if err != nil {
		return h.backendError(err, "describe the server")
	}
	tools, e := h.tools(q.ctx)
	if e != nil {
		return e
	}
	rs, ts, e := h.resources(q.ctx)
	if e != nil {
		return e
	}
	ps, e := h.prompts(q.ctx)
	if e != nil {
		return e
	}
	page := indexPage{Server: *s, Resources: rs, Templates: ts, Prompts: ps}
	for _, mt := range h.neg.MediaTypes() {
		page.Formats = append(page.Formats, h.neg.FormatName(mt))
	}
	// html first: what a person reads.
	for i, f := range page.Formats {
		if f == "html" {
			page.Formats = append(append([]string{"html"}, page.Formats[:i]...), page.Formats[i+1:]...)
			break
		}
	}
	for _, t := range tools {
		page.Tools = append(page.Tools, indexTool{Tool: t, Action: h.href("tools", t.Name, "execute"), Fields: formFields(t.InputSchema)})
	}
	for _, r := range rs {
		page.Links = append(page.Links, h.href("resources", r.URI, "content")+"?format=html")
	}
	var b bytes.Buffer
	if err := indexTemplate.Execute(&b, page); err != nil {
		return newError(http.StatusInternalServerError, codeInternal, "the page could not be written")
	}
	q.w.Header().Set("Content-Security-Policy", indexCSP)
	serveGET(q, shaping.HTML.MediaType, b.Bytes(), time.Time{})
	return nil
}

type indexPage struct {
	Server    Server
	Formats   []string
	Tools     []indexTool
	Resources []Resource
	Links     []string // the content link of Resources[i]
	Templates []ResourceTemplate
	Prompts   []Prompt
}

type indexTool struct {
	Tool
	Action string
	Fields []formField
}

type resultPage struct {
	Tool, Format, Index string
	Text, Error         string
	HTML                template.HTML
}

const pageStyle = `body{font-family:system-ui,sans-serif;max-width:60rem;margin:1.5rem auto;padding:0 1rem;color:#1d1d1f;line-height:1.45}
h1{font-size:1.6rem}h2{margin-top:2rem;border-bottom:1px solid #ddd}h3{margin-bottom:.2rem}
section.tool{border:1px solid #ddd;border-radius:6px;padding:.2rem 1rem 1rem;margin:1rem 0}
label{display:block;margin:.5rem 0 .15rem;font-weight:600}label small{font-weight:400;color:#555}
input,select,textarea{font:inherit;padding:.25rem;min-width:18rem}button{font:inherit;padding:.3rem 1rem;margin-top:.7rem}
pre{background:#f5f5f7;padding:.6rem;overflow:auto}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2rem .5rem}
.error{color:#a00}`

var indexTemplate = template.Must(template.New("index").Funcs(template.FuncMap{
	"link": func(links []string, i int) string { return links[i] },
}).Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{with .Server.Title}}{{.}}{{else}}{{.Server.Name}}{{end}}</title><style>` + pageStyle + `</style></head>
<body>
<h1>{{with .Server.Title}}{{.}}{{else}}{{.Server.Name}}{{end}} <small>{{.Server.Version}}</small></h1>
{{with .Server.Instructions}}<p>{{.}}</p>{{end}}
<h2>Tools</h2>
{{range .Tools}}<section class="tool" id="tool-{{.Name}}">
<h3>{{.Name}}{{with .Title}} <small>{{.}}</small>{{end}}</h3>
{{with .Description}}<p>{{.}}</p>{{end}}
<form method="post" action="{{.Action}}" enctype="application/x-www-form-urlencoded" name="{{.Name}}">
{{range .Fields}}<label>{{.Name}}{{if .Required}} *{{end}} {{with .Description}}<small>{{.}}</small>{{end}}</label>
{{if eq .Kind "enum"}}<select name="arg.{{.Name}}"{{if .Required}} required{{end}}><option value=""></option>{{range .Options}}<option value="{{.Value}}">{{.Label}}</option>{{end}}</select>
{{else if eq .Kind "boolean"}}<select name="arg.{{.Name}}"{{if .Required}} required{{end}}><option value=""></option><option>true</option><option>false</option></select>
{{else if eq .Kind "number"}}<input type="number" step="any" name="arg.{{.Name}}"{{if .Required}} required{{end}}>
{{else if eq .Kind "integer"}}<input type="number" step="1" name="arg.{{.Name}}"{{if .Required}} required{{end}}>
{{else if eq .Kind "array"}}<textarea name="arg.{{.Name}}" rows="3" placeholder="one {{.Item}} per line"></textarea>
{{else if eq .Kind "json"}}<textarea name="arg.{{.Name}}" rows="3" placeholder="JSON"></textarea>
{{else}}<input type="text" name="arg.{{.Name}}"{{if .Required}} required{{end}}>
{{end}}{{end}}<label>Show the result as</label>
<select name="_format">{{range $.Formats}}<option>{{.}}</option>{{end}}</select>
<div><button type="submit">Run {{.Name}}</button></div>
</form>
</section>
{{else}}<p>No tools.</p>{{end}}
<h2>Resources</h2>
<ul>{{range $i, $r := .Resources}}<li><a href="{{link $.Links $i}}">{{with $r.Title}}{{.}}{{else}}{{$r.Name}}{{end}}</a> <code>{{$r.URI}}</code>{{with $r.Description}}: {{.}}{{end}}</li>
{{end}}{{range .Templates}}<li>{{with .Title}}{{.}}{{else}}{{.Name}}{{end}} <code>{{.URITemplate}}</code>{{with .Description}}: {{.}}{{end}}</li>
{{end}}</ul>
<h2>Prompts</h2>
<ul>{{range .Prompts}}<li><strong>{{with .Title}}{{.}}{{else}}{{.Name}}{{end}}</strong> <code>{{.Name}}</code>{{with .Description}}: {{.}}{{end}}{{if .Arguments}} (arguments: {{range $i, $a := .Arguments}}{{if $i}}, {{end}}{{$a.Name}}{{if $a.Required}} *{{end}}{{end}}){{end}}</li>
{{else}}<li>No prompts.</li>{{end}}</ul>
</body></html>
`))

var resultTemplate = template.Must(template.New("result").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Tool}}</title><style>` + pageStyle + `</style></head>
<body>
<p><a href="{{.Index}}">All tools</a></p>
<h1>{{.Tool}} <small>as {{.Format}}</small></h1>
<div id="result">{{if .Error}}<p class="error">{{.Error}}</p>{{else if .HTML}}{{.HTML}}{{else}}<pre>{{.Text}}</pre>{{end}}</div>
</body></html>
`))
