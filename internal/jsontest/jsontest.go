// Package jsontest reads and compares JSON values for tests, independent
// of the readers under test: values read with encoding/json's tokenizer,
// compared as JSON and TOON compare them: numbers by exact value, strings
// by their text, arrays in order, objects by members (in order or not).
// The TOON package's tests and the renderers' tests both use it, and
// TOONLayout, the TOON encoders' whitespace rules.
package jsontest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"strings"
)

// Number is a number as written; numbers compare by exact decimal value.
type Number string

// Object is an object: members in order, keys unique (a repeated key: the
// first place, the last value, as JSON decoders read it).
type Object struct {
	Keys   []string
	Values []any
}

// Read reads one JSON value: a *Object, []any, Number, string, bool or nil.
func Read(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := readValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("text after the value")
	}
	return v, nil
}

func readValue(dec *json.Decoder) (any, error) {
	t, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := t.(type) {
	case json.Delim:
		if t == '[' {
			out := []any{}
			for dec.More() {
				v, err := readValue(dec)
				if err != nil {
					return nil, err
				}
				out = append(out, v)
			}
			_, err := dec.Token()
			return out, err
		}
		o := &Object{}
	members:
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return nil, err
			}
			v, err := readValue(dec)
			if err != nil {
				return nil, err
			}
			for i := range o.Keys {
				if o.Keys[i] == k {
					o.Values[i] = v
					continue members
				}
			}
			o.Keys, o.Values = append(o.Keys, k.(string)), append(o.Values, v)
		}
		_, err := dec.Token()
		return o, err
	case json.Number:
		return Number(t), nil
	default:
		return t, nil // string, bool or nil
	}
}

// Compare says how two values compare.
type Compare struct {
	// Ordered also compares the order of object members.
	Ordered bool
	// Numbers compares two numbers at path ("" when they are the same);
	// nil compares them by exact value.
	Numbers func(a, b Number, path string) string
}

// Texts reports where the JSON texts a and b differ as values ("" when
// they are the same).
func (c Compare) Texts(a, b []byte) string {
	va, err := Read(a)
	if err != nil {
		return fmt.Sprintf("read %s: %v", Clip(string(a)), err)
	}
	vb, err := Read(b)
	if err != nil {
		return fmt.Sprintf("read %s: %v", Clip(string(b)), err)
	}
	return c.Values(va, vb, "$")
}

// Values reports where a and b (as Read gives them) differ, under path
// ("" when they are the same).
func (c Compare) Values(a, b any, path string) string {
	switch a := a.(type) {
	case *Object:
		b, ok := b.(*Object)
		if !ok || len(a.Keys) != len(b.Keys) {
			return fmt.Sprintf("%s: object %q vs %#v", path, a.Keys, b)
		}
		for i, k := range a.Keys {
			j := -1
			for n := range b.Keys {
				if b.Keys[n] == k {
					j = n
				}
			}
			if j < 0 || c.Ordered && j != i {
				return fmt.Sprintf("%s: member %q missing or moved (%q vs %q)", path, k, a.Keys, b.Keys)
			}
			if diff := c.Values(a.Values[i], b.Values[j], path+"."+k); diff != "" {
				return diff
			}
		}
		return ""
	case []any:
		b, ok := b.([]any)
		if !ok || len(a) != len(b) {
			return fmt.Sprintf("%s: array of %d vs %#v", path, len(a), b)
		}
		for i := range a {
			if diff := c.Values(a[i], b[i], fmt.Sprintf("%s[%d]", path, i)); diff != "" {
				return diff
			}
		}
		return ""
	case Number:
		b, ok := b.(Number)
		if !ok {
			return fmt.Sprintf("%s: number %s vs %#v", path, a, b)
		}
		if c.Numbers != nil {
			return c.Numbers(a, b, path)
		}
		if !SameNumber(string(a), string(b)) {
			return fmt.Sprintf("%s: number %s vs %s", path, a, b)
		}
		return ""
	default:
		if a != b {
			return fmt.Sprintf("%s: %#v vs %#v", path, a, b)
		}
		return ""
	}
}

// SameNumber compares two JSON number texts by exact value: each is
// reduced to a sign, its significant digits and a big.Int exponent (so
// 1e999999999 costs no more than its text).
func SameNumber(a, b string) bool {
	na, da, ea := decimal(a)
	nb, db, eb := decimal(b)
	return da == db && (da == "" || na == nb && ea.Cmp(eb) == 0)
}

// decimal returns the sign, the significant digits (no leading or trailing
// zeros; "" for zero) and the exponent e of a number's text, whose value is
// 0.DIGITS * 10^e.
func decimal(s string) (neg bool, digits string, e *big.Int) {
	neg = strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	mant, exp, _ := strings.Cut(strings.ToLower(s), "e")
	intPart, frac, _ := strings.Cut(mant, ".")
	e = new(big.Int)
	if exp != "" {
		e.SetString(strings.TrimPrefix(exp, "+"), 10)
	}
	all := intPart + frac
	point := len(intPart)
	trimmed := strings.TrimLeft(all, "0")
	point -= len(all) - len(trimmed)
	digits = strings.TrimRight(trimmed, "0")
	return neg, digits, e.Add(e, big.NewInt(int64(point)))
}

// Clip returns s, cut after 40 bytes for a message.
func Clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

// TOONLayout checks the whitespace rules of TOON's encoders (section 12), which a decoder
// forgives: LF only, no trailing newline, no trailing spaces, no blank lines, indentation in
// multiples of two spaces and no tabs in it, and no line that a decoder would drop as a comment
// (a '#' after the indentation, section 5.1).
func TOONLayout(doc string) error {
	if doc == "" {
		return nil
	}
	if strings.HasSuffix(doc, "\n") {
		return errors.New("trailing newline")
	}
	for i, raw := range strings.Split(doc, "\n") {
		n := len(raw) - len(strings.TrimLeft(raw, " "))
		switch {
		case strings.ContainsRune(raw, '\r'):
			return fmt.Errorf("line %d: carriage return", i+1)
		case strings.TrimSpace(raw) == "":
			return fmt.Errorf("line %d: blank line", i+1)
		case n%2 != 0:
			return fmt.Errorf("line %d: indentation of %d spaces", i+1, n)
		case raw[n] == '\t':
			return fmt.Errorf("line %d: tab in indentation", i+1)
		case raw[n] == '#':
			return fmt.Errorf("line %d: reads as a comment", i+1)
		case strings.HasSuffix(raw, " "):
			return fmt.Errorf("line %d: trailing space", i+1)
		}
	}
	return nil
}
