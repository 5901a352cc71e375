package main

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The tools and the prompt of the stateless era's scenarios (protocol
// 2026-07-28, the suite's 0.2.0 prerelease): multi-round-trip input
// requests (SEP-2322), the diagnostic tools of the stateless scenario
// (SEP-2575) and a tool with an x-mcp-header argument (SEP-2243).

// stateKey signs the requestState this server hands out, so that a state
// the client changed is refused. One key per process: a state outlives
// neither.
var stateKey = func() []byte {
	k := make([]byte, 32)
	if _, err := rand.Read(k); err != nil {
		panic(fmt.Sprintf("conformance-server: no randomness for the state key: %v", err)) // the platform is broken
	}
	return k
}()

// seal returns payload with its MAC.
func seal(payload string) string {
	mac := hmac.New(sha256.New, stateKey)
	mac.Write([]byte(payload))
	return payload + "." + base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
}

// unseal returns the payload of a state made by seal, and whether it is
// intact.
func unseal(state string) (string, bool) {
	i := strings.LastIndexByte(state, '.')
	if i < 0 {
		return "", false
	}
	payload := state[:i]
	return payload, hmac.Equal([]byte(seal(payload)), []byte(state))
}

// badState is the error for a requestState that this server did not make.
func badState() error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "invalid requestState: it was not issued by this server or was changed"}
}

// accepted returns the content of an accepted elicitation answered under id.
func accepted(responses mcp.InputResponseMap, id string) (map[string]any, bool) {
	r, ok := responses[id].(*mcp.ElicitResult)
	if !ok || r == nil || r.Action != "accept" {
		return nil, false
	}
	return r.Content, true
}

// sampled returns the text of a sampling answer under id.
func sampled(responses mcp.InputResponseMap, id string) (string, bool) {
	switch r := responses[id].(type) {
	case *mcp.CreateMessageWithToolsResult:
		if r == nil {
			return "", false
		}
		for _, c := range r.Content {
			if t, ok := c.(*mcp.TextContent); ok {
				return t.Text, true
			}
		}
		return "", true
	case *mcp.CreateMessageResult:
		if r == nil {
			return "", false
		}
		if t, ok := r.Content.(*mcp.TextContent); ok {
			return t.Text, true
		}
		return "", true
	}
	return "", false
}

// roots returns the roots answered under id.
func roots(responses mcp.InputResponseMap, id string) ([]*mcp.Root, bool) {
	r, ok := responses[id].(*mcp.ListRootsResult)
	if !ok || r == nil {
		return nil, false
	}
	return r.Roots, true
}

func form(fields ...string) *jsonschema.Schema {
	s := &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{}, Required: fields}
	for _, f := range fields {
		s.Properties[f] = &jsonschema.Schema{Type: "string"}
	}
	return s
}

func askName() *mcp.ElicitParams {
	return &mcp.ElicitParams{Message: "What is your name?", RequestedSchema: form("name")}
}

func askModel(prompt string) *mcp.CreateMessageParams {
	return &mcp.CreateMessageParams{
		Messages:  []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: prompt}}},
		MaxTokens: 100,
	}
}

func askConfirmation() *mcp.ElicitParams {
	return &mcp.ElicitParams{Message: "Please confirm", RequestedSchema: &jsonschema.Schema{
		Type: "object", Properties: map[string]*jsonschema.Schema{"ok": {Type: "boolean"}}, Required: []string{"ok"},
	}}
}

func inputs(state string, m mcp.InputRequestMap) *mcp.CallToolResult {
	return &mcp.CallToolResult{InputRequests: m, RequestState: state}
}

func addStatelessTools(s *mcp.Server) {
	tool := func(name, desc string, h func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error)) {
		mcp.AddTool(s, &mcp.Tool{Name: name, Description: desc}, func(ctx context.Context, req *mcp.CallToolRequest, _ map[string]any) (*mcp.CallToolResult, any, error) {
			res, err := h(ctx, req)
			return res, nil, err
		})
	}
	tool("test_input_required_result_elicitation", "Asks for the caller's name, in band (SEP-2322).",
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if c, ok := accepted(req.Params.InputResponses, "user_name"); ok {
				if name, _ := c["name"].(string); name != "" {
					return text("Hello, " + name + "!"), nil
				}
			}
			return inputs("", mcp.InputRequestMap{"user_name": askName()}), nil
		})
	tool("test_input_required_result_sampling", "Asks the client's model a question, in band (SEP-2322).",
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if answer, ok := sampled(req.Params.InputResponses, "capital_question"); ok {
				return text("Sampling response: " + answer), nil
			}
			return inputs("", mcp.InputRequestMap{"capital_question": askModel("What is the capital of France?")}), nil
		})
	tool("test_input_required_result_list_roots", "Asks for the client's roots, in band (SEP-2322).",
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if rs, ok := roots(req.Params.InputResponses, "client_roots"); ok {
				uris := make([]string, len(rs))
				for i, r := range rs {
					uris[i] = r.URI
				}
				return text(fmt.Sprintf("Client exposed %d root(s): %s", len(rs), strings.Join(uris, ", "))), nil
			}
			return inputs("", mcp.InputRequestMap{"client_roots": &mcp.ListRootsParams{}}), nil
		})
	confirmWithState := func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if req.Params.RequestState != "" {
			if payload, ok := unseal(req.Params.RequestState); !ok || payload != "confirm" {
				return nil, badState()
			}
			if _, ok := accepted(req.Params.InputResponses, "confirm"); ok {
				return text("state-ok: requestState received and confirmation accepted"), nil
			}
		}
		return inputs(seal("confirm"), mcp.InputRequestMap{"confirm": askConfirmation()}), nil
	}
	tool("test_input_required_result_request_state", "Asks for a confirmation and round-trips a signed requestState (SEP-2322).", confirmWithState)
	tool("test_input_required_result_tampered_state", "Refuses a retry whose requestState was changed (SEP-2322).", confirmWithState)
	tool("test_input_required_result_multiple_inputs", "Asks for a name, a model's greeting and the roots in one round (SEP-2322).",
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			c, named := accepted(req.Params.InputResponses, "user_name")
			greeting, greeted := sampled(req.Params.InputResponses, "greeting")
			rs, rooted := roots(req.Params.InputResponses, "client_roots")
			if name, _ := c["name"].(string); named && name != "" && greeted && rooted {
				return text(fmt.Sprintf("%s %s: %d root(s) visible", greeting, name, len(rs))), nil
			}
			return inputs(seal("multiple"), mcp.InputRequestMap{
				"user_name":    askName(),
				"greeting":     askModel("Generate a greeting"),
				"client_roots": &mcp.ListRootsParams{},
			}), nil
		})
	tool("test_input_required_result_multi_round", "Asks two questions in two rounds, carrying the first answer in requestState (SEP-2322).",
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if req.Params.RequestState == "" {
				return inputs(seal("round1"), mcp.InputRequestMap{"step1": &mcp.ElicitParams{Message: "Step 1: What is your name?", RequestedSchema: form("name")}}), nil
			}
			payload, ok := unseal(req.Params.RequestState)
			if !ok {
				return nil, badState()
			}
			if payload == "round1" {
				c, _ := accepted(req.Params.InputResponses, "step1")
				name, _ := c["name"].(string)
				if name == "" {
					name = "unknown"
				}
				b, err := json.Marshal(name)
				if err != nil {
					return nil, err
				}
				return inputs(seal("round2:"+string(b)), mcp.InputRequestMap{"step2": &mcp.ElicitParams{Message: "Step 2: What is your favorite color?", RequestedSchema: form("color")}}), nil
			}
			quoted, ok := strings.CutPrefix(payload, "round2:")
			var name string
			if !ok || json.Unmarshal([]byte(quoted), &name) != nil {
				return nil, badState()
			}
			c, _ := accepted(req.Params.InputResponses, "step2")
			color, _ := c["color"].(string)
			if color == "" {
				color = "unknown"
			}
			return text(fmt.Sprintf("Multi-round complete: %s likes %s", name, color)), nil
		})
	tool("test_input_required_result_capabilities", "Asks only for the input the client's declared capabilities cover (SEP-2322).",
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if len(req.Params.InputResponses) > 0 {
				return text("Capability-aware input requests fulfilled"), nil
			}
			caps := req.ClientCapabilities()
			asks := mcp.InputRequestMap{}
			if caps != nil && caps.Elicitation != nil {
				asks["user_name"] = askName()
			}
			if caps != nil && caps.Sampling != nil {
				asks["greeting"] = askModel("Generate a short greeting")
			}
			if caps != nil && (caps.RootsV2 != nil || caps.Roots.ListChanged) {
				asks["client_roots"] = &mcp.ListRootsParams{}
			}
			if len(asks) == 0 {
				return text("No declared client capability supports an in-band input request"), nil
			}
			return inputs("", asks), nil
		})
	tool("test_missing_capability", "Needs the client's sampling capability; without it the call is error -32021 (SEP-2575).",
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if caps := req.ClientCapabilities(); caps != nil && caps.Sampling != nil {
				return text("The client declared sampling."), nil
			}
			data, err := json.Marshal(mcp.MissingRequiredClientCapabilityData{RequiredCapabilities: &mcp.ClientCapabilities{Sampling: &mcp.SamplingCapabilities{}}})
			if err != nil {
				return nil, err
			}
			return nil, &jsonrpc.Error{Code: mcp.CodeMissingRequiredClientCapabilities, Message: "this tool needs the sampling capability, which the client did not declare", Data: data}
		})
	tool("test_streaming_elicitation", "Answers with a result only: its response stream carries no requests (SEP-2575).",
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return text("stream observed: result frames only, no top-level requests"), nil
		})
	tool("test_logging_tool", "Logs one message, which the SDK drops unless the request's _meta asked for a log level (SEP-2575).",
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if err := req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: "info", Data: "test_logging_tool executed"}); err != nil {
				return nil, fmt.Errorf("log: %w", err)
			}
			return text("Log attempted."), nil
		})
	mcp.AddTool(s, &mcp.Tool{
		Name:        "test_x_mcp_header",
		Description: "Has an argument mirrored into the Mcp-Param-Region header (SEP-2243).",
		InputSchema: map[string]any{"type": "object", "properties": map[string]any{
			"region": map[string]any{"type": "string", "description": "mirrored into Mcp-Param-Region", "x-mcp-header": "Region"},
			"level":  map[string]any{"type": "integer", "description": "not mirrored"},
		}},
	}, func(_ context.Context, _ *mcp.CallToolRequest, in struct {
		Region string `json:"region,omitempty"`
		Level  int    `json:"level,omitempty"`
	}) (*mcp.CallToolResult, any, error) {
		return text("region=" + in.Region), nil, nil
	})
	s.AddPrompt(&mcp.Prompt{Name: "test_input_required_result_prompt", Description: "Asks for context, in band, before it is rendered (SEP-2322)."},
		func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			if c, ok := accepted(req.Params.InputResponses, "user_context"); ok {
				ctx, _ := c["context"].(string)
				return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: "Context: " + ctx}}}}, nil
			}
			return &mcp.GetPromptResult{InputRequests: mcp.InputRequestMap{
				"user_context": &mcp.ElicitParams{Message: "Please provide context for the prompt", RequestedSchema: form("context")},
			}}, nil
		})
}
