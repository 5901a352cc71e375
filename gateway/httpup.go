package gateway

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/contentneg/contentneg/internal/rawjson"
)

// HTTPUpstream connects to a streamable-HTTP MCP server; each upstream
// session is a session of its own with the server.
//
// Every message the gateway writes is POSTed on its own; every message the
// server sends, in a JSON body, an event stream answering a POST or the
// stream opened with GET after the initialize exchange, reaches the
// gateway in the order it arrives. A request the server refuses
// with an HTTP error fails that request only: its answer is a JSON-RPC
// error naming the HTTP status. Not supported: resuming a broken stream
// (Last-Event-ID on a POST's stream) and the Mcp-Param-* headers of
// 2026-07-28 tools whose input schema declares x-mcp-header.
type HTTPUpstream struct {
	// URL is the server's MCP endpoint.
	URL string
	// Client sends the requests. Nil means a client of the session's own
	// with timeouts for dialing and the TLS handshake, and no overall
	// timeout (streams are long; a call is bounded by its context), whose
	// idle connections are closed when the session ends.
	Client *http.Client
	// Header holds extra headers sent on every request (e.g.
	// Authorization).
	Header http.Header
}

var _ Dialer = (*HTTPUpstream)(nil)

// errSessionGone is what an HTTP session's Read wraps once the server
// answered 404 to a request carrying its session id: the server ended the
// session.
var errSessionGone = errors.New("the server ended the session")

// HTTP header names of the streamable-HTTP transport.
const (
	headerSessionID       = "Mcp-Session-Id"
	headerProtocolVersion = "Mcp-Protocol-Version"
	headerMethod          = "Mcp-Method"
	headerName            = "Mcp-Name"
	headerLastEventID     = "Last-Event-ID"
)

const (
	// metaProtocolVersion is the request _meta key that carries the
	// protocol version from 2026-07-28 on.
	metaProtocolVersion = "io.modelcontextprotocol/protocolVersion"
	// standardHeadersSince is the first protocol version whose requests
	// carry Mcp-Method and Mcp-Name.
	standardHeadersSince = "2026-07-28"
	// errorSnippet is how much of an HTTP error's text body an error names.
	errorSnippet = 200
	// errorBodyMax bounds the HTTP error body read for a JSON-RPC error.
	errorBodyMax = 64 << 10
	// deleteTimeout bounds the DELETE that ends a session on Close.
	deleteTimeout = 2 * time.Second
	// listenRetryMax bounds the wait before the one reconnect of the GET
	// stream (the server's retry: field, when it sent one, else 500 ms).
	listenRetryMax = 5 * time.Second
	// defaultMaxMessage is the bound when connect is given none.
	defaultMaxMessage = 16 << 20
)

// connect returns a msgConn for a new session with the server. It sends
// nothing: the session starts with the first message written (initialize,
// or a 2026-07-28 request). ctx bounds the connect only, not the msgConn;
// a message read is at most maxMessage bytes (16 MiB when not positive).
func (h *HTTPUpstream) connect(_ context.Context, maxMessage int) (msgConn, error) {
	u, err := url.Parse(h.URL)
	if err != nil {
		return nil, fmt.Errorf("upstream URL %q: %w", h.URL, err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("upstream URL %q: not an http or https URL", h.URL)
	}
	if maxMessage <= 0 {
		maxMessage = defaultMaxMessage
	}
	c := &httpConn{
		url:        h.URL,
		client:     h.Client,
		header:     h.Header.Clone(),
		max:        maxMessage,
		in:         make(chan delivery),
		failed:     make(chan struct{}),
		closed:     make(chan struct{}),
		listenDone: make(chan struct{}),
	}
	if c.client == nil {
		c.transport = newTransport()
		c.client = &http.Client{Transport: c.transport}
	}
	c.life, c.cancel = context.WithCancel(context.Background())
	return c, nil
}

// newTransport returns the transport of a msgConn without a Client: bounded
// dialing and TLS handshakes. It has no ResponseHeaderTimeout: a server
// answering with a JSON body sends its headers only with the answer,
// however long the call takes.
func newTransport() *http.Transport {
	return &http.Transport{
		Proxy:                  http.ProxyFromEnvironment,
		DialContext:            (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		ForceAttemptHTTP2:      true,
		TLSHandshakeTimeout:    10 * time.Second,
		ExpectContinueTimeout:  time.Second,
		IdleConnTimeout:        90 * time.Second,
		MaxIdleConnsPerHost:    8,
		MaxResponseHeaderBytes: 1 << 20,
	}
}

// httpConn is the msgConn of one session with a streamable-HTTP server.
type httpConn struct {
	url       string
	client    *http.Client
	transport *http.Transport // nil when the client is the caller's
	header    http.Header
	max       int

	// life bounds every request and stream; Close cancels it.
	life   context.Context
	cancel context.CancelFunc
	// wg counts the goroutines and requests under way; Add under mu while
	// not closing, so that Close's Wait sees them all.
	wg sync.WaitGroup
	// in hands each message read to Read: unbuffered, so that a stream
	// waits for its reader and holds at most one message meanwhile.
	in chan delivery

	mu        sync.Mutex
	closing   bool
	sessionID string
	version   string // the protocol version, once known
	gone      bool   // the server answered 404 to the session
	listening bool   // the GET stream was started
	failErr   error

	failed     chan struct{} // closed by fail, failErr then set
	closed     chan struct{} // closed by Close
	listenDone chan struct{} // closed when the GET stream has ended for good
	once       sync.Once
}

// delivery is one message read, or a *badMessage.
type delivery struct {
	msg []byte
	err error
}

// Read returns the next message from any of the session's streams.
func (c *httpConn) Read(ctx context.Context) ([]byte, error) {
	if err := c.ended(); err != nil {
		return nil, err
	}
	select {
	case d := <-c.in:
		return d.msg, d.err
	case <-c.failed:
	case <-c.closed:
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	}
	return nil, c.ended()
}

// ended returns why the msgConn ended, or nil while it goes on.
func (c *httpConn) ended() error {
	select {
	case <-c.closed:
		return fmt.Errorf("%s: %w", c.url, errClosed)
	default:
	}
	select {
	case <-c.failed:
		return c.failErr
	default:
		return nil
	}
}

// fail ends the msgConn with err: Read returns it from now on.
func (c *httpConn) fail(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.failErr != nil {
		return
	}
	c.failErr = err
	close(c.failed)
}

// deliver hands d to Read; it reports false when ctx ended first.
func (c *httpConn) deliver(ctx context.Context, d delivery) bool {
	select {
	case c.in <- d:
		return true
	case <-ctx.Done():
		return false
	}
}

// outgoing is what a POST needs to know of the message it carries.
type outgoing struct {
	id      []byte // the request's id; nil for a notification or response
	method  string
	isInit  bool
	session bool // the request carries a session id
}

// Write POSTs msg. A request's Write returns once the request is sent:
// its answer, or an error response for it, comes through Read. A
// notification's or response's Write returns once the server accepted it.
// When ctx ends, the POST and the stream answering it are cancelled.
func (c *httpConn) Write(ctx context.Context, msg []byte) error {
	m, err := parseMessage(msg)
	if err != nil {
		return fmt.Errorf("POST %s: %w", c.url, err)
	}
	c.mu.Lock()
	if c.closing {
		c.mu.Unlock()
		return fmt.Errorf("POST %s: %w", c.url, errClosed)
	}
	if c.failErr != nil {
		err := c.failErr
		c.mu.Unlock()
		return err
	}
	if v, ok := rawjson.Path(m.params, "_meta", metaProtocolVersion); ok {
		if s, ok := rawjson.String(v); ok && visibleASCII(s, 64) {
			c.version = s
		}
	}
	out := outgoing{id: m.id, method: m.method, isInit: m.isRequest() && m.method == "initialize", session: c.sessionID != ""}
	hdr := c.headersLocked("application/json, text/event-stream")
	hdr.Set("Content-Type", "application/json")
	if m.method != "" && c.version >= standardHeadersSince {
		hdr.Set(headerMethod, m.method)
		key := "name"
		if m.method == "resources/read" {
			key = "uri"
		}
		if m.method == "tools/call" || m.method == "prompts/get" || m.method == "resources/read" {
			if v, ok := rawjson.Get(m.params, key); ok {
				if s, ok := rawjson.String(v); ok {
					hdr.Set(headerName, s)
				}
			}
		}
	}
	c.wg.Add(1)
	c.mu.Unlock()

	reqCtx, cancel := context.WithCancel(c.life)
	stop := context.AfterFunc(ctx, cancel)
	if !m.isRequest() {
		defer c.wg.Done()
		defer cancel()
		defer stop()
		return c.post(reqCtx, msg, hdr, out)
	}
	h := &handoff{sent: make(chan struct{}), done: make(chan error, 1)}
	reqCtx = httptrace.WithClientTrace(reqCtx, &httptrace.ClientTrace{
		WroteRequest: func(info httptrace.WroteRequestInfo) {
			if info.Err == nil {
				h.markSent()
			}
		},
	})
	go func() {
		defer c.wg.Done()
		defer cancel()
		defer stop()
		c.request(reqCtx, msg, hdr, out, h)
	}()
	select {
	case <-h.sent:
		return nil
	case err := <-h.done:
		return err
	case <-ctx.Done():
		return fmt.Errorf("POST %s: %w", c.url, context.Cause(ctx))
	}
}

// headersLocked returns the headers of a new request: the caller's, the
// session's and the protocol version. c.mu is held.
func (c *httpConn) headersLocked(accept string) http.Header {
	hdr := c.header.Clone()
	if hdr == nil {
		hdr = http.Header{}
	}
	hdr.Set("Accept", accept)
	if c.sessionID != "" {
		hdr.Set(headerSessionID, c.sessionID)
	}
	if c.version != "" {
		hdr.Set(headerProtocolVersion, c.version)
	}
	return hdr
}

// handoff tells a request's Write whether its POST went out: sent is
// closed once it did; done carries the error when it failed before.
// Exactly one of the two happens.
type handoff struct {
	mu    sync.Mutex
	state int // 0 under way, 1 sent, 2 failed before it was sent
	sent  chan struct{}
	done  chan error
}

func (h *handoff) markSent() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.state == 0 {
		h.state = 1
		close(h.sent)
	}
}

// markFailed reports whether the failure is Write's to return (the
// request was not sent); otherwise the answer must say it.
func (h *handoff) markFailed(err error) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.state != 0 {
		return false
	}
	h.state = 2
	h.done <- err
	return true
}

func (c *httpConn) newRequest(ctx context.Context, method string, body []byte, hdr http.Header) (*http.Request, error) {
	var r io.Reader
	if body != nil {
		r = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.url, r)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", method, c.url, err)
	}
	req.Header = hdr
	return req, nil
}

// post sends a notification or a response and waits for the server to
// accept it.
func (c *httpConn) post(ctx context.Context, msg []byte, hdr http.Header, out outgoing) error {
	req, err := c.newRequest(ctx, http.MethodPost, msg, hdr)
	if err != nil {
		return err
	}
	resp, err := c.client.Do(req)
	if err != nil {
		return fmt.Errorf("POST %s: %w", c.url, err)
	}
	defer closeBody(resp)
	if resp.StatusCode == http.StatusNotFound && out.session {
		err := c.sessionGone(resp)
		c.fail(err)
		return err
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return fmt.Errorf("POST %s: %s", c.url, c.statusText(resp, readSnippet(resp.Body)))
	}
	if out.method == "notifications/initialized" {
		c.listen()
	}
	return nil
}

// request sends a request and delivers what answers it: each message of
// the answering body, or an error response for the request when the
// server refused it or the body ended without its answer.
func (c *httpConn) request(ctx context.Context, msg []byte, hdr http.Header, out outgoing, h *handoff) {
	req, err := c.newRequest(ctx, http.MethodPost, msg, hdr)
	if err == nil {
		var resp *http.Response
		resp, err = c.client.Do(req)
		if err == nil {
			h.markSent()
			defer closeBody(resp)
			c.answer(ctx, resp, out)
			return
		}
		err = fmt.Errorf("POST %s: %w", c.url, err)
	}
	if h.markFailed(err) || ctx.Err() != nil {
		return
	}
	c.deliver(ctx, delivery{msg: encodeError(out.id, codeInternalError, err.Error())})
}

// answer reads the response to the request out.
func (c *httpConn) answer(ctx context.Context, resp *http.Response, out outgoing) {
	if out.isInit {
		c.learnSession(resp.Header.Get(headerSessionID))
	}
	if resp.StatusCode == http.StatusNotFound && out.session {
		c.fail(c.sessionGone(resp))
		return
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		c.deliver(ctx, delivery{msg: c.statusError(resp, out.id)})
		return
	}
	answered := false
	each := func(d delivery) bool {
		if !answered && answers(d, out.id) {
			answered = true
			if out.isInit && d.err == nil {
				c.learnVersion(d.msg)
			}
		}
		return c.deliver(ctx, d)
	}
	var err error
	ct := mediaType(resp.Header.Get("Content-Type"))
	switch ct {
	case "text/event-stream":
		s := newSSEReader(resp.Body, c.max)
		err = s.each(each)
	case "application/json":
		err = c.readJSON(resp, each)
	}
	if answered || ctx.Err() != nil {
		return
	}
	why := fmt.Sprintf("POST %s: HTTP %s", c.url, resp.Status)
	switch {
	case err != nil:
		why += ", the body broke off before the answer: " + err.Error()
	case ct == "text/event-stream" || ct == "application/json":
		why += ", the body ended without the answer"
	default:
		why += fmt.Sprintf(" with Content-Type %q, which is no answer", resp.Header.Get("Content-Type"))
	}
	c.deliver(ctx, delivery{msg: encodeError(out.id, codeInternalError, why)})
}

// answers reports whether d is the response to the request id.
func answers(d delivery, id []byte) bool {
	var bad *badMessage
	if errors.As(d.err, &bad) {
		return bad.ID != nil && bytes.Equal(bad.ID, id)
	}
	got, ok := rawjson.Get(d.msg, "id")
	if !ok || !bytes.Equal(got, id) {
		return false
	}
	_, isRequest := rawjson.Get(d.msg, "method")
	return !isRequest
}

// learnSession keeps the session id the server gave at initialize.
func (c *httpConn) learnSession(id string) {
	if !visibleASCII(id, 1024) {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sessionID == "" {
		c.sessionID = id
	}
}

// learnVersion keeps the protocol version of the initialize result msg.
func (c *httpConn) learnVersion(msg []byte) {
	v, ok := rawjson.Path(msg, "result", "protocolVersion")
	if !ok {
		return
	}
	s, ok := rawjson.String(v)
	if !ok || !visibleASCII(s, 64) {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.version = s
}

// visibleASCII reports whether s is 1 to max visible ASCII characters,
// what a header value of the transport may hold.
func visibleASCII(s string, max int) bool {
	if s == "" || len(s) > max {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 0x21 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

// sessionGone marks the session ended by the server and says so.
func (c *httpConn) sessionGone(resp *http.Response) error {
	c.mu.Lock()
	c.gone = true
	c.mu.Unlock()
	return fmt.Errorf("%s %s: %w (HTTP %s)", resp.Request.Method, c.url, errSessionGone, resp.Status)
}

// statusError returns the error response to the request id that the
// server refused: the JSON-RPC error of the body when it holds one, else
// an internal error naming the HTTP status and the start of the body.
func (c *httpConn) statusError(resp *http.Response, id []byte) []byte {
	body, _ := io.ReadAll(io.LimitReader(resp.Body, int64(min(c.max, errorBodyMax))))
	if mediaType(resp.Header.Get("Content-Type")) == "application/json" {
		// A JSON-RPC error response, its id null when the server could
		// not tell it: the error goes to the request as it is.
		body := trimJSONSpace(body)
		if rawjson.Check(body, maxDepth) == nil {
			if e, ok := rawjson.Get(body, "error"); ok {
				if _, ok := rawjson.Members(e); ok {
					return encodeErrorObject(id, e)
				}
			}
		}
	}
	return encodeError(id, codeInternalError, fmt.Sprintf("POST %s: %s", c.url, c.statusText(resp, body)))
}

// statusText names an HTTP status and the start of a text body.
func (c *httpConn) statusText(resp *http.Response, body []byte) string {
	s := "HTTP " + resp.Status
	if len(body) > errorSnippet {
		body = body[:errorSnippet]
	}
	text := strings.TrimSpace(strings.ToValidUTF8(string(body), ""))
	ct := mediaType(resp.Header.Get("Content-Type"))
	if text != "" && (ct == "" || strings.HasPrefix(ct, "text/") || ct == "application/json") {
		s += ": " + text
	}
	return s
}

// readSnippet reads the start of a body, enough to name an error.
func readSnippet(r io.Reader) []byte {
	b, _ := io.ReadAll(io.LimitReader(r, errorSnippet))
	return b
}

// closeBody reads a little of what is left, so that the connection can
// serve again, and closes the body.
func closeBody(resp *http.Response) {
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4<<10))
	_ = resp.Body.Close()
}

func mediaType(ct string) string {
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return strings.ToLower(strings.TrimSpace(ct))
	}
	return mt
}

// readJSON reads a JSON body: one message, or a batch whose elements each
// are one. A body past the bound is a *badMessage, read only as far as
// its id.
func (c *httpConn) readJSON(resp *http.Response, each func(delivery) bool) error {
	var f idFinder
	var buf []byte
	if resp.ContentLength <= int64(c.max) {
		var err error
		buf, err = io.ReadAll(io.LimitReader(resp.Body, int64(c.max)+1))
		if err != nil {
			return fmt.Errorf("read the body: %w", err)
		}
		if len(buf) <= c.max {
			return deliverJSON(trimJSONSpace(buf), each)
		}
		f.feed(buf)
	}
	chunk := make([]byte, 32<<10)
	if len(buf) >= len(chunk) {
		chunk = buf[:len(chunk)]
	}
	for f.id() == nil {
		n, err := resp.Body.Read(chunk)
		f.feed(chunk[:n])
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fmt.Errorf("read the body: %w", err)
		}
	}
	each(delivery{err: &badMessage{ID: f.id(), Reason: tooLarge(c.max)}})
	return nil
}

// deliverJSON delivers a JSON body's message or batch.
func deliverJSON(body []byte, each func(delivery) bool) error {
	if len(body) == 0 {
		return nil
	}
	if body[0] == '[' {
		if elems, ok := rawjson.Elements(body); ok {
			for _, e := range elems {
				if !each(delivery{msg: e}) {
					return nil
				}
			}
			return nil
		}
	}
	each(delivery{msg: body})
	return nil
}

func tooLarge(max int) string {
	return fmt.Sprintf("a message of more than %d bytes (-max-result)", max)
}

func trimJSONSpace(b []byte) []byte {
	isSpace := func(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }
	for len(b) > 0 && isSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	for len(b) > 0 && isSpace(b[0]) {
		b = b[1:]
	}
	return b
}

// listen opens the GET stream for the server's own messages, once.
func (c *httpConn) listen() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.listening || c.closing {
		return
	}
	c.listening = true
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		defer close(c.listenDone)
		s, err := c.listenOnce("")
		if err == nil || c.life.Err() != nil {
			return
		}
		wait := 500 * time.Millisecond
		if s != nil && s.retry >= 0 {
			wait = min(s.retry, listenRetryMax)
		}
		t := time.NewTimer(wait)
		defer t.Stop()
		select {
		case <-t.C:
		case <-c.life.Done():
			return
		}
		lastID := ""
		if s != nil {
			lastID = s.lastID
		}
		_, _ = c.listenOnce(lastID)
	}()
}

// listenOnce reads one GET stream; it returns an error when the stream
// broke off (worth one more try), nil when there is none or it ended.
func (c *httpConn) listenOnce(lastID string) (*sseReader, error) {
	c.mu.Lock()
	hdr := c.headersLocked("text/event-stream")
	session := c.sessionID != ""
	c.mu.Unlock()
	if lastID != "" {
		hdr.Set(headerLastEventID, lastID)
	}
	req, err := c.newRequest(c.life, http.MethodGet, nil, hdr)
	if err != nil {
		return nil, nil
	}
	resp, err := c.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("GET %s: %w", c.url, err)
	}
	defer closeBody(resp)
	switch {
	case resp.StatusCode == http.StatusNotFound && session:
		c.fail(c.sessionGone(resp))
		return nil, nil
	case resp.StatusCode < 200 || resp.StatusCode > 299:
		return nil, nil // 405: the server sends nothing unasked
	case mediaType(resp.Header.Get("Content-Type")) != "text/event-stream":
		return nil, nil
	}
	s := newSSEReader(resp.Body, c.max)
	err = s.each(func(d delivery) bool { return c.deliver(c.life, d) })
	if err != nil {
		return s, fmt.Errorf("GET %s: %w", c.url, err)
	}
	return s, nil
}

// Close ends the session: it sends DELETE with the session id (for at
// most 2 s, its outcome ignored), cancels every request and stream and
// waits for them.
func (c *httpConn) Close() error {
	c.once.Do(func() {
		c.mu.Lock()
		c.closing = true
		session, gone := c.sessionID, c.gone
		hdr := c.headersLocked("application/json, text/event-stream")
		close(c.closed)
		c.mu.Unlock()
		if session != "" && !gone {
			ctx, cancel := context.WithTimeout(context.Background(), deleteTimeout)
			if req, err := c.newRequest(ctx, http.MethodDelete, nil, hdr); err == nil {
				if resp, err := c.client.Do(req); err == nil {
					closeBody(resp)
				}
			}
			cancel()
		}
		c.cancel()
		c.wg.Wait()
		if c.transport != nil {
			c.transport.CloseIdleConnections()
		}
	})
	return nil
}

// sseReader reads a text/event-stream: each message event's data lines,
// joined by "\n", are one message. An event whose data passes the bound
// is a *badMessage, its id read as it streams by.
type sseReader struct {
	r      *bufio.Reader
	max    int
	lastID string
	retry  time.Duration // the server's reconnection time; -1 when none

	event []byte // the event type
	data  []byte
	lines int // data lines of the event
	size  int // the event's data size so far
	over  bool
	f     idFinder
}

func newSSEReader(r io.Reader, max int) *sseReader {
	return &sseReader{r: bufio.NewReaderSize(r, 64<<10), max: max, retry: -1}
}

// each calls deliver with every message until the stream ends or deliver
// returns false; it returns nil at the stream's end, else the read error.
func (s *sseReader) each(deliver func(delivery) bool) error {
	for {
		d, err := s.next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		if !deliver(d) {
			return nil
		}
	}
}

// next returns the next message event.
func (s *sseReader) next() (delivery, error) {
	for {
		line, full, err := s.readPiece()
		if err != nil {
			return delivery{}, err
		}
		if full && len(line) == 0 {
			if d, ok := s.dispatch(); ok {
				return d, nil
			}
			continue
		}
		name, value := line, []byte(nil)
		if i := bytes.IndexByte(line, ':'); i >= 0 {
			name, value = line[:i], line[i+1:]
			if len(value) > 0 && value[0] == ' ' {
				value = value[1:]
			}
		}
		switch string(name) {
		case "data":
			s.addData(value, true)
			for !full {
				line, full, err = s.readPiece()
				if err != nil {
					return delivery{}, err
				}
				s.addData(line, false)
			}
			continue
		case "event":
			s.event = append(s.event[:0], value[:min(len(value), 64)]...)
		case "id":
			if bytes.IndexByte(value, 0) < 0 && len(value) <= 256 && full {
				s.lastID = string(value)
			}
		case "retry":
			s.retry = parseRetry(value)
		}
		for !full { // the rest of a long line that is not data
			if _, full, err = s.readPiece(); err != nil {
				return delivery{}, err
			}
		}
	}
}

// readPiece returns the next piece of a line, without its line end; full
// says the piece ends the line. io.EOF ends the stream (a line cut short
// by it ends there; an event cut short is dropped).
func (s *sseReader) readPiece() (piece []byte, full bool, err error) {
	b, err := s.r.ReadSlice('\n')
	switch {
	case err == nil:
		b = b[:len(b)-1]
		if len(b) > 0 && b[len(b)-1] == '\r' {
			b = b[:len(b)-1]
		}
		return b, true, nil
	case errors.Is(err, bufio.ErrBufferFull):
		return b, false, nil
	case errors.Is(err, io.EOF) && len(b) > 0:
		return b, true, nil
	default:
		return nil, false, err
	}
}

// addData adds a piece of a data line; first says it starts a line.
func (s *sseReader) addData(p []byte, first bool) {
	if first {
		s.lines++
		if s.lines > 1 {
			s.addBytes([]byte{'\n'})
		}
	}
	s.addBytes(p)
}

func (s *sseReader) addBytes(p []byte) {
	s.size += len(p)
	if s.over {
		s.f.feed(p)
		return
	}
	if s.size > s.max {
		s.over = true
		s.f = idFinder{}
		s.f.feed(s.data)
		s.f.feed(p)
		s.data = nil
		return
	}
	if need := len(s.data) + len(p); need > cap(s.data) {
		// Grow as append would, but never past the bound.
		grown := make([]byte, len(s.data), min(max(2*cap(s.data), need, 512), s.max))
		copy(grown, s.data)
		s.data = grown
	}
	s.data = append(s.data, p...)
}

// dispatch ends the event; it returns its message when it is one.
func (s *sseReader) dispatch() (delivery, bool) {
	defer func() {
		s.event, s.data, s.lines, s.size, s.over = s.event[:0], nil, 0, 0, false
	}()
	if s.lines == 0 || (len(s.event) > 0 && string(s.event) != "message") {
		return delivery{}, false
	}
	if s.over {
		return delivery{err: &badMessage{ID: s.f.id(), Reason: tooLarge(s.max)}}, true
	}
	msg := trimJSONSpace(s.data)
	if len(msg) == 0 {
		return delivery{}, false
	}
	return delivery{msg: msg}, true
}

// parseRetry reads a retry field: milliseconds, ASCII digits only; -1
// when it is not one.
func parseRetry(v []byte) time.Duration {
	if len(v) == 0 || len(v) > 9 {
		return -1
	}
	n := 0
	for _, c := range v {
		if c < '0' || c > '9' {
			return -1
		}
		n = n*10 + int(c-'0')
	}
	return time.Duration(n) * time.Millisecond
}
