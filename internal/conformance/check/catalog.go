package check

// Level is the requirement level of a check, as in RFC 2119.
type Level string

// The levels.
const (
	Must   Level = "MUST"
	Should Level = "SHOULD"
)

// Check describes one check: what it asks of the server and where the
// contract says so.
type Check struct {
	// Name identifies the check, such as "lists/tools".
	Name string `json:"name"`
	// Clause is where SPEC.md says it.
	Clause string `json:"clause"`
	// Level is MUST or SHOULD.
	Level Level `json:"level"`
	// Says is the requirement, in one sentence.
	Says string `json:"says"`
}

// Catalog lists every check, in the order of the report.
func Catalog() []Check {
	return []Check{
		{"advertised", "§1 (where the server advertises)", Must,
			"the server advertises the extension: capabilities.extensions[ID] in the initialize result (legacy era) and the server/discover result (stateless era)"},
		{"pass-through/invalid-tags", "§2 (invalid tags are ignored), §4 (no usable preference: pass-through)", Must,
			"a client that declares only invalid tags gets the tool result byte for byte as an undeclared client does"},
		{"pass-through/no-preference", "§4 (no usable preference: pass-through)", Must,
			"a client that declares no features, or only unknown ones, gets the result byte for byte as an undeclared client does"},
		{"pass-through/unknown-version", "§3 (a major version other than 1 is not declared)", Must,
			"a client that declares version 2.0 gets the result byte for byte as an undeclared client does"},
		{"lists/tools", "§3 (tags never change what exists)", Must,
			"tools/list is byte for byte the same for every profile"},
		{"lists/resources", "§3 (tags never change what exists)", Must,
			"resources/list is byte for byte the same for every profile"},
		{"lists/prompts", "§3 (tags never change what exists)", Must,
			"prompts/list is byte for byte the same for every profile"},
		{"structured/value", "§4 (format=json, agent: structured), §5 (structured)", Must,
			"a structured rendering has structuredContent equal to the result's canonical value"},
		{"structured/no-mirror", "§5 (structured, format=json: no text mirror)", Should,
			"a client that asked for format=json gets no text block repeating the JSON"},
		{"structured/mirror", "§5 (structured by audience: the backwards-compatibility mirror)", Should,
			"a client that said only agent gets one text block holding the value's JSON"},
		{"rendering/applied", "§4 (choosing the rendering)", Must,
			"a markdown, text or TOON client gets a rendering, not the value's JSON"},
		{"markdown/one-block", "§5 (markdown: one text block)", Must,
			"a markdown rendering is one text block (besides hints and non-text blocks)"},
		{"markdown/no-raw-html", "§5 (markdown rules: parses with goldmark GFM, no raw HTML)", Must,
			"markdown holds no raw HTML, block or inline, as goldmark with GFM parses it"},
		{"text/one-block", "§5 (text: one text block)", Must,
			"a text rendering is one text block (besides hints and non-text blocks)"},
		{"toon/one-block", "§4 (toon: text/toon), §5 (one text block)", Must,
			"a TOON rendering is one text block (besides hints and non-text blocks)"},
		{"text/no-markup", "§5 (text: no markup of the renderer's own)", Must,
			"text holds no markdown markup (headings, emphasis, code, lists, quotes, links, HTML, tables) outside the data's own strings"},
		{"structured-content/kept", "§5 (markdown, text: structuredContent stays when the tool declares an outputSchema)", Must,
			"when the tool has an outputSchema, markdown, text and TOON renderings keep structuredContent, equal to the value"},
		{"structured-content/omitted", "§5 (markdown, text: otherwise structuredContent is omitted)", Should,
			"when the tool has no outputSchema, markdown, text and TOON renderings carry no structuredContent"},
		{"non-text/kept", "§5 (non-text blocks stay)", Must,
			"the result's images, audio and embedded resources stay in every rendering"},
		{"errors/unchanged", "§5 (error results are unchanged in every rendering)", Must,
			"an isError result reaches every profile byte for byte as an undeclared client gets it"},
		{"no-canonical/unchanged", "§5 (results without a canonical value are unchanged)", Should,
			"a result with no canonical value reaches every profile unchanged"},
		{"hints/only-for-sampling", "§5 (hints: only when the profile wants hints)", Must,
			"a client without the sampling tag gets no hint block (a text block for the assistant only)"},
		{"hints/assistant-only", "§5 (hints: annotated audience [\"assistant\"])", Must,
			"every text block after the rendering is a hint annotated audience [\"assistant\"]"},
		{"gate/no-elicitation", "§6 (declared and not interactive: MUST NOT send elicitation/create)", Must,
			"a !interactive client gets no elicitation/create request"},
		{"gate/no-input-requests", "§6 (declared and not interactive: MUST NOT return inputRequests)", Must,
			"no tools/call result to a !interactive client carries inputRequests"},
		{"default/declared-untouched", "§1 (resolution step 4: default tags only for clients that declare nothing)", Must,
			"when the server applies default tags, a client that declared the extension without a usable preference still gets the handler's result, byte for byte"},
		{"format-argument/applied", "§1 (the per-call format argument)", Must,
			"when the tool advertises the format argument, an undeclared client that sets it to markdown gets a rendering, and to json one text block holding the value's JSON"},
		{"format-argument/unknown-value", "§1 (the per-call format argument: a value the server cannot render)", Must,
			"a value of the format argument that is not a format name is a tool error naming the choices"},
		{"gate/no-error-without-capability", "§6 (a declared client without the capability gets a local decline, never an error)", Must,
			"a declared client without the elicitation capability gets a result where an undeclared client does"},
	}
}

// catalogByName indexes Catalog.
func catalogByName() map[string]Check {
	m := make(map[string]Check)
	for _, c := range Catalog() {
		m[c.Name] = c
	}
	return m
}
