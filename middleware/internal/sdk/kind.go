package sdk

// Kind is what the go-sdk front ends do with a request, by its method: the
// SDK hands every method to one middleware, which dispatches on it.
type Kind uint8

// The kinds of request.
const (
	// Other requests reach the handler through shaping.Serve, with the
	// profile in the context, and come back as they are.
	Other Kind = iota
	// ToolCall, ResourceRead and PromptGet are served by
	// shaping.ServeTool, shaping.ServeResource and shaping.ServePrompt.
	ToolCall
	ResourceRead
	PromptGet
	// Question is the elicitation/create a server sends (shaping.Send).
	Question
	// Handshake is initialize or server/discover: the extension is
	// advertised in the result.
	Handshake
)

// KindOf returns what the front end does with a request of method.
func KindOf(method string) Kind {
	switch method {
	case "tools/call":
		return ToolCall
	case "resources/read":
		return ResourceRead
	case "prompts/get":
		return PromptGet
	case "elicitation/create":
		return Question
	case "initialize", "server/discover":
		return Handshake
	}
	return Other
}
