package middleware_test

import (
	"context"
	"slices"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/middleware"
	"github.com/contentneg/contentneg/middleware/client"
	"github.com/contentneg/contentneg/middleware/internal/sdk"
	"github.com/contentneg/contentneg/middleware/middlewaretest"
)

// TestWithoutTheSDKsState runs the fallback of every go-sdk version but
// v1.8.0, whose unexported state the middleware cannot read: the output
// schemas come from the tools/list results that passed through it. A
// client that listed the tools gets the same bytes as with the state read;
// one that did not gets another rendering where the schema matters (the
// fallback did run).
func TestWithoutTheSDKsState(t *testing.T) {
	call := func(ctx context.Context, cs *mcp.ClientSession) error {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: toolTyped, Arguments: map[string]any{"station": "Bern"}})
		return err
	}
	listThenCall := func(ctx context.Context, cs *mcp.ClientSession) error {
		if _, err := cs.ListTools(ctx, nil); err != nil {
			return err
		}
		return call(ctx, cs)
	}
	tests := []struct {
		name string
		tags []string
		// unlistedDiffers: the rendering needs the output schema, so a
		// call the client made without listing the tools shows the
		// fallback.
		unlistedDiffers bool
	}{
		{name: "markdown", tags: []string{"format=markdown"}, unlistedDiffers: true},
		{name: "agent json", tags: []string{"agent", "format=json"}},
		{name: "text compact", tags: []string{"format=text", "verbosity=compact"}, unlistedDiffers: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := &client.Options{Settings: client.Declare(tt.tags...)}
			exchange := func(state bool, do func(context.Context, *mcp.ClientSession) error) map[string]string {
				defer sdk.ReadState(state)()
				s, _ := newServer(&middleware.Options{})
				return middlewaretest.RawExchange(t, s, opts, do)
			}
			on, off := exchange(true, listThenCall), exchange(false, listThenCall)
			if len(on) != 3 || len(off) != len(on) {
				t.Fatalf("%d responses with the state read, %d without, want 3", len(on), len(off))
			}
			for id, want := range on {
				if off[id] != want {
					t.Errorf("response %s without the state:\n got %s\nwant %s", id, off[id], want)
				}
			}
			if !tt.unlistedDiffers {
				return
			}
			if on, off := exchange(true, call), exchange(false, call); on["2"] == off["2"] {
				t.Errorf("a call without tools/list got the same result with and without the state: the fallback did not run\n%s", on["2"])
			}
		})
	}
}

// TestResourceMetadataWithoutTheSDKsState: without the SDK's state,
// resources/metadata answers as with it, from the lists and reads it makes
// through the handlers below (which a user's middleware then sees: the
// fallback did run).
func TestResourceMetadataWithoutTheSDKsState(t *testing.T) {
	defer sdk.ReadState(false)()
	rec := &methodRecorder{}
	checkResourceMetadata(t, rec)
	if !slices.Contains(rec.seen(), "resources/list") {
		t.Errorf("no resources/list below the middleware (%q): the fallback did not run", rec.seen())
	}
}
