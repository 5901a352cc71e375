// Package renderers turns one JSON value into markdown or plain text, at compact, standard or verbose
// verbosity, or into TOON or HTML; it never decides which rendering a client gets and never imports
// an MCP SDK. A server author meets it when a tool needs a rendering of its own:
//
//	r, err := renderers.NewTemplate(renderers.TemplateSpec{
//		Markdown: map[format.Verbosity]string{format.Standard: "**{{.city}}**: {{.sky}}"},
//	})
//
// and registers r for the tool (shaping.Tool's Renderer), or writes a [Renderer] of a media type
// of its own ([Func] adapts a function). Package shaping chooses the rendering and calls the
// renderer with [Options] it fills in from the profile and the tool's output schema.
//
// [Generic] renders any value. Markdown is for people: objects as lists of labelled fields (labels
// from the output [Schema]: a property's title, else its name made readable, with or without a
// schema), units and percentages where the schema or [Options] say so, uniform arrays of objects
// as tables at any depth while their cells are short lines (else records as list items with a
// field per line), nested objects as sections, text with line breaks as hard line breaks
// (preformatted text as a code block), and null as "none", [] as "empty list", {} as "empty
// object" and "" as `""`. Text holds no markup: readable
// "key: value" lines and aligned tables at standard; at compact, logfmt-style "key=value" lines and
// header-once tables, never longer than the minified JSON and lossless: docs/renderers.md gives
// its grammar, and every generic compact text reads back to exactly the value. [NewTemplate]
// builds a per-tool [Renderer] from text/template markdown and a gjson projection for compact
// text. Generic's TOON is a conforming TOON 4.0 encoding (text/toon, the toon package): the value
// exactly, which any TOON 4 decoder reads back. Field order follows the output schema when one is given, else the order
// of the raw JSON bytes, and numbers are written exactly as their JSON text (in TOON, in its
// canonical form of the same value). Work is linear in the size of the value.
//
// Markdown output escapes every value taken from the data (keys included) with [EscapeMarkdown], so
// data can never add structure (an address may be autolinked, its text the address), and only
// what would be read as markup where it stands, so data reads as written; [CheckMarkdown] is the parse check the tests and fuzzers apply to it
// (a server's tests can apply it to their templates' output).
// Text output is verbatim: a value that would start a line with block syntax, that holds its
// place's delimiter, '"' or '=', or that would read as a number, boolean, null or JSON text, is
// quoted, and inline characters such as '*' are kept as they are.
// [PlainText] converts a markdown-only handler result for text clients; [CheckPlain] checks text.
//
// The layouts are described, with examples, in docs/renderers.md.
package renderers
