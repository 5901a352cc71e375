package rest_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/contentneg/contentneg/rest"
)

func TestHealthz(t *testing.T) {
	f := newFake()
	tests := []struct {
		name    string
		handler http.Handler
		method  string
		status  int
		body    string
	}{
		{"GET", rest.New(f, &rest.Options{BasePath: "/mcp/v1"}), "GET", 200, `{"status":"ok"}` + "\n"},
		{"HEAD", rest.New(f, &rest.Options{BasePath: "/mcp/v1"}), "HEAD", 200, ""},
		{"POST is not allowed", rest.New(f, &rest.Options{BasePath: "/mcp/v1"}), "POST", 405, `"code":"METHOD_NOT_ALLOWED"`},
		{"public behind an API key", rest.New(f, &rest.Options{BasePath: "/mcp/v1", APIKey: "k"}), "GET", 200, `{"status":"ok"}`},
		{"200 while the backend fails", rest.New(failing{f}, &rest.Options{BasePath: "/mcp/v1"}), "GET", 200, `{"status":"ok"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := viaRecorder(t, tt.handler, httptest.NewRequest(tt.method, "/mcp/v1/healthz", nil))
			if got.status != tt.status || !strings.Contains(got.body, tt.body) || tt.body == "" && got.body != "" {
				t.Errorf("%d %q, want %d %q", got.status, got.body, tt.status, tt.body)
			}
			if tt.status == 200 && (got.header.Get("Content-Type") != "application/json" || got.header.Get("Cache-Control") != "no-store") {
				t.Errorf("headers %v", got.header)
			}
		})
	}
}

func TestCORS(t *testing.T) {
	const app = "https://app.example"
	preflight := map[string]string{"Origin": app, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type, x-api-key"}
	tests := []struct {
		name    string
		origins []string
		key     string
		method  string
		path    string
		header  map[string]string
		status  int
		acao    string // Access-Control-Allow-Origin
		methods string // Access-Control-Allow-Methods
		vary    bool   // Vary: Origin
	}{
		{name: "off: a preflight is refused", method: "OPTIONS", path: echo, header: preflight, status: 405},
		{name: "off: no header on a request", method: "GET", path: "/mcp/v1/tools", header: map[string]string{"Origin": app}, status: 200},
		{name: "preflight from an allowed origin", origins: []string{app}, method: "OPTIONS", path: echo, header: preflight, status: 204, acao: app, methods: "GET, HEAD, POST", vary: true},
		{name: "origins compare without case and trailing slash", origins: []string{" HTTPS://App.Example/ "}, method: "OPTIONS", path: echo, header: preflight, status: 204, acao: app, methods: "GET, HEAD, POST", vary: true},
		{name: "preflight from another origin", origins: []string{app}, method: "OPTIONS", path: echo,
			header: map[string]string{"Origin": "https://evil.example", "Access-Control-Request-Method": "POST"}, status: 403, vary: true},
		{name: "a request from an allowed origin", origins: []string{app}, method: "GET", path: "/mcp/v1/tools", header: map[string]string{"Origin": app}, status: 200, acao: app, vary: true},
		{name: "a request from another origin", origins: []string{app}, method: "GET", path: "/mcp/v1/tools", header: map[string]string{"Origin": "https://evil.example"}, status: 200, vary: true},
		{name: "the null origin is never allowed", origins: []string{"*"}, method: "GET", path: "/mcp/v1/tools", header: map[string]string{"Origin": "null"}, status: 200, vary: true},
		{name: "any origin", origins: []string{"*"}, method: "GET", path: "/mcp/v1/tools", header: map[string]string{"Origin": "http://localhost:3000"}, status: 200, acao: "http://localhost:3000", vary: true},
		{name: "empty entries leave CORS off", origins: []string{"", " "}, method: "OPTIONS", path: echo, header: preflight, status: 405},
		{name: "a preflight needs no API key", origins: []string{app}, key: "k", method: "OPTIONS", path: echo, header: preflight, status: 204, acao: app, methods: "GET, HEAD, POST", vary: true},
		{name: "an allowed page can read the 401", origins: []string{app}, key: "k", method: "GET", path: "/mcp/v1/tools", header: map[string]string{"Origin": app}, status: 401, acao: app, vary: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := rest.New(newFake(), &rest.Options{BasePath: "/mcp/v1", CORS: tt.origins, APIKey: tt.key})
			got := viaRecorder(t, h, newRequest(exchange{method: tt.method, path: tt.path, header: tt.header}))
			if got.status != tt.status {
				t.Errorf("status %d, want %d: %s", got.status, tt.status, got.body)
			}
			if g := got.header.Get("Access-Control-Allow-Origin"); g != tt.acao {
				t.Errorf("Access-Control-Allow-Origin %q, want %q", g, tt.acao)
			}
			if g := got.header.Get("Access-Control-Allow-Methods"); g != tt.methods {
				t.Errorf("Access-Control-Allow-Methods %q, want %q", g, tt.methods)
			}
			if tt.methods != "" && !strings.Contains(strings.ToLower(got.header.Get("Access-Control-Allow-Headers")), "x-api-key") {
				t.Errorf("Access-Control-Allow-Headers %q", got.header.Get("Access-Control-Allow-Headers"))
			}
			if g := strings.Contains(strings.Join(got.header.Values("Vary"), ","), "Origin"); g != tt.vary {
				t.Errorf("Vary %v, want Origin %v", got.header.Values("Vary"), tt.vary)
			}
			if got.header.Get("Access-Control-Allow-Credentials") != "" {
				t.Error("credentials allowed")
			}
		})
	}
}

// TestCallTimeoutValues: 0 and negative values mean the 60-second default;
// a call past the timeout is a 504 (TestTimeoutAndBackendFailure).
func TestCallTimeoutValues(t *testing.T) {
	tests := []struct {
		give time.Duration
		want string
	}{
		{0, "deadline in 60s"},
		{-time.Second, "deadline in 60s"},
		{2 * time.Minute, "deadline in 120s"},
	}
	for _, tt := range tests {
		h := rest.New(newFake(), &rest.Options{CallTimeout: tt.give})
		req := postJSON("/tools/t0/execute?format=text", strings.NewReader(`{}`))
		if got := viaRecorder(t, h, req); got.status != 200 || got.body != tt.want {
			t.Errorf("CallTimeout %v: %d %q, want %q", tt.give, got.status, got.body, tt.want)
		}
	}
}

func TestVerbosity(t *testing.T) {
	tests := []struct {
		name, method, path, body string
		status                   int
		declared                 string // the features the backend saw
	}{
		{"compact text", "POST", echo + "?format=text&verbosity=compact", `{"arguments":{"city":"Bern"}}`, 200, "format=text verbosity=compact !interactive"},
		{"any case", "POST", echo + "?verbosity=VERBOSE", `{"arguments":{"city":"Bern"}}`, 200, "format=json verbosity=verbose !interactive"},
		{"none", "POST", echo, `{"arguments":{"city":"Bern"}}`, 200, "format=json !interactive"},
		{"resource content", "GET", "/mcp/v1/resources/data:%2F%2Fjson/content?verbosity=standard", "", 200, "format=json verbosity=standard !interactive"},
		{"prompt", "POST", "/mcp/v1/prompts/greet/render?verbosity=compact", `{"arguments":{"name":"Ada"}}`, 200, "format=json verbosity=compact !interactive"},
		{"unknown value", "POST", echo + "?verbosity=loud", `{"arguments":{"city":"Bern"}}`, 400, ""},
		{"empty tag syntax", "POST", echo + "?verbosity=compact,verbose", `{"arguments":{"city":"Bern"}}`, 400, ""},
		{"unknown on a listing", "GET", "/mcp/v1/tools?verbosity=2", "", 400, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, f := newTestHandler(t)
			got := viaRecorder(t, h, newRequest(exchange{method: tt.method, path: tt.path, body: tt.body}))
			if got.status != tt.status {
				t.Fatalf("status %d, want %d: %s", got.status, tt.status, got.body)
			}
			if tt.status == 400 {
				if !strings.Contains(got.body, `"field":"verbosity"`) {
					t.Errorf("400 without a verbosity detail: %s", got.body)
				}
				if f.lastDeclared() != nil {
					t.Errorf("the backend was called: %v", f.lastDeclared())
				}
				return
			}
			if d := strings.Join(f.lastDeclared(), " "); d != tt.declared {
				t.Errorf("declared %q, want %q", d, tt.declared)
			}
		})
	}
}

func TestFieldsInsideArrays(t *testing.T) {
	const greet = "/mcp/v1/prompts/greet"
	tests := []struct {
		name   string
		fields string
		status int
		want   string
	}{
		{"one field of every element", "arguments.%23.name", 200, `{"arguments":[{"name":"name"},{"name":"tone"}]}`},
		{"two fields, merged per element", "arguments.%23.name,arguments.%23.required,name", 200, `{"arguments":[{"name":"name","required":true},{"name":"tone","required":false}],"name":"greet"}`},
		{"an index still selects one element", "arguments.1.name", 200, `{"arguments":{"1":{"name":"tone"}}}`},
		{"a field no element has", "arguments.%23.colour", 400, `unknown field \"arguments.#.colour\"`},
		{"# on an object", "_links.%23.href", 400, `unknown field`},
		{"a count is not a field", "arguments.%23", 400, "not a field path"},
		{"modifier", "arguments.@reverse", 400, "not a field path"},
		{"pipe", "arguments|name", 400, "not a field path"},
		{"query", "arguments.%23(name==%22tone%22).name", 400, "not a field path"},
		{"wildcard", "argu*", 400, "not a field path"},
	}
	h, _ := newTestHandler(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := viaRecorder(t, h, httptest.NewRequest("GET", greet+"?fields="+tt.fields, nil))
			if got.status != tt.status || !strings.Contains(got.body, tt.want) {
				t.Errorf("%d %s, want %d %s", got.status, got.body, tt.status, tt.want)
			}
		})
	}
}

// TestFormContentTypeWithJSON: curl -d sends JSON with the form's content
// type; the body is read as JSON, not as a form, and a form body is bounded.
func TestFormContentTypeWithJSON(t *testing.T) {
	// httptest.NewRequest's host: the index page's own origin.
	here := map[string]string{"Origin": "http://example.com", "Sec-Fetch-Site": "same-origin"}
	tests := []struct {
		name, body string
		header     map[string]string
		status     int
		has        string
	}{
		{"JSON, as curl -d sends it: refused", `{"arguments":{"city":"Bern"}}`, nil, 403, `"code":"FORBIDDEN"`},
		{"a form, not from a browser: refused", "arg.city=Bern&_format=text", nil, 403, `"code":"FORBIDDEN"`},
		{"JSON after white space, from this origin", "\n {\"arguments\":{\"city\":\"Bern\"}}", here, 200, `"city":"Bern"`},
		{"an empty body, from this origin", "", here, 400, `"field":"city"`},
		{"a form from this origin", "arg.city=Bern&_format=text", here, 200, "<pre>text:{&#34;city&#34;:&#34;Bern&#34;}</pre>"},
		{"a form too large", "arg.city=" + strings.Repeat("x", 2<<20), here, 413, `"code":"PAYLOAD_TOO_LARGE"`},
		{"a form that cannot be read", "arg.city=%zz", here, 400, `"field":"body"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, _ := newTestHandler(t)
			header := map[string]string{"Content-Type": "application/x-www-form-urlencoded"}
			for k, v := range tt.header {
				header[k] = v
			}
			got := viaRecorder(t, h, newRequest(exchange{method: "POST", path: echo, body: tt.body, header: header}))
			if got.status != tt.status || !strings.Contains(got.body, tt.has) {
				t.Errorf("%d %.300s, want %d with %s", got.status, got.body, tt.status, tt.has)
			}
		})
	}
}
