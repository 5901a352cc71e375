package matrix

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/contentneg/contentneg/internal/tagspec"
)

// parseJSON reads a JSON profiles file, keeping the order of its keys.
func parseJSON(data []byte) ([]Profile, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return nil, jsonSyntax(data, dec, err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, fmt.Errorf("%w: the document is %s", ErrNotAMap, jsonTokenKind(tok))
	}
	var c collector
	for dec.More() {
		where := fmt.Sprintf("line %d", lineAt(data, dec.InputOffset()))
		keyTok, err := dec.Token()
		if err != nil {
			return nil, jsonSyntax(data, dec, err)
		}
		name, _ := keyTok.(string) // object keys are always strings
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, jsonSyntax(data, dec, err)
		}
		tags, err := jsonTags(raw)
		if err != nil {
			return nil, fmt.Errorf("%s: profile %q: %w", where, name, err)
		}
		if err := c.add(name, tags, where); err != nil {
			return nil, err
		}
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil, jsonSyntax(data, dec, err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%w: line %d: data after the top-level object", ErrSyntax, lineAt(data, dec.InputOffset()))
	}
	return c.result()
}

// jsonTags reads one profile's value: null or an array of strings.
func jsonTags(raw json.RawMessage) ([]string, error) {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrSyntax, err)
	}
	switch list := v.(type) {
	case nil:
		return nil, nil
	case []any:
		tags := make([]string, 0, len(list))
		for i, e := range list {
			s, ok := e.(string)
			if !ok {
				return nil, fmt.Errorf("%w: tag %d is %s", ErrBadTags, i+1, tagspec.JSONType(e))
			}
			tags = append(tags, s)
		}
		return tags, nil
	default:
		return nil, fmt.Errorf("%w: got %s", ErrBadTags, tagspec.JSONType(v))
	}
}

// jsonSyntax turns a decoding error into an ErrSyntax error with a line.
func jsonSyntax(data []byte, dec *json.Decoder, err error) error {
	off := dec.InputOffset()
	var se *json.SyntaxError
	if errors.As(err, &se) {
		off = se.Offset
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("%w: line %d: unexpected end of JSON", ErrSyntax, lineAt(data, off))
	}
	return fmt.Errorf("%w: line %d: %w", ErrSyntax, lineAt(data, off), err)
}

// jsonTokenKind names what a JSON token starts: "an array", "a string" ...
func jsonTokenKind(tok json.Token) string {
	if d, ok := tok.(json.Delim); ok && d == '[' {
		return "an array"
	}
	switch kind := tagspec.JSONType(tok); kind {
	case "null":
		return kind
	case "array", "object", "other":
		return "an " + kind
	default:
		return "a " + kind
	}
}

// lineAt returns the 1-based line of byte offset off in data.
func lineAt(data []byte, off int64) int {
	if off < 0 {
		off = 0
	}
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	return bytes.Count(data[:off], []byte("\n")) + 1
}
