package toon

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"strings"
)

// This file is the tests' JSON side, independent of the package's own JSON reader: values read
// with encoding/json's tokenizer, compared as the spec compares them (section 2): numbers by
// exact value, strings by their text, arrays in order, objects by members (in order or not).

// jnum is a number as written; numbers compare by exact decimal value.
type jnum string

// jobj is an object: members in order, keys unique (a repeated key: first place, last value).
type jobj struct {
	keys []string
	vals []any
}

// readJSON reads a JSON value as JSON decoders do.
func readJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := readJSONValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("text after the value")
	}
	return v, nil
}

func readJSONValue(dec *json.Decoder) (any, error) {
	t, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := t.(type) {
	case json.Delim:
		if t == '[' {
			out := []any{}
			for dec.More() {
				v, err := readJSONValue(dec)
				if err != nil {
					return nil, err
				}
				out = append(out, v)
			}
			_, err := dec.Token()
			return out, err
		}
		o := &jobj{}
	members:
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return nil, err
			}
			v, err := readJSONValue(dec)
			if err != nil {
				return nil, err
			}
			for i := range o.keys {
				if o.keys[i] == k {
					o.vals[i] = v
					continue members
				}
			}
			o.keys, o.vals = append(o.keys, k.(string)), append(o.vals, v)
		}
		_, err := dec.Token()
		return o, err
	case json.Number:
		return jnum(t), nil
	default:
		return t, nil // string, bool or nil
	}
}

// sameJSON reports where the JSON texts a and b differ as values ("" when they are the same);
// ordered also compares the order of members.
func sameJSON(a, b []byte, ordered bool) string {
	va, err := readJSON(a)
	if err != nil {
		return fmt.Sprintf("read %s: %v", clip(string(a)), err)
	}
	vb, err := readJSON(b)
	if err != nil {
		return fmt.Sprintf("read %s: %v", clip(string(b)), err)
	}
	return sameValue(va, vb, "$", ordered)
}

func sameValue(a, b any, path string, ordered bool) string {
	switch a := a.(type) {
	case *jobj:
		b, ok := b.(*jobj)
		if !ok || len(a.keys) != len(b.keys) {
			return fmt.Sprintf("%s: object %q vs %#v", path, a.keys, b)
		}
		for i, k := range a.keys {
			j := -1
			for n := range b.keys {
				if b.keys[n] == k {
					j = n
				}
			}
			if j < 0 || ordered && j != i {
				return fmt.Sprintf("%s: member %q missing or moved (%q vs %q)", path, k, a.keys, b.keys)
			}
			if diff := sameValue(a.vals[i], b.vals[j], path+"."+k, ordered); diff != "" {
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
			if diff := sameValue(a[i], b[i], fmt.Sprintf("%s[%d]", path, i), ordered); diff != "" {
				return diff
			}
		}
		return ""
	case jnum:
		b, ok := b.(jnum)
		if !ok || !sameNumber(string(a), string(b)) {
			return fmt.Sprintf("%s: number %s vs %#v", path, a, b)
		}
		return ""
	default:
		if a != b {
			return fmt.Sprintf("%s: %#v vs %#v", path, a, b)
		}
		return ""
	}
}

// sameNumber compares two JSON number texts by exact value: each is reduced to a sign, its
// significant digits and a big.Int exponent (so 1e999999999 costs no more than its text).
func sameNumber(a, b string) bool {
	na, da, ea := decimal(a)
	nb, db, eb := decimal(b)
	return da == db && (da == "" || na == nb && ea.Cmp(eb) == 0)
}

// decimal returns the sign, the significant digits (no leading or trailing zeros; "" for zero)
// and the exponent e of a number's text, whose value is 0.DIGITS * 10^e.
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
