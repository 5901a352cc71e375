package gateway

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestMember(t *testing.T) {
	tests := []struct {
		name  string
		obj   string
		key   string
		want  string
		found bool
	}{
		{name: "first", obj: `{"a":1,"b":2}`, key: "a", want: `1`, found: true},
		{name: "last", obj: `{"a":1,"b":[2,{"c":"}"}]}`, key: "b", want: `[2,{"c":"}"}]`, found: true},
		{name: "spaces", obj: " { \"a\" : {\"x\": 1} ,\n\"b\":\"s\" } ", key: "a", want: `{"x": 1}`, found: true},
		{name: "nested key is not top-level", obj: `{"a":{"b":1}}`, key: "b"},
		{name: "key inside a string", obj: `{"a":"\"b\":1"}`, key: "b"},
		{name: "escaped key", obj: `{"\u0062":true}`, key: "b", want: `true`, found: true},
		{name: "the last of two wins", obj: `{"a":1,"a":2}`, key: "a", want: `2`, found: true},
		{name: "exact digits", obj: `{"n":12345678901234567890,"m":-0}`, key: "m", want: `-0`, found: true},
		{name: "empty object", obj: `{}`, key: "a"},
		// Bad input: never a panic, never a span.
		{name: "not an object", obj: `[1,2]`, key: "a"},
		{name: "empty", obj: ``, key: "a"},
		{name: "truncated", obj: `{"a":[1,2`, key: "a"},
		{name: "truncated string", obj: `{"a":"x`, key: "a"},
		{name: "unclosed object", obj: `{"a":1`, key: "a"},
		{name: "mismatched brackets", obj: `{"a":[1}`, key: "a"},
		{name: "no colon", obj: `{"a" 1}`, key: "a"},
		{name: "no value", obj: `{"a":}`, key: "a"},
		{name: "key not a string", obj: `{a:1}`, key: "a"},
		{name: "trailing comma", obj: `{"a":1,}`, key: "a"},
		{name: "lone backslash", obj: `{"a":"\`, key: "a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, found := member([]byte(tt.obj), tt.key)
			if string(got) != tt.want || found != tt.found {
				t.Errorf("member(%s, %q) = %s, %v; want %s, %v", tt.obj, tt.key, got, found, tt.want, tt.found)
			}
		})
	}
}

func TestEnvelope(t *testing.T) {
	info := &mcp.Implementation{Name: "up", Version: "1"}
	const pair = `"io.modelcontextprotocol/serverInfo":{"name":"up","version":"1"}`
	tests := []struct {
		name    string
		raw     string
		enc     string // the SDK's encoding of the result as forwarded
		addInfo bool
		want    string
		ok      bool
	}{
		{name: "legacy: as it is", raw: `{"b":1,"a":2}`, enc: `{"a":2,"b":1}`, want: `{"b":1,"a":2}`, ok: true},
		{
			name: "stateless: both", raw: `{"b":1,"a":2}`, enc: `{"a":2,"b":1,"resultType":"complete"}`, addInfo: true,
			want: `{"_meta":{` + pair + `},"b":1,"a":2,"resultType":"complete"}`, ok: true,
		},
		{
			name: "into the upstream's _meta", raw: `{"b":1,"_meta":{"z":1.0}}`, enc: `{"resultType":"complete"}`, addInfo: true,
			want: `{"b":1,"_meta":{"z":1.0,` + pair + `},"resultType":"complete"}`, ok: true,
		},
		{
			name: "into an empty _meta", raw: `{"_meta":{ },"b":1}`, enc: `{"resultType":"complete"}`, addInfo: true,
			want: `{"_meta":{ ` + pair + `},"b":1,"resultType":"complete"}`, ok: true,
		},
		{
			name: "the upstream's resultType stays", raw: `{"resultType":"complete","b":1}`, enc: `{"b":1,"resultType":"complete"}`,
			want: `{"resultType":"complete","b":1}`, ok: true,
		},
		{name: "empty result", raw: `{}`, enc: `{"resultType":"complete"}`, addInfo: true, want: `{"_meta":{` + pair + `},"resultType":"complete"}`, ok: true},
		{name: "resultType only", raw: `{}`, enc: `{"resultType":"complete"}`, want: `{"resultType":"complete"}`, ok: true},
		// Bad input: the SDK's encoding is sent instead.
		{name: "not an object", raw: `null`, enc: `{"resultType":"complete"}`, addInfo: true},
		{name: "a _meta that is not an object", raw: `{"_meta":3}`, enc: `{}`, addInfo: true},
		{name: "truncated", raw: `{"a":`, enc: `{"resultType":"complete"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := envelope([]byte(tt.raw), []byte(tt.enc), tt.addInfo, info)
			if string(got) != tt.want || ok != tt.ok {
				t.Errorf("envelope(%s) = %s, %v; want %s, %v", tt.raw, got, ok, tt.want, tt.ok)
			}
			if ok && !json.Valid(got) {
				t.Errorf("envelope(%s) = %s: not JSON", tt.raw, got)
			}
		})
	}
}

// TestPassingFallsBack: a marked result that changed after forward
// returned it (anything but the stateless era's serverInfo) is sent as the
// go-sdk encodes it, never as the upstream's bytes.
func TestPassingFallsBack(t *testing.T) {
	res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "x"}}}
	enc, err := sdkEncode(res)
	if err != nil {
		t.Fatal(err)
	}
	raw := `{"content":[{"text":"x","type":"text"}]}`
	p := &passing{raw: []byte(raw), enc: enc}
	r := &rawToolResult{res, p}
	tests := []struct {
		name   string
		change func()
		want   string
	}{
		{name: "unchanged", change: func() {}, want: raw},
		{
			name:   "serverInfo added",
			change: func() { res.SetMeta(map[string]any{mcp.MetaKeyServerInfo: map[string]any{"name": "g"}}) },
			want:   `{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"g"}},"content":[{"text":"x","type":"text"}]}`,
		},
		{
			name:   "another _meta key",
			change: func() { res.SetMeta(map[string]any{"other": 1}) },
			want:   `{"_meta":{"other":1},"content":[{"type":"text","text":"x"}]}`,
		},
		{
			name:   "content changed",
			change: func() { res.Meta = nil; res.Content = []mcp.Content{&mcp.TextContent{Text: "rendered"}} },
			want:   `{"content":[{"type":"text","text":"rendered"}]}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.change()
			got, err := json.Marshal(r)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}

// stubConn is a connection that writes nothing and reads the responses
// it is given.
type stubConn struct{ in chan jsonrpc.Message }

func (s stubConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case m := <-s.in:
		return m, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
func (stubConn) Write(context.Context, jsonrpc.Message) error { return nil }
func (stubConn) Close() error                                 { return nil }
func (stubConn) SessionID() string                            { return "" }

// TestRawConn: a forwarded request's result bytes reach its rawCall, and
// one whose response never comes (it was cancelled) leaves nothing behind
// in the connection; requests of other methods, or without a rawCall, are
// not tracked.
func TestRawConn(t *testing.T) {
	id := func(n float64) jsonrpc.ID {
		id, err := jsonrpc.MakeID(n)
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	in := make(chan jsonrpc.Message, 1)
	c := &rawConn{Connection: stubConn{in}, pending: map[jsonrpc.ID]*rawCall{}}
	ctx := context.Background()
	answered, actx := rawCallOf(ctx)
	_ = c.Write(actx, &jsonrpc.Request{ID: id(1), Method: "tools/call"})
	cancelled, cctx := rawCallOf(ctx)
	_ = c.Write(cctx, &jsonrpc.Request{ID: id(2), Method: "resources/read"})
	_ = c.Write(actx, &jsonrpc.Request{ID: id(3), Method: "tools/list"})
	_ = c.Write(ctx, &jsonrpc.Request{ID: id(4), Method: "tools/call"})
	in <- &jsonrpc.Response{ID: id(1), Result: json.RawMessage(`{"b":1,"a":2}`)}
	if _, err := c.Read(ctx); err != nil {
		t.Fatal(err)
	}
	if got := string(answered.bytes()); got != `{"b":1,"a":2}` {
		t.Errorf("the answered request got %s", got)
	}
	answered.done()
	cancelled.done()
	if got := cancelled.bytes(); got != nil {
		t.Errorf("the cancelled request got %s", got)
	}
	if n := len(c.pending); n != 0 {
		t.Errorf("%d requests still pending", n)
	}
}

// TestTees: the result of the response in an HTTP body reaches the
// rawCall, however the body is cut into reads, as the go-sdk reads the
// body (one JSON message, or server-sent events); anything else gives
// nothing, and never a panic.
func TestTees(t *testing.T) {
	const result = `{"b":1,"a":12345678901234567890}`
	const response = `{"jsonrpc":"2.0","id":1,"result":` + result + `}`
	long := strings.Repeat("x", maxRawMessage+1)
	tests := []struct {
		name  string
		sse   bool
		body  string
		want  string
		bytes bool // one byte per read
	}{
		{name: "JSON", body: response, want: result},
		{name: "JSON, a byte per read", body: response, want: result, bytes: true},
		{name: "events", sse: true, body: "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{}}\n\nid: 1\ndata: " + response + "\n\n", want: result},
		{name: "events, CRLF, a byte per read", sse: true, body: "data: " + response + "\r\n\r\n", want: result, bytes: true},
		{name: "event ended by the end of the stream", sse: true, body: "data:" + response, want: result},
		{name: "comment and other fields", sse: true, body: ": hi\nretry: 10\ndata: " + response + "\n\n", want: result},
		// Bad input: nothing reaches the rawCall.
		{name: "JSON error response", body: `{"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"no"}}`},
		{name: "JSON not JSON-RPC", body: `{"a":1}`},
		{name: "JSON not JSON", body: `{"a":`},
		{name: "JSON too long", body: `{"jsonrpc":"2.0","id":1,"result":{"x":"` + long + `"}}`},
		{name: "event not JSON", sse: true, body: "data: {\n\n"},
		{name: "event line too long", sse: true, body: "data: " + long + "\n\n"},
		{name: "event too long, then a good one", sse: true, body: "data: " + long[:maxRawMessage/2] + "\ndata: " + long[:maxRawMessage/2] + "\n\ndata: " + response + "\n\n", want: result},
		{name: "empty stream", sse: true, body: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rc := new(rawCall)
			var r io.Reader = strings.NewReader(tt.body)
			if tt.bytes {
				r = iotest.OneByteReader(r)
			}
			var body io.ReadCloser
			if tt.sse {
				body = &eventTee{ReadCloser: io.NopCloser(r), rc: rc}
			} else {
				body = &jsonTee{ReadCloser: io.NopCloser(r), rc: rc}
			}
			got, err := io.ReadAll(body)
			if err != nil || string(got) != tt.body {
				t.Fatalf("the body read through the tee changed: %v", err)
			}
			if string(rc.bytes()) != tt.want {
				t.Errorf("the rawCall got %.80s, want %s", rc.bytes(), tt.want)
			}
		})
	}
}
