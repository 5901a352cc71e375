// Package resttest checks a running HTTP server against the REST binding
// of the contract (section 8), as a black box: it only sends requests to a
// base URL and reads the answers, so the same suite runs against the
// handler of [rest.New] over any backend, the gateway's REST front end, or
// any other implementation. A [Fixture] names what the server offers (a tool
// with structured output, one without, a resource, a prompt); the suite
// never assumes more.
//
// It never starts servers and never checks what only the server's author
// can know (exact renderings, a backend's calls): those belong in the
// server's own tests.
package resttest

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/contentneg/contentneg/rest"
)

// Fixture names what the server under test offers. Arguments are JSON
// objects as a client writes them in {"arguments": ...}.
type Fixture struct {
	// Structured is a tool with an output schema and a successful call
	// whose result has structured content (a JSON object).
	Structured Call
	// Plain is a tool without an output schema and a successful call; a
	// zero Plain skips its checks.
	Plain Call
	// Invalid is a call whose arguments fail its tool's input schema;
	// Field is the argument the 400's details must name.
	Invalid Invalid
	// Failing is a call that ends as a tool error (isError).
	Failing Call
	// Resource is the URI of a listed resource with text content of at
	// least 4 bytes.
	Resource string
	// Templated is a URI made from a listed resource template, which the
	// server reads; "" skips the template checks.
	Templated string
	// Prompt is a prompt with at least one argument, one of them required.
	Prompt Prompt
	// CORSOrigin is an origin the server lets call it (Options.CORS); ""
	// means CORS is off and the suite checks that it is.
	CORSOrigin string
}

// Call is a tool and the arguments of one call.
type Call struct {
	Tool      string
	Arguments string
}

// Invalid is a call that fails its tool's input schema at Field.
type Invalid struct {
	Call
	Field string
}

// Prompt is a prompt, the arguments of a render that succeeds, and the
// name of a required argument.
type Prompt struct {
	Name      string
	Arguments map[string]string
	Required  string
}

// Run checks the server at baseURL (the binding's base path included, as
// in "http://127.0.0.1:8080/mcp/v1") against section 8 of the contract,
// one subtest per area. The server is expected to refuse what a page of
// another site may send (a POST that is not application/json, from an
// origin CORS does not allow) and, when baseURL is a loopback address, to
// answer loopback Host names only. It is expected to have the binding's
// defaults (a 1 MiB body limit, no API key) and CORS as the fixture says;
// the suite makes about 200 requests, some of them calls of the fixture's
// tools, so it needs a server whose tools can be called freely.
func Run(t *testing.T, baseURL string, f Fixture) {
	t.Helper()
	u, err := url.Parse(strings.TrimRight(baseURL, "/"))
	if err != nil || u.Scheme == "" || u.Host == "" {
		t.Fatalf("base URL %q: want an absolute http URL (%v)", baseURL, err)
	}
	s := &suite{
		f:      f,
		origin: u.Scheme + "://" + u.Host,
		base:   u.Path,
		client: &http.Client{
			Timeout:       time.Minute,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		},
	}
	areas := []struct {
		name string
		run  func(*testing.T)
	}{
		{"discovery", s.discovery},
		{"openapi", s.openAPI},
		{"tools", s.tools},
		{"paging", s.paging},
		{"negotiation", s.negotiation},
		{"verbosity", s.verbosity},
		{"fields", s.fields},
		{"validation", s.validation},
		{"errors", s.errors},
		{"resources", s.resources},
		{"prompts", s.prompts},
		{"conditional", s.conditional},
		{"request id", s.requestID},
		{"operations", s.operations},
		{"cors", s.cors},
		{"cross-site", s.crossSite},
		{"dns rebinding", s.rebinding},
	}
	for _, a := range areas {
		t.Run(a.name, a.run)
	}
}

// suite is one run of the checks.
type suite struct {
	f      Fixture
	origin string // scheme and host
	base   string // the base path, "" for the root
	client *http.Client
}

// Response is what a check sees of one answer.
type Response struct {
	Status int
	Header http.Header
	Body   string
}

// exchange is one request and what its answer must be.
type exchange struct {
	name   string
	method string
	path   string // below the base path, or from the origin when it starts with "//"
	header map[string]string
	body   string
	status int
	ctype  string   // the Content-Type's media type ("" for none)
	has    []string // substrings the body must hold
	hasNot []string
	// headers the answer must carry, with these values.
	headers map[string]string
}

// url is the absolute URL of a path of an exchange.
func (s *suite) url(path string) string {
	if rest, ok := strings.CutPrefix(path, "//"); ok {
		return s.origin + "/" + rest
	}
	return s.origin + s.base + path
}

// do sends one request.
func (s *suite) do(t *testing.T, method, path string, header map[string]string, body string) Response {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, s.url(path), r)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range header {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := s.client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: read the body: %v", method, path, err)
	}
	return Response{resp.StatusCode, resp.Header, string(b)}
}

// get is a GET with an Accept header ("" for none).
func (s *suite) get(t *testing.T, path, accept string) Response {
	t.Helper()
	var h map[string]string
	if accept != "" {
		h = map[string]string{"Accept": accept}
	}
	return s.do(t, http.MethodGet, path, h, "")
}

// run runs a table of exchanges, one subtest each.
func (s *suite) run(t *testing.T, tests []exchange) {
	t.Helper()
	for _, x := range tests {
		t.Run(x.name, func(t *testing.T) {
			s.check(t, x, s.do(t, x.method, x.path, x.header, x.body))
		})
	}
}

// check asserts what x wants of got, and what the contract wants of
// every answer (see [CheckResponse]).
func (s *suite) check(t *testing.T, x exchange, got Response) {
	t.Helper()
	if got.Status != x.status {
		t.Errorf("%s %s: status %d, want %d; body %.500s", x.method, x.path, got.Status, x.status, got.Body)
	}
	if ct := mediaType(got.Header); ct != x.ctype {
		t.Errorf("%s %s: Content-Type %q, want %q", x.method, x.path, got.Header.Get("Content-Type"), x.ctype)
	}
	for _, sub := range x.has {
		if !strings.Contains(got.Body, sub) {
			t.Errorf("%s %s: the body lacks %q:\n%.1000s", x.method, x.path, sub, got.Body)
		}
	}
	for _, sub := range x.hasNot {
		if strings.Contains(got.Body, sub) {
			t.Errorf("%s %s: the body holds %q:\n%.1000s", x.method, x.path, sub, got.Body)
		}
	}
	for k, v := range x.headers {
		if g := got.Header.Get(k); g != v {
			t.Errorf("%s %s: header %s = %q, want %q", x.method, x.path, k, g, v)
		}
	}
	CheckResponse(t, x.method, got)
}

// CheckResponse asserts what the contract wants of every answer of the
// binding to a request with this method: Vary: Accept, an X-Request-ID, a
// Cache-Control (but on a 304), charset=utf-8 on text, an ETag on a
// successful GET, and the seed's error body (as application/json, its
// status the answer's, a code and a message) on every error.
func CheckResponse(t testing.TB, method string, got Response) {
	t.Helper()
	if !strings.Contains(strings.Join(got.Header.Values("Vary"), ","), "Accept") {
		t.Errorf("no Vary: Accept (%v)", got.Header.Values("Vary"))
	}
	if got.Header.Get("X-Request-ID") == "" {
		t.Error("no X-Request-ID")
	}
	if got.Header.Get("Cache-Control") == "" && got.Status != http.StatusNotModified {
		t.Error("no Cache-Control")
	}
	if ct := got.Header.Get("Content-Type"); strings.HasPrefix(ct, "text/") && !strings.Contains(ct, "charset=utf-8") {
		t.Errorf("Content-Type %q has no charset", ct)
	}
	if method == http.MethodGet && got.Status == http.StatusOK && got.Header.Get("ETag") == "" {
		t.Error("a GET without ETag")
	}
	if got.Status >= 400 {
		var e rest.Error
		if err := json.Unmarshal([]byte(got.Body), &e); err != nil || e.Status != got.Status || e.Code == "" || e.Message == "" {
			t.Errorf("error body %.500q is not the seed's (%v)", got.Body, err)
		}
		if ct := mediaType(got.Header); ct != "application/json" {
			t.Errorf("an error as %q, want application/json", ct)
		}
	}
}

// mediaType is the media type of the Content-Type, without parameters.
func mediaType(h http.Header) string {
	ct, _, _ := strings.Cut(h.Get("Content-Type"), ";")
	return strings.TrimSpace(ct)
}

// decode unmarshals a JSON body, or fails the test.
func decode(t *testing.T, r Response, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(r.Body), v); err != nil {
		t.Fatalf("status %d, body not JSON (%v): %.500s", r.Status, err, r.Body)
	}
}

// args is the body of an execution with these arguments.
func args(arguments string) string { return `{"arguments":` + arguments + `}` }

// toolPath is the path of a tool's endpoint ("" for the tool itself).
func toolPath(tool, endpoint string) string {
	p := "/tools/" + url.PathEscape(tool)
	if endpoint != "" {
		p += "/" + endpoint
	}
	return p
}

// resourcePath is the path of a resource's endpoint ("" for the resource).
func resourcePath(uri, endpoint string) string {
	p := "/resources/" + url.PathEscape(uri)
	if endpoint != "" {
		p += "/" + endpoint
	}
	return p
}

// promptPath is the path of a prompt's endpoint ("" for the prompt).
func promptPath(name, endpoint string) string {
	p := "/prompts/" + url.PathEscape(name)
	if endpoint != "" {
		p += "/" + endpoint
	}
	return p
}

// quote is s as a JSON string.
func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
