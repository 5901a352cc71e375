package toon

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// defaultMaxDepth is the nesting depth, in containers, that encoding and decoding allow when the
// options do not say: deeper input gives an error wrapping [ErrTooDeep].
const defaultMaxDepth = 1000

// EncodeOptions configure an encoder; a nil *EncodeOptions means the spec's defaults.
type EncodeOptions struct {
	// Indent is the number of spaces per indentation level; 0 means 2.
	Indent int
	// Delimiter is the document delimiter (section 11), which separates the values of inline
	// arrays and the cells of tabular rows and is declared in every array and keyed header:
	// ',' (comma), '\t' (tab) or '|' (pipe); 0 means ','. Any other byte is an error.
	Delimiter byte
	// MaxDepth bounds the nesting of the value, in containers; 0 means 1000: deeper input gives
	// an error wrapping [ErrTooDeep].
	MaxDepth int
}

// DecodeOptions configure a decoder; a nil *DecodeOptions means the spec's defaults, strict mode
// included.
type DecodeOptions struct {
	// Indent is the number of spaces per indentation level; 0 means 2.
	Indent int
	// Lenient turns the spec's strict mode (section 14, on by default) off: counts and row widths
	// are not checked, blank lines inside arrays are skipped, a repeated key keeps its last value
	// (in its first place), malformed headers are read as key-value lines, indentation that is not
	// a multiple of Indent is rounded down, a tab in indentation counts as Indent spaces, and
	// invalid UTF-8 is accepted (and written as U+FFFD by ToJSON).
	Lenient bool
	// MaxDepth bounds the nesting of the document, in containers (and of field groups in a
	// header); 0 means 1000: deeper input gives an error wrapping [ErrTooDeep].
	MaxDepth int
}

// Errors wrapped by the errors of this package; test them with errors.Is.
var (
	// ErrSyntax: the document breaks TOON's grammar (a missing colon, a malformed header, an
	// invalid escape, a line where none belongs, ...).
	ErrSyntax = errors.New("syntax error")
	// ErrIndent: indentation that is not a multiple of the indent size, a tab in indentation, or
	// a line deeper than its scope.
	ErrIndent = errors.New("bad indentation")
	// ErrCount: an array's items, rows or entries, or a row's cells, do not match the count its
	// header declares (strict mode).
	ErrCount = errors.New("count mismatch")
	// ErrDuplicateKey: a key repeated in an object, or a field name in a header (strict mode).
	ErrDuplicateKey = errors.New("duplicate key")
	// ErrTooDeep: nesting beyond the options' MaxDepth.
	ErrTooDeep = errors.New("nested too deep")
	// ErrInvalidJSON: the JSON given to encode is not valid JSON.
	ErrInvalidJSON = errors.New("invalid JSON")
)

// SyntaxError is a decoding error: the line (1-based, in the document as given) and what is
// wrong there. It wraps one of the sentinel errors above.
type SyntaxError struct {
	Line int
	Msg  string
	Err  error
}

// Error returns "toon: line N: " and the message.
func (e *SyntaxError) Error() string {
	return "toon: line " + strconv.Itoa(e.Line) + ": " + e.Msg
}

// Unwrap returns the sentinel error the error wraps.
func (e *SyntaxError) Unwrap() error { return e.Err }

func encodeOptions(opts *EncodeOptions) (indent int, delim byte, maxDepth int, err error) {
	indent, delim, maxDepth = 2, ',', defaultMaxDepth
	if opts == nil {
		return indent, delim, maxDepth, nil
	}
	if opts.Indent < 0 || opts.MaxDepth < 0 {
		return 0, 0, 0, errors.New("toon: negative Indent or MaxDepth")
	}
	if opts.Indent > 0 {
		indent = opts.Indent
	}
	if opts.MaxDepth > 0 {
		maxDepth = opts.MaxDepth
	}
	switch opts.Delimiter {
	case 0:
	case ',', '\t', '|':
		delim = opts.Delimiter
	default:
		return 0, 0, 0, fmt.Errorf("toon: delimiter %q is not a comma, tab or pipe", rune(opts.Delimiter))
	}
	return indent, delim, maxDepth, nil
}

// FromJSON encodes the JSON text raw as TOON with opts (nil: the defaults). Object members keep
// their order in raw (a repeated key keeps its first place and its last value, as JSON decoders
// read it) and numbers their exact value, written in the spec's canonical form (see [Marshal]).
// Invalid JSON gives an error wrapping [ErrInvalidJSON]; nesting deeper than MaxDepth one
// wrapping [ErrTooDeep].
func FromJSON(raw []byte, opts *EncodeOptions) ([]byte, error) {
	indent, delim, maxDepth, err := encodeOptions(opts)
	if err != nil {
		return nil, err
	}
	v, err := parseJSON(raw, maxDepth)
	if err != nil {
		return nil, fmt.Errorf("toon: %w", err)
	}
	e := encoder{b: make([]byte, 0, len(raw)+len(raw)/4+16), indent: indent, delim: delim}
	e.encode(&v)
	return e.b, nil
}

// Marshal returns the TOON encoding of v with the default options: two spaces of indentation,
// the comma as delimiter. v is first encoded as encoding/json encodes it (struct fields in
// order, map keys sorted, json.Marshaler honoured), except that a json.RawMessage or a []byte
// is taken as JSON text and encoded as [FromJSON] does (a nil one as null).
//
// Numbers are written in the spec's canonical form from their exact digits: plain decimal for 0
// and 1e-6 <= |n| < 1e21 (1e6 is 1000000, 1.50 is 1.5, -0 is 0, 12345678901234567890 keeps
// every digit), and outside that range the form of JavaScript's Number.prototype.toString on
// the exact digits (1e-7, 1.5e+300): the same JSON value, which a decoder reads back. Strings
// are quoted only where the spec requires it (and where they have Unicode white space at either
// end). Arrays of uniform objects are written as tables (with nested field groups for uniform
// nested objects), objects of at least two uniform objects in keyed tabular form, as the spec's
// encoder rules require.
func Marshal(v any) ([]byte, error) {
	return marshal(v, nil)
}

func marshal(v any, opts *EncodeOptions) ([]byte, error) {
	var raw []byte
	switch v := v.(type) {
	case json.RawMessage:
		raw = v
		if v == nil {
			raw = []byte("null") // as encoding/json marshals it
		}
	case []byte:
		raw = v
		if v == nil {
			raw = []byte("null")
		}
	default:
		var err error
		if raw, err = json.Marshal(v); err != nil {
			return nil, fmt.Errorf("toon: %w", err)
		}
	}
	return FromJSON(raw, opts)
}

// ToJSON decodes the TOON document data with opts (nil: the defaults, strict mode) and returns
// its value as minified JSON text: object members in document order (a table's rows in its
// header's field order), numbers in canonical form with their exact digits (1.5000 is 1.5,
// -1E+03 is -1000, 1e-7 stays 1e-7, 123456789012345678901 keeps every digit), strings escaped
// as encoding/json escapes them. Errors are *[SyntaxError] values ("toon: line 3: ...")
// wrapping [ErrSyntax], [ErrIndent], [ErrCount], [ErrDuplicateKey] or [ErrTooDeep].
func ToJSON(data []byte, opts *DecodeOptions) ([]byte, error) {
	strict, indent, maxDepth := true, 2, defaultMaxDepth
	if opts != nil {
		if opts.Indent < 0 || opts.MaxDepth < 0 {
			return nil, errors.New("toon: negative Indent or MaxDepth")
		}
		strict = !opts.Lenient
		if opts.Indent > 0 {
			indent = opts.Indent
		}
		if opts.MaxDepth > 0 {
			maxDepth = opts.MaxDepth
		}
	}
	v, err := decodeDocument(data, strict, indent, maxDepth)
	if err != nil {
		return nil, err
	}
	return appendJSON(make([]byte, 0, len(data)+len(data)/4+16), &v), nil
}

// Unmarshal decodes the TOON document data (strict mode) and stores its value in v as
// encoding/json's Unmarshal stores the same value's JSON: into structs, maps, slices, or, for an
// interface value, map[string]any, []any, float64, string, bool and nil. Use [ToJSON] to keep
// the order of members and the exact digits of numbers, or a [Decoder] with UseNumber.
func Unmarshal(data []byte, v any) error {
	return NewDecoder(bytes.NewReader(data), nil).Decode(v)
}

// A Decoder reads a TOON document from a reader.
type Decoder struct {
	r         io.Reader
	opts      *DecodeOptions
	useNumber bool
}

// NewDecoder returns a decoder that reads the whole of r as one document, with opts (nil: the
// defaults, strict mode).
func NewDecoder(r io.Reader, opts *DecodeOptions) *Decoder {
	return &Decoder{r: r, opts: opts}
}

// UseNumber makes Decode store numbers in an interface value as json.Number (their canonical
// text) rather than float64.
func (d *Decoder) UseNumber() { d.useNumber = true }

// Decode reads the document and stores its value in v, as [Unmarshal] does.
func (d *Decoder) Decode(v any) error {
	data, err := io.ReadAll(d.r)
	if err != nil {
		return fmt.Errorf("toon: read: %w", err)
	}
	j, err := ToJSON(data, d.opts)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(j))
	if d.useNumber {
		dec.UseNumber()
	}
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("toon: %w", err)
	}
	return nil
}

// An Encoder writes TOON documents to a writer.
type Encoder struct {
	w    io.Writer
	opts *EncodeOptions
}

// NewEncoder returns an encoder that writes to w with opts (nil: the defaults).
func NewEncoder(w io.Writer, opts *EncodeOptions) *Encoder {
	return &Encoder{w: w, opts: opts}
}

// Encode writes the TOON document of v, as [Marshal] encodes it, with no line break after it.
func (e *Encoder) Encode(v any) error {
	b, err := marshal(v, e.opts)
	if err != nil {
		return err
	}
	if _, err := e.w.Write(b); err != nil {
		return fmt.Errorf("toon: write: %w", err)
	}
	return nil
}
