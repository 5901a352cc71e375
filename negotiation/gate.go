package negotiation

// Refusal is the answer the elicitation gate gives in place of a client that
// cannot answer: the action of the elicitation result a handler receives.
type Refusal uint8

const (
	// Decline answers as if the person had declined (the default).
	Decline Refusal = iota
	// Cancel answers as if the person had dismissed the question.
	Cancel
)

// String returns the elicitation action: "decline" or "cancel".
func (r Refusal) String() string {
	if r == Cancel {
		return "cancel"
	}
	return "decline"
}

// The reasons [Profile.ElicitationGate] gives for closing the gate.
const (
	ReasonNotInteractive = "the client declared !interactive"
	ReasonNoCapability   = "the client has no elicitation capability"
	ReasonTooManyTags    = "the client's features run past the tag limit, read as !interactive"
	ReasonMalformed      = "the client's settings are malformed, read as !interactive"
)

// ElicitationGate reports whether an elicitation meant for this client must
// be answered locally, with a [Refusal], instead of being sent, and why
// (contract section 6). The gate is closed for a client that declared the
// extension and either lacks the real elicitation capability or declared
// "!interactive" (alone or beside "interactive"), or whose declaration is
// malformed (features past 64 tags, a tag the parse could not
// read, settings or features of the wrong JSON type: what was not read may
// hold "!interactive"). It is always open for a
// client that did not declare the extension: the SDK's own behaviour applies.
func (p *Profile) ElicitationGate(hasCapability bool) (closed bool, reason string) {
	switch {
	case !p.Declared() || p.MayElicit(hasCapability):
		return false, ""
	case !hasCapability:
		return true, ReasonNoCapability
	case p.malformed != "":
		return true, p.malformed
	default:
		return true, ReasonNotInteractive
	}
}
