package gateway

// The upstream's result bytes, for the clients that get its result as it is.
//
// The go-sdk client decodes the upstream's result into its own types
// (structuredContent into a map[string]any, numbers through float64) and
// the go-sdk server encodes them again: keys come out sorted, digits can
// change, fields the SDK does not know are dropped and its own added, and
// <, > and & are escaped. So the gateway keeps the bytes:
//
//   - rawConn, around the upstream connection, hands the result bytes of a
//     forwarded request's response to the [rawCall] in the context of that
//     request (the go-sdk client passes the call's context to
//     Connection.Write, where the request's ID is registered); over
//     streamable HTTP the HTTP client does it (rawhttp.go);
//   - [Gateway.forward] gives a tool result's structuredContent as those
//     exact bytes (a json.RawMessage), so that renderings keep the
//     upstream's digits and member order, and records the go-sdk's
//     encoding of the result it returns;
//   - [passThrough], the outermost receiving middleware, marks the result
//     that comes back, and when the go-sdk is about to send it, the
//     upstream's bytes are sent instead, but only when the go-sdk's encoding
//     of what it would send is exactly its encoding of the result forward
//     returned (nothing rendered or changed it), apart from the stateless
//     era's envelope, which is then added to the upstream's bytes.

import (
	"bytes"
	"context"
	"encoding/json"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// rawDial wraps the transports dial returns so that the upstream's result
// bytes reach the forwarded requests: the connections of the SDK's stream
// transports; for streamable HTTP, whose connection the SDK tells of its
// session through an unexported method that a wrapper would hide, the HTTP
// client. Other transports give their results as the SDK decodes them.
func rawDial(dial func() mcp.Transport) func() mcp.Transport {
	return func() mcp.Transport {
		t := dial()
		switch t := t.(type) {
		case *mcp.CommandTransport, *mcp.IOTransport, *mcp.InMemoryTransport, *mcp.StdioTransport:
			return rawTransport{t}
		case *mcp.StreamableClientTransport:
			return rawHTTP(t) // rawhttp.go
		}
		return t
	}
}

// rawTransport is a transport whose connections are rawConns.
type rawTransport struct{ mcp.Transport }

func (t rawTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &rawConn{Connection: c, pending: map[jsonrpc.ID]*rawCall{}}, nil
}

// rawConn hands the result bytes of each response to the rawCall that sent
// the request.
type rawConn struct {
	mcp.Connection
	mu      sync.Mutex
	pending map[jsonrpc.ID]*rawCall
}

// Write registers a forwarded request's ID with the rawCall in ctx, before
// the request is written (so before its response can arrive).
func (c *rawConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() && rawMethods[req.Method] {
		if rc, ok := ctx.Value(rawCallKey{}).(*rawCall); ok {
			c.mu.Lock()
			c.pending[req.ID] = rc
			c.mu.Unlock()
			rc.registered(c, req.ID)
		}
	}
	return c.Connection.Write(ctx, msg)
}

// Read hands a response's result bytes to the rawCall waiting for them.
func (c *rawConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if resp, ok := msg.(*jsonrpc.Response); ok && err == nil {
		c.mu.Lock()
		rc := c.pending[resp.ID]
		delete(c.pending, resp.ID)
		c.mu.Unlock()
		if rc != nil {
			rc.received(resp.Result)
		}
	}
	return msg, err
}

// forget drops id, whose response never came (the call was cancelled).
func (c *rawConn) forget(id jsonrpc.ID) {
	c.mu.Lock()
	delete(c.pending, id)
	c.mu.Unlock()
}

// rawMethods are the methods whose results may be passed through as bytes.
var rawMethods = map[string]bool{"tools/call": true, "resources/read": true, "prompts/get": true}

// rawCallKey is the context key of a request's *rawCall.
type rawCallKey struct{}

// rawCall is one forwarded request: the upstream's result bytes and the
// go-sdk's encoding of the result forward returned for them.
type rawCall struct {
	mu   sync.Mutex
	raw  []byte // the last response's result (an input-required round is followed by another)
	sent []sentID
	enc  []byte // set by keep
}

type sentID struct {
	c  *rawConn
	id jsonrpc.ID
}

// rawCallOf returns the rawCall passThrough put in ctx, or a new one in a
// new context.
func rawCallOf(ctx context.Context) (*rawCall, context.Context) {
	if rc, ok := ctx.Value(rawCallKey{}).(*rawCall); ok {
		return rc, ctx
	}
	rc := new(rawCall)
	return rc, context.WithValue(ctx, rawCallKey{}, rc)
}

func (rc *rawCall) registered(c *rawConn, id jsonrpc.ID) {
	rc.mu.Lock()
	rc.sent = append(rc.sent, sentID{c, id})
	rc.mu.Unlock()
}

func (rc *rawCall) received(raw json.RawMessage) {
	rc.mu.Lock()
	rc.raw = raw
	rc.mu.Unlock()
}

// done forgets the requests whose responses did not come.
func (rc *rawCall) done() {
	rc.mu.Lock()
	sent := rc.sent
	rc.sent = nil
	rc.mu.Unlock()
	for _, s := range sent {
		s.c.forget(s.id)
	}
}

// bytes is the upstream's result, nil when it did not come through a
// rawConn.
func (rc *rawCall) bytes() []byte {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return rc.raw
}

// exact gives a tool result's structuredContent as the upstream's bytes,
// so that every rendering keeps its digits and member order.
func (rc *rawCall) exact(res mcp.Result) {
	r, ok := res.(*mcp.CallToolResult)
	if !ok || r == nil || r.StructuredContent == nil {
		return
	}
	if v, ok := member(rc.bytes(), "structuredContent"); ok && !bytes.Equal(v, []byte("null")) {
		r.StructuredContent = json.RawMessage(v)
	}
}

// keep records the go-sdk's encoding of res, the result forward returns.
func (rc *rawCall) keep(res mcp.Result) {
	if rc.bytes() == nil {
		return
	}
	enc, err := sdkEncode(res)
	if err != nil {
		return
	}
	rc.mu.Lock()
	rc.enc = enc
	rc.mu.Unlock()
}

// passThrough is the outermost receiving middleware of the mirror server:
// it gives forward a rawCall and marks the result that comes back, so that
// it is sent as the upstream's bytes if it is still the upstream's result
// when the SDK encodes it.
func passThrough(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if !rawMethods[method] {
			return next(ctx, method, req)
		}
		rc := new(rawCall)
		res, err := next(context.WithValue(ctx, rawCallKey{}, rc), method, req)
		if err != nil || res == nil {
			return res, err
		}
		rc.mu.Lock()
		raw, enc := rc.raw, rc.enc
		rc.mu.Unlock()
		if raw == nil || enc == nil {
			return res, nil
		}
		p := &passing{raw: raw, enc: enc}
		_, p.hadInfo = res.GetMeta()[mcp.MetaKeyServerInfo]
		switch r := res.(type) {
		case *mcp.CallToolResult:
			return &rawToolResult{r, p}, nil
		case *mcp.ReadResourceResult:
			return &rawResourceResult{r, p}, nil
		case *mcp.GetPromptResult:
			return &rawPromptResult{r, p}, nil
		}
		return res, nil
	}
}

// The marked results: the SDK's own type, whose fields and methods the SDK
// still uses (the stateless era's envelope), encoded by [passing.marshal].
type (
	rawToolResult struct {
		*mcp.CallToolResult
		p *passing
	}
	rawResourceResult struct {
		*mcp.ReadResourceResult
		p *passing
	}
	rawPromptResult struct {
		*mcp.GetPromptResult
		p *passing
	}
)

func (r *rawToolResult) MarshalJSON() ([]byte, error)     { return r.p.marshal(r.CallToolResult) }
func (r *rawResourceResult) MarshalJSON() ([]byte, error) { return r.p.marshal(r.ReadResourceResult) }
func (r *rawPromptResult) MarshalJSON() ([]byte, error)   { return r.p.marshal(r.GetPromptResult) }

// passing is what a marked result needs at encoding time.
type passing struct {
	raw, enc []byte
	hadInfo  bool // the result's _meta held a serverInfo when it was marked
}

// marshal encodes res as the SDK is about to send it: the upstream's bytes
// when the SDK's encoding of res, less the serverInfo the SDK added to its
// _meta (the stateless era's envelope), is its encoding of the result
// forward returned; the SDK's encoding otherwise.
func (p *passing) marshal(res mcp.Result) ([]byte, error) {
	meta := res.GetMeta()
	info, added := meta[mcp.MetaKeyServerInfo]
	added = added && !p.hadInfo
	if added {
		delete(meta, mcp.MetaKeyServerInfo)
	}
	b, err := sdkEncode(res)
	if added {
		meta[mcp.MetaKeyServerInfo] = info
	}
	if err != nil {
		return nil, err
	}
	if bytes.Equal(b, p.enc) {
		if out, ok := envelope(p.raw, p.enc, added, info); ok {
			return out, nil
		}
	}
	if added {
		return sdkEncode(res)
	}
	return b, nil
}

// envelope is raw with what the stateless era adds: the resultType of enc
// (the SDK's encoding) when raw has none, and info as the serverInfo of its
// _meta when the SDK added one. ok is false when raw is not an object.
func envelope(raw, enc []byte, addInfo bool, info any) ([]byte, bool) {
	rt, hasRT := member(enc, "resultType")
	if _, ok := member(raw, "resultType"); ok || !hasRT {
		rt = nil
	}
	if rt == nil && !addInfo {
		return raw, true
	}
	end, empty, ok := closing(raw)
	if !ok {
		return nil, false
	}
	out := make([]byte, 0, len(raw)+64)
	if addInfo {
		i, err := sdkEncode(info)
		if err != nil {
			return nil, false
		}
		pair := append([]byte(`"`+mcp.MetaKeyServerInfo+`":`), i...)
		if start, stop, ok := span(raw, "_meta"); ok {
			// Last in the upstream's _meta.
			mEnd, mEmpty, ok := closing(raw[start:stop])
			if !ok {
				return nil, false
			}
			out = append(out, raw[:start+mEnd]...)
			if !mEmpty {
				out = append(out, ',')
			}
			out = append(append(out, pair...), raw[start+mEnd:end]...)
		} else {
			// A _meta of its own, first.
			open := skipSpace(raw, 0) + 1
			out = append(append(append(out, raw[:open]...), `"_meta":{`...), pair...)
			out = append(out, '}')
			if !empty {
				out = append(out, ',')
			}
			out = append(out, raw[open:end]...)
		}
		empty = false
	} else {
		out = append(out, raw[:end]...)
	}
	if rt != nil {
		// Last.
		if !empty {
			out = append(out, ',')
		}
		out = append(append(out, `"resultType":`...), rt...)
	}
	return append(out, raw[end:]...), true
}

// sdkEncode encodes v as the go-sdk encodes a result on the wire (no HTML
// escaping).
func sdkEncode(v any) ([]byte, error) {
	var buf bytes.Buffer
	e := json.NewEncoder(&buf)
	e.SetEscapeHTML(false)
	if err := e.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte{'\n'}), nil
}

// member returns the bytes of the value of the top-level member key of the
// JSON object obj.
func member(obj []byte, key string) ([]byte, bool) {
	start, end, ok := span(obj, key)
	if !ok {
		return nil, false
	}
	return obj[start:end], true
}

// span finds the value of the top-level member key of the JSON object obj:
// its first byte and the byte after it. The last member of that name wins,
// as when the SDK decodes it. It reads obj once.
func span(obj []byte, key string) (start, end int, found bool) {
	i := skipSpace(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return 0, 0, false
	}
	i = skipSpace(obj, i+1)
	if i < len(obj) && obj[i] == '}' {
		return 0, 0, false
	}
	for i < len(obj) {
		k, j, ok := skipString(obj, i)
		if !ok {
			return 0, 0, false
		}
		j = skipSpace(obj, j)
		if j >= len(obj) || obj[j] != ':' {
			return 0, 0, false
		}
		vs := skipSpace(obj, j+1)
		ve, ok := skipValue(obj, vs)
		if !ok {
			return 0, 0, false
		}
		if keyIs(obj[k:j], key) {
			start, end, found = vs, ve, true
		}
		i = skipSpace(obj, ve)
		if i >= len(obj) {
			return 0, 0, false
		}
		if obj[i] == '}' {
			return start, end, found
		}
		if obj[i] != ',' {
			return 0, 0, false
		}
		i = skipSpace(obj, i+1)
	}
	return 0, 0, false
}

// keyIs reports whether the JSON string quoted (with its quotes and maybe
// trailing space) is key.
func keyIs(quoted []byte, key string) bool {
	quoted = bytes.TrimRight(quoted, " \t\r\n")
	if bytes.IndexByte(quoted, '\\') < 0 {
		return len(quoted) == len(key)+2 && string(quoted[1:len(quoted)-1]) == key
	}
	var s string
	return json.Unmarshal(quoted, &s) == nil && s == key
}

// closing returns the offset of the closing brace of the JSON object obj,
// and whether the object has no members.
func closing(obj []byte) (end int, empty, ok bool) {
	i := skipSpace(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return 0, false, false
	}
	e, ok := skipValue(obj, i)
	if !ok || skipSpace(obj, e) != len(obj) {
		return 0, false, false
	}
	return e - 1, skipSpace(obj, i+1) == e-1, true
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the start of the string at i and the offset after it.
func skipString(b []byte, i int) (start, end int, ok bool) {
	if i >= len(b) || b[i] != '"' {
		return 0, 0, false
	}
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return i, j + 1, true
		}
	}
	return 0, 0, false
}

// skipValue returns the offset after the JSON value at i. It checks the
// nesting and the strings, not the literals: the SDK's decoder has already
// checked the bytes it reads.
func skipValue(b []byte, i int) (int, bool) {
	if i >= len(b) {
		return 0, false
	}
	switch b[i] {
	case '"':
		_, e, ok := skipString(b, i)
		return e, ok
	case '{', '[':
		var stack []byte
		for j := i; j < len(b); j++ {
			switch c := b[j]; c {
			case '"':
				_, e, ok := skipString(b, j)
				if !ok {
					return 0, false
				}
				j = e - 1
			case '{', '[':
				stack = append(stack, c)
			case '}', ']':
				if len(stack) == 0 || stack[len(stack)-1] != c-2 {
					return 0, false
				}
				stack = stack[:len(stack)-1]
				if len(stack) == 0 {
					return j + 1, true
				}
			}
		}
		return 0, false
	default:
		j := i
		for j < len(b) {
			switch b[j] {
			case ',', '}', ']', ' ', '\t', '\r', '\n':
				return j, j > i
			}
			j++
		}
		return j, j > i
	}
}
