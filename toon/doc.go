// Package toon encodes JSON values as TOON (Token-Oriented Object Notation, specification 4.0)
// and decodes TOON back to JSON, losing nothing; it never reaches past the standard library.
//
// TOON (github.com/toon-format/spec, tag v4.0.0) is a line-oriented, indentation-based text form
// of the JSON data model that declares the length of arrays and the fields of uniform rows once.
//
//	users[2]{id,name,role}:
//	  1,Ada,admin
//	  2,Bob,user
//
// The package is a conforming encoder and decoder: it passes every encode and decode fixture of
// the specification at v4.0.0 (testdata/spec-v4.0.0), with the encoder options indent size and
// delimiter ([EncodeOptions]) and the decoder options indent size and strict mode
// ([DecodeOptions]; strict, the spec's default, unless Lenient is set).
//
// [Marshal] and [FromJSON] encode a Go value or a JSON text; [Unmarshal], a [Decoder] and
// [ToJSON] decode. Between JSON text and TOON nothing is lost: object members keep their order
// (except that the rows of a table take its header's field order, as the spec says), numbers their
// exact digits (written in the spec's canonical form: 1.50 is 1.5, 1e6 is 1000000, -0 is 0,
// numbers below 1e-6 or from 1e21 up get an exponent, 1e-7 or 1.5e+300), so that
// ToJSON(FromJSON(j)) is the same JSON value as j. The encoder uses the spec's tabular forms
// wherever its rules call for them: tables for arrays of uniform objects, with nested field
// groups for uniform nested objects (orders[2]{id,customer{name,country}}:), and keyed tables
// for objects of at least two uniform objects (users[2:]{age,city}: over "alice: 30,Berlin").
//
// Decoding errors are *[SyntaxError] values that give the line ("toon: line 3: ...") and wrap
// one of [ErrSyntax], [ErrIndent], [ErrCount], [ErrDuplicateKey] and [ErrTooDeep]. Work is
// linear in the size of the input, nesting is bounded (MaxDepth, by default
// 1000 containers, so that a hostile document cannot exhaust the stack), and no
// input makes the package panic.
//
// Choices the spec leaves to an implementation: Go values are normalized to JSON as
// encoding/json does (so NaN and infinities, which it refuses, give an error rather than null);
// a []byte or json.RawMessage given to Marshal is JSON text, not bytes; numbers of any size are
// kept exactly, in both directions (no host numeric domain applies to ToJSON; Unmarshal reports
// what encoding/json reports for a number a float64 cannot hold); in lenient mode a tab in
// indentation counts as one indentation level (Indent spaces). Strings with Unicode white space
// or U+FEFF at either end are quoted, which the spec requires only for space and tab.
package toon
