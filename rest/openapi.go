package rest

import (
	"encoding/json"
	"net/url"
	"regexp"
	"time"

	"github.com/contentneg/contentneg/shaping"
)

type obj = map[string]any

// openAPI answers GET /openapi.json: an OpenAPI 3.1 description of this
// API, with one execute operation per tool, generated from the tools' input
// and output schemas, its responses listed by media type.
func (h *handler) openAPI(q *request) *Error {
	s, err := h.backend.Server(q.ctx)
	if err != nil {
		return h.backendError(err, "describe the server")
	}
	tools, e := h.tools(q.ctx)
	if e != nil {
		return e
	}
	doc := h.openAPIDoc(s, tools)
	body := marshal(doc)
	serveGET(q, shaping.JSON.MediaType, body, time.Time{})
	return nil
}

func ref(name string) obj { return obj{"$ref": "#/components/" + name} }

func errorResponses(codes ...int) obj {
	out := obj{}
	for _, c := range codes {
		out[itoa(c)] = ref("responses/Error")
	}
	return out
}

func merge(a, b obj) obj {
	for k, v := range b {
		a[k] = v
	}
	return a
}

// defsRef matches the $refs into a schema's own $defs, which must point
// into the component the schema becomes.
var defsRef = regexp.MustCompile(`"\$ref":\s*"#/\$defs/`)

// component returns schema with its local $refs rebased under
// #/components/schemas/name.
func component(schema json.RawMessage, name string) json.RawMessage {
	if len(schema) == 0 {
		return json.RawMessage(`{"type":"object"}`)
	}
	return defsRef.ReplaceAllLiteral(schema, []byte(`"$ref":"#/components/schemas/`+name+`/$defs/`))
}

func (h *handler) openAPIDoc(s *Server, tools []Tool) obj {
	renderings := h.neg.MediaTypes()
	text := obj{"type": "string"}
	formatParam := obj{"name": "format", "in": "query", "required": false,
		"description": "a format name that overrides Accept", "schema": obj{"type": "string", "enum": formatNames(h)}}
	fieldsParam := obj{"name": "fields", "in": "query", "required": false,
		"description": "comma-separated field paths (a.b) of the JSON value to return", "schema": obj{"type": "string"}}
	pageParams := []any{
		obj{"name": "limit", "in": "query", "schema": obj{"type": "integer", "minimum": 1, "maximum": maxLimit}},
		obj{"name": "cursor", "in": "query", "schema": obj{"type": "string"}},
		fieldsParam,
	}
	idParam := func(name string) obj {
		return obj{"name": name, "in": "path", "required": true, "schema": obj{"type": "string"}}
	}
	jsonOK := func(desc string, schema any) obj {
		return obj{"200": obj{"description": desc, "content": obj{
			shaping.JSON.MediaType:     obj{"schema": schema},
			shaping.Markdown.MediaType: obj{"schema": text},
			shaping.Text.MediaType:     obj{"schema": text},
		}}}
	}
	get := func(id, summary string, params []any, ok obj, errs ...int) obj {
		op := obj{"operationId": id, "summary": summary, "responses": merge(ok, errorResponses(errs...))}
		if params != nil {
			op["parameters"] = params
		}
		return obj{"get": op}
	}
	paths := obj{
		"/capabilities": get("getCapabilities", "The server's identity, capabilities and formats", nil,
			jsonOK("the capabilities", obj{"type": "object"}), 406),
		"/openapi.json": get("getOpenAPI", "This description", nil,
			obj{"200": obj{"description": "OpenAPI 3.1", "content": obj{shaping.JSON.MediaType: obj{"schema": obj{"type": "object"}}}}}),
		"/tools":     get("listTools", "List tools", pageParams, jsonOK("a page of tools", obj{"type": "object"}), 400, 406),
		"/resources": get("listResources", "List resources", pageParams, jsonOK("a page of resources", obj{"type": "object"}), 400, 406),
		"/prompts":   get("listPrompts", "List prompts", pageParams, jsonOK("a page of prompts", obj{"type": "object"}), 400, 406),
		"/tools/{toolId}": get("getTool", "A tool", []any{idParam("toolId"), fieldsParam},
			jsonOK("the tool", obj{"type": "object"}), 400, 404, 406),
		"/tools/{toolId}/schema": get("getToolSchema", "A tool's input schema", []any{idParam("toolId"), fieldsParam},
			jsonOK("the input schema", obj{"type": "object"}), 400, 404, 406),
		"/resources/{resourceId}": get("getResource", "A resource's metadata (the id is its URI, escaped)",
			[]any{idParam("resourceId"), fieldsParam}, jsonOK("the resource", obj{"type": "object"}), 400, 404, 406),
		"/resources/{resourceId}/content": get("getResourceContent", "A resource's content, rendered as Accept asks; Range and conditional requests honoured",
			[]any{idParam("resourceId"), formatParam},
			obj{"200": obj{"description": "the content", "content": obj{"*/*": obj{"schema": obj{"type": "string"}}}},
				"206": obj{"description": "a range of the content", "content": obj{"*/*": obj{"schema": obj{"type": "string"}}}},
				"304": obj{"description": "not modified"}},
			400, 404, 406, 416),
		"/prompts/{promptId}": get("getPrompt", "A prompt", []any{idParam("promptId"), fieldsParam},
			jsonOK("the prompt", obj{"type": "object"}), 400, 404, 406),
	}
	paths["/prompts/{promptId}/render"] = obj{"post": obj{
		"operationId": "renderPrompt", "summary": "Render a prompt",
		"parameters": []any{idParam("promptId"), formatParam},
		"requestBody": obj{"content": obj{shaping.JSON.MediaType: obj{"schema": obj{"type": "object",
			"properties": obj{"arguments": obj{"type": "object", "additionalProperties": obj{"type": "string"}}}}}}},
		"responses": merge(obj{"200": obj{"description": "the rendered prompt", "content": obj{
			shaping.JSON.MediaType:     obj{"schema": obj{"type": "object"}},
			shaping.Markdown.MediaType: obj{"schema": text},
			shaping.Text.MediaType:     obj{"schema": text},
		}}}, errorResponses(400, 404, 406, 413)),
	}}
	schemas := obj{"Error": obj{
		"type":     "object",
		"required": []string{"status", "code", "message"},
		"properties": obj{
			"status":  obj{"type": "integer"},
			"code":    obj{"type": "string"},
			"message": obj{"type": "string"},
			"details": obj{"type": "array", "items": obj{"type": "object", "properties": obj{
				"field": obj{"type": "string"}, "error": obj{"type": "string"},
				"mediaType": obj{"type": "string"}, "format": obj{"type": "string"},
			}}},
		},
	}}
	for _, t := range tools {
		in, out := componentName(t.Name)+".input", componentName(t.Name)+".output"
		schemas[in] = json.RawMessage(component(t.InputSchema, in))
		structured := any(obj{})
		if len(t.OutputSchema) > 0 {
			schemas[out] = json.RawMessage(component(t.OutputSchema, out))
			structured = ref("schemas/" + out)
		}
		content := obj{shaping.JSON.MediaType: obj{"schema": obj{
			"type":     "object",
			"required": []string{"id", "status"},
			"properties": obj{
				"id":                obj{"type": "string"},
				"status":            obj{"type": "string", "const": "success"},
				"content":           obj{"type": "array", "items": obj{"type": "object"}},
				"structuredContent": structured,
				"_links":            obj{"type": "object"},
			},
		}}}
		for _, mt := range renderings[1:] {
			content[mt] = obj{"schema": text}
		}
		op := obj{
			"operationId": "execute_" + componentName(t.Name),
			"summary":     firstNonEmpty(t.Title, t.Name),
			"parameters":  []any{formatParam, fieldsParam},
			"requestBody": obj{"required": true, "content": obj{shaping.JSON.MediaType: obj{"schema": obj{
				"type": "object", "properties": obj{"arguments": ref("schemas/" + in)},
			}}}},
			"responses": merge(obj{"200": obj{"description": "the result, rendered as Accept asks", "content": content}},
				errorResponses(400, 406, 413, 422)),
		}
		if t.Description != "" {
			op["description"] = t.Description
		}
		paths["/tools/"+url.PathEscape(t.Name)+"/execute"] = obj{"post": op}
	}
	info := obj{"title": firstNonEmpty(s.Title, s.Name, "MCP server"), "version": firstNonEmpty(s.Version, "0")}
	if s.Instructions != "" {
		info["description"] = s.Instructions
	}
	server := h.base
	if server == "" {
		server = "/"
	}
	return obj{
		"openapi": "3.1.0",
		"info":    info,
		"servers": []any{obj{"url": server}},
		"paths":   paths,
		"components": obj{
			"schemas": schemas,
			"responses": obj{"Error": obj{"description": "the error body", "content": obj{
				shaping.JSON.MediaType: obj{"schema": ref("schemas/Error")},
			}}},
			"securitySchemes": obj{
				"bearer": obj{"type": "http", "scheme": "bearer"},
				"apiKey": obj{"type": "apiKey", "in": "header", "name": "X-API-Key"},
			},
		},
	}
}

// componentName makes a tool name a valid component key
// (^[a-zA-Z0-9._-]+$): any other byte becomes "_".
func componentName(name string) string {
	b := []byte(name)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			b[i] = '_'
		}
	}
	return string(b)
}

func formatNames(h *handler) []string {
	var out []string
	for _, mt := range h.neg.MediaTypes() {
		out = append(out, h.neg.FormatName(mt))
	}
	return out
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}
