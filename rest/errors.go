package rest

import (
	"encoding/json"
	"net/http"

	"github.com/contentneg/contentneg/shaping"
)

// The error codes of the seed's error body this binding uses.
const (
	CodeInvalidParameter     = "INVALID_PARAMETER"
	CodeNotFound             = "NOT_FOUND"
	CodeMethodNotAllowed     = "METHOD_NOT_ALLOWED"
	CodeNotAcceptable        = "NOT_ACCEPTABLE"
	CodePayloadTooLarge      = "PAYLOAD_TOO_LARGE"
	CodeToolError            = "TOOL_ERROR"
	CodeInputRequired        = "INPUT_REQUIRED"
	CodeNotImplemented       = "NOT_IMPLEMENTED"
	CodeUnauthorized         = "UNAUTHORIZED"
	CodeForbidden            = "FORBIDDEN"
	CodeInternal             = "INTERNAL_ERROR"
	CodeTimeout              = "TIMEOUT"
	CodeUnavailable          = "UNAVAILABLE"
	CodeRangeNotSatisfiable  = "RANGE_NOT_SATISFIABLE"
	CodePreconditionFailed   = "PRECONDITION_FAILED"
	CodeUnsupportedMediaType = "UNSUPPORTED_MEDIA_TYPE"
)

// Error is the seed's error body: {"status", "code", "message",
// "details"?}. It is always sent as application/json.
type Error struct {
	Status  int      `json:"status"`
	Code    string   `json:"code"`
	Message string   `json:"message"`
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
	return newError(http.StatusBadRequest, CodeInvalidParameter, message, details...)
}

func notFound(message string) *Error {
	return newError(http.StatusNotFound, CodeNotFound, message)
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
	code, msg := CodeInternal, http.StatusText(status)
	switch status {
	case http.StatusRequestedRangeNotSatisfiable:
		code, msg = CodeRangeNotSatisfiable, "the Range header asks for no byte of the content"
	case http.StatusPreconditionFailed:
		code, msg = CodePreconditionFailed, "a precondition (If-Match, If-Unmodified-Since) does not hold"
	}
	writeError(c.ResponseWriter, newError(status, code, msg))
}

func (c *errorCatcher) Write(p []byte) (int, error) {
	if c.caught {
		return len(p), nil
	}
	return c.ResponseWriter.Write(p)
}
