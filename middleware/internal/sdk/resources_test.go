package sdk_test

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/middleware/internal/sdk"
)

// TestExactResourcePinned pins the go-sdk state ExactResource reads (see
// state.go): it fails when a go-sdk version lays it out otherwise.
func TestExactResourcePinned(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	read := func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, Text: "x"}}}, nil
	}
	srv.AddResource(&mcp.Resource{URI: "weather://cities", Name: "cities"}, read)
	srv.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: "weather://{city}", Name: "city"}, read)
	type seen struct{ exact, readable bool }
	got := map[string]seen{}
	srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if p, ok := req.GetParams().(*mcp.ReadResourceParams); ok {
				exact, readable := sdk.ExactResource(req, p.URI)
				got[p.URI] = seen{exact, readable}
			}
			return next(ctx, method, req)
		}
	})
	ct, st := mcp.NewInMemoryTransports()
	ctx := t.Context()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	tests := []struct {
		uri  string
		want seen
	}{
		{"weather://cities", seen{exact: true, readable: true}},
		{"weather://bern", seen{exact: false, readable: true}},
	}
	for _, tt := range tests {
		if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: tt.uri}); err != nil {
			t.Fatalf("read %s: %v", tt.uri, err)
		}
		if got[tt.uri] != tt.want {
			t.Errorf("ExactResource(%s) = %+v, want %+v", tt.uri, got[tt.uri], tt.want)
		}
	}
}
