package renderers

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/tidwall/gjson"
)

// errInvalidJSON reports a value that is not valid JSON (or is nested deeper than encoding/json
// allows, 10000 levels). Callers fall back to another rendering when they see it.
var errInvalidJSON = errors.New("invalid JSON")

// encodeJSON returns the JSON encoding of v. A json.RawMessage or []byte holding valid JSON is returned as
// is (validated, not re-encoded); one holding invalid JSON gives an error wrapping [errInvalidJSON].
func encodeJSON(v any) (json.RawMessage, error) {
	switch raw := v.(type) {
	case json.RawMessage:
		return validRaw(raw)
	case []byte:
		return validRaw(raw)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("renderers: encode %T: %w", v, err)
	}
	return b, nil
}

func validRaw(raw []byte) (json.RawMessage, error) {
	if err := validate(raw); err != nil {
		return nil, fmt.Errorf("renderers: raw value: %w", err)
	}
	return raw, nil
}

// maxNesting is the deepest nesting a value may have, as in encoding/json.
const maxNesting = 10000

// validate returns nil for valid JSON and otherwise an error wrapping errInvalidJSON that says where
// the syntax breaks. gjson.ValidBytes (about twice as fast as json.Valid) does the check; it is
// recursive, so nesting is bounded first. The decoder only runs on the error path, for its message.
func validate(value []byte) error {
	if nestingOK(value) && gjson.ValidBytes(value) {
		return nil
	}
	var raw json.RawMessage
	if err := json.Unmarshal(value, &raw); err != nil {
		return fmt.Errorf("%w: %v", errInvalidJSON, err)
	}
	return errInvalidJSON
}

// nestingOK reports whether the brackets of value, outside strings, nest at most maxNesting deep.
func nestingOK(value []byte) bool {
	depth, inString := 0, false
	for i := 0; i < len(value); i++ {
		switch c := value[i]; {
		case inString:
			if c == '\\' {
				i++
			} else if c == '"' {
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			if depth++; depth > maxNesting {
				return false
			}
		case c == '}' || c == ']':
			depth--
		}
	}
	return true
}
