package sdk_test

import (
	"context"
	"sync"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/middleware/internal/sdk"
)

type weather struct {
	City string  `json:"city"`
	Temp float64 `json:"temp_c"`
}

// connect serves s in memory and returns its server session, in the
// legacy era when legacy, with a client without capabilities.
func connect(t *testing.T, s *mcp.Server, legacy bool) (*mcp.ServerSession, *mcp.ClientSession) {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	var opts *mcp.ClientSessionOptions
	if legacy {
		opts = &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"}
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(ctx, ct, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close(); _ = ss.Close() })
	return ss, cs
}

// TestRegisteredToolPinned pins the one read of the go-sdk's unexported
// state (go-sdk v1.8.0): a registered tool is found with its output schema,
// a missing one is not, and a tool registered again is a new registration.
func TestRegisteredToolPinned(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "get_weather"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, weather, error) {
		return nil, weather{}, nil
	})
	ss, _ := connect(t, s, false)

	tool, found, readable := sdk.RegisteredTool(ss, "get_weather")
	if !readable || !found {
		t.Fatalf("found %v, readable %v: the SDK's layout changed (see state.go)", found, readable)
	}
	schema, ok := tool.OutputSchema.(*jsonschema.Schema)
	if !ok || schema.Properties["temp_c"] == nil {
		t.Errorf("output schema %#v, want the schema of the output type", tool.OutputSchema)
	}
	if _, found, readable := sdk.RegisteredTool(ss, "nope"); found || !readable {
		t.Errorf("a missing tool: found %v, readable %v", found, readable)
	}
	mcp.AddTool(s, &mcp.Tool{Name: "get_weather"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return nil, nil, nil
	})
	again, found, _ := sdk.RegisteredTool(ss, "get_weather")
	if !found || again == tool || again.OutputSchema != nil {
		t.Errorf("after registering again: %p (was %p), output schema %v", again, tool, again.OutputSchema)
	}
	if _, found, readable := sdk.RegisteredTool(nil, "get_weather"); found || readable {
		t.Error("a nil session gave a tool")
	}
}

// TestRegisteredToolConcurrent reads registrations while tools are added
// (run with -race).
func TestRegisteredToolConcurrent(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, nil)
	ss, _ := connect(t, s, false)
	var wg sync.WaitGroup
	wg.Go(func() {
		for range 100 {
			mcp.AddTool(s, &mcp.Tool{Name: "t"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
				return nil, nil, nil
			})
		}
	})
	for range 100 {
		sdk.RegisteredTool(ss, "t")
	}
	wg.Wait()
}

// TestBridgeRefusalPinned pins the one read of an SDK message: the error of
// go-sdk v1.8.0's legacy-era bridge when a handler's inputRequests ask a
// client without the elicitation capability.
func TestBridgeRefusalPinned(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "ask"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{`con"firm`: &mcp.ElicitParams{Message: "ok?"}}}, nil, nil
	})
	var seen error
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			if method == "tools/call" {
				seen = err
			}
			return res, err
		}
	})
	_, cs := connect(t, s, true)
	_, _ = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "ask", Arguments: map[string]any{}})
	id, ok := sdk.BridgeRefusal(seen)
	if !ok || id != `con"firm` {
		t.Errorf("BridgeRefusal(%v) = %q, %v; want the id: the SDK's message changed (see bridge.go)", seen, id, ok)
	}
}

func TestBridgeRefusalOtherErrors(t *testing.T) {
	tests := []struct {
		name string
		give error
	}{
		{"nil", nil},
		{"another error", context.Canceled},
		{"another input request's error", errString(`multi-round-trip: fulfilling input request "a": client does not support sampling`)},
		{"a bad id", errString(`multi-round-trip: fulfilling input request "\x": client does not support elicitation`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if id, ok := sdk.BridgeRefusal(tt.give); ok {
				t.Errorf("BridgeRefusal(%v) = %q, true", tt.give, id)
			}
		})
	}
}

type errString string

func (e errString) Error() string { return string(e) }

// TestRegisteredResourcePinned pins the read of the go-sdk's resource
// registrations (state.go, go-sdk v1.8.0).
func TestRegisteredResourcePinned(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, nil)
	read := func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, Text: "x"}}}, nil
	}
	s.AddResource(&mcp.Resource{URI: "weather://cities", Name: "cities"}, read)
	s.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: "weather://{city}", Name: "city"}, read)
	ss, _ := connect(t, s, false)
	tests := []struct {
		uri          string
		wantResource string
		wantTemplate string
	}{
		{"weather://cities", "cities", ""},
		{"weather://bern", "", "city"},
		{"other://bern", "", ""},
	}
	for _, tt := range tests {
		reg, found, readable := sdk.RegisteredResource(ss, tt.uri)
		if !readable {
			t.Fatal("the SDK's layout changed (see state.go)")
		}
		var gotResource, gotTemplate string
		if reg.Resource != nil {
			gotResource = reg.Resource.Name
		}
		if reg.Template != nil {
			gotTemplate = reg.Template.Name
		}
		if gotResource != tt.wantResource || gotTemplate != tt.wantTemplate || found != (reg.Handler != nil) {
			t.Errorf("%s: resource %q, template %q, found %v; want %q, %q", tt.uri, gotResource, gotTemplate, found, tt.wantResource, tt.wantTemplate)
		}
		if found {
			if res, err := reg.Handler(context.Background(), &mcp.ReadResourceRequest{Params: &mcp.ReadResourceParams{URI: tt.uri}}); err != nil || res.Contents[0].URI != tt.uri {
				t.Errorf("%s: the handler read %v, %v", tt.uri, res, err)
			}
		}
	}
}

// TestNothingIsReadWithoutTheState: with the state off (another go-sdk
// version), every lookup says it cannot read it, so that its caller falls
// back to the wire.
func TestNothingIsReadWithoutTheState(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "get_weather"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, weather, error) {
		return nil, weather{}, nil
	})
	read := func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, Text: "x"}}}, nil
	}
	s.AddResource(&mcp.Resource{URI: "weather://cities", Name: "cities"}, read)
	ss, _ := connect(t, s, false)
	defer sdk.ReadState(false)()
	if _, found, readable := sdk.RegisteredTool(ss, "get_weather"); found || readable {
		t.Errorf("RegisteredTool: found %v, readable %v", found, readable)
	}
	if _, found, readable := sdk.RegisteredResource(ss, "weather://cities"); found || readable {
		t.Errorf("RegisteredResource: found %v, readable %v", found, readable)
	}
	if exact, readable := sdk.ExactResource(&mcp.ReadResourceRequest{Session: ss}, "weather://cities"); exact || readable {
		t.Errorf("ExactResource: exact %v, readable %v", exact, readable)
	}
}
