// Package matrix runs one tool call against an MCP server once per client
// profile and reports, side by side, what each profile got: the rendering,
// its size in bytes and estimated tokens, whether structuredContent validates
// against the tool's output schema, and whether the server elicited.
//
// It is the engine of cmd/profile-matrix. A profile is a name and the feature
// tags a client declares under
// capabilities.extensions["io.modelcontextprotocol/content-negotiation"]
// (nil tags: the client does not declare the extension). [Run] connects a new
// go-sdk client per profile through a [Dial] function, so the command uses
// stdio or streamable HTTP and tests use in-memory transports.
//
// Token estimates use the o200k_base encoding of
// github.com/tiktoken-go/tokenizer, whose vocabulary is compiled into the
// binary: counting never touches the network. Run never elicits on anyone's
// behalf (it declines every request) and never starts a server again once
// the first profile could not reach it.
package matrix
