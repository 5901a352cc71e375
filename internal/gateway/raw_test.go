package gateway_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap/zaptest"

	"github.com/contentneg/contentneg/internal/gateway"
	"github.com/contentneg/contentneg/internal/rawrpc"
	"github.com/contentneg/contentneg/shaping"
)

// rawDownstream connects a raw client to g's mirror server over a pair of
// pipes (the bytes of a stdio connection), in the era named ("legacy" or
// "stateless"), declaring caps.
func rawDownstream(ctx context.Context, t *testing.T, g *gateway.Gateway, era, caps string) *rawrpc.Client {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ss, err := g.Server().Connect(ctx, &mcp.IOTransport{Reader: inR, Writer: outW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = inW.Close()
		_ = ss.Close()
		_ = outR.Close()
	})
	c := rawrpc.NewClient(t, outR, inW)
	if era == "legacy" {
		c.Initialize(ctx, caps)
	} else {
		c.Stateless(caps)
	}
	return c
}

// gatewayCaps are the client capabilities of the gateway's own client, as
// a direct client declares them, so that the upstream offers both the same.
const gatewayCaps = `{"elicitation":{"form":{},"url":{}}}`

// rawDirect starts u in dir and connects a legacy-era raw client to it.
func rawDirect(ctx context.Context, t *testing.T, u upstream, dir string) *rawrpc.Client {
	t.Helper()
	cmd := u.command(t, dir)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = stdin.Close()
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(2 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	})
	c := rawrpc.NewClient(t, stdout, stdin)
	c.Initialize(ctx, gatewayCaps)
	return c
}

// withoutEnvelope removes from a stateless-era result what the gateway adds
// to the upstream's bytes, as every go-sdk server of that era does: a
// "_meta" with only the serverInfo first (the npm servers give none of
// their own), and "resultType": "complete" last. It fails when they are not
// there.
func withoutEnvelope(t *testing.T, b string) string {
	t.Helper()
	const tail = `,"resultType":"complete"}`
	if !strings.HasSuffix(b, tail) {
		t.Fatalf("no resultType last in %s", b)
	}
	b = b[:len(b)-len(tail)] + "}"
	const head = `{"_meta":`
	if !strings.HasPrefix(b, head) {
		t.Fatalf("no _meta first in %s", b)
	}
	dec := json.NewDecoder(strings.NewReader(b[len(head):]))
	var meta map[string]json.RawMessage
	if err := dec.Decode(&meta); err != nil {
		t.Fatal(err)
	}
	if _, ok := meta[mcp.MetaKeyServerInfo]; !ok || len(meta) != 1 {
		t.Fatalf("the _meta of %s is not the envelope's", b)
	}
	rest := b[len(head)+int(dec.InputOffset()):]
	if !strings.HasPrefix(rest, ",") {
		t.Fatalf("nothing after the envelope in %s", b)
	}
	return "{" + rest[1:]
}

// exchange is one request compared through the gateway and directly.
type rawExchange struct {
	method string
	params map[string]any
}

// TestUpstreamBytesUnchanged: against each npm reference server, a client
// that declares nothing gets through the gateway the result bytes a direct
// connection gets: byte for byte in the legacy era, and in the stateless
// era byte for byte apart from that era's envelope. Tool calls on each
// server; resources and prompts on the everything server.
func TestUpstreamBytesUnchanged(t *testing.T) {
	for _, u := range upstreams {
		t.Run(u.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			dirDirect, dirGateway := t.TempDir(), t.TempDir()
			if u.prepare != nil {
				u.prepare(t, dirDirect)
				dirGateway = dirDirect // the same paths in both results
			}
			direct := rawDirect(ctx, t, u, dirDirect)
			g := startGateway(ctx, t, u, dirGateway)
			var exchanges []rawExchange
			for _, c := range u.calls {
				exchanges = append(exchanges, rawExchange{method: "tools/call", params: map[string]any{
					"name": c.tool, "arguments": expand(c.args, filepath.Join(dirDirect, "root")),
				}})
			}
			if u.name == "everything" {
				exchanges = append(exchanges, everythingReads(ctx, t, direct)...)
			}
			for _, c := range u.setup {
				direct.Call(ctx, "tools/call", map[string]any{"name": c.tool, "arguments": c.args})
			}
			want := make([]string, len(exchanges))
			for i, x := range exchanges {
				want[i] = direct.Call(ctx, x.method, x.params)
			}
			for i, era := range []string{"legacy", "stateless"} {
				t.Run(era, func(t *testing.T) {
					cs := rawDownstream(ctx, t, g, era, `{}`)
					if i == 0 {
						for _, c := range u.setup {
							cs.Call(ctx, "tools/call", map[string]any{"name": c.tool, "arguments": c.args})
						}
					}
					for j, x := range exchanges {
						got := cs.Call(ctx, x.method, x.params)
						if era == "stateless" && !strings.HasPrefix(got, "error:") {
							got = withoutEnvelope(t, got)
						}
						if got != want[j] {
							t.Errorf("%s %v through the gateway:\n%s\nwant (direct):\n%s", x.method, x.params["name"], got, want[j])
						}
					}
				})
			}
		})
	}
}

// everythingReads are reads of the everything server's first three
// resources and gets of its prompts.
func everythingReads(ctx context.Context, t *testing.T, direct *rawrpc.Client) []rawExchange {
	t.Helper()
	var out []rawExchange
	var resources struct {
		Resources []struct {
			URI string `json:"uri"`
		} `json:"resources"`
	}
	if err := json.Unmarshal([]byte(direct.Call(ctx, "resources/list", map[string]any{})), &resources); err != nil {
		t.Fatal(err)
	}
	for i, r := range resources.Resources {
		if i == 3 {
			break
		}
		out = append(out, rawExchange{method: "resources/read", params: map[string]any{"uri": r.URI}})
	}
	var prompts struct {
		Prompts []struct {
			Name      string `json:"name"`
			Arguments []struct {
				Name string `json:"name"`
			} `json:"arguments"`
		} `json:"prompts"`
	}
	if err := json.Unmarshal([]byte(direct.Call(ctx, "prompts/list", map[string]any{})), &prompts); err != nil {
		t.Fatal(err)
	}
	for _, p := range prompts.Prompts {
		args := map[string]any{}
		for _, a := range p.Arguments {
			args[a.Name] = "Bern"
		}
		out = append(out, rawExchange{method: "prompts/get", params: map[string]any{"name": p.Name, "arguments": args}})
	}
	if len(out) < 4 {
		t.Fatalf("the everything server lists too little: %d exchanges", len(out))
	}
	return out
}

// The answers of the line server: what the go-sdk would change in them if
// it decoded and encoded them (members out of Go's order, digits a float64
// does not keep, -0, members the SDK does not know, <, > and &).
const (
	oddStructured = `{"zeta":12345678901234567890,"alpha":1e-7,"neg":-0,"nested":{"b":1.50,"a":[3,1E+2]}}`
	oddTool       = `{"structuredContent":` + oddStructured + `,"content":[{"text":"a < b && c > d","type":"text","vendor":{"y":2,"x":1}}],"isError":false,"vendorResult":true,"_meta":{"z":1.0,"a":"x"}}`
	oddResource   = `{"contents":[{"text":"<p>tags & all</p>","uri":"odd://doc","mimeType":"text/html","size":17}]}`
	oddPrompt     = `{"messages":[{"content":{"type":"text","text":"x < y"},"role":"user"}],"description":"odd order"}`
)

// lineAnswer is the result the line servers give for method: "" for a
// method they do not have.
func lineAnswer(method string) string {
	return map[string]string{
		"initialize":               `{"protocolVersion":"2025-11-25","capabilities":{"tools":{},"resources":{},"prompts":{}},"serverInfo":{"name":"odd","version":"0.1.0"}}`,
		"ping":                     `{}`,
		"tools/list":               `{"tools":[{"name":"odd","inputSchema":{"type":"object"}}]}`,
		"tools/call":               oddTool,
		"resources/list":           `{"resources":[{"uri":"odd://doc","name":"doc"}]}`,
		"resources/templates/list": `{"resourceTemplates":[]}`,
		"resources/read":           oddResource,
		"prompts/list":             `{"prompts":[{"name":"odd"}]}`,
		"prompts/get":              oddPrompt,
	}[method]
}

// lineResponse is the response line servers give to a request.
func lineResponse(id json.RawMessage, method string) string {
	if result := lineAnswer(method); result != "" {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":%s}`, id, result)
	}
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"no such method"}}`, id)
}

// lineServer is an MCP server of the legacy era written as bytes, so that
// its answers are exactly the constants above. It reads requests until r
// ends.
func lineServer(r io.Reader, w io.Writer) {
	br := bufio.NewReader(r)
	for {
		line, err := br.ReadBytes('\n')
		if err != nil {
			return
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(line, &m) != nil || m.ID == nil || m.Method == "" {
			continue
		}
		_, _ = io.WriteString(w, lineResponse(m.ID, m.Method)+"\n")
	}
}

// lineHTTP is the same server over streamable HTTP, without sessions: it
// answers tools/call and prompts/get with an event stream (a log message
// first, then the response), the others with one JSON body.
func lineHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if err := json.NewDecoder(r.Body).Decode(&m); err != nil {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	if m.ID == nil {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	if m.Method != "tools/call" && m.Method != "prompts/get" {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, lineResponse(m.ID, m.Method))
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	_, _ = io.WriteString(w, "event: message\r\ndata: "+`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"working"}}`+"\r\n\r\n")
	w.(http.Flusher).Flush()
	_, _ = io.WriteString(w, "id: 1\nevent: message\ndata: "+lineResponse(m.ID, m.Method)+"\n\n")
}

// startLineServer runs a lineServer behind a new transport.
func startLineServer(t *testing.T) mcp.Transport {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go func() {
		lineServer(inR, outW)
		_ = outW.Close()
	}()
	t.Cleanup(func() { _ = inW.Close() })
	return &mcp.IOTransport{Reader: outR, Writer: inW}
}

// TestExactBytesOfAnUpstream: an upstream whose results the go-sdk would
// not encode again as they came (members out of Go's order, digits of
// numbers a float64 does not keep, -0, members it does not know, <, > and
// &) reaches a client that declares nothing byte for byte, in both eras
// (the stateless one with its envelope), for tools/call, resources/read
// and prompts/get; a client that declared format=json gets the
// structuredContent with the upstream's exact digits and member order.
func TestExactBytesOfAnUpstream(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	srv := httptest.NewServer(http.HandlerFunc(lineHTTP))
	t.Cleanup(srv.Close)
	upstreams := []struct {
		name string
		dial func() mcp.Transport
	}{
		{name: "stdio", dial: func() mcp.Transport { return startLineServer(t) }},
		{name: "streamable HTTP", dial: func() mcp.Transport {
			return &mcp.StreamableClientTransport{Endpoint: srv.URL, DisableStandaloneSSE: true}
		}},
	}
	const info = `"io.modelcontextprotocol/serverInfo":{"name":"odd","version":"0.1.0"}`
	exchanges := []struct {
		method string
		params map[string]any
		want   string // legacy era: the upstream's bytes
		// stateless era: the same, with the envelope: the serverInfo last
		// in the upstream's _meta or in a _meta of its own first, and
		// resultType last
		wantStateless string
	}{
		{
			method: "tools/call", params: map[string]any{"name": "odd", "arguments": map[string]any{}},
			want:          oddTool,
			wantStateless: strings.Replace(oddTool[:len(oddTool)-1], `"a":"x"}`, `"a":"x",`+info+`}`, 1) + `,"resultType":"complete"}`,
		},
		{
			method: "resources/read", params: map[string]any{"uri": "odd://doc"},
			want:          oddResource,
			wantStateless: `{"_meta":{` + info + `},` + oddResource[1:len(oddResource)-1] + `,"resultType":"complete"}`,
		},
		{
			method: "prompts/get", params: map[string]any{"name": "odd"},
			want:          oddPrompt,
			wantStateless: `{"_meta":{` + info + `},` + oddPrompt[1:len(oddPrompt)-1] + `,"resultType":"complete"}`,
		},
	}
	for _, up := range upstreams {
		g, err := gateway.New(ctx, up.dial, &gateway.Options{Logger: zaptest.NewLogger(t)})
		if err != nil {
			t.Fatalf("%s: %v", up.name, err)
		}
		t.Cleanup(func() { _ = g.Close() })
		for _, era := range []string{"legacy", "stateless"} {
			t.Run(up.name+"/"+era, func(t *testing.T) {
				cs := rawDownstream(ctx, t, g, era, `{}`)
				for _, x := range exchanges {
					want := x.want
					if era == "stateless" {
						want = x.wantStateless
					}
					if got := cs.Call(ctx, x.method, x.params); got != want {
						t.Errorf("%s through the gateway:\n%s\nwant:\n%s", x.method, got, want)
					}
				}
				declared := rawDownstream(ctx, t, g, era, `{"extensions":{"`+shaping.ExtensionID+`":{"version":"1.0","features":["format=json"]}}}`)
				res := declared.Call(ctx, "tools/call", exchanges[0].params)
				if !strings.Contains(res, `"structuredContent":`+oddStructured) {
					t.Errorf("format=json through the gateway: %s\nwant structuredContent %s", res, oddStructured)
				}
			})
		}
	}
}
