package rest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

// maxMembers bounds the members of a JSON object the binding decodes (a
// request body's envelope, a tool's or a prompt's arguments): past it the
// request is a 400, and its cost stays a scan of the (bounded) body plus
// maxMembers members whatever the body holds.
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
// errTooManyMembers. It reads the object with gjson once it is known to be
// valid JSON: no decoder, and no error values made and dropped per member
// as encoding/json's Decoder makes inside a token stream.
func members(raw json.RawMessage) (map[string]json.RawMessage, error) {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 || bytes.Equal(t, []byte("null")) {
		return nil, nil
	}
	if t[0] != '{' || !json.Valid(t) {
		return nil, errNotObject
	}
	out := make(map[string]json.RawMessage)
	var err error
	n := 0
	gjson.ParseBytes(t).ForEach(func(k, v gjson.Result) bool {
		if n == maxMembers {
			err = errTooManyMembers
			return false
		}
		n++
		key := k.Str
		if !utf8.ValidString(key) {
			key = validUTF8(key)
		}
		out[key] = json.RawMessage(v.Raw)
		return true
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// validUTF8 replaces each byte of s that is not UTF-8 with U+FFFD, as
// encoding/json reads such a string.
func validUTF8(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
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
