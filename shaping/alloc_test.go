package shaping_test

import (
	"context"
	"testing"

	"github.com/contentneg/contentneg/negotiation"
	"github.com/contentneg/contentneg/shaping"
)

// TestStatelessResolutionAllocations keeps the budget of the stateless
// era's per-request work: resolving the profile from the request's own
// _meta capabilities and making the handler's context cost at most 3
// allocations (the tag list, the profile and the call).
func TestStatelessResolutionAllocations(t *testing.T) {
	s := shaping.New(nil)
	caps := shaping.Capabilities{
		Extensions: map[string]any{negotiation.ExtensionID: negotiation.Settings{
			Features: []string{"agent", "mcp-capable", "sampling", "elicitation", "roots", "tasks", "verbosity=compact", "format=json"},
		}.Map()},
	}
	ctx := context.Background()
	var got context.Context
	allocs := testing.AllocsPerRun(100, func() {
		c := s.Resolve(&shaping.Request{Meta: caps, HasMeta: true, Stateless: true})
		call := s.Begin(c, nil, "tools/call", "get_weather")
		got = call.Context(ctx)
		call.Done()
	})
	if p, ok := negotiation.FromContext(got); !ok || p.Audience() != negotiation.Agent {
		t.Fatalf("the context carries the profile %v, %v", p, ok)
	}
	if c, ok := shaping.CallFrom(got); !ok || c.Name() != "get_weather" {
		t.Fatalf("the context carries the call %v, %v", c, ok)
	}
	if allocs > 3 {
		t.Errorf("%v allocations per resolution and context, want at most 3", allocs)
	}
}
