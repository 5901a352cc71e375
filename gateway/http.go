package gateway

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/contentneg/contentneg/internal/hostcheck"
	"github.com/contentneg/contentneg/internal/rawjson"
)

// HTTPOptions configures [Gateway.Handler]. A nil *HTTPOptions means the
// defaults.
type HTTPOptions struct {
	// Stateless serves the stateless protocol: no sessions, every request
	// on the shared upstream session.
	Stateless bool
	// MaxBody bounds a request body (zero: 4 MiB); a larger one is 413.
	MaxBody int64
	// BodyTimeout bounds the time to read a request body (zero: 30 s); a
	// body trickled slower is cut.
	BodyTimeout time.Duration
	// Hosts are Host names a server bound to a loopback address answers
	// besides the loopback ones (DNS rebinding protection).
	Hosts []string
}

// Handler returns the streamable-HTTP endpoint of the gateway (MCP
// 2025-11-25 transport): each session, opened by an initialize, gets an
// upstream session of its own.
func (g *Gateway) Handler(opts *HTTPOptions) http.Handler {
	h := &httpHandler{g: g, sessions: map[string]*httpSession{}}
	if opts != nil {
		h.opts = *opts
	}

	h.hosts = hostcheck.New(h.opts.Hosts)
	if h.opts.MaxBody <= 0 {
		h.opts.MaxBody = 4 << 20
	}
	if h.opts.BodyTimeout <= 0 {
		h.opts.BodyTimeout = 30 * time.Second
	}
	if g.idle > 0 {
		g.wg.Add(1)
		go h.janitor()
	}
	return h
}

type httpHandler struct {
	g     *Gateway
	opts  HTTPOptions
	hosts hostcheck.Hosts

	mu       sync.Mutex
	sessions map[string]*httpSession
}

// maxHTTPSessions bounds the sessions of one handler.
const maxHTTPSessions = 10000

// httpSession is one MCP session over HTTP: its session and the streams
// open to its client.
type httpSession struct {
	s    *session
	mu   sync.Mutex
	last time.Time
	// get is the client's standalone stream (GET), posts the streams of
	// requests under way (POST); queue what waits for a stream.
	get   *sseStream
	posts []*sseStream
	queue [][]byte
}

// maxQueued bounds the messages waiting for a stream to open.
const maxQueued = 256

// send passes a message the server sends unasked to the client: on its
// GET stream, else on the newest stream of a request under way, else
// queued for the next stream that opens.
func (hs *httpSession) send(ctx context.Context, msg []byte) error {
	hs.mu.Lock()
	st := hs.get
	if st == nil && len(hs.posts) > 0 {
		st = hs.posts[len(hs.posts)-1]
	}
	if st == nil {
		if len(hs.queue) >= maxQueued {
			hs.queue = hs.queue[1:]
		}
		hs.queue = append(hs.queue, msg)
		hs.mu.Unlock()
		return nil
	}
	hs.mu.Unlock()
	return st.push(ctx, msg)
}

// open registers a stream and hands it what was queued.
func (hs *httpSession) open(st *sseStream, standalone bool) {
	hs.mu.Lock()
	if standalone {
		if hs.get != nil {
			hs.get.stop()
		}
		hs.get = st
	} else {
		hs.posts = append(hs.posts, st)
	}
	queued := hs.queue
	hs.queue = nil
	hs.mu.Unlock()
	for _, msg := range queued {
		_ = st.push(context.Background(), msg)
	}
}

func (hs *httpSession) shut(st *sseStream) {
	hs.mu.Lock()
	defer hs.mu.Unlock()
	if hs.get == st {
		hs.get = nil
	}
	for i, p := range hs.posts {
		if p == st {
			hs.posts = append(hs.posts[:i], hs.posts[i+1:]...)
			break
		}
	}
}

func (hs *httpSession) touch() {
	hs.mu.Lock()
	hs.last = time.Now()
	hs.mu.Unlock()
}

// sseStream is one text/event-stream response: messages pushed to it are
// written by the handler that owns it.
type sseStream struct {
	msgs chan []byte
	done chan struct{}
	once sync.Once
}

func newStream() *sseStream {
	return &sseStream{msgs: make(chan []byte, 64), done: make(chan struct{})}
}

func (st *sseStream) push(ctx context.Context, msg []byte) error {
	select {
	case st.msgs <- msg:
		return nil
	case <-st.done:
		return errors.New("the stream has closed")
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

func (st *sseStream) stop() { st.once.Do(func() { close(st.done) }) }

func writeEvent(w io.Writer, msg []byte) error {
	_, err := fmt.Fprintf(w, "event: message\ndata: %s\n\n", msg)
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
	return err
}

const sessionHeader = "Mcp-Session-Id"

func (h *httpHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !h.hosts.Allows(r) {
		http.Error(w, fmt.Sprintf("Forbidden: invalid Host header %q", r.Host), http.StatusForbidden)
		return
	}
	allow := "GET, POST, DELETE"
	if h.opts.Stateless {
		allow = "POST" // no session: no stream to GET, none to DELETE
	}
	switch {
	case r.Method == http.MethodPost:
		h.post(w, r)
	case !h.opts.Stateless && r.Method == http.MethodGet:
		h.stream(w, r)
	case !h.opts.Stateless && r.Method == http.MethodDelete:
		if hs := h.take(r.Header.Get(sessionHeader)); hs != nil {
			hs.s.close()
			h.g.remove(hs.s)
		}
		w.WriteHeader(http.StatusNoContent)
	default:
		w.Header().Set("Allow", allow)
		http.Error(w, "Method Not Allowed", http.StatusMethodNotAllowed)
	}
}

func (h *httpHandler) lookup(id string) *httpSession {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.sessions[id]
}

func (h *httpHandler) take(id string) *httpSession {
	h.mu.Lock()
	defer h.mu.Unlock()
	hs := h.sessions[id]
	delete(h.sessions, id)
	return hs
}

// readBody reads a request body, bounded in size and in time.
func (h *httpHandler) readBody(w http.ResponseWriter, r *http.Request) ([]byte, int, error) {
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Now().Add(h.opts.BodyTimeout))
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, h.opts.MaxBody))
	if err != nil {
		// The deadline stays, and the connection closes: the server must
		// not wait for the rest of a trickled body before it answers.
		w.Header().Set("Connection", "close")
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, http.StatusRequestEntityTooLarge, fmt.Errorf("request body exceeds %d bytes", mbe.Limit)
		}
		return nil, http.StatusRequestTimeout, fmt.Errorf("read the request body: %w", err)
	}
	_ = rc.SetReadDeadline(time.Time{}) // a stream may follow
	return body, 0, nil
}

func (h *httpHandler) post(w http.ResponseWriter, r *http.Request) {
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" {
		http.Error(w, "Content-Type must be application/json", http.StatusUnsupportedMediaType)
		return
	}
	body, status, err := h.readBody(w, r)
	if err != nil {
		http.Error(w, err.Error(), status)
		return
	}
	m, err := parseMessage(trimSpace(body))
	if err != nil {
		var f idFinder
		f.feed(body)
		code := int64(codeInvalidRequest)
		if errors.Is(err, rawjson.ErrSyntax) {
			code = codeParseError
		}
		writeJSON(w, http.StatusBadRequest, encodeError(f.id(), code, err.Error()))
		return
	}
	if h.opts.Stateless {
		s := h.g.newSession("", nil, true)
		s.stateless = true
		defer s.close()
		h.exchange(w, r, s, nil, m, body)
		return
	}
	id := r.Header.Get(sessionHeader)
	var hs *httpSession
	switch {
	case id != "":
		if hs = h.lookup(id); hs == nil {
			writeJSON(w, http.StatusNotFound, encodeError(m.id, codeInvalidRequest, "session not found"))
			return
		}
	case m.method == "initialize" && m.isRequest():
		var err error
		if hs, err = h.newSession(); err != nil {
			writeJSON(w, http.StatusServiceUnavailable, encodeError(m.id, codeUnavailable, err.Error()))
			return
		}
		w.Header().Set(sessionHeader, hs.s.id)
	case m.method == "server/discover":
		// A stateful endpoint serves the session protocol: the client
		// falls back to initialize, as with any stateful server.
		writeJSON(w, http.StatusBadRequest, encodeErrorObject(m.id, errorObject(-32022, "unsupported protocol version: this endpoint serves sessions", []byte(`{"supported":["2025-11-25","2025-06-18","2025-03-26"]}`))))
		return
	default:
		http.Error(w, "Bad Request: missing Mcp-Session-Id (send initialize first)", http.StatusBadRequest)
		return
	}
	hs.touch()
	ok := h.exchange(w, r, hs.s, hs, m, body)
	if !ok && m.method == "initialize" {
		// A session whose upstream could not start is no session.
		if h.take(hs.s.id) != nil {
			hs.s.close()
			h.g.remove(hs.s)
		}
	}
}

// newSession opens a session with a fresh random id.
func (h *httpHandler) newSession() (*httpSession, error) {
	var b [16]byte
	_, _ = rand.Read(b[:])
	id := hex.EncodeToString(b[:])
	hs := &httpSession{last: time.Now()}
	hs.s = h.g.newSession(id, hs, h.g.sharedOK)
	h.mu.Lock()
	if len(h.sessions) >= maxHTTPSessions {
		h.mu.Unlock()
		return nil, fmt.Errorf("the gateway serves %d sessions, its bound", maxHTTPSessions)
	}
	h.sessions[id] = hs
	h.mu.Unlock()
	if !h.g.add(hs.s) {
		h.take(id)
		return nil, errors.New("the gateway is shutting down")
	}
	return hs, nil
}

// exchange serves one POSTed message and writes the response: 202 for a
// notification or an answer; for a request, its response, as one JSON
// body or, when the client accepts it, an event stream that also carries
// what the server sends meanwhile. It reports whether the request
// succeeded.
func (h *httpHandler) exchange(w http.ResponseWriter, r *http.Request, s *session, hs *httpSession, m *message, body []byte) bool {
	if !m.isRequest() {
		s.receive(r.Context(), body, func([]byte) {})
		w.WriteHeader(http.StatusAccepted)
		return true
	}
	replied := make(chan []byte, 1)
	var st *sseStream
	if acceptsStream(r) {
		st = newStream()
		if hs != nil {
			hs.open(st, false)
			defer hs.shut(st)
		} else {
			// Progress reaches the request's own stream; a question never
			// does (session.canAsk).
			s.down = streamDown{st}
		}
		defer st.stop()
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Cache-Control", "no-cache")
		w.WriteHeader(http.StatusOK)
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
	}
	s.receive(r.Context(), body, func(resp []byte) { replied <- resp })
	for {
		var msgs chan []byte
		if st != nil {
			msgs = st.msgs
		}
		select {
		case resp := <-replied:
			if st == nil {
				writeJSON(w, http.StatusOK, resp)
			} else {
				h.drain(w, st)
				_ = writeEvent(w, resp)
			}
			return !isErrorResponse(resp)
		case msg := <-msgs:
			if writeEvent(w, msg) != nil {
				return false
			}
		case <-s.done:
			return false
		}
	}
}

// drain writes what was pushed to a stream before its response.
func (h *httpHandler) drain(w io.Writer, st *sseStream) {
	for {
		select {
		case msg := <-st.msgs:
			_ = writeEvent(w, msg)
		default:
			return
		}
	}
}

func isErrorResponse(resp []byte) bool {
	_, ok := rawjson.Get(resp, "error")
	return ok
}

// streamDown sends to a stateless request's own stream.
type streamDown struct{ st *sseStream }

func (d streamDown) send(ctx context.Context, msg []byte) error { return d.st.push(ctx, msg) }

// stream serves the client's standalone GET stream.
func (h *httpHandler) stream(w http.ResponseWriter, r *http.Request) {
	hs := h.lookup(r.Header.Get(sessionHeader))
	if hs == nil {
		http.Error(w, "session not found", http.StatusNotFound)
		return
	}
	if !acceptsStream(r) {
		http.Error(w, "Accept must contain text/event-stream", http.StatusNotAcceptable)
		return
	}
	st := newStream()
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
	hs.open(st, true)
	defer hs.shut(st)
	defer st.stop()
	for {
		select {
		case msg := <-st.msgs:
			if writeEvent(w, msg) != nil {
				return
			}
		case <-st.done:
			return
		case <-hs.s.done:
			return
		case <-r.Context().Done():
			return
		}
	}
}

func acceptsStream(r *http.Request) bool {
	for _, v := range r.Header.Values("Accept") {
		for _, part := range strings.Split(v, ",") {
			mt, _, _ := mime.ParseMediaType(strings.TrimSpace(part))
			if mt == "text/event-stream" {
				return true
			}
		}
	}
	return false
}

func writeJSON(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// janitor ends sessions idle past the gateway's idle time.
func (h *httpHandler) janitor() {
	defer h.g.wg.Done()
	tick := time.NewTicker(max(h.g.idle/4, 10*time.Millisecond))
	defer tick.Stop()
	for {
		select {
		case <-h.g.life.Done():
			return
		case <-tick.C:
		}
		var idle []*httpSession
		h.mu.Lock()
		for id, hs := range h.sessions {
			hs.mu.Lock()
			stale := time.Since(hs.last) > h.g.idle
			hs.mu.Unlock()
			if stale {
				delete(h.sessions, id)
				idle = append(idle, hs)
			}
		}
		h.mu.Unlock()
		for _, hs := range idle {
			hs.s.close()
			h.g.remove(hs.s)
		}
	}
}
