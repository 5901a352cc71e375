package renderers

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"strings"
)

// This file is the JSON side of the TOON round trip: values read with encoding/json's tokenizer
// and compared as JSON values (what the toon package's decoder gives back is compared with what
// the renderer was given).
//
// Values are nil (null), bool, tnum (a number's text), string, []any and *tobj.

// tnum is a number as written (JSON text); numbers compare by exact decimal value.
type tnum string

// tobj is an object: members in order, keys unique.
type tobj struct {
	keys []string
	vals []any
}

func (o *tobj) set(k string, v any) bool {
	for _, have := range o.keys {
		if have == k {
			return false
		}
	}
	o.keys, o.vals = append(o.keys, k), append(o.vals, v)
	return true
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

// decodeJSON reads a JSON value as JSON decoders do: numbers as written, strings with invalid
// UTF-8 and lone surrogates as U+FFFD, a repeated key in the place where it first appears with
// the value it was given last.
func decodeJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := jsonValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("text after the value")
	}
	return v, nil
}

func jsonValue(dec *json.Decoder) (any, error) {
	t, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := t.(type) {
	case json.Delim:
		if t == '[' {
			out := []any{}
			for dec.More() {
				v, err := jsonValue(dec)
				if err != nil {
					return nil, err
				}
				out = append(out, v)
			}
			_, err := dec.Token()
			return out, err
		}
		o := &tobj{}
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return nil, err
			}
			v, err := jsonValue(dec)
			if err != nil {
				return nil, err
			}
			if !o.set(k.(string), v) {
				for i := range o.keys {
					if o.keys[i] == k {
						o.vals[i] = v
					}
				}
			}
		}
		_, err := dec.Token()
		return o, err
	case json.Number:
		return tnum(t), nil
	default:
		return t, nil // string, bool or nil
	}
}

// sameValue reports where a and b differ ("" when they are the same JSON value): objects by
// members (in any order), arrays in order, numbers by exact decimal value.
func sameValue(a, b any, path string) string {
	switch a := a.(type) {
	case *tobj:
		b, ok := b.(*tobj)
		if !ok || len(a.keys) != len(b.keys) {
			return fmt.Sprintf("%s: object %v vs %#v", path, a.keys, b)
		}
		for i, k := range a.keys {
			j := -1
			for n := range b.keys {
				if b.keys[n] == k {
					j = n
				}
			}
			if j < 0 {
				return fmt.Sprintf("%s: member %q missing", path, k)
			}
			if diff := sameValue(a.vals[i], b.vals[j], path+"."+k); diff != "" {
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
			if diff := sameValue(a[i], b[i], fmt.Sprintf("%s[%d]", path, i)); diff != "" {
				return diff
			}
		}
		return ""
	case tnum:
		b, ok := b.(tnum)
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

// sameNumber compares two number texts by exact value: each is reduced to a sign, its significant
// digits and a big.Int exponent (so 1e999999999 costs no more than its text), and small ones are
// also compared as big.Rat.
func sameNumber(a, b string) bool {
	na, da, ea := decimal(a)
	nb, db, eb := decimal(b)
	same := da == db && (da == "" || na == nb && ea.Cmp(eb) == 0)
	if len(a) < 40 && len(b) < 40 && ea.IsInt64() && eb.IsInt64() && abs64(ea.Int64()) < 1000 && abs64(eb.Int64()) < 1000 {
		ra, okA := new(big.Rat).SetString(a)
		rb, okB := new(big.Rat).SetString(b)
		if !okA || !okB || (ra.Cmp(rb) == 0) != same {
			panic(fmt.Sprintf("sameNumber(%s, %s): the two comparisons disagree", a, b))
		}
	}
	return same
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
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
