package behaviour_test

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	mcpgomcp "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/contentneg/contentneg/internal/behaviour"
	"github.com/contentneg/contentneg/mcpgo"
	"github.com/contentneg/contentneg/middleware"
	"github.com/contentneg/contentneg/middleware/client"
	"github.com/contentneg/contentneg/middleware/middlewaretest"
	"github.com/contentneg/contentneg/negotiation"
)

// The defects of one review, each against both front ends: the same small
// server on either SDK, with a tool that asks for consent through the
// library's helper ("confirm", whose text is the answer's action) and one
// that panics ("boom").

// secret is the panic value that must never reach a client.
const secret = "secret-panic-value-do-not-send"

// connectSmall starts the small server on sdk with opts and connects a
// client described by copts.
func connectSmall(t *testing.T, sdk behaviour.SDK, opts *middleware.Options, copts *client.Options) *mcp.ClientSession {
	t.Helper()
	if sdk == behaviour.SDKs[1] {
		s := server.NewMCPServer("small", "1", server.WithToolCapabilities(true))
		s.AddTool(mcpgomcp.NewTool("confirm"), func(ctx context.Context, req mcpgomcp.CallToolRequest) (*mcpgomcp.CallToolResult, error) {
			answer, ask, err := mcpgo.Elicit(ctx, req, "confirm", mcpgomcp.ElicitationParams{Message: "Go ahead?", RequestedSchema: map[string]any{"type": "object"}})
			switch {
			case err != nil:
				return mcpgomcp.NewToolResultError(err.Error()), nil
			case ask != nil:
				return ask, nil
			}
			return mcpgomcp.NewToolResultText(string(answer.Action)), nil
		})
		s.AddTool(mcpgomcp.NewTool("boom"), func(context.Context, mcpgomcp.CallToolRequest) (*mcpgomcp.CallToolResult, error) {
			panic(secret)
		})
		mcpgo.Install(s, opts)
		return behaviour.ConnectMCPGo(t, s, copts)
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "small", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "confirm"}, func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		answer, ask, err := middleware.Elicit(ctx, req, "confirm", &mcp.ElicitParams{Message: "Go ahead?", RequestedSchema: map[string]any{"type": "object"}})
		switch {
		case err != nil:
			return nil, nil, err
		case ask != nil:
			return ask, nil, nil
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: answer.Action}}}, nil, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "boom"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		panic(secret)
	})
	middleware.Install(s, opts)
	return middlewaretest.Connect(t, s, copts)
}

// asker is a client that has the elicitation capability and counts the
// questions it gets, answering each with accept.
func asker(asked *atomic.Int32) *mcp.ClientOptions {
	return &mcp.ClientOptions{ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		asked.Add(1)
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{}}, nil
	}}
}

func callText(t *testing.T, cs *mcp.ClientSession, params *mcp.CallToolParams) (string, bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), behaviourTimeout)
	defer cancel()
	res, err := cs.CallTool(ctx, params)
	if err != nil {
		t.Fatalf("%s: %v", params.Name, err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String(), res.IsError
}

var eras = []struct {
	name   string
	legacy bool
}{{"stateless", false}, {"legacy", true}}

// Defect 1: a request's own _meta capabilities come first (contract
// section 1), in both eras: a session that declared "interactive" with the
// elicitation capability, then a request whose _meta declares
// "!interactive" and no capability, is declined without a question.
func TestRequestMetaCapabilitiesComeFirst(t *testing.T) {
	for _, sdk := range behaviour.SDKs {
		for _, era := range eras {
			t.Run(string(sdk)+"/"+era.name, func(t *testing.T) {
				var asked atomic.Int32
				cs := connectSmall(t, sdk, nil, &client.Options{Settings: client.Declare("interactive"), Legacy: era.legacy, Client: asker(&asked)})
				meta := mcp.Meta{mcp.MetaKeyClientCapabilities: map[string]any{
					"extensions": map[string]any{negotiation.ExtensionID: client.Declare("!interactive")},
				}}
				text, _ := callText(t, cs, &mcp.CallToolParams{Name: "confirm", Arguments: map[string]any{}, Meta: meta})
				if text != "decline" || asked.Load() != 0 {
					t.Errorf("answer %q after %d questions, want decline without a question", text, asked.Load())
				}
			})
		}
	}
}

// Defect 2: the limits never open a gate (contract section 2): a client
// whose features run past 64 tags is read as "!interactive", wherever its
// negation stands, on both SDKs in both eras.
func TestTagLimitNeverOpensTheGate(t *testing.T) {
	filler := func(n int) []string {
		tags := make([]string, n)
		for i := range tags {
			tags[i] = fmt.Sprintf("x-filler-%d", i)
		}
		return tags
	}
	tests := []struct {
		name string
		give []string
	}{
		{"!interactive as the 64th tag", append(filler(63), "!interactive")},
		{"!interactive as the 65th tag", append(filler(64), "!interactive")},
		{"65 tags without a negation", filler(65)},
	}
	for _, sdk := range behaviour.SDKs {
		for _, era := range eras {
			for _, tt := range tests {
				t.Run(string(sdk)+"/"+era.name+"/"+tt.name, func(t *testing.T) {
					var asked atomic.Int32
					cs := connectSmall(t, sdk, nil, &client.Options{Settings: client.Declare(tt.give...), Legacy: era.legacy, Client: asker(&asked)})
					text, _ := callText(t, cs, &mcp.CallToolParams{Name: "confirm", Arguments: map[string]any{}})
					if text != "decline" || asked.Load() != 0 {
						t.Errorf("answer %q after %d questions, want decline without a question", text, asked.Load())
					}
				})
			}
		}
	}
}

// Defect 3: with Recover, a panicking handler is a failed call on every
// front end (contract section 9): an isError result without the panic's
// value, and one error log line; the server goes on serving.
func TestRecoverIsTheSameOnEveryFrontEnd(t *testing.T) {
	for _, sdk := range behaviour.SDKs {
		for _, era := range eras {
			for _, tags := range [][]string{nil, {"human"}} {
				t.Run(fmt.Sprintf("%s/%s/%v", sdk, era.name, tags), func(t *testing.T) {
					core, logs := observer.New(zapcore.ErrorLevel)
					var settings map[string]any
					if tags != nil {
						settings = client.Declare(tags...)
					}
					cs := connectSmall(t, sdk, &middleware.Options{Recover: true, Logger: zap.New(core)}, &client.Options{Settings: settings, Legacy: era.legacy})
					text, isError := callText(t, cs, &mcp.CallToolParams{Name: "boom", Arguments: map[string]any{}})
					if !isError || strings.Contains(text, secret) {
						t.Errorf("result %q (isError %v), want a tool error without the panic's value", text, isError)
					}
					if n := logs.Len(); n != 1 {
						t.Errorf("%d error log lines, want 1", n)
					}
					// The server goes on serving.
					if _, isError := callText(t, cs, &mcp.CallToolParams{Name: "boom", Arguments: map[string]any{}}); !isError {
						t.Error("the second call did not fail as the first")
					}
				})
			}
		}
	}
}

// Defect 4: Options.QuestionTimeout bounds every question, on both SDKs,
// also those put to a client that did not declare the extension: a
// question its client leaves unanswered ends as cancel. The legacy era
// (the stateless era holds no question on the server).
func TestQuestionTimeoutForEveryClient(t *testing.T) {
	for _, sdk := range behaviour.SDKs {
		for _, tags := range [][]string{nil, {"interactive"}} {
			t.Run(fmt.Sprintf("%s/%v", sdk, tags), func(t *testing.T) {
				never := make(chan struct{})
				clientOpts := &mcp.ClientOptions{ElicitationHandler: func(ctx context.Context, _ *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					select { // a person who does not answer in time
					case <-never:
					case <-ctx.Done():
					case <-time.After(behaviourTimeout / 2):
					}
					return &mcp.ElicitResult{Action: "accept", Content: map[string]any{}}, nil
				}}
				var settings map[string]any
				if tags != nil {
					settings = client.Declare(tags...)
				}
				cs := connectSmall(t, sdk, &middleware.Options{QuestionTimeout: 50 * time.Millisecond}, &client.Options{Settings: settings, Legacy: true, Client: clientOpts})
				t.Cleanup(func() { close(never) }) // runs before the connection's cleanups
				if text, _ := callText(t, cs, &mcp.CallToolParams{Name: "confirm", Arguments: map[string]any{}}); text != "cancel" {
					t.Errorf("answer %q, want the question to end as cancel", text)
				}
			})
		}
	}
}
