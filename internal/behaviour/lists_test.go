package behaviour_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/examples/journey/journey"
	"github.com/contentneg/contentneg/examples/journey/journeymcp"
	"github.com/contentneg/contentneg/examples/journey/journeymcpgo"
	"github.com/contentneg/contentneg/internal/behaviour"
	"github.com/contentneg/contentneg/middleware/client"
	"github.com/contentneg/contentneg/middleware/middlewaretest"
)

// lists returns, as JSON, what a client lists of a server: tools (with
// their schemas), resources, resource templates and prompts.
func lists(t *testing.T, cs *mcp.ClientSession) map[string]string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), behaviourTimeout)
	defer cancel()
	out := map[string]string{}
	add := func(name string, v any, err error) {
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		b, _ := json.MarshalIndent(v, "", "  ")
		out[name] = string(b)
	}
	tools, err := cs.ListTools(ctx, nil)
	if err == nil {
		for _, tool := range tools.Tools {
			// mcp-go always sends "annotations", {} when a tool has none;
			// the go-sdk omits it. Both say that no hint is set.
			if tool.Annotations != nil && *tool.Annotations == (mcp.ToolAnnotations{}) {
				tool.Annotations = nil
			}
		}
	}
	add("tools", tools.Tools, err)
	if cs.InitializeResult().Capabilities.Resources != nil {
		resources, err := cs.ListResources(ctx, nil)
		add("resources", resources.Resources, err)
		templates, err := cs.ListResourceTemplates(ctx, nil)
		add("templates", templates.ResourceTemplates, err)
	}
	if cs.InitializeResult().Capabilities.Prompts != nil {
		prompts, err := cs.ListPrompts(ctx, nil)
		add("prompts", prompts.Prompts, err)
	}
	return out
}

func TestBothSDKsListTheSameToolsResourcesAndPrompts(t *testing.T) {
	planner, err := journey.NewPlanner()
	if err != nil {
		t.Fatal(err)
	}
	servers := []struct {
		name          string
		goSDK, mcpGo  func(*testing.T, *client.Options) *mcp.ClientSession
		wantResources bool
	}{
		{"weather",
			func(t *testing.T, o *client.Options) *mcp.ClientSession {
				return middlewaretest.Connect(t, behaviour.GoSDKServer(true), o)
			},
			func(t *testing.T, o *client.Options) *mcp.ClientSession {
				return behaviour.ConnectMCPGo(t, behaviour.MCPGoServer(true), o)
			}, true},
		{"journey",
			func(t *testing.T, o *client.Options) *mcp.ClientSession {
				return middlewaretest.Connect(t, journeymcp.NewServer(planner), o)
			},
			func(t *testing.T, o *client.Options) *mcp.ClientSession {
				return behaviour.ConnectMCPGo(t, journeymcpgo.NewServer(planner), o)
			}, false},
	}
	for _, s := range servers {
		for _, legacy := range []bool{false, true} {
			t.Run(s.name+"/"+behaviour.Mode{Transport: behaviour.InProcess, Legacy: legacy}.String(), func(t *testing.T) {
				want := lists(t, s.goSDK(t, options(nil, legacy)))
				got := lists(t, s.mcpGo(t, options(nil, legacy)))
				if _, ok := got["resources"]; ok != s.wantResources {
					t.Errorf("resources listed: %v, want %v", ok, s.wantResources)
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("mcp-go lists differ from go-sdk (-go-sdk +mcp-go):\n%s", diff)
				}
			})
		}
	}
}

func TestListsAreTheSameForEveryProfile(t *testing.T) {
	// Tags shape content; they never change what exists (contract section 3).
	for _, sdk := range behaviour.SDKs {
		for _, legacy := range []bool{false, true} {
			t.Run(string(sdk)+"/"+behaviour.Mode{Transport: behaviour.InProcess, Legacy: legacy}.String(), func(t *testing.T) {
				s := behaviour.Start(t, sdk, behaviour.InProcess)
				want := lists(t, s.Connect(t, options(nil, legacy)))
				for _, tags := range everyProfile[1:] {
					if diff := cmp.Diff(want, lists(t, s.Connect(t, options(tags, legacy)))); diff != "" {
						t.Errorf("%v: lists differ (-undeclared +declared):\n%s", tags, diff)
					}
				}
			})
		}
	}
}
