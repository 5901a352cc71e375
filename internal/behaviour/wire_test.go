package behaviour_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/internal/behaviour"
	"github.com/contentneg/contentneg/mcpgo"
	"github.com/contentneg/contentneg/middleware/client"
)

// failures is a testing.TB that records failures instead of failing.
type failures struct {
	testing.TB
	mu     sync.Mutex
	errors []string
}

func (f *failures) Helper() {}

func (f *failures) Errorf(format string, args ...any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.errors = append(f.errors, fmt.Sprintf(format, args...))
}

func (f *failures) Fatalf(format string, args ...any) {
	f.Errorf(format, args...)
	panic(f) // ends the check; recovered by run
}

func (f *failures) Fatal(args ...any) { f.Fatalf("%s", fmt.Sprint(args...)) }

// run runs check with f and returns what it reported.
func (f *failures) run(check func(testing.TB)) []string {
	func() {
		defer func() {
			if r := recover(); r != nil && r != any(f) {
				panic(r)
			}
		}()
		check(f)
	}()
	return f.errors
}

// TestCheckSameResultsComparesTheHandshake: CheckSameResults compares the
// handshake too, minus the extension the adapter advertises. The planted
// faults are servers whose handshakes differ in something else (the
// server's version, a capability), which the check once skipped with every
// response holding "capabilities".
func TestCheckSameResultsComparesTheHandshake(t *testing.T) {
	listTools := func(cs *mcp.ClientSession) error {
		_, err := cs.ListTools(context.Background(), nil)
		return err
	}
	adapted := func(s *server.MCPServer) *server.MCPServer {
		mcpgo.Install(s, nil)
		return s
	}
	tests := []struct {
		name          string
		without, with *server.MCPServer
		wantFail      bool
	}{
		{
			name:    "the same server, with the adapter",
			without: server.NewMCPServer("s", "1", server.WithToolCapabilities(true)),
			with:    adapted(server.NewMCPServer("s", "1", server.WithToolCapabilities(true))),
		},
		{
			name:     "another version",
			without:  server.NewMCPServer("s", "1", server.WithToolCapabilities(true)),
			with:     adapted(server.NewMCPServer("s", "2", server.WithToolCapabilities(true))),
			wantFail: true,
		},
		{
			name:     "another capability",
			without:  server.NewMCPServer("s", "1", server.WithToolCapabilities(true)),
			with:     adapted(server.NewMCPServer("s", "1", server.WithToolCapabilities(true), server.WithLogging())),
			wantFail: true,
		},
	}
	for _, legacy := range []bool{false, true} {
		for _, tt := range tests {
			t.Run(fmt.Sprintf("legacy=%v/%s", legacy, tt.name), func(t *testing.T) {
				f := &failures{TB: t}
				got := f.run(func(tb testing.TB) {
					behaviour.CheckSameResults(tb, tt.without, tt.with, &client.Options{Legacy: legacy}, listTools)
				})
				if failed := len(got) > 0; failed != tt.wantFail {
					t.Errorf("CheckSameResults failed: %v (%q), want %v", failed, got, tt.wantFail)
				}
			})
		}
	}
}
