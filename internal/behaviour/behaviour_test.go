package behaviour_test

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"

	"github.com/contentneg/contentneg/internal/behaviour"
	"github.com/contentneg/contentneg/middleware/client"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func options(tags []string, legacy bool) *client.Options {
	opts := &client.Options{Legacy: legacy}
	if tags != nil {
		opts.Settings = client.Declare(tags...)
	}
	return opts
}

func call(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), behaviourTimeout)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("call %s %v: %v", name, args, err)
	}
	return res
}

// forEachFrontEnd runs f for every SDK and mode, with a server started for
// it.
func forEachFrontEnd(t *testing.T, f func(t *testing.T, s *behaviour.Server, m behaviour.Mode)) {
	forEachFrontEndIn(t, func(behaviour.Mode) bool { return true }, f)
}

// forEachFrontEndIn runs f for every SDK and the modes in that are true,
// with a server started for it.
func forEachFrontEndIn(t *testing.T, in func(behaviour.Mode) bool, f func(t *testing.T, s *behaviour.Server, m behaviour.Mode)) {
	for _, sdk := range behaviour.SDKs {
		for _, m := range behaviour.Modes {
			if !in(m) {
				continue
			}
			t.Run(string(sdk)+"/"+m.String(), func(t *testing.T) {
				f(t, behaviour.Start(t, sdk, m.Transport), m)
			})
		}
	}
}

func TestToolResults(t *testing.T) {
	forEachFrontEnd(t, func(t *testing.T, s *behaviour.Server, m behaviour.Mode) {
		for _, c := range behaviour.Cases {
			if c.Tags != nil && !m.Negotiates() {
				continue // served as undeclared: see TestUnreachableProfilesPassThrough
			}
			t.Run(c.Name, func(t *testing.T) {
				res := call(t, s.Connect(t, options(c.Tags, m.Legacy)), c.Tool, c.Args)
				if err := c.Want.Check(res); err != nil {
					t.Error(err)
				}
			})
		}
	})
}

func TestUnreachableProfilesPassThrough(t *testing.T) {
	// A stateless HTTP server keeps nothing of a legacy client's initialize:
	// a client that declared the extension gets what one that did not gets.
	for _, sdk := range behaviour.SDKs {
		t.Run(string(sdk), func(t *testing.T) {
			s := behaviour.Start(t, sdk, behaviour.HTTPStateless)
			for _, c := range behaviour.Cases {
				if c.Tags == nil {
					continue
				}
				t.Run(c.Name, func(t *testing.T) {
					want := wireOf(t, call(t, s.Connect(t, options(nil, true)), c.Tool, c.Args))
					got := wireOf(t, call(t, s.Connect(t, options(c.Tags, true)), c.Tool, c.Args))
					if got != want {
						t.Errorf("got\n%s\nwant\n%s", got, want)
					}
				})
			}
		})
	}
}
