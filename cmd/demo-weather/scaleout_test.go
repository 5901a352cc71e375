package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/internal/serve/servetest"
	"github.com/contentneg/contentneg/middleware/client"
	"github.com/contentneg/contentneg/renderers"
)

// roundRobin is a reverse proxy that sends each request to the next
// replica in turn, and records which replica got each JSON-RPC method.
type roundRobin struct {
	replicas []*url.URL

	mu     sync.Mutex
	next   int
	served []served
}

type served struct {
	method  string
	replica int
}

func (rr *roundRobin) rewrite(r *httputil.ProxyRequest) {
	var msg struct {
		Method string `json:"method"`
	}
	if body, err := io.ReadAll(r.In.Body); err == nil {
		_ = json.Unmarshal(body, &msg)
		r.Out.Body = io.NopCloser(bytes.NewReader(body))
		r.Out.ContentLength = int64(len(body))
	}
	rr.mu.Lock()
	i := rr.next
	rr.next = (rr.next + 1) % len(rr.replicas)
	rr.served = append(rr.served, served{method: msg.Method, replica: i})
	rr.mu.Unlock()
	r.SetURL(rr.replicas[i])
}

// calls returns the replicas that served tools/call, in order.
func (rr *roundRobin) calls() []int {
	rr.mu.Lock()
	defer rr.mu.Unlock()
	var out []int
	for _, s := range rr.served {
		if s.method == "tools/call" {
			out = append(out, s.replica)
		}
	}
	return out
}

func TestStatelessReplicasBehindARoundRobinProxy(t *testing.T) {
	if testing.Short() {
		t.Skip("starts three servers")
	}
	rr := &roundRobin{}
	for range 3 {
		u, err := url.Parse(strings.TrimSuffix(servetest.HTTP(t, app(), true), "/mcp"))
		if err != nil {
			t.Fatal(err)
		}
		rr.replicas = append(rr.replicas, u)
	}
	proxy := httptest.NewServer(&httputil.ReverseProxy{Rewrite: rr.rewrite, FlushInterval: -1})
	defer proxy.Close()

	// One stateless-era client, a person reading markdown: each of its
	// calls carries its own capabilities, so whichever replica gets it
	// renders it for this client.
	cs := servetest.HTTPSession(t, proxy.URL+"/mcp", &client.Options{Settings: client.Declare("human", "format=markdown")})
	cities := []string{"Bern", "Tokyo", "Paris", "Sydney", "Lima", "Cairo"}
	for _, city := range cities {
		ctx, cancel := context.WithTimeout(context.Background(), servetest.Timeout)
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_weather", Arguments: map[string]any{"city": city}})
		cancel()
		if err != nil {
			t.Fatalf("get_weather %s: %v", city, err)
		}
		if res.IsError || len(res.Content) != 1 {
			t.Fatalf("get_weather %s: %+v", city, res)
		}
		text := res.Content[0].(*mcp.TextContent).Text
		location, _ := res.StructuredContent.(map[string]any)["location"].(string)
		if err := renderers.CheckMarkdown(text); err != nil || !strings.HasPrefix(text, "**"+renderers.EscapeMarkdown(location)+"**") {
			t.Errorf("get_weather %s: %q is not the markdown rendering of %q (%v)", city, text, location, err)
		}
	}
	got := rr.calls()
	if len(got) != len(cities) {
		t.Fatalf("the proxy saw %d tools/call requests, want %d", len(got), len(cities))
	}
	seen := map[int]bool{}
	for i, r := range got {
		seen[r] = true
		if i > 0 && r == got[i-1] {
			t.Errorf("calls %d and %d were both served by replica %d, want each by another", i-1, i, r)
		}
	}
	if len(seen) != len(rr.replicas) {
		t.Errorf("the calls were served by replicas %v, want all %d", got, len(rr.replicas))
	}
}
