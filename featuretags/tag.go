package featuretags

// Op is the form of a tag: presence, negation, equality or inequality.
type Op uint8

const (
	// Presence is a bare name: "agent".
	Presence Op = iota
	// Negation is a name preceded by "!": "!interactive".
	Negation
	// Equality is name "=" value: "format=json".
	Equality
	// Inequality is name "!=" value: "format!=markdown".
	Inequality
)

// String returns the name of the form, such as "presence".
func (o Op) String() string {
	switch o {
	case Presence:
		return "presence"
	case Negation:
		return "negation"
	case Equality:
		return "equality"
	case Inequality:
		return "inequality"
	default:
		return "unknown"
	}
}

// Tag is one valid feature tag. Name is always in lower case; Value is empty
// for [Presence] and [Negation] and is in lower case for the registry keys
// ("format", "verbosity").
type Tag struct {
	Name  string
	Value string
	Op    Op
}

// String returns the tag in its canonical written form, such as "format!=markdown".
func (t Tag) String() string {
	switch t.Op {
	case Negation:
		return "!" + t.Name
	case Equality:
		return t.Name + "=" + t.Value
	case Inequality:
		return t.Name + "!=" + t.Value
	default:
		return t.Name
	}
}
