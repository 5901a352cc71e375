package gateway_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// everythingServer is the npm everything server of upstreams.
func everythingServer(t *testing.T) upstream {
	t.Helper()
	for _, u := range upstreams {
		if u.name == "everything" {
			return u
		}
	}
	t.Fatal("no everything server")
	return upstream{}
}

// TestListChangedReachesTheClient: the everything server adds a resource
// when its gzip tool runs (a data: URI, nothing fetched); its
// resources/list_changed reaches a downstream client, in both eras, and
// the new resource is listed and read through the gateway.
func TestListChangedReachesTheClient(t *testing.T) {
	u := everythingServer(t)
	for i, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			g := startGateway(ctx, t, u, t.TempDir())
			changed := make(chan struct{}, 8)
			cs := connectGateway(ctx, t, g, era.version, nil, &mcp.ClientOptions{
				ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) {
					changed <- struct{}{}
				},
			})
			name := []string{"a.txt.gz", "b.txt.gz"}[i]
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "gzip-file-as-resource", Arguments: map[string]any{
				"name": name, "data": "data:text/plain;base64,aGVsbG8gZ2F0ZXdheQ==", "outputType": "resourceLink",
			}})
			if err != nil || res.IsError {
				t.Fatalf("gzip-file-as-resource: %v %+v", err, res)
			}
			select {
			case <-changed:
			case <-ctx.Done():
				t.Fatal("no resources/list_changed reached the client")
			}
			var uri string
			for r, err := range cs.Resources(ctx, nil) {
				if err != nil {
					t.Fatal(err)
				}
				if strings.HasSuffix(r.URI, name) {
					uri = r.URI
				}
			}
			if uri == "" {
				t.Fatalf("the new resource %s is not listed through the gateway", name)
			}
			read, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
			if err != nil || len(read.Contents) != 1 || len(read.Contents[0].Blob) == 0 {
				t.Fatalf("read %s: %v %+v", uri, err, read)
			}
		})
	}
}

// TestResourcesAndPromptsUnchanged: an undeclared client reads the
// everything server's resources and gets its prompts through the gateway
// as it does directly.
func TestResourcesAndPromptsUnchanged(t *testing.T) {
	u := everythingServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	direct := connectDirect(ctx, t, u, t.TempDir())
	g := startGateway(ctx, t, u, t.TempDir())
	type exchange struct {
		name string
		do   func(*mcp.ClientSession) (any, error)
	}
	var exchanges []exchange
	n := 0
	for r, err := range direct.Resources(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		if n++; n > 3 {
			break
		}
		exchanges = append(exchanges, exchange{name: "read " + r.URI, do: func(cs *mcp.ClientSession) (any, error) {
			return cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: r.URI})
		}})
	}
	for p, err := range direct.Prompts(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		args := map[string]string{}
		for _, a := range p.Arguments {
			args[a.Name] = "Bern"
		}
		exchanges = append(exchanges, exchange{name: "get " + p.Name, do: func(cs *mcp.ClientSession) (any, error) {
			return cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: p.Name, Arguments: args})
		}})
	}
	if len(exchanges) < 4 {
		t.Fatalf("the everything server lists too little: %d exchanges", len(exchanges))
	}
	for _, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			cs := connectGateway(ctx, t, g, era.version, nil, nil)
			for _, x := range exchanges {
				want, werr := x.do(direct)
				got, gerr := x.do(cs)
				w, _ := json.Marshal(want)
				gj, _ := json.Marshal(got)
				if ws, gs := envelopeless(t, string(w)), envelopeless(t, string(gj)); ws != gs || (werr == nil) != (gerr == nil) {
					t.Errorf("%s through the gateway: %s (%v)\nwant (direct): %s (%v)", x.name, gs, gerr, ws, werr)
				}
			}
		})
	}
}

// TestErrorsAsTheUpstreamGivesThem: the upstream's JSON-RPC errors reach
// the downstream client with their code and message, in both eras.
func TestErrorsAsTheUpstreamGivesThem(t *testing.T) {
	u := everythingServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	direct := connectDirect(ctx, t, u, t.TempDir())
	g := startGateway(ctx, t, u, t.TempDir())
	tests := []struct {
		name string
		do   func(*mcp.ClientSession) (any, error)
	}{
		{name: "unknown tool", do: func(cs *mcp.ClientSession) (any, error) {
			return cs.CallTool(ctx, &mcp.CallToolParams{Name: "no-such-tool"})
		}},
		{name: "arguments of the wrong type", do: func(cs *mcp.ClientSession) (any, error) {
			return cs.CallTool(ctx, &mcp.CallToolParams{Name: "get-sum", Arguments: map[string]any{"a": "two", "b": 3}})
		}},
		{name: "unknown resource", do: func(cs *mcp.ClientSession) (any, error) {
			return cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "demo://nothing/here"})
		}},
		{name: "unknown prompt", do: func(cs *mcp.ClientSession) (any, error) {
			return cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "no-such-prompt"})
		}},
	}
	for _, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			cs := connectGateway(ctx, t, g, era.version, nil, nil)
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					want, werr := tt.do(direct)
					got, gerr := tt.do(cs)
					var wj, gj *jsonrpc.Error
					switch {
					case werr == nil:
						w, _ := json.Marshal(want)
						g, _ := json.Marshal(got)
						if gerr != nil || envelopeless(t, string(w)) != envelopeless(t, string(g)) {
							t.Errorf("through the gateway: %s (%v)\nwant (direct): %s", g, gerr, w)
						}
					case !errors.As(werr, &wj):
						t.Fatalf("direct: not a JSON-RPC error: %v", werr)
					case !errors.As(gerr, &gj):
						t.Errorf("through the gateway: %v (%v), want the JSON-RPC error %d %q", gerr, got, wj.Code, wj.Message)
					case gj.Code != wj.Code || gj.Message != wj.Message || string(gj.Data) != string(wj.Data):
						t.Errorf("through the gateway: %d %q %s, want %d %q %s", gj.Code, gj.Message, gj.Data, wj.Code, wj.Message, wj.Data)
					}
				})
			}
		})
	}
}

// TestCompletion: completion/complete reaches the upstream, with the
// arguments already given, in both eras; the mirror advertises the
// upstream's completions capability.
func TestCompletion(t *testing.T) {
	u := everythingServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	g := startGateway(ctx, t, u, t.TempDir())
	for _, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			cs := connectGateway(ctx, t, g, era.version, nil, nil)
			if cs.InitializeResult().Capabilities.Completions == nil {
				t.Error("the mirror does not advertise completions")
			}
			res, err := cs.Complete(ctx, &mcp.CompleteParams{
				Ref:      &mcp.CompleteReference{Type: "ref/prompt", Name: "completable-prompt"},
				Argument: mcp.CompleteParamsArgument{Name: "name", Value: "A"},
				Context:  &mcp.CompleteContext{Arguments: map[string]string{"department": "Engineering"}},
			})
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(res.Completion.Values, ","); got != "Alice" {
				t.Errorf("completion: %q, want Alice (Engineering's members starting with A)", got)
			}
		})
	}
}

// TestListsWithoutParams: a legacy-era list request may leave its params
// out, or send null (the go-sdk client does for nil params); the mirror
// answers the first page. The gateway dereferenced the SDK's typed nil and
// the whole process crashed.
func TestListsWithoutParams(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	g := newSubscribedUpstream(t, true).start(ctx, t)
	cs := connectClient(ctx, t, g, mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil), "2025-11-25", nil)
	if _, err := cs.ListTools(ctx, nil); err != nil {
		t.Errorf("tools/list: %v", err)
	}
	res, err := cs.ListResources(ctx, nil)
	if err != nil || len(res.Resources) != 1 {
		t.Errorf("resources/list: %v, %+v", err, res)
	}
	if _, err := cs.ListResourceTemplates(ctx, nil); err != nil {
		t.Errorf("resources/templates/list: %v", err)
	}
	if _, err := cs.ListPrompts(ctx, nil); err != nil {
		t.Errorf("prompts/list: %v", err)
	}

	raw := rawDownstream(ctx, t, g, "legacy", "{}")
	for i, method := range []string{"tools/list", "resources/list", "resources/templates/list", "prompts/list"} {
		if got := raw.Call(ctx, method, nil); strings.HasPrefix(got, "error") { // "params":null
			t.Errorf("%s with params null: %s", method, got)
		}
		raw.Send(fmt.Sprintf(`{"jsonrpc":"2.0","id":"no-params-%d","method":%q}`, i, method))
	}
	if got := raw.Call(ctx, "resources/list", map[string]any{}); !strings.Contains(got, `"test://r"`) {
		t.Errorf("resources/list after the requests without params: %s", got)
	}
}
