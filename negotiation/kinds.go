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
