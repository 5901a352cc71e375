package resttest

import (
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

// discovery: the capabilities, the base path, the index page for people in
// a browser, and the root that points to it.
func (s *suite) discovery(t *testing.T) {
	s.run(t, []exchange{
		{name: "capabilities", method: "GET", path: "/capabilities", status: 200, ctype: "application/json",
			has: []string{`"serverInfo":{`, `"tools":{"href":"` + s.base + `/tools"}`, `{"format":"markdown","mediaType":"text/markdown"}`}},
		{name: "the base path is the capabilities", method: "GET", path: "/", status: 200, ctype: "application/json", has: []string{`"serverInfo":{`}},
		{name: "capabilities as markdown", method: "GET", path: "/capabilities", header: map[string]string{"Accept": "text/markdown"}, status: 200, ctype: "text/markdown"},
		{name: "index page", method: "GET", path: "/", header: map[string]string{"Accept": "text/html"}, status: 200, ctype: "text/html",
			has: []string{s.f.Structured.Tool, "<form"}},
	})
	t.Run("index page policy", func(t *testing.T) {
		got := s.get(t, "/", "text/html")
		if csp := got.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") {
			t.Errorf("Content-Security-Policy %q, want default-src 'none'", csp)
		}
	})
	if s.base == "" {
		return
	}
	t.Run("the root points to the base path", func(t *testing.T) {
		got := s.get(t, "//", "text/html")
		if got.Status != http.StatusFound || got.Header.Get("Location") != s.base+"/" {
			t.Errorf("GET /: %d Location %q, want 302 to %s/", got.Status, got.Header.Get("Location"), s.base)
		}
	})
}

// openAPI: the document is valid OpenAPI 3.1 with one operation per tool,
// its responses listed by media type, structuredContent typed by the
// tool's output schema.
func (s *suite) openAPI(t *testing.T) {
	got := s.get(t, "/openapi.json", "")
	s.check(t, exchange{method: "GET", path: "/openapi.json", status: 200, ctype: "application/json", has: []string{`"openapi":"3.1.0"`}}, got)
	doc, err := openapi3.NewLoader().LoadFromData([]byte(got.Body))
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatalf("validate: %v", err)
	}
	if len(doc.Servers) == 0 || doc.Servers[0].URL != s.base && !(s.base == "" && doc.Servers[0].URL == "/") {
		t.Errorf("servers %v, want the base path %q", doc.Servers, s.base)
	}
	tools := s.ids(t, "tools", "?limit=500")
	if n := len(doc.Paths.Map()); n < len(tools) {
		t.Errorf("%d paths for %d tools", n, len(tools))
	}
	for _, tool := range tools {
		item := doc.Paths.Find(toolPath(tool, "execute"))
		if item == nil || item.Post == nil || item.Post.OperationID == "" {
			t.Errorf("%s: no operation", tool)
			continue
		}
		ok := item.Post.Responses.Value("200")
		if ok == nil || ok.Value == nil {
			t.Errorf("%s: no 200 response", tool)
			continue
		}
		for _, mt := range []string{"application/json", "text/markdown", "text/plain"} {
			if ok.Value.Content.Get(mt) == nil {
				t.Errorf("%s: no 200 response as %s", tool, mt)
			}
		}
		for _, code := range []string{"400", "406", "413", "422"} {
			if item.Post.Responses.Value(code) == nil {
				t.Errorf("%s: no %s response", tool, code)
			}
		}
	}
	type typedTool struct {
		tool   string
		output bool // structuredContent is typed by the tool's output schema
	}
	typed := []typedTool{{s.f.Structured.Tool, true}}
	if s.f.Plain.Tool != "" {
		typed = append(typed, typedTool{s.f.Plain.Tool, false})
	}
	for _, tt := range typed {
		item := doc.Paths.Find(toolPath(tt.tool, "execute"))
		if item == nil || item.Post == nil {
			continue // reported above
		}
		schema := item.Post.Responses.Value("200").Value.Content.Get("application/json").Schema
		structured := schema.Value.Properties["structuredContent"]
		if got := structured != nil && structured.Ref != ""; got != tt.output {
			t.Errorf("%s: structuredContent typed by an output schema: %v, want %v", tt.tool, got, tt.output)
		}
	}
}

// tools: the list, a tool, its schema, and executions as JSON.
func (s *suite) tools(t *testing.T) {
	st, pl := s.f.Structured, s.f.Plain
	s.run(t, []exchange{
		{name: "list", method: "GET", path: "/tools", status: 200, ctype: "application/json",
			has: []string{`"id":` + quote(st.Tool),
				`"execute":{"href":"` + s.base + toolPath(st.Tool, "execute") + `","method":"POST"}`,
				`"schema":{"href":"` + s.base + toolPath(st.Tool, "schema") + `"}`,
				`"self":{"href":"` + s.base + toolPath(st.Tool, "") + `"}`,
				`"self":{"href":"` + s.base + `/tools"}`}},
		{name: "list as text", method: "GET", path: "/tools", header: map[string]string{"Accept": "text/plain"}, status: 200, ctype: "text/plain", has: []string{st.Tool}},
		{name: "tool", method: "GET", path: toolPath(st.Tool, ""), status: 200, ctype: "application/json",
			has: []string{`"id":` + quote(st.Tool), `"inputSchema":{`, `"outputSchema":{`}},
		{name: "schema", method: "GET", path: toolPath(st.Tool, "schema"), status: 200, ctype: "application/json", hasNot: []string{"_links"}},
		{name: "execute", method: "POST", path: toolPath(st.Tool, "execute"), body: args(st.Arguments), status: 200, ctype: "application/json",
			has: []string{`"status":"success"`, `"id":"exec-`, `"content":[`, `"structuredContent":{`,
				`"self":{"href":"` + s.base + toolPath(st.Tool, "execute") + `","method":"POST"}`},
			headers: map[string]string{"Cache-Control": "no-store"}},
	})
	if pl.Tool == "" {
		return
	}
	s.run(t, []exchange{
		{name: "execute without structured content", method: "POST", path: toolPath(pl.Tool, "execute"), body: args(pl.Arguments), status: 200, ctype: "application/json",
			has: []string{`"status":"success"`, `"content":[`}, hasNot: []string{`"structuredContent"`}},
		{name: "execute without structured content, as text", method: "POST", path: toolPath(pl.Tool, "execute"), header: map[string]string{"Accept": "text/plain"}, body: args(pl.Arguments),
			status: 200, ctype: "text/plain", hasNot: []string{`"status":"success"`}},
	})
}

// paging: every list walked page by page with limit and the next links
// holds what one large page holds, in the same order.
func (s *suite) paging(t *testing.T) {
	for _, tt := range []struct {
		collection string
		limit      int
	}{{"tools", 2}, {"resources", 1}, {"prompts", 1}} {
		t.Run(tt.collection, func(t *testing.T) {
			all := s.ids(t, tt.collection, "?limit=500")
			var walked []string
			next := "/" + tt.collection + "?limit=" + strconv.Itoa(tt.limit)
			for page := 0; next != ""; page++ {
				if page > len(all) {
					t.Fatalf("more pages than items (%d)", len(all))
				}
				got := s.get(t, next, "")
				var body struct {
					Items      []json.RawMessage
					NextCursor string          `json:"nextCursor"`
					Templates  json.RawMessage `json:"resourceTemplates"`
					Links      struct {
						Next *struct {
							Href string `json:"href"`
						} `json:"next"`
					} `json:"_links"`
				}
				var m map[string]json.RawMessage
				decode(t, got, &m)
				decode(t, got, &body)
				ids := idsOf(t, m[tt.collection])
				if len(ids) > tt.limit {
					t.Errorf("page %d: %d items, over the limit %d", page, len(ids), tt.limit)
				}
				if page > 0 && body.Templates != nil {
					t.Errorf("page %d lists the resource templates again", page)
				}
				walked = append(walked, ids...)
				next = ""
				if (body.NextCursor == "") != (body.Links.Next == nil) {
					t.Fatalf("page %d: nextCursor %q and the next link %v disagree", page, body.NextCursor, body.Links.Next)
				}
				if body.Links.Next != nil {
					href, ok := strings.CutPrefix(body.Links.Next.Href, s.base)
					if !ok || !strings.Contains(href, "cursor="+url.QueryEscape(body.NextCursor)) {
						t.Fatalf("page %d: next link %q, want under %q with the cursor %q", page, body.Links.Next.Href, s.base, body.NextCursor)
					}
					next = href
				}
			}
			if !slices.Equal(walked, all) {
				t.Errorf("walked %v, want %v", walked, all)
			}
		})
	}
	s.run(t, []exchange{
		{name: "bad limit", method: "GET", path: "/tools?limit=0", status: 400, ctype: "application/json", has: []string{`"field":"limit"`}},
		{name: "bad limit and cursor", method: "GET", path: "/tools?limit=x&cursor=!!", status: 400, ctype: "application/json", has: []string{`"field":"limit"`, `"field":"cursor"`}},
	})
}

// ids lists the ids of one page of a collection.
func (s *suite) ids(t *testing.T, collection, query string) []string {
	t.Helper()
	got := s.get(t, "/"+collection+query, "")
	var m map[string]json.RawMessage
	decode(t, got, &m)
	if got.Status != 200 {
		t.Fatalf("GET /%s%s: %d %.500s", collection, query, got.Status, got.Body)
	}
	return idsOf(t, m[collection])
}

// idsOf is the ids of a listed array.
func idsOf(t *testing.T, list json.RawMessage) []string {
	t.Helper()
	var items []struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(list, &items); err != nil {
		t.Fatalf("list %.300s: %v", list, err)
	}
	ids := make([]string, 0, len(items))
	for _, it := range items {
		ids = append(ids, it.ID)
	}
	return ids
}

// negotiation: Accept (q-values, q=0, specificity, the server's order on
// ties, parameters), ?format, 406.
func (s *suite) negotiation(t *testing.T) {
	path, body := toolPath(s.f.Structured.Tool, "execute"), args(s.f.Structured.Arguments)
	accept := func(name, value string, status int, ctype string) exchange {
		return exchange{name: name, method: "POST", path: path, header: map[string]string{"Accept": value}, body: body, status: status, ctype: ctype}
	}
	tests := []exchange{
		accept("no Accept", "", 200, "application/json"),
		accept("*/*", "*/*", 200, "application/json"),
		accept("markdown", "text/markdown", 200, "text/markdown"),
		accept("text", "text/plain", 200, "text/plain"),
		accept("html", "text/html", 200, "text/html"),
		accept("q-values choose text over markdown", "text/markdown;q=0.5, text/plain;q=0.9", 200, "text/plain"),
		accept("q=0 excludes", "application/json;q=0, */*;q=0.1", 200, "text/markdown"),
		accept("specific beats a range", "text/*;q=0.9, text/markdown;q=0.1", 200, "text/plain"),
		accept("equal q: the server's order, not the client's", "text/plain, text/markdown", 200, "text/markdown"),
		accept("a range: the server's order", "text/*", 200, "text/markdown"),
		accept("parameters other than q", "text/plain; version=2024-11-05; charset=utf-8", 200, "text/plain"),
		accept("a quoted parameter", `text/markdown;version="a,b;c", application/json;q=0.1`, 200, "text/markdown"),
		accept("an Accept longer than any client sends", strings.Repeat("text/plain, ", 1000)+"text/plain", 406, "application/json"),
		{name: "format overrides Accept", method: "POST", path: path + "?format=markdown", header: map[string]string{"Accept": "text/plain"}, body: body, status: 200, ctype: "text/markdown"},
		{name: "format text", method: "POST", path: path + "?format=text", body: body, status: 200, ctype: "text/plain"},
		{name: "unknown format", method: "POST", path: path + "?format=xml", body: body, status: 400, ctype: "application/json", has: []string{`"field":"format"`}},
		{name: "406 lists what is available", method: "POST", path: path, header: map[string]string{"Accept": "image/png"}, body: body, status: 406, ctype: "application/json",
			has: []string{`"code":"NOT_ACCEPTABLE"`, `{"mediaType":"application/json","format":"json"}`, `{"mediaType":"text/markdown","format":"markdown"}`, `{"mediaType":"text/plain","format":"text"}`}},
		{name: "406 on a listing", method: "GET", path: "/tools", header: map[string]string{"Accept": "image/png"}, status: 406, ctype: "application/json"},
	}
	s.run(t, tests)
	t.Run("renderings are the rendering itself", func(t *testing.T) {
		for _, mt := range []string{"text/markdown", "text/plain"} {
			got := s.do(t, "POST", path, map[string]string{"Accept": mt}, body)
			if strings.TrimSpace(got.Body) == "" || strings.Contains(got.Body, `"status":"success"`) {
				t.Errorf("%s: %.300q, want the rendering, not the execution body", mt, got.Body)
			}
		}
	})
}

// verbosity: ?verbosity= for executions, resources and prompts; a value
// that is not one is a 400 before anything is called.
func (s *suite) verbosity(t *testing.T) {
	path, body := toolPath(s.f.Structured.Tool, "execute"), args(s.f.Structured.Arguments)
	render := promptPath(s.f.Prompt.Name, "render")
	tests := []exchange{
		{name: "compact text", method: "POST", path: path + "?format=text&verbosity=compact", body: body, status: 200, ctype: "text/plain"},
		{name: "standard", method: "POST", path: path + "?verbosity=standard", body: body, status: 200, ctype: "application/json"},
		{name: "any case", method: "POST", path: path + "?verbosity=VERBOSE&format=markdown", body: body, status: 200, ctype: "text/markdown"},
		{name: "resource content", method: "GET", path: resourcePath(s.f.Resource, "content") + "?verbosity=compact", status: 200, ctype: s.resourceType(t)},
		{name: "prompt", method: "POST", path: render + "?verbosity=compact", body: s.promptBody(nil), status: 200, ctype: "application/json"},
		{name: "unknown value", method: "POST", path: path + "?verbosity=loud", body: body, status: 400, ctype: "application/json", has: []string{`"field":"verbosity"`}},
		{name: "two values", method: "POST", path: path + "?verbosity=compact,verbose", body: body, status: 400, ctype: "application/json", has: []string{`"field":"verbosity"`}},
		{name: "unknown on a listing", method: "GET", path: "/tools?verbosity=2", status: 400, ctype: "application/json", has: []string{`"field":"verbosity"`}},
	}
	s.run(t, tests)
}

// fields: ?fields= projects the structured value of JSON answers,
// elements of arrays included; what names no field is a 400.
func (s *suite) fields(t *testing.T) {
	path, body := toolPath(s.f.Structured.Tool, "execute"), args(s.f.Structured.Arguments)
	t.Run("execute", func(t *testing.T) {
		var full struct {
			Structured map[string]json.RawMessage `json:"structuredContent"`
		}
		decode(t, s.do(t, "POST", path, nil, body), &full)
		if len(full.Structured) == 0 {
			t.Fatalf("%s: no structured content to project", s.f.Structured.Tool)
		}
		key := slices.Sorted(maps.Keys(full.Structured))[0]
		got := s.do(t, "POST", path+"?fields="+url.QueryEscape(key), nil, body)
		var projected map[string]json.RawMessage
		decode(t, got, &projected)
		var structured map[string]json.RawMessage
		if err := json.Unmarshal(projected["structuredContent"], &structured); err != nil || len(structured) != 1 || string(structured[key]) != string(full.Structured[key]) {
			t.Errorf("fields=%s: structuredContent %s, want only %s: %s", key, projected["structuredContent"], key, full.Structured[key])
		}
		if _, ok := projected["content"]; ok {
			t.Errorf("fields=%s: the content is still there", key)
		}
	})
	p := promptPath(s.f.Prompt.Name, "")
	s.run(t, []exchange{
		{name: "execute, unknown field", method: "POST", path: path + "?fields=no-such-field", body: body, status: 400, ctype: "application/json", has: []string{`unknown field \"no-such-field\"`}},
		{name: "ignored for text", method: "POST", path: path + "?fields=no-such-field&format=text", body: body, status: 200, ctype: "text/plain"},
		{name: "list, fields", method: "GET", path: "/tools?fields=name", status: 200, ctype: "application/json", has: []string{`{"name":` + quote(s.f.Structured.Tool) + `}`}, hasNot: []string{"inputSchema", "_links\":{\"execute"}},
		{name: "list, unknown field", method: "GET", path: "/tools?fields=name,colour", status: 400, ctype: "application/json", has: []string{`"code":"INVALID_PARAMETER"`, `unknown field \"colour\"`}},
		{name: "tool, nested field", method: "GET", path: toolPath(s.f.Structured.Tool, "") + "?fields=inputSchema.type", status: 200, ctype: "application/json", has: []string{`{"inputSchema":{"type":"object"}}`}},
		{name: "tool, not a field path", method: "GET", path: toolPath(s.f.Structured.Tool, "") + "?fields=a|b", status: 400, ctype: "application/json", has: []string{"not a field path"}},
		{name: "a field no element has", method: "GET", path: p + "?fields=arguments.%23.colour", status: 400, ctype: "application/json", has: []string{`unknown field \"arguments.#.colour\"`}},
		{name: "# on an object", method: "GET", path: p + "?fields=_links.%23.href", status: 400, ctype: "application/json", has: []string{"unknown field"}},
		{name: "a count is not a field", method: "GET", path: p + "?fields=arguments.%23", status: 400, ctype: "application/json", has: []string{"not a field path"}},
		{name: "modifier", method: "GET", path: p + "?fields=arguments.@reverse", status: 400, ctype: "application/json", has: []string{"not a field path"}},
		{name: "query", method: "GET", path: p + "?fields=arguments.%23(name==%22x%22).name", status: 400, ctype: "application/json", has: []string{"not a field path"}},
		{name: "wildcard", method: "GET", path: p + "?fields=argu*", status: 400, ctype: "application/json", has: []string{"not a field path"}},
	})
	t.Run("inside arrays", func(t *testing.T) {
		var full struct {
			Name      string           `json:"name"`
			Arguments []map[string]any `json:"arguments"`
		}
		decode(t, s.get(t, p, ""), &full)
		var got struct {
			Name      string           `json:"name"`
			Arguments []map[string]any `json:"arguments"`
		}
		decode(t, s.get(t, p+"?fields=arguments.%23.name,name", ""), &got)
		if got.Name != full.Name || len(got.Arguments) != len(full.Arguments) || len(full.Arguments) == 0 {
			t.Fatalf("got %+v from %+v", got, full)
		}
		for i, a := range got.Arguments {
			if len(a) != 1 || a["name"] != full.Arguments[i]["name"] {
				t.Errorf("argument %d: %v, want only the name of %v", i, a, full.Arguments[i])
			}
		}
	})
}

// validation: arguments against the tool's input schema, and bodies that
// are not what the endpoint reads.
func (s *suite) validation(t *testing.T) {
	inv := s.f.Invalid
	path := toolPath(s.f.Structured.Tool, "execute")
	form := map[string]string{"Content-Type": "application/x-www-form-urlencoded", "Origin": s.origin, "Sec-Fetch-Site": "same-origin"}
	curl := map[string]string{"Content-Type": "application/x-www-form-urlencoded"}
	s.run(t, []exchange{
		{name: "arguments against the schema", method: "POST", path: toolPath(inv.Tool, "execute"), body: args(inv.Arguments), status: 400, ctype: "application/json",
			has: []string{`"code":"INVALID_PARAMETER"`, `{"field":` + quote(inv.Field) + `,"error":`}},
		{name: "arguments not an object", method: "POST", path: path, body: `{"arguments":[1]}`, status: 400, ctype: "application/json", has: []string{`{"field":"arguments","error":"must be a JSON object"}`}},
		{name: "body not an object", method: "POST", path: path, body: `[1]`, status: 400, ctype: "application/json", has: []string{`"field":"body"`}},
		{name: "body not JSON", method: "POST", path: path, body: `city=Bern`, status: 400, ctype: "application/json", has: []string{`"field":"body"`}},
		{name: "body with trailing data", method: "POST", path: path, body: args(s.f.Structured.Arguments) + ` {}`, status: 400, ctype: "application/json"},
		{name: "unknown member", method: "POST", path: path, body: `{"arguments":` + s.f.Structured.Arguments + `,"args":{}}`, status: 400, ctype: "application/json", has: []string{`"field":"args"`}},
		{name: "413 past the default limit", method: "POST", path: path, body: `{"arguments":{"x":"` + strings.Repeat("x", 1<<20) + `"}}`, status: 413, ctype: "application/json", has: []string{`"code":"PAYLOAD_TOO_LARGE"`}},
		{name: "JSON with the form's content type, as curl -d sends it: refused", method: "POST", path: path, header: curl, body: args(s.f.Structured.Arguments), status: 403, ctype: "application/json", has: []string{`"code":"FORBIDDEN"`}},
		{name: "a form that cannot be read", method: "POST", path: path, header: form, body: "arg.x=%zz", status: 400, ctype: "application/json", has: []string{`"field":"body"`}},
	})
}

// errors: tool errors, unknown names, methods, paths, and what MCP cannot
// express; every one with the seed's body as JSON.
func (s *suite) errors(t *testing.T) {
	fail, st := s.f.Failing, s.f.Structured.Tool
	tests := []exchange{
		{name: "422 for a tool error", method: "POST", path: toolPath(fail.Tool, "execute"), body: args(fail.Arguments), status: 422, ctype: "application/json", has: []string{`"code":"TOOL_ERROR"`}},
		{name: "a tool error is JSON under Accept: text/plain", method: "POST", path: toolPath(fail.Tool, "execute"), header: map[string]string{"Accept": "text/plain"}, body: args(fail.Arguments), status: 422, ctype: "application/json"},
		{name: "unknown tool", method: "GET", path: "/tools/no-such-tool", status: 404, ctype: "application/json", has: []string{`"code":"NOT_FOUND"`}},
		{name: "schema of an unknown tool", method: "GET", path: "/tools/no-such-tool/schema", status: 404, ctype: "application/json"},
		{name: "execute an unknown tool", method: "POST", path: "/tools/no-such-tool/execute", body: `{"arguments":{}}`, status: 404, ctype: "application/json", has: []string{`"code":"NOT_FOUND"`}},
		{name: "an escaped slash is part of the id", method: "GET", path: toolPath(st+"/x", ""), status: 404, ctype: "application/json"},
		{name: "unknown resource", method: "GET", path: resourcePath("nope://no-such-resource", ""), status: 404, ctype: "application/json"},
		{name: "content of an unknown resource", method: "GET", path: resourcePath("nope://no-such-resource", "content"), status: 404, ctype: "application/json"},
		{name: "unknown prompt", method: "GET", path: "/prompts/no-such-prompt", status: 404, ctype: "application/json"},
		{name: "render an unknown prompt", method: "POST", path: "/prompts/no-such-prompt/render", body: `{}`, status: 404, ctype: "application/json"},
		{name: "unknown endpoint", method: "GET", path: toolPath(st, "nope"), status: 404, ctype: "application/json"},
		{name: "405", method: "DELETE", path: "/tools", status: 405, ctype: "application/json", has: []string{`"code":"METHOD_NOT_ALLOWED"`}, headers: map[string]string{"Allow": "GET, HEAD"}},
		{name: "405 on execute", method: "GET", path: toolPath(st, "execute"), status: 405, ctype: "application/json", headers: map[string]string{"Allow": "POST"}},
		{name: "create a resource", method: "POST", path: "/resources", body: `{"name":"x"}`, status: 501, ctype: "application/json", has: []string{`"code":"NOT_IMPLEMENTED"`}},
		{name: "update a resource", method: "PUT", path: resourcePath(s.f.Resource, ""), body: `{}`, status: 501, ctype: "application/json"},
		{name: "subscribe", method: "POST", path: "/subscriptions", body: `{}`, status: 501, ctype: "application/json", has: []string{"subscriptions"}},
		{name: "sampling", method: "POST", path: "/sampling/messages", body: `{}`, status: 501, ctype: "application/json", has: []string{"sampling"}},
		{name: "logging level", method: "POST", path: "/logging/level", body: `{}`, status: 501, ctype: "application/json", has: []string{"logging"}},
		{name: "logging stream", method: "GET", path: "/logging/stream", status: 501, ctype: "application/json"},
	}
	if s.base != "" {
		tests = append(tests,
			exchange{name: "404 outside the base path", method: "GET", path: "//other/tools", status: 404, ctype: "application/json"},
			exchange{name: "404 for a prefix of the base path", method: "GET", path: "//" + strings.TrimPrefix(s.base, "/") + "0/tools", status: 404, ctype: "application/json"},
		)
	}
	s.run(t, tests)
}

// resourceType is the media type the fixture's resource is listed with.
func (s *suite) resourceType(t *testing.T) string {
	t.Helper()
	var r struct {
		MIMEType string `json:"mimeType"`
	}
	decode(t, s.get(t, resourcePath(s.f.Resource, ""), ""), &r)
	if r.MIMEType == "" {
		t.Fatalf("%s is listed without a media type", s.f.Resource)
	}
	return r.MIMEType
}

// resources: the list, a resource, its content with ranges.
func (s *suite) resources(t *testing.T) {
	res := s.f.Resource
	tests := []exchange{
		{name: "list", method: "GET", path: "/resources", status: 200, ctype: "application/json",
			has: []string{`"id":` + quote(res), `"content":{"href":"` + s.base + resourcePath(res, "content") + `"}`}},
		{name: "resource", method: "GET", path: resourcePath(res, ""), status: 200, ctype: "application/json",
			has: []string{`"uri":` + quote(res), `"self":{"href":"` + s.base + resourcePath(res, "") + `"}`}},
	}
	if s.f.Templated != "" {
		tests = append(tests,
			exchange{name: "templates are listed", method: "GET", path: "/resources", status: 200, ctype: "application/json", has: []string{`"resourceTemplates":[{"uriTemplate":`, `"templated":true`}},
			exchange{name: "resource of a template", method: "GET", path: resourcePath(s.f.Templated, ""), status: 200, ctype: "application/json", has: []string{`"uri":` + quote(s.f.Templated)}},
			exchange{name: "content of a template", method: "GET", path: resourcePath(s.f.Templated, "content"), status: 200, ctype: s.typeOf(t, s.f.Templated)},
		)
	}
	s.run(t, tests)
	t.Run("content and ranges", func(t *testing.T) {
		path := resourcePath(res, "content")
		full := s.get(t, path, "")
		s.check(t, exchange{method: "GET", path: path, status: 200, ctype: s.resourceType(t), headers: map[string]string{"Accept-Ranges": "bytes"}}, full)
		n := len(full.Body)
		if n < 4 {
			t.Fatalf("%s: %d bytes, the fixture wants at least 4", res, n)
		}
		s.run(t, []exchange{
			{name: "206 on a Range", method: "GET", path: path, header: map[string]string{"Range": "bytes=0-3"}, status: 206, ctype: mediaType(full.Header),
				headers: map[string]string{"Content-Range": "bytes 0-3/" + strconv.Itoa(n), "Content-Length": "4"}},
			{name: "416 as JSON", method: "GET", path: path, header: map[string]string{"Range": "bytes=" + strconv.Itoa(n) + "-"}, status: 416, ctype: "application/json", has: []string{`"code":"RANGE_NOT_SATISFIABLE"`}},
		})
		if got := s.do(t, "GET", path, map[string]string{"Range": "bytes=0-3"}, ""); got.Body != full.Body[:4] {
			t.Errorf("bytes 0-3: %q, want %q", got.Body, full.Body[:4])
		}
	})
}

// typeOf is the media type of a resource's content as served.
func (s *suite) typeOf(t *testing.T, uri string) string {
	t.Helper()
	return mediaType(s.get(t, resourcePath(uri, "content"), "").Header)
}

// promptBody is a render body with the fixture's arguments and extra.
func (s *suite) promptBody(extra map[string]any) string {
	m := map[string]any{}
	for k, v := range s.f.Prompt.Arguments {
		m[k] = v
	}
	for k, v := range extra {
		m[k] = v
	}
	b, _ := json.Marshal(map[string]any{"arguments": m})
	return string(b)
}

// prompts: the list, a prompt, renderings, and arguments the prompt does
// not take.
func (s *suite) prompts(t *testing.T) {
	pr := s.f.Prompt
	render := promptPath(pr.Name, "render")
	missing := map[string]any{}
	for k := range pr.Arguments {
		if k != pr.Required {
			missing[k] = pr.Arguments[k]
		}
	}
	b, _ := json.Marshal(map[string]any{"arguments": missing})
	s.run(t, []exchange{
		{name: "list", method: "GET", path: "/prompts", status: 200, ctype: "application/json",
			has: []string{`"id":` + quote(pr.Name), `"render":{"href":"` + s.base + render + `","method":"POST"}`, `"name":` + quote(pr.Required)}},
		{name: "prompt", method: "GET", path: promptPath(pr.Name, ""), status: 200, ctype: "application/json", has: []string{`"name":` + quote(pr.Name)}},
		{name: "render", method: "POST", path: render, body: s.promptBody(nil), status: 200, ctype: "application/json",
			has: []string{`"messages":[`, `"prompt":{"href":"` + s.base + promptPath(pr.Name, "") + `"}`}},
		{name: "render as text", method: "POST", path: render, header: map[string]string{"Accept": "text/plain"}, body: s.promptBody(nil), status: 200, ctype: "text/plain"},
		{name: "a required argument missing", method: "POST", path: render, body: string(b), status: 400, ctype: "application/json",
			has: []string{`{"field":` + quote(pr.Required) + `,"error":"required"}`}},
		{name: "an argument it does not take", method: "POST", path: render, body: s.promptBody(map[string]any{"no-such-argument": "x"}), status: 400, ctype: "application/json",
			has: []string{`{"field":"no-such-argument","error":"the prompt takes no such argument"}`}},
		{name: "an argument that is not a string", method: "POST", path: render, body: s.promptBody(map[string]any{pr.Required: 5}), status: 400, ctype: "application/json",
			has: []string{`{"field":` + quote(pr.Required) + `,"error":"must be a string"}`}},
	})
}

// conditional: GET answers carry a strong ETag of the body and honour
// If-None-Match; HEAD is GET without the body.
func (s *suite) conditional(t *testing.T) {
	for _, path := range []string{"/tools", toolPath(s.f.Structured.Tool, ""), "/capabilities", resourcePath(s.f.Resource, "content"), "/openapi.json"} {
		t.Run(path, func(t *testing.T) {
			first := s.get(t, path, "")
			tag := first.Header.Get("ETag")
			if first.Status != 200 || !strings.HasPrefix(tag, `"`) {
				t.Fatalf("status %d, ETag %q: want 200 and a strong tag", first.Status, tag)
			}
			if got := s.do(t, "GET", path, map[string]string{"If-None-Match": tag}, ""); got.Status != 304 || got.Body != "" {
				t.Errorf("If-None-Match with the ETag: %d %q, want 304", got.Status, got.Body)
			}
			if got := s.do(t, "GET", path, map[string]string{"If-None-Match": `"other"`}, ""); got.Status != 200 || got.Body != first.Body {
				t.Errorf("If-None-Match with another tag: %d", got.Status)
			}
			head := s.do(t, "HEAD", path, nil, "")
			if head.Status != 200 || head.Body != "" || head.Header.Get("ETag") != tag {
				t.Errorf("HEAD: %d %q ETag %q, want 200, no body, ETag %q", head.Status, head.Body, head.Header.Get("ETag"), tag)
			}
		})
	}
}

// requestID: a valid X-Request-ID comes back (and names the execution),
// another is replaced by a fresh one.
func (s *suite) requestID(t *testing.T) {
	tests := []struct {
		give string
		keep bool
	}{
		{"abc-123.X:y_z", true},
		{"", false},
		{"has space", false},
		{strings.Repeat("a", 129), false},
	}
	for _, tt := range tests {
		got := s.do(t, "GET", "/tools", map[string]string{"X-Request-ID": tt.give}, "").Header.Get("X-Request-ID")
		if (got == tt.give) != tt.keep || got == "" {
			t.Errorf("X-Request-ID %q came back as %q; keep=%v", tt.give, got, tt.keep)
		}
	}
	got := s.do(t, "POST", toolPath(s.f.Structured.Tool, "execute"), map[string]string{"X-Request-ID": "trace-1"}, args(s.f.Structured.Arguments))
	if !strings.Contains(got.Body, `"id":"exec-trace-1"`) {
		t.Errorf("the execution id does not carry the request's: %.300s", got.Body)
	}
}

// operations: the health check.
func (s *suite) operations(t *testing.T) {
	tests := []struct {
		method string
		status int
		body   string
	}{
		{"GET", 200, `{"status":"ok"}`},
		{"HEAD", 200, ""},
		{"POST", 405, `"code":"METHOD_NOT_ALLOWED"`},
	}
	for _, tt := range tests {
		got := s.do(t, tt.method, "/healthz", nil, "")
		if got.Status != tt.status || !strings.Contains(got.Body, tt.body) || tt.body == "" && got.Body != "" {
			t.Errorf("%s /healthz: %d %q, want %d %q", tt.method, got.Status, got.Body, tt.status, tt.body)
		}
		if tt.status == 200 && (mediaType(got.Header) != "application/json" || got.Header.Get("Cache-Control") != "no-store") {
			t.Errorf("%s /healthz: headers %v", tt.method, got.Header)
		}
	}
}

// cors: off unless the fixture names an allowed origin; on, preflights
// from it are answered and others refused, credentials never allowed.
func (s *suite) cors(t *testing.T) {
	const other = "https://other.example"
	execute := toolPath(s.f.Structured.Tool, "execute")
	preflight := func(origin string) map[string]string {
		return map[string]string{"Origin": origin, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type, x-api-key"}
	}
	tests := []corsCase{
		{name: "preflight", method: "OPTIONS", path: execute, header: preflight(s.f.CORSOrigin), status: 204, acao: s.f.CORSOrigin, methods: true},
		{name: "a request", method: "GET", path: "/tools", header: map[string]string{"Origin": s.f.CORSOrigin}, status: 200, acao: s.f.CORSOrigin},
		{name: "preflight from another origin", method: "OPTIONS", path: execute, header: preflight(other), status: 403},
		{name: "a request from another origin", method: "GET", path: "/tools", header: map[string]string{"Origin": other}, status: 200},
	}
	if s.f.CORSOrigin == "" {
		tests = []corsCase{
			{name: "off: a preflight is refused", method: "OPTIONS", path: execute, header: preflight(other), status: 405},
			{name: "off: no header on a request", method: "GET", path: "/tools", header: map[string]string{"Origin": other}, status: 200},
		}
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := s.do(t, tt.method, tt.path, tt.header, "")
			if got.Status != tt.status {
				t.Errorf("status %d, want %d: %.300s", got.Status, tt.status, got.Body)
			}
			if g := got.Header.Get("Access-Control-Allow-Origin"); g != tt.acao {
				t.Errorf("Access-Control-Allow-Origin %q, want %q", g, tt.acao)
			}
			if g := got.Header.Get("Access-Control-Allow-Methods"); (g != "") != tt.methods || tt.methods && !strings.Contains(g, "POST") {
				t.Errorf("Access-Control-Allow-Methods %q", g)
			}
			if tt.methods && !strings.Contains(strings.ToLower(got.Header.Get("Access-Control-Allow-Headers")), "x-api-key") {
				t.Errorf("Access-Control-Allow-Headers %q", got.Header.Get("Access-Control-Allow-Headers"))
			}
			if got.Header.Get("Access-Control-Allow-Credentials") != "" {
				t.Error("credentials allowed")
			}
		})
	}
}

// corsCase is one request of the CORS checks and what its answer carries.
type corsCase struct {
	name    string
	method  string
	path    string
	header  map[string]string
	status  int
	acao    string // Access-Control-Allow-Origin
	methods bool   // Access-Control-Allow-Methods and -Headers
}

// browser is the headers a browser sends with fetch(url, {method: "POST",
// mode: "no-cors", headers: {"Content-Type": ct}, body}) from a page of
// another site: a "simple" request, sent without a preflight (no
// Content-Type when ct is "").
func browser(ct string) map[string]string {
	h := map[string]string{
		"Accept": "*/*", "Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site",
		"Sec-Fetch-Mode": "no-cors", "Sec-Fetch-Dest": "empty",
		"User-Agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
	}
	if ct != "" {
		h["Content-Type"] = ct
	}
	return h
}

// crossSite: a page of another site cannot run a tool or a prompt, with
// any body a browser sends without a preflight or with JSON; a program's
// JSON and this origin's own page can (contract section 8, "Cross-site
// requests").
func (s *suite) crossSite(t *testing.T) {
	execute := toolPath(s.f.Structured.Tool, "execute")
	render := promptPath(s.f.Prompt.Name, "render")
	body := args(s.f.Structured.Arguments)
	forbidden := []string{`"code":"FORBIDDEN"`}
	form := browser("application/x-www-form-urlencoded")
	form["Sec-Fetch-Mode"], form["Sec-Fetch-Dest"] = "navigate", "document"
	here := map[string]string{"Origin": s.origin, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/json"}
	s.run(t, []exchange{
		{name: "no-cors fetch, text/plain", method: "POST", path: execute, header: browser("text/plain;charset=UTF-8"), body: body, status: 403, ctype: "application/json", has: forbidden},
		{name: "no-cors fetch, form-urlencoded", method: "POST", path: execute, header: browser("application/x-www-form-urlencoded;charset=UTF-8"), body: body, status: 403, ctype: "application/json", has: forbidden},
		{name: "no-cors fetch, multipart", method: "POST", path: execute, header: browser("multipart/form-data; boundary=----WebKitFormBoundaryu7oxE2OV9bHQhS6H"), body: body, status: 403, ctype: "application/json", has: forbidden},
		{name: "no-cors fetch, no body", method: "POST", path: execute, header: browser(""), status: 403, ctype: "application/json", has: forbidden},
		{name: "no-cors fetch of a prompt", method: "POST", path: render, header: browser("text/plain"), body: s.promptBody(nil), status: 403, ctype: "application/json", has: forbidden},
		{name: "an HTML form of another site", method: "POST", path: execute, header: form, body: "arg.x=1", status: 403, ctype: "application/json", has: forbidden},
		{name: "JSON from another origin", method: "POST", path: execute, header: browser("application/json"), body: body, status: 403, ctype: "application/json", has: forbidden},
		{name: "JSON from this origin's page", method: "POST", path: execute, header: here, body: body, status: 200, ctype: "application/json"},
		{name: "JSON from a program", method: "POST", path: execute, body: body, status: 200, ctype: "application/json"},
	})
}

// rebinding: a server on a loopback address answers loopback Host names
// only (contract section 8): a page of a name whose DNS points at it
// reads nothing.
func (s *suite) rebinding(t *testing.T) {
	u, _ := url.Parse(s.origin)
	host, port := u.Hostname(), u.Port()
	if ip, err := netip.ParseAddr(host); host != "localhost" && (err != nil || !ip.IsLoopback()) {
		t.Skip("the server is not on a loopback address")
	}
	if port != "" {
		port = ":" + port
	}
	forbidden := []string{`"code":"FORBIDDEN"`}
	s.run(t, []exchange{
		{name: "a rebound name", method: "GET", path: "/tools", header: map[string]string{"Host": "rebind.attacker.example" + port}, status: 403, ctype: "application/json", has: forbidden},
		{name: "a rebound name runs nothing", method: "POST", path: toolPath(s.f.Structured.Tool, "execute"), header: map[string]string{"Host": "rebind.attacker.example"}, body: args(s.f.Structured.Arguments), status: 403, ctype: "application/json", has: forbidden},
		{name: "localhost", method: "GET", path: "/tools", header: map[string]string{"Host": "localhost" + port}, status: 200, ctype: "application/json"},
		{name: "127.0.0.1", method: "GET", path: "/tools", header: map[string]string{"Host": "127.0.0.1" + port}, status: 200, ctype: "application/json"},
	})
}
