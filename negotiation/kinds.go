package negotiation

// Audience is who reads the results: an agent, a person, or unknown. The
// zero Audience is unknown: the client declared neither "agent" nor
// "human", or both.
type Audience uint8

const (
	// Agent: the client declared "agent".
	Agent Audience = iota + 1
	// Human: the client declared "human".
	Human
)

// audienceUnknown is the zero Audience.
const audienceUnknown Audience = 0

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

// tristate is what a client said of a flag: nothing, the flag
// ("interactive") or its negation ("!interactive").
type tristate uint8

const (
	unknown tristate = iota
	yes
	no
)

// String returns "unknown", "yes" or "no".
func (t tristate) String() string {
	switch t {
	case yes:
		return "yes"
	case no:
		return "no"
	default:
		return "unknown"
	}
}
