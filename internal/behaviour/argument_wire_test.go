package behaviour_test

import (
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/internal/behaviour"
	"github.com/contentneg/contentneg/middleware"
	"github.com/contentneg/contentneg/middleware/client"
	"github.com/contentneg/contentneg/middleware/middlewaretest"
)

// rawToolsList serves the argument tests' server on sdk (opts nil: without
// the library), lists the tools from a client described by copts, and
// returns the bytes of the tools/list result exactly as the server wrote
// them.
func rawToolsList(t *testing.T, sdk behaviour.SDK, opts *middleware.Options, copts *client.Options) string {
	t.Helper()
	list := func(ctx context.Context, cs *mcp.ClientSession) error {
		_, err := cs.ListTools(ctx, nil)
		return err
	}
	goSDK, mcpGo := argsServer(t, sdk, opts, &recorded{})
	var results map[string]string
	if mcpGo != nil {
		results = behaviour.RawResults(t, mcpGo, copts, func(cs *mcp.ClientSession) error { return list(context.Background(), cs) })
	} else {
		results = middlewaretest.RawExchange(t, goSDK, copts, list)
	}
	var found []string
	for _, r := range results {
		if strings.Contains(r, `"tools":[`) {
			found = append(found, r)
		}
	}
	if len(found) != 1 {
		t.Fatalf("want one tools/list result on the wire, found %d in %v", len(found), results)
	}
	return found[0]
}

// tools/list on the wire, byte for byte (issue 19, acceptance 2): with the
// format argument off, what the SDK itself writes; with it on, the same
// bytes for every profile.
func TestToolsListOnTheWire(t *testing.T) {
	forEachSDKAndEra(t, func(t *testing.T, sdk behaviour.SDK, legacy bool) {
		own := rawToolsList(t, sdk, nil, options(nil, legacy))
		var first string
		for _, tags := range [][]string{nil, {"agent"}, {"human"}, {"format=text", "verbosity=compact"}, {"format=toon"}} {
			if got := rawToolsList(t, sdk, &middleware.Options{}, options(tags, legacy)); got != own {
				t.Errorf("option off, %v: tools/list on the wire\n%s\nwant the SDK's own\n%s", tags, got, own)
			}
			got := rawToolsList(t, sdk, &middleware.Options{FormatArgument: argName}, options(tags, legacy))
			if first == "" {
				first = got
			} else if got != first {
				t.Errorf("option on, %v: tools/list on the wire\n%s\nwant\n%s", tags, got, first)
			}
		}
		if first == own || !strings.Contains(first, `"`+argName+`"`) {
			t.Errorf("option on: the argument is not advertised: %s", first)
		}
	})
}
