package gosdkbackend

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tidwall/gjson"
)

// The go-sdk's client decodes a tool result's structuredContent into an
// any: numbers become float64 (12345678901234567890 comes back as
// 12345678901234567000, 1.50 as 1.5, 1E+400 fails the call), objects
// become maps (their members sorted when encoded again). The contract wants
// the value exactly (section 8, "Values exactly"), so the backend's client
// sessions read tools/call results off the wire themselves: a rawConn keeps
// the result as the server wrote it, for the call that waits on it, and
// hands the SDK the result without its structuredContent, which the SDK then
// never decodes.

// rawKey is the context key of the *rawCall a tools/call waits on.
type rawKey struct{}

// rawCall is one tools/call whose result is kept as the server wrote it.
// Its fields are guarded by conn.mu once conn is set.
type rawCall struct {
	conn   *rawConn   // the connection that sent the request; nil before
	id     jsonrpc.ID // the request's id
	result json.RawMessage
}

// withRawCall returns ctx carrying call, for rawConn.Write to find.
func withRawCall(ctx context.Context, call *rawCall) context.Context {
	return context.WithValue(ctx, rawKey{}, call)
}

// take returns the result kept for call (nil when none arrived) and
// forgets the call.
func (call *rawCall) take() json.RawMessage {
	c := call.conn
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.pending, call.id)
	r := call.result
	call.result = nil
	return r
}

// rawTransport makes rawConns of its transport's connections.
type rawTransport struct{ mcp.Transport }

// Connect connects the transport.
func (t rawTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &rawConn{Connection: c, pending: make(map[jsonrpc.ID]*rawCall)}, nil
}

// rawConn is a client connection that keeps the results of the tools/call
// requests sent under a rawCall.
type rawConn struct {
	mcp.Connection

	mu      sync.Mutex
	pending map[jsonrpc.ID]*rawCall // by request id; entries leave with their answer or their call
}

// Write sends msg; a tools/call sent under a rawCall is remembered by its
// id (a call the server asked to repeat, with input, is remembered under
// its new id).
func (c *rawConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if call, ok := ctx.Value(rawKey{}).(*rawCall); ok {
		if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() && req.Method == "tools/call" {
			c.mu.Lock()
			if call.conn == c {
				delete(c.pending, call.id)
			}
			if call.conn == nil || call.conn == c {
				call.conn, call.id = c, req.ID
				c.pending[req.ID] = call
			}
			c.mu.Unlock()
		}
	}
	return c.Connection.Write(ctx, msg)
}

// Read reads the next message; the result of a remembered call is kept for
// it, and the SDK gets it without its structuredContent.
func (c *rawConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	resp, ok := msg.(*jsonrpc.Response)
	if err != nil || !ok || resp.Error != nil || len(resp.Result) == 0 {
		return msg, err
	}
	c.mu.Lock()
	call := c.pending[resp.ID]
	if call != nil {
		delete(c.pending, resp.ID)
		call.result = resp.Result
	}
	c.mu.Unlock()
	if call != nil {
		resp.Result = without(resp.Result, "structuredContent")
	}
	return msg, nil
}

// without returns the JSON object obj without its member named key, the
// other members as they are; obj itself when it has no such member or is
// not an object.
func without(obj json.RawMessage, key string) json.RawMessage {
	v := gjson.ParseBytes(obj)
	if !v.IsObject() || !v.Get(gjson.Escape(key)).Exists() {
		return obj
	}
	out := make([]byte, 0, len(obj))
	out = append(out, '{')
	v.ForEach(func(k, val gjson.Result) bool {
		if k.Str == key {
			return true
		}
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(out, k.Raw...)
		out = append(out, ':')
		out = append(out, val.Raw...)
		return true
	})
	return append(out, '}')
}

// member returns the raw value of obj's member key, nil when absent or
// null. obj is valid JSON: a response's result, which the SDK's JSON-RPC
// layer has decoded.
func member(obj json.RawMessage, key string) json.RawMessage {
	r := gjson.GetBytes(obj, gjson.Escape(key))
	if !r.Exists() || r.Type == gjson.Null {
		return nil
	}
	return json.RawMessage(r.Raw)
}
