package negotiation

// Refusal is the answer the elicitation gate gives in place of a client that
// cannot answer: the action of the elicitation result a handler receives.
// The zero Refusal, the default, is "decline": as if the person had
// declined.
type Refusal uint8

// Cancel answers "cancel": as if the person had dismissed the question.
const Cancel Refusal = 1

// String returns the elicitation action: "decline" or "cancel".
func (r Refusal) String() string {
	if r == Cancel {
		return "cancel"
	}
	return "decline"
}

// The reasons [Profile.ElicitationGate] gives for closing the gate.
const (
	reasonNotInteractive = "the client declared !interactive"
	reasonNoCapability   = "the client has no elicitation capability"
	reasonTooManyTags    = "the client's features run past the tag limit, read as !interactive"
	reasonMalformed      = "the client's settings are malformed, read as !interactive"
)

// ElicitationGate reports whether an elicitation meant for this client must
// be answered locally, with a [Refusal], instead of being sent, and why
// (contract section 6). hasCapability says whether the client's real
// capability object has "elicitation": tags shape content, capabilities
// govern protocol actions, so no tag opens the gate on its own.
//
// The gate is closed for a client that declared the extension and either
// lacks the real elicitation capability or declared "!interactive" (alone
// or beside "interactive"), or whose declaration is malformed (features
// past 64 tags, a tag the parse could not read, settings or features of
// the wrong JSON type: what was not read may hold "!interactive";
// consent never rests on a declaration the server could not read). It is
// always open for a client that did not declare the extension: the SDK's
// own behaviour applies, and the server may ask it when hasCapability.
func (p *Profile) ElicitationGate(hasCapability bool) (closed bool, reason string) {
	switch {
	case !p.Declared() || p.mayElicit(hasCapability):
		return false, ""
	case !hasCapability:
		return true, reasonNoCapability
	case p.malformed != "":
		return true, p.malformed
	default:
		return true, reasonNotInteractive
	}
}
