package middleware_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"

	"github.com/contentneg/contentneg/middleware"
	"github.com/contentneg/contentneg/middleware/client"
	"github.com/contentneg/contentneg/middleware/middlewaretest"
	"github.com/contentneg/contentneg/negotiation"
)

var question = &mcp.ElicitParams{Message: "Go ahead?", RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{}}}

func actionOf(r mcp.InputResponse) string {
	if er, ok := r.(*mcp.ElicitResult); ok && er != nil {
		return er.Action
	}
	return fmt.Sprintf("%T", r)
}

func answered(action string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "answer: " + action}}}
}

var emptyObject = json.RawMessage(`{"type":"object"}`)

// newAskingServer has one tool per way a handler can ask a question, and a
// prompt that asks.
func newAskingServer(opts *middleware.Options) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "asking", Version: "1.0.0"}, nil)
	// direct calls ServerSession.Elicit (legacy era only).
	s.AddTool(&mcp.Tool{Name: "direct", InputSchema: emptyObject}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res, err := req.Session.Elicit(ctx, question)
		if err != nil {
			return nil, err
		}
		return answered(res.Action), nil
	})
	// returns asks by returning inputRequests (the SDK bridges them for
	// legacy clients).
	s.AddTool(&mcp.Tool{Name: "returns", InputSchema: emptyObject}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if r, ok := req.Params.InputResponses["q"]; ok {
			return answered(actionOf(r)), nil
		}
		return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"q": question}}, nil
	})
	// helper uses middleware.Elicit.
	s.AddTool(&mcp.Tool{Name: "helper", InputSchema: emptyObject}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		answer, ask, err := middleware.Elicit(ctx, req, "q", question)
		if err != nil {
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}}, nil
		}
		if ask != nil {
			return ask, nil
		}
		return answered(answer.Action), nil
	})
	// never_stops asks again whatever the answer.
	s.AddTool(&mcp.Tool{Name: "never_stops", InputSchema: emptyObject}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"q": question}}, nil
	})
	// may_elicit reports what middleware.MayElicit says.
	s.AddTool(&mcp.Tool{Name: "may_elicit", InputSchema: emptyObject}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return answered(fmt.Sprint(middleware.MayElicit(ctx, req))), nil
	})
	s.AddPrompt(&mcp.Prompt{Name: "asking_prompt"}, func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		if r, ok := req.Params.InputResponses["q"]; ok {
			return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: "answer: " + actionOf(r)}}}}, nil
		}
		return &mcp.GetPromptResult{InputRequests: mcp.InputRequestMap{"q": question}}, nil
	})
	if opts != nil {
		middleware.Install(s, opts)
	}
	return s
}

// failIfAsked is a client whose elicitation handler fails the test.
func failIfAsked(t *testing.T) *mcp.ClientOptions {
	return &mcp.ClientOptions{ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		t.Errorf("a client that cannot answer was asked %q", req.Params.Message)
		return &mcp.ElicitResult{Action: "accept"}, nil
	}}
}

func TestGateAnswersForClientsThatCannotAnswer(t *testing.T) {
	tests := []struct {
		name    string
		tool    string
		refusal negotiation.Refusal // the zero Refusal declines
		want    string
		legacy  bool // the tool works in the legacy era only
	}{
		{"returned inputRequests", "returns", 0, "answer: decline", false},
		{"returned inputRequests, cancel", "returns", negotiation.Cancel, "answer: cancel", false},
		{"the helper", "helper", 0, "answer: decline", false},
		{"the helper, cancel", "helper", negotiation.Cancel, "answer: cancel", false},
		{"ServerSession.Elicit", "direct", 0, "answer: decline", true},
		{"MayElicit", "may_elicit", 0, "answer: false", false},
	}
	for _, e := range eras {
		for _, tt := range tests {
			if tt.legacy && !e.legacy {
				continue
			}
			t.Run(e.name+"/"+tt.name, func(t *testing.T) {
				core, logs := observer.New(zap.DebugLevel)
				s := newAskingServer(&middleware.Options{Logger: zap.New(core), Refusal: tt.refusal})
				cs := middlewaretest.Connect(t, s, &client.Options{Settings: client.Declare("!interactive"), Legacy: e.legacy, Client: failIfAsked(t)})
				res := call(t, cs, tt.tool, map[string]any{})
				if got := onlyText(t, res); got != tt.want {
					t.Errorf("text = %q, want %q", got, tt.want)
				}
				if tt.tool == "may_elicit" {
					return
				}
				gated := logs.FilterMessage("elicitation gated").All()
				if len(gated) == 0 {
					t.Fatal("the gated elicitation was not logged")
				}
				fields := gated[0].ContextMap()
				if fields["tool"] != tt.tool || fields["reason"] != "the client declared !interactive" || gated[0].Level != zap.DebugLevel {
					t.Errorf("log fields = %v at %v, want the tool and the reason at debug", fields, gated[0].Level)
				}
			})
		}
	}
}

func TestGateClosedForMalformedDeclarations(t *testing.T) {
	// A client with the elicitation capability whose settings the server
	// cannot read is treated as "!interactive" on every path a handler can
	// ask by, and the reason says so (contract section 2).
	settings := []struct {
		name string
		give map[string]any
	}{
		{"Cyrillic i", map[string]any{"version": "1.0", "features": []any{"human", "!\u0456nteractive"}}},
		{"trailing no-break space", map[string]any{"version": "1.0", "features": []any{"human", "!interactive\u00a0"}}},
		{"fullwidth exclamation mark", map[string]any{"version": "1.0", "features": []any{"\uff01interactive"}}},
		{"an element that is not a string", map[string]any{"version": "1.0", "features": []any{"human", 1}}},
		{"features one string", map[string]any{"version": "1.0", "features": "human, interactive"}},
		{"features an object", map[string]any{"version": "1.0", "features": map[string]any{"interactive": true}}},
	}
	tools := []struct {
		name   string
		want   string
		legacy bool // the tool works in the legacy era only
	}{
		{"returns", "answer: decline", false},
		{"helper", "answer: decline", false},
		{"direct", "answer: decline", true},
		{"may_elicit", "answer: false", false},
	}
	for _, e := range eras {
		for _, st := range settings {
			for _, tool := range tools {
				if tool.legacy && !e.legacy {
					continue
				}
				t.Run(e.name+"/"+st.name+"/"+tool.name, func(t *testing.T) {
					core, logs := observer.New(zap.DebugLevel)
					s := newAskingServer(&middleware.Options{Logger: zap.New(core)})
					cs := middlewaretest.Connect(t, s, &client.Options{Settings: st.give, Legacy: e.legacy, Client: failIfAsked(t)})
					if got := onlyText(t, call(t, cs, tool.name, map[string]any{})); got != tool.want {
						t.Errorf("text = %q, want %q", got, tool.want)
					}
					if tool.name == "may_elicit" {
						return
					}
					gated := logs.FilterMessage("elicitation gated").All()
					const malformed = "the client's settings are malformed, read as !interactive"
					if len(gated) == 0 || gated[0].ContextMap()["reason"] != malformed {
						t.Errorf("gated logs = %v, want the reason %q", gated, malformed)
					}
				})
			}
		}
	}
}

func TestGateRefusesAHandlerThatNeverStopsAsking(t *testing.T) {
	for _, e := range eras {
		t.Run(e.name, func(t *testing.T) {
			cs := middlewaretest.Connect(t, newAskingServer(&middleware.Options{}), &client.Options{Settings: client.Declare("!interactive"), Legacy: e.legacy, Client: failIfAsked(t)})
			res := call(t, cs, "never_stops", map[string]any{})
			if !res.IsError || !strings.Contains(onlyText(t, res), "cannot be asked") {
				t.Errorf("result = %s, want a tool error", mustJSON(t, res))
			}
		})
	}
}

func TestGateOverridesAnswersTheClientSuppliedItself(t *testing.T) {
	// A stateless client that declared !interactive sends "accept" for a
	// question it was never asked; a handler that reads the answers itself
	// must see the refusal.
	cs := middlewaretest.Connect(t, newAskingServer(&middleware.Options{}), &client.Options{Settings: client.Declare("!interactive"), Client: failIfAsked(t)})
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "returns", InputResponses: mcp.InputResponseMap{"q": &mcp.ElicitResult{Action: "accept"}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := onlyText(t, res); got != "answer: decline" {
		t.Errorf("text = %q, want the gate's refusal", got)
	}
}

func TestGateCoversPrompts(t *testing.T) {
	for _, e := range eras {
		t.Run(e.name, func(t *testing.T) {
			cs := middlewaretest.Connect(t, newAskingServer(&middleware.Options{}), &client.Options{Settings: client.Declare("!interactive"), Legacy: e.legacy, Client: failIfAsked(t)})
			ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
			defer cancel()
			res, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "asking_prompt"})
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Messages[0].Content.(*mcp.TextContent).Text; got != "answer: decline" {
				t.Errorf("prompt text = %q, want the gate's refusal", got)
			}
		})
	}
}

func TestInteractiveClientsAreAsked(t *testing.T) {
	tools := []struct {
		name   string
		legacy bool
	}{{"returns", false}, {"helper", false}, {"direct", true}}
	for _, e := range eras {
		for _, tool := range tools {
			if tool.legacy && !e.legacy {
				continue
			}
			for _, tags := range [][]string{{"interactive"}, {"agent"}, nil} {
				t.Run(fmt.Sprintf("%s/%s/%v", e.name, tool.name, tags), func(t *testing.T) {
					var asked atomic.Int32
					clientOpts := &mcp.ClientOptions{ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
						asked.Add(1)
						return &mcp.ElicitResult{Action: "accept"}, nil
					}}
					cs := middlewaretest.Connect(t, newAskingServer(&middleware.Options{}), &client.Options{Settings: settingsOf(tags), Legacy: e.legacy, Client: clientOpts})
					if got := onlyText(t, call(t, cs, tool.name, map[string]any{})); got != "answer: accept" || asked.Load() != 1 {
						t.Errorf("text = %q after %d questions, want the client's answer after 1", got, asked.Load())
					}
				})
			}
		}
	}
}

func settingsOf(tags []string) map[string]any {
	if tags == nil {
		return nil
	}
	return client.Declare(tags...)
}

func TestHelperForAClientWithoutTheCapability(t *testing.T) {
	tests := []struct {
		name     string
		settings map[string]any
		want     string
	}{
		{"declared: the gate's refusal", client.Declare("agent"), "answer: decline"},
		{"not declared: the SDK's refusal", nil, "does not support elicitation"},
	}
	for _, e := range eras {
		for _, tt := range tests {
			t.Run(e.name+"/"+tt.name, func(t *testing.T) {
				cs := middlewaretest.Connect(t, newAskingServer(&middleware.Options{}), &client.Options{Settings: tt.settings, Legacy: e.legacy})
				if got := strings.Join(textBlocks(call(t, cs, "helper", map[string]any{})), ""); !strings.Contains(got, tt.want) {
					t.Errorf("text = %q, want %q", got, tt.want)
				}
			})
		}
	}
}
