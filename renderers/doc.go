// Package renderers turns one JSON value into markdown or plain text, at compact, standard or verbose
// verbosity; it never decides which rendering a client gets and never imports an MCP SDK.
//
// [Generic] renders any value: objects as lists of fields, uniform arrays of objects as tables,
// nesting as sections (markdown) or indentation (text). [NewTemplate] builds a per-tool [Renderer]
// from text/template markdown and a gjson projection for compact text. Field order follows the
// output [Schema] when one is given, else the order of the raw JSON bytes, and numbers are written
// exactly as their JSON text.
//
// Markdown output escapes every value taken from the data (keys included) with [EscapeMarkdown], so
// data can never add structure; [CheckMarkdown] is the parse check the tests and fuzzers apply to it.
// Text output holds no markup: a value that would start a line with block syntax is quoted, and
// inline characters such as '*' are kept verbatim (text is for terminals; data is shown as it is).
// [PlainText] converts a markdown-only handler result for text clients; [CheckPlain] checks text.
//
// The layouts are described, with examples, in docs/renderers.md.
package renderers
