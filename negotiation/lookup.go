package negotiation

// origin says where a client's settings were found.
type origin uint8

const (
	// notFound: the client did not declare the extension.
	notFound origin = iota
	// inExtensions: capabilities.extensions[ExtensionID], the standard place.
	inExtensions
	// inExperimental: capabilities.experimental[ExtensionID], accepted only
	// when extensions has no such key, because some published snippets put
	// the settings there.
	inExperimental
)

// String returns "not found", "extensions" or "experimental".
func (o origin) String() string {
	switch o {
	case inExtensions:
		return "extensions"
	case inExperimental:
		return "experimental"
	default:
		return "not found"
	}
}

// lookup finds the extension's settings in a client's capability maps:
// extensions first, experimental only when extensions has no such key.
func lookup(extensions, experimental map[string]any) (settings any, from origin) {
	if s, ok := extensions[ExtensionID]; ok {
		return s, inExtensions
	}
	if s, ok := experimental[ExtensionID]; ok {
		return s, inExperimental
	}
	return nil, notFound
}
