package middleware_test

import (
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/contentneg/contentneg/middleware"
	"github.com/contentneg/contentneg/middleware/client"
	"github.com/contentneg/contentneg/middleware/middlewaretest"
)

// newPanickingServer has a tool and a prompt that panic, and a tool that
// works.
func newPanickingServer(opts *middleware.Options) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "panicking", Version: "1.0.0"}, nil)
	s.AddTool(&mcp.Tool{Name: "boom", InputSchema: emptyObject}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		panic("secret internals")
	})
	s.AddTool(&mcp.Tool{Name: "fine", InputSchema: emptyObject}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return answered("fine"), nil
	})
	s.AddPrompt(&mcp.Prompt{Name: "boom_prompt"}, func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		panic("secret internals")
	})
	middleware.Install(s, opts)
	return s
}

func TestRecoverTurnsAPanicIntoAFailedRequest(t *testing.T) {
	for _, e := range eras {
		for _, tags := range [][]string{{"human"}, nil} {
			t.Run(e.name+"/"+strings.Join(tags, ","), func(t *testing.T) {
				core, logs := observer.New(zapcore.ErrorLevel)
				s := newPanickingServer(&middleware.Options{Recover: true, Logger: zap.New(core)})
				cs := middlewaretest.Connect(t, s, &client.Options{Settings: settingsOf(tags), Legacy: e.legacy})
				res := call(t, cs, "boom", map[string]any{})
				if !res.IsError {
					t.Error("the panicking tool's result is not an error")
				}
				if text := onlyText(t, res); !strings.Contains(text, `"boom"`) || strings.Contains(text, "secret") {
					t.Errorf("error text %q: want the tool's name and not the panic's value", text)
				}
				ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
				defer cancel()
				if _, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "boom_prompt"}); err == nil || strings.Contains(err.Error(), "secret") {
					t.Errorf("prompts/get of a panicking prompt: error %v, want an internal error without the panic's value", err)
				}
				if got := onlyText(t, call(t, cs, "fine", map[string]any{})); got != "answer: fine" {
					t.Errorf("after the panics: %q, want the server to go on serving", got)
				}
				entries := logs.FilterMessageSnippet("panicked").All()
				if len(entries) != 2 {
					t.Fatalf("%d error lines about the panics, want 2", len(entries))
				}
				if f := entries[0].ContextMap(); f["panic"] != "secret internals" || f["name"] != "boom" || f["stack"] == "" {
					t.Errorf("log fields %v: want the panic, the name and the stack", f)
				}
			})
		}
	}
}
