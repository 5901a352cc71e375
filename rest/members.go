package rest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// maxMembers bounds the members of a JSON object the binding decodes (a
// request body's envelope, a tool's or a prompt's arguments): past it the
// request is a 400, and its cost stays that of maxMembers members whatever
// the body holds.
const maxMembers = 1000

// maxDetails bounds the details of an error body: past it, one more entry
// counts those left out.
const maxDetails = 20

// errTooManyMembers is the reason for an object over maxMembers.
var errTooManyMembers = fmt.Errorf("more than %d members", maxMembers)

// errNotObject is the reason for a value that is not a JSON object.
var errNotObject = errors.New("must be a JSON object")

// members decodes a JSON object's members, at most maxMembers of them; a
// later duplicate replaces an earlier one, as encoding/json does. null is
// no members. Anything else is errNotObject, and an object over the limit
// errTooManyMembers, found before the next member is decoded.
func members(raw json.RawMessage) (map[string]json.RawMessage, error) {
	if t := bytes.TrimSpace(raw); len(t) == 0 || bytes.Equal(t, []byte("null")) {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, errNotObject
	}
	out := make(map[string]json.RawMessage)
	for n := 0; dec.More(); n++ {
		if n == maxMembers {
			return nil, errTooManyMembers
		}
		tok, err := dec.Token()
		key, ok := tok.(string)
		if err != nil || !ok {
			return nil, errNotObject
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, errNotObject
		}
		out[key] = v
	}
	if tok, err := dec.Token(); err != nil || tok != json.Delim('}') {
		return nil, errNotObject
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errNotObject
	}
	return out, nil
}

// membersError is the 400 for an object members refused.
func membersError(field string, err error) *Error {
	return invalid("invalid "+field, Detail{Field: field, Error: err.Error()})
}

// capDetails keeps the first maxDetails details and, when there were more,
// adds one that counts those left out.
func capDetails(details []Detail) []Detail {
	if len(details) <= maxDetails {
		return details
	}
	left := len(details) - maxDetails
	return append(details[:maxDetails:maxDetails], Detail{Error: fmt.Sprintf("%d more not listed", left)})
}
