package gateway

// The upstream's result bytes over streamable HTTP. Its connection cannot be
// wrapped (the go-sdk tells it of the session through an unexported
// method), so the gateway reads the bytes on their way in, in the HTTP
// client: the go-sdk client makes a forwarded request's POST (and the GET
// that resumes its stream) with the call's context, which carries its
// rawCall, and the response to the request is in that response's body, as
// one JSON message or as an event of a server-sent event stream.

import (
	"bytes"
	"io"
	"mime"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxRawMessage bounds the bytes kept for one message, as the go-sdk bounds
// an event (mcp.DefaultMaxEventSize): a larger result is passed on as the
// go-sdk decodes it.
const maxRawMessage = mcp.DefaultMaxEventSize

// rawHTTP returns a copy of t whose HTTP client hands the result bytes of
// forwarded requests to their rawCalls.
func rawHTTP(t *mcp.StreamableClientTransport) *mcp.StreamableClientTransport {
	c := *t
	client := http.DefaultClient
	if t.HTTPClient != nil {
		client = t.HTTPClient
	}
	hc := *client
	base := hc.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	hc.Transport = rawRoundTripper{base}
	c.HTTPClient = &hc
	return &c
}

// rawRoundTripper reads the result bytes in the responses to requests made
// with a rawCall in their context.
type rawRoundTripper struct{ base http.RoundTripper }

func (t rawRoundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err != nil || resp.Body == nil {
		return resp, err
	}
	rc, ok := req.Context().Value(rawCallKey{}).(*rawCall)
	if !ok {
		return resp, nil
	}
	media, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch media {
	case "application/json":
		resp.Body = &jsonTee{ReadCloser: resp.Body, rc: rc}
	case "text/event-stream":
		resp.Body = &eventTee{ReadCloser: resp.Body, rc: rc}
	}
	return resp, nil
}

// deliver hands the result of msg, if it is a response, to rc.
func deliver(rc *rawCall, msg []byte) {
	m, err := jsonrpc.DecodeMessage(msg)
	if err != nil {
		return
	}
	if resp, ok := m.(*jsonrpc.Response); ok && resp.Error == nil {
		rc.received(resp.Result)
	}
}

// jsonTee keeps a JSON body as the go-sdk reads it and, when it has read
// the whole, hands its result to the rawCall (before the go-sdk, which
// decodes the body once it has read it, hands the response on).
type jsonTee struct {
	io.ReadCloser
	rc   *rawCall
	buf  []byte
	over bool // more than maxRawMessage: not kept
	done bool
}

func (j *jsonTee) Read(p []byte) (int, error) {
	n, err := j.ReadCloser.Read(p)
	if !j.over {
		if len(j.buf)+n > maxRawMessage {
			j.over, j.buf = true, nil
		} else {
			j.buf = append(j.buf, p[:n]...)
		}
	}
	if err == io.EOF && !j.over && !j.done {
		j.done = true
		deliver(j.rc, j.buf)
	}
	return n, err
}

// eventTee follows a server-sent event stream as the go-sdk reads it and
// hands the result in each event it completes to the rawCall, reading the
// events as the go-sdk does (the data lines of an event, trimmed, joined by
// newlines; an event ends at a blank line or at the end of the stream).
type eventTee struct {
	io.ReadCloser
	rc       *rawCall
	line     []byte // the line read so far
	lineOver bool   // the line is too long: skipped, and its event
	data     []byte // the current event's data
	has      bool   // the current event has data
	over     bool   // the current event is too long: skipped
}

func (e *eventTee) Read(p []byte) (int, error) {
	n, err := e.ReadCloser.Read(p)
	for b := p[:n]; len(b) > 0; {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			e.add(b)
			break
		}
		e.add(b[:i])
		e.endLine()
		b = b[i+1:]
	}
	if err == io.EOF {
		if len(e.line) > 0 || e.lineOver {
			e.endLine()
		}
		e.endEvent()
	}
	return n, err
}

func (e *eventTee) add(b []byte) {
	if e.lineOver {
		return
	}
	if len(e.line)+len(b) > maxRawMessage {
		e.lineOver, e.line = true, nil
		return
	}
	e.line = append(e.line, b...)
}

func (e *eventTee) endLine() {
	if e.lineOver {
		e.lineOver, e.over = false, true
		return
	}
	line := bytes.TrimRight(e.line, "\r")
	e.line = e.line[:0]
	if len(line) == 0 {
		e.endEvent()
		return
	}
	if e.over {
		return
	}
	field, value, ok := bytes.Cut(line, []byte{':'})
	if !ok || string(field) != "data" {
		return
	}
	if e.has {
		e.data = append(e.data, '\n')
	}
	e.data, e.has = append(e.data, bytes.TrimSpace(value)...), true
	if len(e.data) > maxRawMessage {
		e.over, e.data = true, nil
	}
}

func (e *eventTee) endEvent() {
	if e.has && !e.over {
		deliver(e.rc, e.data)
	}
	// A fresh buffer: the decoded result may share the last one's bytes.
	e.data, e.has, e.over = nil, false, false
}
