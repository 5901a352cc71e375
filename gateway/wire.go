package gateway

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/contentneg/contentneg/internal/rawjson"
)

// JSON-RPC error codes the gateway answers with.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
	codeMethodNotFound = -32601
	codeInvalidParams  = -32602
	codeInternalError  = -32603
	// codeUnavailable is the gateway's own: the upstream cannot serve the
	// request now (it ended, the bound on upstreams or calls is reached).
	codeUnavailable = -32001
)

// maxDepth bounds the nesting of every message the gateway reads.
const maxDepth = 1000

// message is one JSON-RPC message as bytes: the members the gateway reads,
// each the very bytes of the wire.
type message struct {
	raw    []byte
	id     []byte // nil for a notification
	method string // "" for a response
	params []byte // nil when absent
	result []byte // a response's result, nil when absent
	err    []byte // a response's error object, nil when absent
}

func (m *message) isRequest() bool      { return m.method != "" && m.id != nil }
func (m *message) isNotification() bool { return m.method != "" && m.id == nil }
func (m *message) isResponse() bool     { return m.method == "" && m.id != nil }

// errBatch is a JSON-RPC batch, which no MCP version the gateway serves
// sends.
var errBatch = errors.New("JSON-RPC batches are not supported")

// parseMessage reads one message, checked for syntax and depth.
func parseMessage(raw []byte) (*message, error) {
	if err := rawjson.Check(raw, maxDepth); err != nil {
		return nil, err
	}
	m := &message{raw: raw}
	members, ok := rawjson.Members(raw)
	if !ok {
		if _, isArray := rawjson.Elements(raw); isArray {
			return nil, errBatch
		}
		return nil, errors.New("a message must be a JSON object")
	}
	for _, mb := range members {
		switch mb.Key {
		case "id":
			if string(mb.Value) != "null" {
				m.id = mb.Value
			}
		case "method":
			s, ok := rawjson.String(mb.Value)
			if !ok || s == "" {
				return nil, errors.New(`"method" must be a non-empty string`)
			}
			m.method = s
		case "params":
			m.params = mb.Value
		case "result":
			m.result = mb.Value
		case "error":
			m.err = mb.Value
		}
	}
	if m.method == "" && m.id == nil {
		return nil, errors.New("a message needs a method or an id")
	}
	if m.method == "" && m.result == nil && m.err == nil {
		return nil, errors.New("a response needs a result or an error")
	}
	return m, nil
}

// encodeRequest returns the request method with params (nil for none).
func encodeRequest(id []byte, method string, params []byte) []byte {
	out := make([]byte, 0, len(params)+len(method)+48)
	out = append(out, `{"jsonrpc":"2.0","id":`...)
	out = append(out, id...)
	out = append(out, `,"method":`...)
	out = append(out, rawjson.Quote(method)...)
	if params != nil {
		out = append(out, `,"params":`...)
		out = append(out, params...)
	}
	return append(out, '}')
}

// encodeNotification returns the notification method with params.
func encodeNotification(method string, params []byte) []byte {
	out := make([]byte, 0, len(params)+len(method)+40)
	out = append(out, `{"jsonrpc":"2.0","method":`...)
	out = append(out, rawjson.Quote(method)...)
	if params != nil {
		out = append(out, `,"params":`...)
		out = append(out, params...)
	}
	return append(out, '}')
}

// encodeResult returns the response to id carrying result.
func encodeResult(id, result []byte) []byte {
	out := make([]byte, 0, len(result)+len(id)+32)
	out = append(out, `{"jsonrpc":"2.0","id":`...)
	out = append(out, id...)
	out = append(out, `,"result":`...)
	out = append(out, result...)
	return append(out, '}')
}

// encodeErrorObject returns the response to id carrying the error object
// raw as it is.
func encodeErrorObject(id, raw []byte) []byte {
	if id == nil {
		id = []byte("null")
	}
	out := make([]byte, 0, len(raw)+len(id)+32)
	out = append(out, `{"jsonrpc":"2.0","id":`...)
	out = append(out, id...)
	out = append(out, `,"error":`...)
	out = append(out, raw...)
	return append(out, '}')
}

// errorObject returns a JSON-RPC error object.
func errorObject(code int64, msg string, data []byte) []byte {
	out := []byte(`{"code":`)
	out = strconv.AppendInt(out, code, 10)
	out = append(out, `,"message":`...)
	out = append(out, rawjson.Quote(msg)...)
	if data != nil {
		out = append(out, `,"data":`...)
		out = append(out, data...)
	}
	return append(out, '}')
}

// encodeError returns the response to id carrying a new error.
func encodeError(id []byte, code int64, msg string) []byte {
	return encodeErrorObject(id, errorObject(code, msg, nil))
}

// jsonRPCError is a JSON-RPC error the upstream answered with, or the gateway
// made: Raw is the error object as it goes to the client.
type jsonRPCError struct {
	Code    int64
	Message string
	// Raw is the error object's bytes, as the upstream sent them.
	Raw []byte
}

func (e *jsonRPCError) Error() string {
	return fmt.Sprintf("%s (JSON-RPC error %d)", e.Message, e.Code)
}

// rpcError returns the error of the error object raw.
func rpcError(raw []byte) *jsonRPCError {
	e := &jsonRPCError{Raw: raw, Code: codeInternalError}
	if c, ok := rawjson.Get(raw, "code"); ok {
		if n, ok := rawjson.Int(c); ok {
			e.Code = n
		}
	}
	if m, ok := rawjson.Get(raw, "message"); ok {
		e.Message, _ = rawjson.String(m)
	}
	return e
}

// newRPCError makes an error of the gateway's own.
func newRPCError(code int64, msg string) *jsonRPCError {
	return &jsonRPCError{Code: code, Message: msg, Raw: errorObject(code, msg, nil)}
}

// errorOf returns err as a jsonRPCError: the upstream's own, or an internal
// error naming err.
func errorOf(err error) *jsonRPCError {
	var e *jsonRPCError
	if errors.As(err, &e) {
		return e
	}
	return newRPCError(codeInternalError, err.Error())
}
