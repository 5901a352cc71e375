package rest

import (
	"encoding/json"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
)

// validator checks arguments against one input schema: whole, and field by
// field (the schema without "required", given one field at a time), so that
// a 400 names every field that is wrong.
type validator struct {
	whole    *jsonschema.Resolved
	partial  *jsonschema.Resolved
	required []string
}

// validators caches validators by schema text; bounded.
type validators struct {
	mu sync.Mutex
	m  map[string]*validator
}

const maxValidators = 1024

// get returns the validator of schema, nil when the schema cannot
// be resolved (the server then validates alone).
func (c *validators) get(schema json.RawMessage) *validator {
	c.mu.Lock()
	v, ok := c.m[string(schema)] // no copy of the schema made for a lookup
	c.mu.Unlock()
	if ok {
		return v
	}
	v = newValidator(schema)
	c.mu.Lock()
	if c.m == nil || len(c.m) >= maxValidators {
		c.m = make(map[string]*validator)
	}
	c.m[string(schema)] = v
	c.mu.Unlock()
	return v
}

func newValidator(schema json.RawMessage) *validator {
	var s jsonschema.Schema
	if len(schema) == 0 || json.Unmarshal(schema, &s) != nil {
		return nil
	}
	whole, err := s.Resolve(nil)
	if err != nil {
		return nil
	}
	var p jsonschema.Schema
	_ = json.Unmarshal(schema, &p) // a second copy: Resolve keeps pointers into the first
	required := p.Required
	p.Required = nil
	partial, err := p.Resolve(nil)
	if err != nil {
		return nil
	}
	return &validator{whole: whole, partial: partial, required: required}
}

// validateArguments checks args (a JSON object) against the tool's input
// schema: nil when they conform, else a 400 with a detail per field.
func (h *handler) validateArguments(schema, args json.RawMessage) *Error {
	v := h.validators.get(schema)
	if v == nil {
		return nil
	}
	raw, err := members(args)
	if err != nil {
		return membersError("arguments", err)
	}
	m := make(map[string]any, len(raw))
	for k, v := range raw {
		var value any
		if err := json.Unmarshal(v, &value); err != nil {
			return membersError("arguments", errNotObject)
		}
		m[k] = value
	}
	if v.whole.Validate(m) == nil {
		return nil
	}
	var details []Detail
	for _, name := range v.required {
		if _, ok := m[name]; !ok {
			details = append(details, Detail{Field: name, Error: "required"})
		}
	}
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		if err := v.partial.Validate(map[string]any{k: m[k]}); err != nil {
			details = append(details, Detail{Field: k, Error: schemaMessage(err.Error())})
		}
	}
	if details == nil {
		details = []Detail{{Field: "arguments", Error: schemaMessage(v.whole.Validate(m).Error())}}
	}
	return invalid("the arguments do not match the tool's input schema", details...)
}

// schemaMessage drops the "validating root: validating /properties/x: "
// chain of a jsonschema error, keeping what is wrong, with its numbers as a
// person writes them ("9/1" and "7.000000" become "9" and "7").
func schemaMessage(s string) string {
	for {
		rest, ok := strings.CutPrefix(s, "validating ")
		if !ok {
			break
		}
		i := strings.Index(rest, ": ")
		if i < 0 || i+2 == len(rest) {
			break
		}
		s = rest[i+2:]
	}
	s = wholeRational.ReplaceAllString(s, "$1")
	return trailingZeros.ReplaceAllString(s, "$1$2")
}

var (
	wholeRational = regexp.MustCompile(`\b(-?\d+)/1\b`)
	trailingZeros = regexp.MustCompile(`\b(\d+)(?:\.0+|(\.\d*[1-9])0+)\b`)
)
