package negotiation

// Origin says where a client's settings were found.
type Origin uint8

const (
	// NotFound: the client did not declare the extension.
	NotFound Origin = iota
	// InExtensions: capabilities.extensions[ExtensionID], the standard place.
	InExtensions
	// InExperimental: capabilities.experimental[ExtensionID], accepted only
	// when extensions has no such key, because some published snippets put
	// the settings there.
	InExperimental
)

// String returns "not found", "extensions" or "experimental".
func (o Origin) String() string {
	switch o {
	case InExtensions:
		return "extensions"
	case InExperimental:
		return "experimental"
	default:
		return "not found"
	}
}

// Lookup finds the extension's settings in a client's capability maps:
// extensions first, experimental only when extensions has no such key.
func Lookup(extensions, experimental map[string]any) (settings any, origin Origin) {
	if s, ok := extensions[ExtensionID]; ok {
		return s, InExtensions
	}
	if s, ok := experimental[ExtensionID]; ok {
		return s, InExperimental
	}
	return nil, NotFound
}
