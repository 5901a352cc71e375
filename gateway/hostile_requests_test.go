package gateway_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/contentneg/contentneg/internal/rawrpc"
)

// TestHostileRequests: every method the gateway serves or forwards, in
// both eras, with hostile params (rawrpc.Hostile): each gets an answer,
// none ends the session, and a well-formed call works after them all.
func TestHostileRequests(t *testing.T) {
	for _, era := range []string{"legacy", "stateless"} {
		t.Run(era, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			g := newGateway(t, inProcess(t, goUpstream), nil)
			c := pipeClient(t, g)
			if era == "legacy" {
				c.Initialize(ctx, `{}`)
			} else {
				c.Stateless(`{}`)
			}
			rawrpc.Hostile(ctx, t, c)
			if got := c.Call(ctx, "resources/read", map[string]any{"uri": "note://a"}); !strings.Contains(got, `"text":"a"`) {
				t.Fatalf("a well-formed request after the hostile ones: %s", got)
			}
		})
	}
}

// TestMalformedDeclarationsAreNeverAsked: a client whose declaration the
// gateway cannot read (rawrpc.HostileDeclarations) is never asked, in
// either era: the upstream's question is answered decline by the gate.
func TestMalformedDeclarationsAreNeverAsked(t *testing.T) {
	for _, era := range []string{"legacy", "stateless"} {
		for _, d := range rawrpc.HostileDeclarations {
			t.Run(era+"/"+d.Name, func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
				defer cancel()
				g := newGateway(t, inProcess(t, goUpstream), nil)
				c := pipeClient(t, g)
				if era == "legacy" {
					c.Initialize(ctx, d.Caps)
				} else {
					c.Stateless(d.Caps)
				}
				got := c.Call(ctx, "tools/call", map[string]any{"name": "confirm", "arguments": map[string]any{}})
				if !strings.Contains(got, "answer decline") {
					t.Errorf("not the gate's decline: %s", got)
				}
				if asked := c.Asked(); len(asked) != 0 {
					t.Errorf("the client was asked: %v", asked)
				}
			})
		}
	}
}
