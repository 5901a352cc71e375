package matrix

import "encoding/json"

// Matrix is the outcome of a run: one row per profile, in the order of the
// profiles. Its JSON form is what the command prints with -json; the field
// names are stable.
type Matrix struct {
	// Tool is the tool called.
	Tool string `json:"tool"`
	// Arguments are the arguments of the call, a JSON object.
	Arguments json.RawMessage `json:"arguments"`
	// Tokenizer names the encoding of the token estimates.
	Tokenizer string `json:"tokenizer"`
	// Rows holds one row per profile.
	Rows []Row `json:"profiles"`
}

// Failed returns the number of rows whose profile got no result.
func (m *Matrix) Failed() int {
	n := 0
	for _, r := range m.Rows {
		if r.Error != "" {
			n++
		}
	}
	return n
}

// Row is what one profile got.
type Row struct {
	// Profile is the profile's name.
	Profile string `json:"profile"`
	// Tags are the tags the client declared; null when it did not declare
	// the extension.
	Tags []string `json:"tags"`
	// Warnings are what the feature-tag grammar says about the tags.
	Warnings []string `json:"warnings,omitempty"`
	// Protocol is the protocol version the session negotiated.
	Protocol string `json:"protocol"`
	// Rendering is what the first text block is.
	Rendering Rendering `json:"rendering"`
	// TextBlocks is the number of text blocks in the result.
	TextBlocks int `json:"text_blocks"`
	// TextBytes is the size of all text blocks, in bytes.
	TextBytes int `json:"text_bytes"`
	// ResultBytes is the size of the whole result, re-encoded as JSON by the
	// client (structuredContent and _meta included).
	ResultBytes int `json:"result_bytes"`
	// Tokens estimates the tokens of all text blocks (see Tokenizer).
	Tokens int `json:"tokens"`
	// TokensApprox is set when a block was too long to encode whole and its
	// count was extrapolated.
	TokensApprox bool `json:"tokens_approximate,omitempty"`
	// Structured is the verdict on structuredContent.
	Structured Structured `json:"structured_content"`
	// Elicitations counts the elicitation requests the server sent; each was
	// declined.
	Elicitations int `json:"elicitations"`
	// ElicitationMessages are the first few requests' messages, clipped.
	ElicitationMessages []string `json:"elicitation_messages,omitempty"`
	// Texts are the text blocks, each cut to MaxKeptText bytes, at most
	// MaxKeptBlocks of them.
	Texts []string `json:"texts"`
	// TextsTruncated is set when Texts lacks something of the result.
	TextsTruncated bool `json:"texts_truncated,omitempty"`
	// Error says why the profile got no result; empty when it got one.
	Error string `json:"error,omitempty"`
}
