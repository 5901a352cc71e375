package negotiation

// Audience is who reads the results: an agent, a person, or unknown.
type Audience uint8

const (
	// AudienceUnknown: neither "agent" nor "human", or both.
	AudienceUnknown Audience = iota
	// Agent: the client declared "agent".
	Agent
	// Human: the client declared "human".
	Human
)

// String returns "unknown", "agent" or "human".
func (a Audience) String() string {
	switch a {
	case Agent:
		return "agent"
	case Human:
		return "human"
	default:
		return "unknown"
	}
}

// Format is the output format a client asked for with "format=".
type Format uint8

const (
	// FormatUnset: no usable "format=" tag.
	FormatUnset Format = iota
	// FormatJSON: "format=json".
	FormatJSON
	// FormatText: "format=text".
	FormatText
	// FormatMarkdown: "format=markdown".
	FormatMarkdown
	// FormatCustom: a format the server registered ("format=csv"); see
	// [Profile.MediaType].
	FormatCustom
	// FormatTOON: "format=toon".
	FormatTOON
	// FormatHTML: "format=html".
	FormatHTML
)

// String returns "unset", "json", "text", "markdown", "custom", "toon" or
// "html".
func (f Format) String() string {
	switch f {
	case FormatJSON:
		return "json"
	case FormatText:
		return "text"
	case FormatMarkdown:
		return "markdown"
	case FormatCustom:
		return "custom"
	case FormatTOON:
		return "toon"
	case FormatHTML:
		return "html"
	default:
		return "unset"
	}
}

// Verbosity is how much a rendering says.
type Verbosity uint8

const (
	// VerbosityUnset: no usable "verbosity=" tag. Renderers treat it as Standard.
	VerbosityUnset Verbosity = iota
	// Compact drops explanatory text and empty fields.
	Compact
	// Standard is the default.
	Standard
	// Verbose adds field descriptions, units and hints.
	Verbose
)

// String returns "unset", "compact", "standard" or "verbose".
func (v Verbosity) String() string {
	switch v {
	case Compact:
		return "compact"
	case Standard:
		return "standard"
	case Verbose:
		return "verbose"
	default:
		return "unset"
	}
}

// OrStandard returns v, or Standard when v is unset.
func (v Verbosity) OrStandard() Verbosity {
	if v == VerbosityUnset {
		return Standard
	}
	return v
}

// Tristate is a yes/no answer that may be unknown.
type Tristate uint8

const (
	// Unknown: the client said nothing.
	Unknown Tristate = iota
	// Yes: the client said so ("interactive").
	Yes
	// No: the client denied it ("!interactive").
	No
)

// String returns "unknown", "yes" or "no".
func (t Tristate) String() string {
	switch t {
	case Yes:
		return "yes"
	case No:
		return "no"
	default:
		return "unknown"
	}
}

// Rendering is how a result is shaped for a client.
type Rendering uint8

const (
	// RenderingPassThrough: the handler's result, unchanged.
	RenderingPassThrough Rendering = iota
	// RenderingStructured: structuredContent, with its JSON mirrored in one text block.
	RenderingStructured
	// RenderingMarkdown: one markdown text block.
	RenderingMarkdown
	// RenderingText: one plain-text block with no markup at all.
	RenderingText
	// RenderingCustom: one text block of a media type the server registered
	// ([Profile.MediaType]), such as text/csv.
	RenderingCustom
	// RenderingTOON: one text block of TOON (text/toon), the value in
	// Token-Oriented Object Notation.
	RenderingTOON
	// RenderingHTML: one text block of HTML (text/html): the markdown rendering
	// converted by goldmark, every data value escaped, no HTML from data.
	RenderingHTML
)

// String returns "pass-through", "structured", "markdown", "text", "custom",
// "toon" or "html".
func (r Rendering) String() string {
	switch r {
	case RenderingStructured:
		return "structured"
	case RenderingMarkdown:
		return "markdown"
	case RenderingText:
		return "text"
	case RenderingCustom:
		return "custom"
	case RenderingTOON:
		return "toon"
	case RenderingHTML:
		return "html"
	default:
		return "pass-through"
	}
}

// format is the explicit format that asks for this rendering.
func (r Rendering) format() Format {
	switch r {
	case RenderingStructured:
		return FormatJSON
	case RenderingMarkdown:
		return FormatMarkdown
	case RenderingText:
		return FormatText
	case RenderingTOON:
		return FormatTOON
	case RenderingHTML:
		return FormatHTML
	default:
		return FormatUnset
	}
}
