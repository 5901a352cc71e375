package rest

import (
	"context"
	"encoding/json"
	"errors"
	"time"
)

// ErrNotFound is what a [Backend] wraps when the tool, resource or prompt
// asked for does not exist; the handler answers 404 NOT_FOUND.
var ErrNotFound = errors.New("not found")

// ErrInvalidArguments is what a [Backend] wraps when the server refused a
// request's arguments (a JSON-RPC "invalid params" error); the handler
// answers 400 INVALID_PARAMETER with the error's text.
var ErrInvalidArguments = errors.New("invalid arguments")

// ErrUnavailable is what a [Backend] wraps when it cannot reach the server
// for now (its session ended); the handler answers 503 UNAVAILABLE, and
// the client may try again.
var ErrUnavailable = errors.New("server unavailable")

// Backend is the REST binding's view of one MCP server, free of any SDK's
// types. Every method that returns a rendering takes the feature tags the
// request declares for the content-negotiation extension (for example
// ["format=markdown", "!interactive"]): the backend declares them, and no
// elicitation capability, to the server, whose middleware renders and gates
// as it does for any MCP client. Implementations must be safe for
// concurrent use and return when ctx is done.
type Backend interface {
	// Server describes the server: its identity, capabilities and
	// instructions.
	Server(ctx context.Context) (*Server, error)
	// Tools lists every tool, all pages.
	Tools(ctx context.Context) ([]Tool, error)
	// Resources lists every resource, all pages.
	Resources(ctx context.Context) ([]Resource, error)
	// ResourceTemplates lists every resource template, all pages.
	ResourceTemplates(ctx context.Context) ([]ResourceTemplate, error)
	// Prompts lists every prompt, all pages.
	Prompts(ctx context.Context) ([]Prompt, error)
	// CallTool calls the named tool with arguments (a JSON object).
	CallTool(ctx context.Context, name string, arguments json.RawMessage, features []string) (*ToolResult, error)
	// ReadResource reads the resource at uri; an unknown uri is an error
	// wrapping [ErrNotFound].
	ReadResource(ctx context.Context, uri string, features []string) ([]ResourceContent, error)
	// GetPrompt renders the named prompt with arguments.
	GetPrompt(ctx context.Context, name string, arguments map[string]string, features []string) (*PromptResult, error)
}

// Server is what GET /capabilities shows.
type Server struct {
	Name, Title, Version string
	// ProtocolVersion is the MCP version the backend speaks to the server.
	ProtocolVersion string
	// Capabilities is the server's capability object, as JSON.
	Capabilities json.RawMessage
	Instructions string
}

// Tool is one tool as the server lists it; the schemas and annotations are
// the server's JSON, passed on untouched.
type Tool struct {
	Name, Title, Description  string
	InputSchema, OutputSchema json.RawMessage
	Annotations               json.RawMessage
}

// Resource is one listed resource.
type Resource struct {
	URI, Name, Title, Description, MIMEType string
	// Size in bytes; nil when the server does not say.
	Size *int64
	// Annotations are the server's JSON, nil for none.
	Annotations json.RawMessage
	// LastModified is the annotations' lastModified; zero when unknown.
	LastModified time.Time
}

// ResourceTemplate is one listed resource template (RFC 6570).
type ResourceTemplate struct {
	URITemplate, Name, Title, Description, MIMEType string
}

// Prompt is one listed prompt.
type Prompt struct {
	Name, Title, Description string
	Arguments                []PromptArgument
}

// PromptArgument is one argument of a prompt.
type PromptArgument struct {
	Name, Title, Description string
	Required                 bool
}

// ToolResult is the outcome of a tool call, as rendered for the declared
// features.
type ToolResult struct {
	// Content is the result's content array, as JSON.
	Content json.RawMessage
	// Text is the text of the content's text blocks, joined by blank lines:
	// the rendering itself for markdown, text and further formats.
	Text string
	// Structured is structuredContent as JSON; nil when absent.
	Structured json.RawMessage
	// IsError says the tool reported an error (its message is Text).
	IsError bool
	// NeedsInput says the result asks the client for input (sampling,
	// roots) that a REST client cannot give.
	NeedsInput bool
}

// ResourceContent is one content of a resources/read result.
type ResourceContent struct {
	URI, MIMEType string
	// Text holds a text content; Blob a binary one (decoded).
	Text   string
	Blob   []byte
	IsBlob bool
}

// PromptResult is a rendered prompt.
type PromptResult struct {
	Description string
	// Messages is the messages array, as JSON.
	Messages json.RawMessage
	// Text is the text of the messages' text contents, joined by blank
	// lines.
	Text string
}
