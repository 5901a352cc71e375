package middleware_test

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/negotiation"
)

func TestAdvertisesTheExtensionAndKeepsLogging(t *testing.T) {
	for _, e := range eras {
		for _, tags := range [][]string{nil, {"agent"}} {
			t.Run(e.name, func(t *testing.T) {
				caps := connect(t, e, tags).InitializeResult().Capabilities
				if _, ok := caps.Extensions[negotiation.ExtensionID]; !ok {
					t.Errorf("extensions = %v, want %s advertised", caps.Extensions, negotiation.ExtensionID)
				}
				if caps.Logging == nil {
					t.Error("the logging capability was lost")
				}
				if caps.Tools == nil {
					t.Error("the tools capability was lost")
				}
			})
		}
	}
}

func TestToolListIsTheSameForEveryProfile(t *testing.T) {
	profiles := [][]string{nil, {"agent", "format=json"}, {"human", "verbosity=verbose"}, {"format=text", "verbosity=compact"}, {"@bad"}, {"sampling", "!interactive"}}
	for _, e := range eras {
		t.Run(e.name, func(t *testing.T) {
			var want string
			for i, tags := range profiles {
				cs := connect(t, e, tags)
				ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
				// Listing twice: the second time the middleware knows the tools.
				var got string
				for range 2 {
					res, err := cs.ListTools(ctx, nil)
					if err != nil {
						t.Fatalf("list tools: %v", err)
					}
					got = mustJSON(t, res.Tools)
				}
				cancel()
				if i == 0 {
					want = got
					continue
				}
				if got != want {
					t.Errorf("tools/list for %v differs:\n got %s\nwant %s", tags, got, want)
				}
			}
		})
	}
}

func TestCallingBeforeListingFindsTheOutputSchema(t *testing.T) {
	// A stateless client may call a tool it never listed; the middleware
	// then lists the tools itself to learn whether structuredContent must
	// stay.
	for _, e := range eras {
		t.Run(e.name, func(t *testing.T) {
			res := call(t, connect(t, e, []string{"human"}), toolTyped, map[string]any{"station": "Bern"})
			withStructured(t, res)
		})
	}
}

func TestLegacyListWithoutParams(t *testing.T) {
	// A legacy tools/list may come without params: the SDK then hands the
	// middleware a typed nil, which must not panic.
	cs := connect(t, era{"legacy", true}, []string{"agent"})
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	if _, err := cs.ListTools(ctx, nil); err != nil {
		t.Fatalf("list tools: %v", err)
	}
	if _, err := cs.ListPrompts(ctx, &mcp.ListPromptsParams{}); err == nil {
		t.Log("the server has no prompts; a method-not-found error is expected")
	}
}
