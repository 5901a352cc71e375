// Package notfound is the contract's "resource not found" (section 7, SEP-2093)
// in plain values: the error every form of it becomes on the wire, how a
// resources/read outcome says it on the server's side, and how a client
// recognises it. The core serves it; the front ends and the REST backends
// read it here, so that it is written once.
package notfound

import (
	"encoding/json"
	"errors"
	"io/fs"
)

// ErrNotFound marks a resource that does not exist: shaping.ErrNotFound,
// which resource handlers wrap.
var ErrNotFound = errors.New("resource not found")

// The JSON-RPC error every form of "resource not found" becomes
// (SEP-2093), with [Data] as its data.
const (
	Code    = -32602
	Message = "Resource not found"
)

// codeLegacy is the "resource not found" code of earlier specifications.
const codeLegacy = -32002

// Outcome reports whether a resources/read outcome means the resource does
// not exist: an error wrapping [ErrNotFound] or fs.ErrNotExist, a protocol
// error with code -32002 (code is the error's JSON-RPC code, 0 when it has
// none), or a result with an empty list of contents that asks for no
// input.
func Outcome(err error, code int64, emptyContents bool) bool {
	if err != nil {
		return errors.Is(err, ErrNotFound) || errors.Is(err, fs.ErrNotExist) || code == codeLegacy
	}
	return emptyContents
}

// Data returns the error data of "not found" for uri: {"uri": uri}.
func Data(uri string) json.RawMessage {
	data, _ := json.Marshal(map[string]string{"uri": uri})
	return data
}

// OnWire reports whether a JSON-RPC error, as a client receives it (its
// code and data), says that a resource does not exist: -32602 whose data
// is an object with a string "uri" (SEP-2093, what [Data] gives), or the
// earlier specifications' -32002.
func OnWire(code int64, data []byte) bool {
	if code == codeLegacy {
		return true
	}
	if code != Code || len(data) == 0 {
		return false
	}
	var d struct {
		URI *string `json:"uri"`
	}
	return json.Unmarshal(data, &d) == nil && d.URI != nil
}
