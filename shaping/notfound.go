package shaping

import (
	"encoding/json"
	"errors"
	"io/fs"
)

// ErrNotFound marks a resource that does not exist. A resource handler may
// wrap it (fmt.Errorf("city %q: %w", slug, shaping.ErrNotFound)); the front
// ends turn it, like every other form of "not found", into the error the
// contract prescribes: -32602 with the URI in the error data (section 7).
var ErrNotFound = errors.New("resource not found")

// The error every form of "resource not found" becomes (SEP-2093).
const (
	NotFoundCode    = -32602
	NotFoundMessage = "Resource not found"
)

// codeLegacyNotFound is the "resource not found" code of earlier
// specifications.
const codeLegacyNotFound = -32002

// NotFound reports whether a resources/read outcome means the resource does
// not exist (contract section 7): an error wrapping [ErrNotFound] or
// fs.ErrNotExist, a protocol error with code -32002 (code is the error's
// JSON-RPC code, 0 when it has none), or a result with an empty list of
// contents that asks for no input.
func NotFound(err error, code int64, emptyContents bool) bool {
	if err != nil {
		return errors.Is(err, ErrNotFound) || errors.Is(err, fs.ErrNotExist) || code == codeLegacyNotFound
	}
	return emptyContents
}

// NotFoundData returns the error data of "not found" for uri: {"uri": uri}.
func NotFoundData(uri string) json.RawMessage {
	data, _ := json.Marshal(map[string]string{"uri": uri})
	return data
}

// NotFoundOnWire reports whether a JSON-RPC error, as a client receives it
// (its code and data), says that a resource does not exist: -32602 whose
// data is an object with a string "uri" (SEP-2093, what [NotFoundData]
// gives), or the earlier specifications' -32002.
func NotFoundOnWire(code int64, data []byte) bool {
	if code == codeLegacyNotFound {
		return true
	}
	if code != NotFoundCode || len(data) == 0 {
		return false
	}
	var d struct {
		URI *string `json:"uri"`
	}
	return json.Unmarshal(data, &d) == nil && d.URI != nil
}
