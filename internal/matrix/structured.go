package matrix

import (
	"encoding/json"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Status says how a result's structuredContent compares with the tool's
// output schema.
type Status string

// The statuses of structuredContent.
const (
	// StatusValid: present, and valid against the output schema.
	StatusValid Status = "valid"
	// StatusInvalid: present, and not valid against the output schema.
	StatusInvalid Status = "invalid"
	// StatusAbsent: the tool has an output schema, but the (successful)
	// result carries no structuredContent, which the specification forbids.
	StatusAbsent Status = "absent"
	// StatusNotApplicable: the tool has no output schema, or the result is
	// an error.
	StatusNotApplicable Status = "n/a"
	// StatusUnchecked: the output schema could not be used (it does not
	// resolve, or refers to remote schemas).
	StatusUnchecked Status = "unchecked"
)

// Structured is the verdict on a result's structuredContent.
type Structured struct {
	// Status is the verdict.
	Status Status `json:"status"`
	// Present says whether the result carries structuredContent.
	Present bool `json:"present"`
	// Reason explains an invalid, unchecked or n/a status.
	Reason string `json:"reason,omitempty"`
}

// String returns the status, with its reason when invalid or unchecked.
func (s Structured) String() string {
	if (s.Status == StatusInvalid || s.Status == StatusUnchecked) && s.Reason != "" {
		return string(s.Status) + ": " + s.Reason
	}
	return string(s.Status)
}

// maxReasonLen bounds the reasons kept from the validator.
const maxReasonLen = 512

// checkStructured validates res.StructuredContent against schema, the output
// schema as tools/list gave it (nil: the tool has none).
func checkStructured(res *mcp.CallToolResult, schema any) Structured {
	s := Structured{Present: res.StructuredContent != nil}
	switch {
	case res.IsError:
		s.Status, s.Reason = StatusNotApplicable, "error result"
	case schema == nil:
		s.Status, s.Reason = StatusNotApplicable, "the tool has no output schema"
	case !s.Present:
		s.Status = StatusAbsent
	default:
		s.Status, s.Reason = validate(res.StructuredContent, schema)
	}
	return s
}

// validate checks value against schema; both are as decoded from JSON. A
// panic in the validator makes the result unchecked, not a crash.
func validate(value, schema any) (status Status, reason string) {
	defer func() {
		if r := recover(); r != nil {
			status, reason = StatusUnchecked, clip(fmt.Sprintf("the validator panicked: %v", r), maxReasonLen)
		}
	}()
	resolved, err := resolveSchema(schema)
	if err != nil {
		return StatusUnchecked, clip(err.Error(), maxReasonLen)
	}
	instance, err := roundTrip(value)
	if err != nil {
		return StatusInvalid, clip(err.Error(), maxReasonLen)
	}
	if err := resolved.Validate(instance); err != nil {
		return StatusInvalid, clip(err.Error(), maxReasonLen)
	}
	return StatusValid, ""
}

// resolveSchema turns an output schema as decoded from JSON into a resolved
// schema. Remote references are refused: nothing is fetched.
func resolveSchema(schema any) (*jsonschema.Resolved, error) {
	raw, err := json.Marshal(schema)
	if err != nil {
		return nil, fmt.Errorf("encode the output schema: %w", err)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("read the output schema: %w", err)
	}
	resolved, err := s.Resolve(nil)
	if err != nil {
		return nil, fmt.Errorf("resolve the output schema: %w", err)
	}
	return resolved, nil
}

// roundTrip returns v as encoding/json decodes its JSON encoding, the form
// the validator expects.
func roundTrip(v any) (any, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode structuredContent: %w", err)
	}
	var out any
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, fmt.Errorf("decode structuredContent: %w", err)
	}
	return out, nil
}
