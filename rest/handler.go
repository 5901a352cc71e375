package rest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/contentneg/contentneg/internal/hostcheck"
	"github.com/contentneg/contentneg/shaping"
)

// The defaults of [Options], and the bounds of a list's page (?limit=).
const (
	defaultMaxBodyBytes = 1 << 20
	defaultCallTimeout  = 60 * time.Second
	defaultCatalogTTL   = time.Second
	defaultBodyTimeout  = 30 * time.Second
	defaultLimit        = 50
	maxLimit            = 500
)

// Options configures the handler [New] returns. A nil *Options means the
// defaults.
type Options struct {
	// BasePath is the path the API is served under ("/mcp/v1"); empty
	// means the root. Requests outside it get 404.
	BasePath string
	// Negotiator knows the media types the server renders: pass the
	// middleware's (Shaper().Negotiator()) so that formats the server added
	// (format=csv) are negotiable by Accept. nil means the built-in json,
	// markdown, text and toon.
	Negotiator *shaping.Negotiator
	// MaxBodyBytes limits request bodies (413 beyond); 0 means 1 MiB.
	MaxBodyBytes int64
	// CallTimeout bounds every call to the backend (504 beyond); 0 or a
	// negative value means 60 seconds (contract section 8).
	CallTimeout time.Duration
	// BodyTimeout bounds the time a request's body may take to arrive,
	// counted from the moment the handler sees the request: a client that
	// announces a body and trickles it is cut (408 with the error body, and
	// the connection closed), whatever CallTimeout says, which counts from
	// the call. 0 means 30 seconds; a negative value means none of the
	// handler's own (the http.Server's ReadTimeout still applies, and an
	// http.Server whose ReadTimeout is no longer keeps its own, earlier
	// deadline). It is set on the connection with
	// http.ResponseController.SetReadDeadline, so it needs a ResponseWriter
	// that supports it (net/http's own do, for HTTP/1 and HTTP/2; a
	// wrapping middleware must Unwrap); where it is not supported, only the
	// server's ReadTimeout bounds the body.
	BodyTimeout time.Duration
	// Hosts lists the host names, besides the loopback ones, that a
	// handler served on a loopback address answers ("mcp.internal";
	// case-insensitive, a port given is ignored; "*" for any). A request
	// to a loopback address is answered only when its Host is "localhost",
	// a loopback IP address or one of these, with any port, so that a page
	// of a name whose DNS an attacker points at 127.0.0.1 (DNS rebinding)
	// cannot read or run anything: 403 with the error body. A handler
	// served on another address answers any Host.
	Hosts []string
	// CatalogTTL is how long the lists of tools, resources and prompts are
	// kept between requests; 0 means one second, a negative value means
	// they are fetched for every request.
	CatalogTTL time.Duration
	// CORS lists the origins ("https://app.example.com", scheme, host and
	// port as a browser sends them in Origin; "*" for any) whose pages may
	// call the API. Empty, the default, means CORS is off: no
	// Access-Control headers, preflights refused (405). With origins, a
	// preflight (OPTIONS) from a listed origin is answered 204 with the
	// methods (GET, HEAD, POST) and request headers allowed, from another
	// origin 403; other requests from a listed origin get
	// Access-Control-Allow-Origin; every response carries Vary: Origin.
	// Credentials (cookies) are never allowed: the API takes its key in a
	// header.
	CORS []string
	// Logger receives a line per backend failure (error level). nil means
	// zap.NewNop().
	Logger *zap.Logger
	// FormatArgument is the name of the wrapped server's per-call format
	// argument (shaping.Options.FormatArgument), "" for none: a tool
	// execution whose arguments set it gets that format, as with
	// ?format=, whatever Accept says, and the argument is taken out of the
	// arguments (a tool with a property of that name of its own keeps it).
	// A value the server cannot render is a 422 tool error naming the
	// formats.
	FormatArgument string
	// APIKey, when not empty, is required of every request, as
	// "Authorization: Bearer KEY" or "X-API-Key: KEY" (compared in constant
	// time); the others are answered 401 with "WWW-Authenticate: Bearer"
	// and the error body. GET /capabilities, GET /openapi.json and GET
	// /healthz stay public, so clients can discover the API and probes need
	// no key, and so do CORS preflights (browsers send them without
	// credentials). Empty, the default, means no key: authentication is
	// then the embedding application's (any net/http middleware around the
	// handler).
	APIKey string
}

// handler serves the REST binding.
type handler struct {
	backend  Backend
	base     string
	neg      *shaping.Negotiator
	argument *shaping.Shaper // takes the format argument out of the arguments; nil for none
	maxBody  int64
	timeout  time.Duration
	// bodyTimeout bounds the arrival of a request's body; 0 for none.
	bodyTimeout time.Duration
	hosts       hostcheck.Hosts
	log         *zap.Logger
	catalogs    catalogs
	validators  validators
	execLinks   linksCache

	corsOrigins corsOrigins
}

var _ http.Handler = (*handler)(nil)

// New returns the REST binding of backend: an [http.Handler], safe for
// concurrent use, that answers every request under opts.BasePath.
func New(backend Backend, opts *Options) http.Handler {
	if opts == nil {
		opts = &Options{}
	}
	h := &handler{
		backend: backend,
		base:    strings.TrimRight(opts.BasePath, "/"),
		neg:     opts.Negotiator,
		maxBody: opts.MaxBodyBytes,
		timeout: opts.CallTimeout,
		log:     opts.Logger,

		corsOrigins: newCORS(opts.CORS),
		hosts:       hostcheck.New(opts.Hosts),
		bodyTimeout: opts.BodyTimeout,
	}
	if h.neg == nil {
		h.neg = shaping.New(nil).Negotiator()
	}
	if opts.FormatArgument != "" {
		h.argument = shaping.New(&shaping.Options{FormatArgument: opts.FormatArgument})
	}
	if h.maxBody <= 0 {
		h.maxBody = defaultMaxBodyBytes
	}
	if h.timeout <= 0 {
		h.timeout = defaultCallTimeout
	}
	switch {
	case h.bodyTimeout == 0:
		h.bodyTimeout = defaultBodyTimeout
	case h.bodyTimeout < 0:
		h.bodyTimeout = 0
	}
	if h.log == nil {
		h.log = zap.NewNop()
	}
	h.log = h.log.Named("rest")
	h.catalogs.ttl = opts.CatalogTTL
	if h.catalogs.ttl == 0 {
		h.catalogs.ttl = defaultCatalogTTL
	}
	return h.requireAPIKey(opts.APIKey)
}

// request is one request being served.
type request struct {
	w    http.ResponseWriter
	r    *http.Request
	ctx  context.Context
	args []string // the unescaped path segments after the resource name
	id   string   // X-Request-ID
	// verbosity is ?verbosity= ("compact", "standard", "verbose"), or "".
	verbosity string
	// params is the parsed query, once parsed (see query); nil for none.
	params url.Values
	parsed bool
}

// query returns the request's query parameters, parsed once per request
// (and not at all for a request without a query: a nil map reads as
// empty).
func (q *request) query() url.Values {
	if !q.parsed {
		q.parsed = true
		if q.r.URL.RawQuery != "" {
			q.params = q.r.URL.Query()
		}
	}
	return q.params
}

type endpoint func(h *handler, q *request) *Error

// route is the methods one path answers.
type route map[string]endpoint

// ServeHTTP serves one request of the REST binding.
func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	hdr := w.Header()
	hdr.Add("Vary", "Accept")
	id := requestID(r.Header.Get("X-Request-ID"))
	hdr.Set("X-Request-ID", id)
	if body := h.timeBody(w, r); body != nil {
		r.Body = body
	}
	if e := h.rebound(r); e != nil {
		writeError(w, e)
		return
	}
	if h.cors(w, r) {
		return
	}
	segs, ok := h.segments(r)
	if !ok && h.base != "" && r.URL.Path == "/" && (r.Method == http.MethodGet || r.Method == http.MethodHead) {
		// A person who opens the server's root: the API (and its index
		// page) is under the base path.
		http.Redirect(w, r, h.base+"/", http.StatusFound)
		return
	}
	if !ok {
		writeError(w, notFound("no such endpoint: "+clip(r.URL.Path)))
		return
	}
	rt, args := routeOf(segs)
	if rt == nil {
		writeError(w, notFound("no such endpoint: "+clip(r.URL.Path)))
		return
	}
	method := r.Method
	if method == http.MethodHead {
		method = http.MethodGet
	}
	ep, ok := rt[method]
	if !ok {
		hdr.Set("Allow", allow(rt))
		writeError(w, newError(http.StatusMethodNotAllowed, codeMethodNotAllowed,
			r.Method+" is not allowed here; allowed: "+allow(rt)))
		return
	}
	if runs(method, segs) {
		if e := h.crossSite(r); e != nil {
			writeError(w, e)
			return
		}
	}
	ctx, cancel := context.WithTimeout(r.Context(), h.timeout)
	defer cancel()
	if e := ep(h, &request{w: w, r: r, ctx: ctx, args: args, id: id}); e != nil {
		writeError(w, e)
	}
}

// runs reports whether a request runs something on the server: a tool's
// execution or a prompt's rendering (see crossSite).
func runs(method string, segs []string) bool {
	return method == http.MethodPost && len(segs) == 3 &&
		(segs[0] == "tools" && segs[2] == "execute" || segs[0] == "prompts" && segs[2] == "render")
}

// segments returns the unescaped path segments under the base path.
func (h *handler) segments(r *http.Request) ([]string, bool) {
	p := r.URL.EscapedPath()
	rest, ok := strings.CutPrefix(p, h.base)
	if !ok || rest != "" && rest[0] != '/' {
		return nil, false
	}
	rest = strings.Trim(rest, "/")
	if rest == "" {
		return nil, true
	}
	segs := strings.Split(rest, "/")
	for i, s := range segs {
		u, err := url.PathUnescape(s)
		if err != nil || u == "" {
			return nil, false
		}
		segs[i] = u
	}
	return segs, true
}

var (
	toolsRoute      = route{http.MethodGet: (*handler).listTools}
	toolRoute       = route{http.MethodGet: (*handler).getTool}
	schemaRoute     = route{http.MethodGet: (*handler).getSchema}
	executeRoute    = route{http.MethodPost: (*handler).execute}
	resourcesRoute  = route{http.MethodGet: (*handler).listResources, http.MethodPost: unexpressible("creating resources")}
	resourceRoute   = route{http.MethodGet: (*handler).getResource, http.MethodPut: unexpressible("updating resources")}
	contentRoute    = route{http.MethodGet: (*handler).getContent}
	promptsRoute    = route{http.MethodGet: (*handler).listPrompts}
	promptRoute     = route{http.MethodGet: (*handler).getPrompt}
	renderRoute     = route{http.MethodPost: (*handler).renderPrompt}
	capabilityRoute = route{http.MethodGet: (*handler).capabilities}
	openAPIRoute    = route{http.MethodGet: (*handler).openAPI}
	subscribeRoute  = route{http.MethodPost: unexpressible("subscriptions")}
	subscriptionRt  = route{http.MethodGet: unexpressible("subscriptions"), http.MethodDelete: unexpressible("subscriptions")}
	eventsRoute     = route{http.MethodGet: unexpressible("subscriptions")}
	samplingRoute   = route{http.MethodPost: unexpressible("sampling")}
	logLevelRoute   = route{http.MethodPost: unexpressible("logging")}
	logStreamRoute  = route{http.MethodGet: unexpressible("logging")}
	rootRoute       = route{http.MethodGet: (*handler).root}
	healthRoute     = route{http.MethodGet: (*handler).healthz}
)

// routeOf maps path segments to their route, and the id segment.
func routeOf(s []string) (route, []string) {
	switch len(s) {
	case 0:
		return rootRoute, nil
	case 1:
		switch s[0] {
		case "capabilities":
			return capabilityRoute, nil
		case "healthz":
			return healthRoute, nil
		case "openapi.json":
			return openAPIRoute, nil
		case "tools":
			return toolsRoute, nil
		case "resources":
			return resourcesRoute, nil
		case "prompts":
			return promptsRoute, nil
		case "subscriptions":
			return subscribeRoute, nil
		}
	case 2:
		switch s[0] {
		case "tools":
			return toolRoute, s[1:]
		case "resources":
			return resourceRoute, s[1:]
		case "prompts":
			return promptRoute, s[1:]
		case "subscriptions":
			return subscriptionRt, s[1:]
		case "sampling":
			if s[1] == "messages" {
				return samplingRoute, nil
			}
		case "logging":
			switch s[1] {
			case "level":
				return logLevelRoute, nil
			case "stream":
				return logStreamRoute, nil
			}
		}
	case 3:
		switch {
		case s[0] == "tools" && s[2] == "schema":
			return schemaRoute, s[1:2]
		case s[0] == "tools" && s[2] == "execute":
			return executeRoute, s[1:2]
		case s[0] == "resources" && s[2] == "content":
			return contentRoute, s[1:2]
		case s[0] == "prompts" && s[2] == "render":
			return renderRoute, s[1:2]
		case s[0] == "subscriptions" && s[2] == "events":
			return eventsRoute, s[1:2]
		}
	}
	return nil, nil
}

// why names, for each seed endpoint MCP cannot express, the reason.
var why = map[string]string{
	"creating resources": "MCP has no request that creates a resource: resources are the server's to list and read",
	"updating resources": "MCP has no request that changes a resource: resources are the server's to list and read",
	"subscriptions":      "resource subscriptions need a standing MCP session and callbacks, which a REST request cannot hold",
	"sampling":           "sampling is a request from the server to the client's model; a REST client has no model to offer",
	"logging":            "MCP logging is a stream of notifications to a session (and deprecated since 2026-07-28); a REST request has none",
}

func unexpressible(what string) endpoint {
	return func(*handler, *request) *Error {
		return newError(http.StatusNotImplemented, codeNotImplemented, "not available over this binding: "+why[what])
	}
}

func allow(rt route) string {
	var out []string
	for _, m := range []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodDelete} {
		if _, ok := rt[m]; ok || m == http.MethodHead && rt[http.MethodGet] != nil {
			out = append(out, m)
		}
	}
	return strings.Join(out, ", ")
}

// requestID returns the client's X-Request-ID when it is 1 to 128
// characters of letters, digits and "-_.:", else a fresh random one.
func requestID(given string) string {
	if n := len(given); n > 0 && n <= 128 {
		ok := true
		for i := 0; i < n && ok; i++ {
			c := given[i]
			ok = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' || c == ':'
		}
		if ok {
			return given
		}
	}
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// href returns the link to a path under the base path; segments are
// escaped.
func (h *handler) href(segs ...string) string {
	var b strings.Builder
	b.WriteString(h.base)
	for _, s := range segs {
		b.WriteByte('/')
		b.WriteString(url.PathEscape(s))
	}
	if b.Len() == 0 {
		return "/"
	}
	return b.String()
}

func clip(s string) string {
	if len(s) > 200 {
		return s[:200] + "..."
	}
	return s
}

func itoa(n int) string { return strconv.Itoa(n) }

// catalogs keeps the backend's lists for a short time, so that an execute
// does not list every tool again to find its schema.
type catalogs struct {
	ttl time.Duration

	mu        sync.Mutex
	tools     cached[[]Tool]
	resources cached[[]Resource]
	templates cached[[]ResourceTemplate]
	prompts   cached[[]Prompt]
}

type cached[T any] struct {
	value T
	at    time.Time
}

// load returns c's value while it is fresh, else fetches it.
func load[T any](h *handler, c *cached[T], fetch func(context.Context) (T, error), ctx context.Context) (T, error) {
	cs := &h.catalogs
	if cs.ttl > 0 {
		cs.mu.Lock()
		if !c.at.IsZero() && time.Since(c.at) < cs.ttl {
			v := c.value
			cs.mu.Unlock()
			return v, nil
		}
		cs.mu.Unlock()
	}
	v, err := fetch(ctx)
	if err != nil || cs.ttl <= 0 {
		return v, err
	}
	cs.mu.Lock()
	c.value, c.at = v, time.Now()
	cs.mu.Unlock()
	return v, nil
}
