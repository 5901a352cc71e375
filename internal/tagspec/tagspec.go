// Package tagspec holds what the core's packages share about the v1.0
// feature-tag registry and its diagnostics, and a user never names: the
// registry's spellings (featuretags parses them, format and negotiation
// read them) and the numbers of the problems a featuretags.Diagnostic
// reports (featuretags for the tags, negotiation for the settings object
// around them). A user reads a problem through featuretags.Problem's
// String and Malformed methods.
package tagspec

// The names of the v1.0 tag registry.
const (
	Agent       = "agent"       // the client is an AI agent
	Human       = "human"       // a person reads the results
	Interactive = "interactive" // the client can present UI to a person
	MCPCapable  = "mcp-capable" // the client understands MCP tool and resource names
	Sampling    = "sampling"    // the client samples; it wants reasoning hints
	Elicitation = "elicitation" // the client claims the elicitation capability
	Roots       = "roots"       // the client claims the roots capability
	Tasks       = "tasks"       // the client claims the tasks capability
	Format      = "format"      // key: json, text, markdown, toon or html
	Verbosity   = "verbosity"   // key: compact, standard or verbose
)

// The values the registry keys take.
const (
	JSON     = "json"
	Text     = "text"
	Markdown = "markdown"
	TOON     = "toon" // Token-Oriented Object Notation, text/toon
	HTML     = "html" // the markdown rendering as HTML, text/html
	Compact  = "compact"
	Standard = "standard"
	Verbose  = "verbose"
)

// The problems a featuretags.Diagnostic reports, untyped so that they are
// featuretags.Problem values wherever one is expected. NotAnObject,
// MissingVersion, BadVersion and UnsupportedVersion concern the settings
// object around the tags: package featuretags never reports them, package
// negotiation does, so that one extension has one kind of diagnostic.
// featuretags' problem texts and Problem.Malformed are indexed by them.
const (
	// Trimmed: surrounding ASCII white space was removed; the tag was used.
	Trimmed = iota + 1
	// Invalid: the tag does not match the grammar; it was ignored.
	Invalid
	// TooLong: the tag is longer than 128 bytes; it was ignored.
	TooLong
	// TooMany: more than 64 tags; this one and every later one were ignored.
	TooMany
	// NotAString: an element of the features array is not a string; it was ignored.
	NotAString
	// NotAList: the features value is neither an array nor a string; no
	// tag was read.
	NotAList
	// Contradiction: a tag and its negation (or key=v and key!=v) were both
	// given; the negation wins and the tag was dropped.
	Contradiction
	// ConflictingValue: a registry key got a second, different value; the
	// first valid value wins and this one was dropped.
	ConflictingValue
	// UnknownValue: a registry key got a value the registry does not list; it was ignored.
	UnknownValue
	// WrongForm: a registry name was used in a form it does not take
	// ("agent=yes", "!format"); it was ignored.
	WrongForm
	// BothAudiences: "agent" and "human" were both given; the audience is unknown.
	BothAudiences
	// NotAnObject: the extension settings are not an object; the extension
	// counts as declared, with no tag read, and malformed.
	NotAnObject
	// MissingVersion: the settings have no version; "1.0" is assumed.
	MissingVersion
	// BadVersion: the version is not a version string; the extension counts
	// as declared, with no tag read, and malformed.
	BadVersion
	// UnsupportedVersion: the major version is not 1; the extension counts as
	// not declared.
	UnsupportedVersion
	// CommaList: the features value is one string, not an array; it was
	// read as a comma-separated list ("human, !interactive"), the syntax
	// operators use for default tags. The indexes of the other diagnostics
	// are then positions in that list.
	CommaList
)

// JSONType names the JSON type of a value as encoding/json decodes it
// ("null", "string", "boolean", "number", "array", "object"), or "other". It
// is what diagnostics put in their Detail.
func JSONType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case bool:
		return "boolean"
	case float64, float32, int, int64, int32, uint, uint64, uint32:
		return "number"
	case []any, []string:
		return "array"
	case map[string]any:
		return "object"
	default:
		return "other"
	}
}
