// Package mcpgotool registers typed tools on a mark3labs/mcp-go server the
// way the official go-sdk's mcp.AddTool does, so that the project's demo
// servers give the same results on both SDKs: schemas inferred with
// github.com/google/jsonschema-go, arguments validated (defaults applied)
// before the handler runs, the output validated and sent as
// structuredContent with its JSON text as the one text block, and handler
// errors as tool errors. It is for the demos; it decides nothing about
// content negotiation.
package mcpgotool

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// Handler is a typed tool handler: it returns a result of its own (nil for
// the output alone, or one asking for input), the output, or an error
// that becomes a tool error.
type Handler[In, Out any] func(ctx context.Context, req mcp.CallToolRequest, in In) (*mcp.CallToolResult, Out, error)

// Add registers tool on srv with h. The input schema is inputSchema when
// not nil, else inferred from In; the output schema is inferred from Out.
// A schema that cannot be inferred or resolved is an error.
func Add[In, Out any](srv *server.MCPServer, tool mcp.Tool, inputSchema *jsonschema.Schema, h Handler[In, Out]) error {
	in, inRaw, err := schemaOf[In](inputSchema)
	if err != nil {
		return fmt.Errorf("tool %s: input schema: %w", tool.Name, err)
	}
	out, outRaw, err := schemaOf[Out](nil)
	if err != nil {
		return fmt.Errorf("tool %s: output schema: %w", tool.Name, err)
	}
	tool.RawInputSchema, tool.RawOutputSchema = inRaw, outRaw
	srv.AddTool(tool, func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		args, err := apply(req.Params.Arguments, in, false)
		if err != nil {
			return mcp.NewToolResultError(fmt.Sprintf("validating \"arguments\": %v", err)), nil
		}
		var input In
		if err := json.Unmarshal(args, &input); err != nil {
			return mcp.NewToolResultError(err.Error()), nil
		}
		res, output, err := h(ctx, req, input)
		switch {
		case err != nil:
			return mcp.NewToolResultError(err.Error()), nil
		case res != nil && res.NeedsInput():
			return res, nil
		case res == nil:
			res = &mcp.CallToolResult{}
		}
		value, err := apply(output, out, true)
		if err != nil {
			return nil, fmt.Errorf("validating tool output: %w", err)
		}
		res.StructuredContent, res.RawStructuredContent = json.RawMessage(value), value
		if res.Content == nil {
			res.Content = []mcp.Content{mcp.NewTextContent(string(value))}
		}
		return res, nil
	})
	return nil
}

// schemaOf returns the resolved schema and its JSON: given, or inferred from T.
func schemaOf[T any](given *jsonschema.Schema) (*jsonschema.Resolved, json.RawMessage, error) {
	s := given
	if s == nil {
		var err error
		if s, err = jsonschema.For[T](&jsonschema.ForOptions{}); err != nil {
			return nil, nil, err
		}
	}
	resolved, err := s.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true})
	if err != nil {
		return nil, nil, err
	}
	raw, err := json.Marshal(s)
	return resolved, raw, err
}

// apply validates v against the schema with its defaults applied, and
// returns the JSON of the result: an object's keys come out in sorted
// order, as from the go-sdk.
func apply(v any, schema *jsonschema.Resolved, output bool) ([]byte, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var value any
	if !output {
		value = map[string]any{} // absent arguments are {}
	}
	if v != nil {
		if err := json.Unmarshal(data, &value); err != nil {
			return nil, err
		}
	}
	if _, isObject := value.(map[string]any); isObject {
		if err := schema.ApplyDefaults(&value); err != nil {
			return nil, fmt.Errorf("applying schema defaults: %w", err)
		}
	}
	if err := schema.Validate(&value); err != nil {
		return nil, err
	}
	return json.Marshal(value)
}
