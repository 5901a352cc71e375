package check

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"strings"
	"sync"
)

// Bounds of what a wire keeps.
const (
	maxMessages    = 4096
	maxMessageSize = 16 << 20
	maxWireBytes   = 64 << 20 // all the messages of one session
)

// wire records the JSON-RPC messages of one session as they were on the
// wire: the requests the client sent (id -> method) and, byte for byte, the
// results and errors of the server's responses, and the server's requests.
type wire struct {
	mu       sync.Mutex
	methods  map[string]string // request id -> method, client to server
	results  map[string]json.RawMessage
	errors   map[string]json.RawMessage
	order    []string // ids of the responses, in order of arrival
	incoming []string // methods of the server's requests to the client
	count    int
	size     int
	session  bool // an HTTP response carried an Mcp-Session-Id
}

func newWire() *wire {
	return &wire{methods: map[string]string{}, results: map[string]json.RawMessage{}, errors: map[string]json.RawMessage{}}
}

// rawMessage is a JSON-RPC message with its parts left raw.
type rawMessage struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

// sent records a message (or a batch) that the client sent.
func (w *wire) sent(data []byte) { w.record(data, true) }

// received records a message (or a batch) that the server sent.
func (w *wire) received(data []byte) { w.record(data, false) }

func (w *wire) record(data []byte, out bool) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || len(data) > maxMessageSize {
		return
	}
	w.mu.Lock()
	w.size += len(data)
	full := w.size > maxWireBytes
	w.mu.Unlock()
	if full {
		return
	}
	var msgs []rawMessage
	if data[0] == '[' {
		if json.Unmarshal(data, &msgs) != nil {
			return
		}
	} else {
		var m rawMessage
		if json.Unmarshal(data, &m) != nil {
			return
		}
		msgs = []rawMessage{m}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, m := range msgs {
		if w.count++; w.count > maxMessages {
			return
		}
		id := string(bytes.TrimSpace(m.ID))
		switch {
		case out && m.Method != "" && id != "" && id != "null":
			w.methods[id] = m.Method
		case !out && m.Method != "":
			w.incoming = append(w.incoming, m.Method)
		case !out && id != "":
			if m.Result != nil {
				w.results[id] = m.Result
			} else {
				w.errors[id] = m.Error
			}
			w.order = append(w.order, id)
		}
	}
}

// exchange is one request's outcome on the wire.
type exchange struct {
	// Result is the result, byte for byte; nil for an error.
	Result json.RawMessage
	// Error is the JSON-RPC error, byte for byte; nil for a result.
	Error json.RawMessage
}

// same reports whether two outcomes are byte-identical.
func (e exchange) same(o exchange) bool {
	return bytes.Equal(e.Result, o.Result) && bytes.Equal(e.Error, o.Error)
}

// responses returns the outcomes of the requests of method, in order.
func (w *wire) responses(method string) []exchange {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []exchange
	for _, id := range w.order {
		if w.methods[id] != method {
			continue
		}
		out = append(out, exchange{Result: w.results[id], Error: w.errors[id]})
	}
	return out
}

// sawSession reports whether an HTTP response carried a session id.
func (w *wire) sawSession() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.session
}

// requestsFromServer counts the server's requests of method.
func (w *wire) requestsFromServer(method string) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := 0
	for _, m := range w.incoming {
		if m == method {
			n++
		}
	}
	return n
}

// lineRecorder feeds each newline-terminated line written to it to f: the
// framing of the stdio transport.
type lineRecorder struct {
	buf  []byte
	f    func([]byte)
	drop bool // the current line is too long: skip to its end
}

func (l *lineRecorder) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			l.add(p)
			break
		}
		l.add(p[:i])
		if !l.drop {
			l.f(l.buf)
		}
		l.buf, l.drop = l.buf[:0], false
		p = p[i+1:]
	}
	return n, nil
}

func (l *lineRecorder) add(p []byte) {
	if l.drop {
		return
	}
	if len(l.buf)+len(p) > maxMessageSize {
		l.buf, l.drop = l.buf[:0], true
		return
	}
	l.buf = append(l.buf, p...)
}

// teeReadCloser copies what is read from r to w.
type teeReadCloser struct {
	r io.ReadCloser
	w io.Writer
}

func (t teeReadCloser) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	if n > 0 {
		_, _ = t.w.Write(p[:n])
	}
	return n, err
}

func (t teeReadCloser) Close() error { return t.r.Close() }

// teeWriteCloser copies what is written to w to tee.
type teeWriteCloser struct {
	w   io.WriteCloser
	tee io.Writer
}

func (t teeWriteCloser) Write(p []byte) (int, error) {
	n, err := t.w.Write(p)
	if n > 0 {
		_, _ = t.tee.Write(p[:n])
	}
	return n, err
}

func (t teeWriteCloser) Close() error { return t.w.Close() }

// recordingTransport is an http.RoundTripper that records the JSON-RPC
// messages of the streamable HTTP transport in a wire: request bodies,
// JSON response bodies and the data of server-sent events.
type recordingTransport struct {
	base http.RoundTripper
	wire *wire
}

func (t recordingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil && req.Method == http.MethodPost {
		body, err := io.ReadAll(io.LimitReader(req.Body, maxMessageSize+1))
		_ = req.Body.Close()
		if err != nil {
			return nil, err
		}
		t.wire.sent(body)
		req = req.Clone(req.Context())
		req.Body = io.NopCloser(bytes.NewReader(body))
		req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	}
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	if resp.Header.Get("Mcp-Session-Id") != "" {
		t.wire.mu.Lock()
		t.wire.session = true
		t.wire.mu.Unlock()
	}
	media, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch media {
	case "application/json":
		resp.Body = &jsonBody{rc: resp.Body, wire: t.wire}
	case "text/event-stream":
		resp.Body = &eventBody{rc: resp.Body, lines: lineRecorder{f: newEventParser(t.wire)}}
	}
	return resp, nil
}

// errBodyTooLarge fails the read of a JSON response larger than
// maxMessageSize.
var errBodyTooLarge = errors.New("the server's JSON response is larger than 16 MiB")

// jsonBody records a JSON response body once it is read to its end.
type jsonBody struct {
	rc   io.ReadCloser
	wire *wire
	buf  bytes.Buffer
	done bool
}

func (b *jsonBody) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	if b.buf.Len()+n > maxMessageSize {
		// The SDK reads a JSON body whole, with no bound of its own.
		return 0, errBodyTooLarge
	}
	b.buf.Write(p[:n])
	if err == io.EOF && !b.done {
		b.done = true
		b.wire.received(b.buf.Bytes())
	}
	return n, err
}

func (b *jsonBody) Close() error { return b.rc.Close() }

// eventBody records the data of each server-sent event as it is read,
// before the reader can act on the event.
type eventBody struct {
	rc    io.ReadCloser
	lines lineRecorder
}

func (b *eventBody) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	_, _ = b.lines.Write(p[:n])
	return n, err
}

func (b *eventBody) Close() error { return b.rc.Close() }

// newEventParser returns a function that takes the lines of an event
// stream and records the data of each event in w when the event ends.
func newEventParser(w *wire) func([]byte) {
	var (
		data []string
		size int
	)
	return func(line []byte) {
		s := strings.TrimSuffix(string(line), "\r")
		switch {
		case s == "":
			if len(data) > 0 && size <= maxMessageSize {
				w.received([]byte(strings.Join(data, "\n")))
			}
			data, size = data[:0], 0
		case strings.HasPrefix(s, "data:"):
			if size += len(s); size <= maxMessageSize {
				data = append(data, strings.TrimPrefix(strings.TrimPrefix(s, "data:"), " "))
			}
		}
	}
}
