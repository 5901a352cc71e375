// Command conformance-server is the MCP server that the official MCP
// conformance suite (@modelcontextprotocol/conformance) tests: it has the
// tools, resources and prompts, with the fixed names, that the suite's
// server scenarios call, written on the official Go SDK.
//
//	conformance-server -http 127.0.0.1:0              stateful streamable HTTP at /mcp
//	conformance-server -http 127.0.0.1:0 -stateless   stateless streamable HTTP
//	conformance-server ... -contentneg                with middleware.Install(server, nil)
//
// The line "serving MCP at URL" on stderr says where it listens. With
// -contentneg the content-negotiation middleware is installed with its
// defaults; the suite's client declares no extension, so everything it gets
// must be what the plain server gives (pass-through). The Go test of this
// package runs the suite against both and compares the scenarios that pass.
//
// It is a test fixture, not an example of a good server: its handlers do
// exactly what the scenarios check and nothing else.
package main

import (
	"context"
	"encoding/base64"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/contentneg/contentneg/middleware"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stderr))
}

// run serves until ctx ends; it returns the exit code.
func run(ctx context.Context, args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("conformance-server", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("http", "127.0.0.1:0", "listen `address` for streamable HTTP (path /mcp)")
	var cfg config
	fs.BoolVar(&cfg.stateless, "stateless", false, "serve stateless streamable HTTP (no sessions)")
	fs.BoolVar(&cfg.contentneg, "contentneg", false, "install the content-negotiation middleware with its defaults")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "conformance-server: unexpected arguments %q\n", fs.Args())
		return 2
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(stderr, "conformance-server: %v\n", err)
		return 1
	}
	fmt.Fprintf(stderr, "conformance-server: serving MCP (%s) at http://%s/mcp\n", cfg, ln.Addr())
	if err := serve(ctx, ln, cfg); err != nil {
		fmt.Fprintf(stderr, "conformance-server: %v\n", err)
		return 1
	}
	return 0
}

// config is how the server is served.
type config struct {
	// stateless serves stateless streamable HTTP; otherwise each client
	// gets a session.
	stateless bool
	// contentneg installs the content-negotiation middleware.
	contentneg bool
}

func (c config) String() string {
	s := "stateful"
	if c.stateless {
		s = "stateless"
	}
	if c.contentneg {
		return s + ", with content negotiation"
	}
	return s + ", plain"
}

// serve serves the conformance server on ln at /mcp until ctx ends, then
// shuts down, closing ln. Its error is the server's, never ctx's.
func serve(ctx context.Context, ln net.Listener, cfg config) error {
	server := newServer()
	if cfg.contentneg {
		middleware.Install(server, nil)
	}
	opts := &mcp.StreamableHTTPOptions{Stateless: cfg.stateless}
	if !cfg.stateless {
		// Resumable event streams (bounded to the store's default size), for
		// server-sse-polling.
		opts.EventStore = mcp.NewMemoryEventStore(nil)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, opts))
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}

	updates, stopUpdates := context.WithCancel(ctx)
	defer stopUpdates()
	announced := make(chan struct{})
	go func() {
		defer close(announced)
		announceUpdates(updates, server)
	}()
	defer func() { stopUpdates(); <-announced }()

	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	select {
	case err := <-served:
		return fmt.Errorf("serve http: %w", err)
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if err := hs.Shutdown(shutdown); err != nil {
		_ = hs.Close() // open event streams do not end by themselves
	}
	<-served
	return nil
}

// The URIs and data the scenarios look for.
const (
	watchedURI = "test://watched-resource"
	// pngBase64 is a 1x1 PNG; wavBase64 a WAV file of silence.
	pngBase64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="
	wavBase64 = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA="
)

func decoded(s string) []byte {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		panic(fmt.Sprintf("conformance-server: bad base64 constant: %v", err)) // a programming error, caught by every run
	}
	return b
}

var (
	png = decoded(pngBase64)
	wav = decoded(wavBase64)
)

// announceUpdates tells subscribers that test://watched-resource changed,
// every 3 seconds, until ctx ends.
func announceUpdates(ctx context.Context, s *mcp.Server) {
	tick := time.NewTicker(3 * time.Second)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			_ = s.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: watchedURI})
		}
	}
}

// newServer returns the server with every tool, resource and prompt the
// scenarios use, and the completion, logging and subscription capabilities.
func newServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "contentneg-conformance-server", Version: "1.0.0"}, &mcp.ServerOptions{
		CompletionHandler: func(context.Context, *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
			return &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: []string{}}}, nil
		},
		SubscribeHandler:   func(context.Context, *mcp.SubscribeRequest) error { return nil },
		UnsubscribeHandler: func(context.Context, *mcp.UnsubscribeRequest) error { return nil },
	})
	addTools(s)
	addStatelessTools(s)
	addResources(s)
	addPrompts(s)
	return s
}

// none is the input of tools without arguments.
type none struct{}

func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

func addTools(s *mcp.Server) {
	simple := func(name, desc string, result func() *mcp.CallToolResult) {
		mcp.AddTool(s, &mcp.Tool{Name: name, Description: desc}, func(context.Context, *mcp.CallToolRequest, none) (*mcp.CallToolResult, any, error) {
			return result(), nil, nil
		})
	}
	simple("test_simple_text", "Answers with one text block.", func() *mcp.CallToolResult {
		return text("This is a simple text response for testing.")
	})
	simple("test_image_content", "Answers with one PNG image.", func() *mcp.CallToolResult {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.ImageContent{Data: png, MIMEType: "image/png"}}}
	})
	simple("test_audio_content", "Answers with one WAV clip.", func() *mcp.CallToolResult {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.AudioContent{Data: wav, MIMEType: "audio/wav"}}}
	})
	simple("test_embedded_resource", "Answers with an embedded text resource.", func() *mcp.CallToolResult {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{
			URI: "test://embedded-resource", MIMEType: "text/plain", Text: "This is an embedded resource content.",
		}}}}
	})
	simple("test_multiple_content_types", "Answers with text, an image and an embedded resource.", func() *mcp.CallToolResult {
		return &mcp.CallToolResult{Content: []mcp.Content{
			&mcp.TextContent{Text: "Multiple content types test:"},
			&mcp.ImageContent{Data: png, MIMEType: "image/png"},
			&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{
				URI: "test://mixed-content-resource", MIMEType: "application/json", Text: `{"test":"data","value":123}`,
			}},
		}}
	})
	mcp.AddTool(s, &mcp.Tool{Name: "test_error_handling", Description: "Always fails with a tool error."},
		func(context.Context, *mcp.CallToolRequest, none) (*mcp.CallToolResult, any, error) {
			return nil, nil, errors.New("this tool intentionally returns an error for testing")
		})
	mcp.AddTool(s, &mcp.Tool{Name: "test_tool_with_logging", Description: "Sends three log messages, then answers."},
		func(ctx context.Context, req *mcp.CallToolRequest, _ none) (*mcp.CallToolResult, any, error) {
			for _, msg := range []string{"Tool execution started", "Tool processing data", "Tool execution completed"} {
				if err := req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: "info", Data: msg}); err != nil {
					return nil, nil, fmt.Errorf("log %q: %w", msg, err)
				}
				time.Sleep(50 * time.Millisecond) // the scenario wants them spread out
			}
			return text("Tool with logging executed successfully"), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "test_tool_with_progress", Description: "Reports progress 0, 50 and 100 of 100, then answers with the progress token."},
		func(ctx context.Context, req *mcp.CallToolRequest, _ none) (*mcp.CallToolResult, any, error) {
			token := req.Params.GetProgressToken()
			if token != nil {
				for _, p := range []float64{0, 50, 100} {
					if err := req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: token, Progress: p, Total: 100}); err != nil {
						return nil, nil, fmt.Errorf("progress %g: %w", p, err)
					}
					time.Sleep(50 * time.Millisecond)
				}
			}
			return text(fmt.Sprint(token)), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "test_sampling", Description: "Asks the client's model to complete the prompt."},
		func(ctx context.Context, req *mcp.CallToolRequest, in struct {
			Prompt string `json:"prompt" jsonschema:"the prompt to send to the model"`
		}) (*mcp.CallToolResult, any, error) {
			res, err := req.Session.CreateMessage(ctx, &mcp.CreateMessageParams{
				Messages:  []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: in.Prompt}}},
				MaxTokens: 100,
			})
			if err != nil {
				return nil, nil, fmt.Errorf("sampling: %w", err)
			}
			answer := "(not text)"
			if t, ok := res.Content.(*mcp.TextContent); ok {
				answer = t.Text
			}
			return text("LLM response: " + answer), nil, nil
		})
	elicit := func(name, desc string, schema func(any) any) {
		type input struct {
			Message string `json:"message,omitempty" jsonschema:"the message to show the user"`
		}
		mcp.AddTool(s, &mcp.Tool{Name: name, Description: desc}, func(ctx context.Context, req *mcp.CallToolRequest, in input) (*mcp.CallToolResult, any, error) {
			msg := in.Message
			if msg == "" {
				msg = desc
			}
			res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Message: msg, RequestedSchema: schema(nil)})
			if err != nil {
				return nil, nil, fmt.Errorf("elicitation: %w", err)
			}
			return text(fmt.Sprintf("User response: action=%s, content=%v", res.Action, res.Content)), nil, nil
		})
	}
	elicit("test_elicitation", "Asks the user for a username.", func(any) any {
		return &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{
			"username": {Type: "string", Description: "your preferred username"},
			"email":    {Type: "string", Description: "your email address"},
		}, Required: []string{"username", "email"}}
	})
	elicit("test_elicitation_sep1034_defaults", "Asks with a default for each primitive type (SEP-1034).", func(any) any {
		return map[string]any{"type": "object", "properties": map[string]any{
			"name":     map[string]any{"type": "string", "description": "User name", "default": "John Doe"},
			"age":      map[string]any{"type": "integer", "description": "User age", "default": 30},
			"score":    map[string]any{"type": "number", "description": "User score", "default": 95.5},
			"status":   map[string]any{"type": "string", "description": "User status", "enum": []string{"active", "inactive", "pending"}, "default": "active"},
			"verified": map[string]any{"type": "boolean", "description": "Verification status", "default": true},
		}}
	})
	elicit("test_elicitation_sep1330_enums", "Asks with each kind of enum (SEP-1330).", func(any) any {
		options := []map[string]any{
			{"const": "value1", "title": "First Option"},
			{"const": "value2", "title": "Second Option"},
			{"const": "value3", "title": "Third Option"},
		}
		return map[string]any{"type": "object", "properties": map[string]any{
			"untitledSingle": map[string]any{"type": "string", "enum": []string{"option1", "option2", "option3"}},
			"titledSingle":   map[string]any{"type": "string", "oneOf": options},
			"legacyEnum":     map[string]any{"type": "string", "enum": []string{"opt1", "opt2", "opt3"}, "enumNames": []string{"Option One", "Option Two", "Option Three"}},
			"untitledMulti":  map[string]any{"type": "array", "minItems": 1, "maxItems": 3, "items": map[string]any{"type": "string", "enum": []string{"option1", "option2", "option3"}}},
			"titledMulti":    map[string]any{"type": "array", "minItems": 1, "maxItems": 3, "items": map[string]any{"anyOf": options}},
		}}
	})
	mcp.AddTool(s, &mcp.Tool{
		Name:        "json_schema_2020_12_tool",
		Description: "Has an input schema that uses JSON Schema 2020-12: $schema, $defs, $anchor, allOf, anyOf, if/then/else, additionalProperties (SEP-1613, SEP-2106).",
		InputSchema: map[string]any{
			"$schema": "https://json-schema.org/draft/2020-12/schema",
			"type":    "object",
			"$defs": map[string]any{"address": map[string]any{
				"$anchor":    "addressDef",
				"type":       "object",
				"properties": map[string]any{"street": map[string]any{"type": "string"}, "city": map[string]any{"type": "string"}},
			}},
			"properties": map[string]any{
				"name":          map[string]any{"type": "string"},
				"address":       map[string]any{"$ref": "#/$defs/address"},
				"contactMethod": map[string]any{"type": "string", "enum": []string{"phone", "email"}},
				"phone":         map[string]any{"type": "string"},
				"email":         map[string]any{"type": "string"},
			},
			"allOf": []any{map[string]any{"anyOf": []any{
				map[string]any{"required": []string{"phone"}},
				map[string]any{"required": []string{"email"}},
			}}},
			"if": map[string]any{
				"properties": map[string]any{"contactMethod": map[string]any{"const": "phone"}},
				"required":   []string{"contactMethod"},
			},
			"then":                 map[string]any{"required": []string{"phone"}},
			"else":                 map[string]any{"required": []string{"email"}},
			"additionalProperties": false,
		},
	}, func(_ context.Context, _ *mcp.CallToolRequest, in map[string]any) (*mcp.CallToolResult, any, error) {
		return text(fmt.Sprintf("called with %v", in)), nil, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "test_reconnection", Description: "Closes the event stream of the call, then answers (SEP-1699)."},
		func(ctx context.Context, req *mcp.CallToolRequest, _ none) (*mcp.CallToolResult, any, error) {
			if req.Extra != nil && req.Extra.CloseSSEStream != nil {
				req.Extra.CloseSSEStream(mcp.CloseSSEStreamArgs{RetryAfter: 10 * time.Millisecond})
			}
			select {
			case <-time.After(100 * time.Millisecond): // let the client reconnect
			case <-ctx.Done():
				return nil, nil, ctx.Err()
			}
			return text("Reconnection test completed successfully."), nil, nil
		})
}

func addResources(s *mcp.Server) {
	s.AddResource(&mcp.Resource{URI: "test://static-text", Name: "static-text", Description: "A static text resource.", MIMEType: "text/plain"},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{
				URI: req.Params.URI, MIMEType: "text/plain", Text: "This is the content of the static text resource.",
			}}}, nil
		})
	s.AddResource(&mcp.Resource{URI: "test://static-binary", Name: "static-binary", Description: "A static PNG image.", MIMEType: "image/png"},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "image/png", Blob: png}}}, nil
		})
	s.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: "test://template/{id}/data", Name: "template", Description: "JSON data by id.", MIMEType: "application/json"},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			uri := req.Params.URI
			id, ok := strings.CutPrefix(uri, "test://template/")
			if id, ok = strings.CutSuffix(id, "/data"); !ok || id == "" || strings.Contains(id, "/") {
				return nil, mcp.ResourceNotFoundError(uri)
			}
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{
				URI: uri, MIMEType: "application/json",
				Text: fmt.Sprintf(`{"id":%q,"templateTest":true,"data":"Data for ID: %s"}`, id, strings.ReplaceAll(id, `"`, `\"`)),
			}}}, nil
		})
	s.AddResource(&mcp.Resource{URI: watchedURI, Name: "watched-resource", Description: "A resource announced as updated every 3 seconds.", MIMEType: "text/plain"},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "text/plain", Text: "Watched resource content"}}}, nil
		})
}

func addPrompts(s *mcp.Server) {
	user := func(c mcp.Content) *mcp.PromptMessage { return &mcp.PromptMessage{Role: "user", Content: c} }
	s.AddPrompt(&mcp.Prompt{Name: "test_simple_prompt", Description: "A prompt without arguments."},
		func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{user(&mcp.TextContent{Text: "This is a simple prompt for testing."})}}, nil
		})
	s.AddPrompt(&mcp.Prompt{Name: "test_prompt_with_arguments", Description: "A prompt with two required arguments.", Arguments: []*mcp.PromptArgument{
		{Name: "arg1", Description: "First test argument", Required: true},
		{Name: "arg2", Description: "Second test argument", Required: true},
	}}, func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		a := req.Params.Arguments
		return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{user(&mcp.TextContent{
			Text: fmt.Sprintf("Prompt with arguments: arg1='%s', arg2='%s'", a["arg1"], a["arg2"]),
		})}}, nil
	})
	s.AddPrompt(&mcp.Prompt{Name: "test_prompt_with_embedded_resource", Description: "A prompt holding an embedded resource.", Arguments: []*mcp.PromptArgument{
		{Name: "resourceUri", Description: "URI of the resource to embed", Required: true},
	}}, func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{
			user(&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{
				URI: req.Params.Arguments["resourceUri"], MIMEType: "text/plain", Text: "Embedded resource content for testing.",
			}}),
			user(&mcp.TextContent{Text: "Please process the embedded resource above."}),
		}}, nil
	})
	s.AddPrompt(&mcp.Prompt{Name: "test_prompt_with_image", Description: "A prompt holding an image."},
		func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{
				user(&mcp.ImageContent{Data: png, MIMEType: "image/png"}),
				user(&mcp.TextContent{Text: "Please analyze the image above."}),
			}}, nil
		})
}
