package gateway_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/rest"
	"github.com/contentneg/contentneg/rest/gosdkbackend"
)

// TestRESTThroughTheGateway: the REST binding over the gateway's mirror of
// the everything server: the upstream's tools listed in its order, and an
// upstream's question declined for REST clients, who cannot be asked. The
// rest of the binding is the suite of package resttest (TestRESTSuite in
// cmd/contentneg).
func TestRESTThroughTheGateway(t *testing.T) {
	u := everythingServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	g := startGateway(ctx, t, u, t.TempDir())
	backend, err := gosdkbackend.New(ctx, g.Server(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = backend.Close() })
	srv := httptest.NewServer(rest.New(backend, &rest.Options{BasePath: "/mcp/v1", Negotiator: g.Middleware().Shaper().Negotiator()}))
	t.Cleanup(srv.Close)
	base := srv.URL + "/mcp/v1"
	do := func(method, path, accept, body string) (int, string, http.Header) {
		t.Helper()
		var r io.Reader
		if body != "" {
			r = strings.NewReader(body)
		}
		req, _ := http.NewRequestWithContext(ctx, method, base+path, r)
		if accept != "" {
			req.Header.Set("Accept", accept)
		}
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b), resp.Header
	}

	// The tools, in the upstream's order, once the everything server has
	// added those it offers for the gateway's capabilities (after the
	// handshake, announced with list_changed).
	plain := connectGateway(ctx, t, g, "", nil, nil)
	waitForTool(ctx, t, plain, "trigger-elicitation-request")
	var want []string
	for tool, err := range plain.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, tool.Name)
	}
	status, body, _ := do("GET", "/tools?limit=500", "", "")
	var list struct {
		Tools []struct {
			ID string `json:"id"`
		} `json:"tools"`
	}
	if err := json.Unmarshal([]byte(body), &list); status != 200 || err != nil {
		t.Fatalf("GET /tools: %d %v %s", status, err, body)
	}
	var got []string
	for _, tool := range list.Tools {
		got = append(got, tool.ID)
	}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("GET /tools: %v, want the upstream's %v", got, want)
	}

	// The rest of the binding through the gateway is the binding's own
	// suite, run against contentneg -rest (cmd/contentneg, TestRESTSuite).
	tests := []struct {
		name, method, path, accept, body string
		status                           int
		contentType, want                string
	}{
		{name: "a question is declined for REST clients", method: "POST", path: "/tools/trigger-elicitation-request/execute", accept: "text/plain", body: `{"arguments":{}}`,
			status: 200, contentType: "text/plain", want: `"action": "decline"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body, h := do(tt.method, tt.path, tt.accept, tt.body)
			if status != tt.status || !strings.HasPrefix(h.Get("Content-Type"), tt.contentType) || !strings.Contains(body, tt.want) {
				t.Errorf("%s %s (Accept %q): %d %s %.300s\nwant %d %s with %q", tt.method, tt.path, tt.accept, status, h.Get("Content-Type"), body, tt.status, tt.contentType, tt.want)
			}
		})
	}
}

// waitForTool waits until cs lists the tool name.
func waitForTool(ctx context.Context, t *testing.T, cs *mcp.ClientSession, name string) {
	t.Helper()
	for {
		for tool, err := range cs.Tools(ctx, nil) {
			if err != nil {
				t.Fatal(err)
			}
			if tool.Name == name {
				return
			}
		}
		select {
		case <-ctx.Done():
			t.Fatalf("%s is never listed", name)
		case <-time.After(50 * time.Millisecond):
		}
	}
}
