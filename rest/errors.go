package rest

import (
	"encoding/json"
	"net/http"

	"github.com/contentneg/contentneg/shaping"
)

// The error codes of the seed's error body this binding uses ([Error]'s
// Code field lists them).
const (
	codeInvalidParameter    = "INVALID_PARAMETER"
	codeNotFound            = "NOT_FOUND"
	codeMethodNotAllowed    = "METHOD_NOT_ALLOWED"
	codeNotAcceptable       = "NOT_ACCEPTABLE"
	codePayloadTooLarge     = "PAYLOAD_TOO_LARGE"
	codeToolError           = "TOOL_ERROR"
	codeInputRequired       = "INPUT_REQUIRED"
	codeNotImplemented      = "NOT_IMPLEMENTED"
	codeUnauthorized        = "UNAUTHORIZED"
	codeForbidden           = "FORBIDDEN"
	codeInternal            = "INTERNAL_ERROR"
	codeTimeout             = "TIMEOUT"
	codeUnavailable         = "UNAVAILABLE"
	codeRangeNotSatisfiable = "RANGE_NOT_SATISFIABLE"
	codePreconditionFailed  = "PRECONDITION_FAILED"
)

// Error is the seed's error body: {"status", "code", "message",
// "details"?}, the body of every answer with a status of 400 or more,
// always sent as application/json. A Go client of the REST API can decode
// an error answer into it.
type Error struct {
	// Status is the answer's HTTP status.
	Status int `json:"status"`
	// Code says what went wrong, for a program: one of INVALID_PARAMETER
	// (400), UNAUTHORIZED (401), FORBIDDEN (403), NOT_FOUND (404),
	// METHOD_NOT_ALLOWED (405), NOT_ACCEPTABLE (406), TIMEOUT (408 for a
	// body, 504 for a call), PRECONDITION_FAILED (412), PAYLOAD_TOO_LARGE
	// (413), RANGE_NOT_SATISFIABLE (416), TOOL_ERROR and INPUT_REQUIRED
	// (422), INTERNAL_ERROR (500), NOT_IMPLEMENTED (501) and UNAVAILABLE
	// (503).
	Code string `json:"code"`
	// Message says it for a person.
	Message string `json:"message"`
	// Details, when present, say which field is wrong and how, or (406)
	// which media types can be served.
	Details []Detail `json:"details,omitempty"`
}

// Detail is one entry of an error's details: a field and what is wrong
// with it, or (for 406) a media type the server can answer with.
type Detail struct {
	Field     string `json:"field,omitempty"`
	Error     string `json:"error,omitempty"`
	MediaType string `json:"mediaType,omitempty"`
	Format    string `json:"format,omitempty"`
}

// Error returns the code and the message.
func (e *Error) Error() string { return e.Code + ": " + e.Message }

// newError returns an error body with at most maxDetails details (then one
// that counts the others).
func newError(status int, code, message string, details ...Detail) *Error {
	return &Error{Status: status, Code: code, Message: message, Details: capDetails(details)}
}

func invalid(message string, details ...Detail) *Error {
	return newError(http.StatusBadRequest, codeInvalidParameter, message, details...)
}

func notFound(message string) *Error {
	return newError(http.StatusNotFound, codeNotFound, message)
}

// writeError writes e as the seed's error body, as JSON whatever the
// Accept header, never cached.
func writeError(w http.ResponseWriter, e *Error) {
	body, err := json.Marshal(e)
	if err != nil { // cannot happen: the struct has only strings and ints
		body = []byte(`{"status":500,"code":"INTERNAL_ERROR","message":"error body"}`)
	}
	h := w.Header()
	h.Del("ETag")
	h.Del("Last-Modified")
	h.Del("Content-Encoding")
	h.Del("Accept-Ranges")
	h.Set("Content-Type", shaping.JSON.MediaType)
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Length", itoa(len(body)+1))
	w.WriteHeader(e.Status)
	_, _ = w.Write(append(body, '\n'))
}

// errorCatcher turns the plain-text errors that http.ServeContent writes
// (416, 412) into the seed's JSON error body.
type errorCatcher struct {
	http.ResponseWriter
	caught bool
}

func (c *errorCatcher) WriteHeader(status int) {
	if status < 400 {
		c.ResponseWriter.WriteHeader(status)
		return
	}
	c.caught = true
	code, msg := codeInternal, http.StatusText(status)
	switch status {
	case http.StatusRequestedRangeNotSatisfiable:
		code, msg = codeRangeNotSatisfiable, "the Range header asks for no byte of the content"
	case http.StatusPreconditionFailed:
		code, msg = codePreconditionFailed, "a precondition (If-Match, If-Unmodified-Since) does not hold"
	}
	writeError(c.ResponseWriter, newError(status, code, msg))
}

func (c *errorCatcher) Write(p []byte) (int, error) {
	if c.caught {
		return len(p), nil
	}
	return c.ResponseWriter.Write(p)
}
