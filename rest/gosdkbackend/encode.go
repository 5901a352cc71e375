package gosdkbackend

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"sync"
)

// raw encodes v (a result's structuredContent, as the client session
// decoded it) as json.Marshal does; nil when v is nil, null or cannot be
// encoded.
func raw(v any) json.RawMessage {
	if v == nil {
		return nil
	}
	bp := bufPool.Get().(*[]byte)
	buf, ok := appendValue((*bp)[:0], v, 0)
	var b []byte
	if ok {
		b = append([]byte(nil), buf...) // one allocation, of the exact size
	}
	if cap(buf) <= maxPooledBuf {
		*bp = buf[:0]
		bufPool.Put(bp)
	}
	if !ok {
		var err error
		if b, err = json.Marshal(v); err != nil {
			return nil
		}
	}
	if string(b) == "null" {
		return nil
	}
	return b
}

// maxDepth bounds the nesting appendValue follows; deeper values go to
// json.Marshal.
const maxDepth = 64

// bufPool holds the buffers raw encodes into; one that grew past
// maxPooledBuf is dropped rather than kept.
var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

const maxPooledBuf = 64 << 10

// keysPool holds the slices appendValue sorts a map's keys in.
var keysPool = sync.Pool{New: func() any { s := make([]string, 0, 16); return &s }}

// appendValue appends the JSON of v, byte for byte what json.Marshal
// writes, for the values a decoded JSON document holds (maps of string to
// any, slices of any, strings, float64, bool, nil) whose strings need no
// escaping. For anything else it reports false, and the caller uses
// json.Marshal: the fast path never decides a byte json.Marshal would write
// differently.
func appendValue(b []byte, v any, depth int) ([]byte, bool) {
	if depth > maxDepth {
		return b, false
	}
	switch v := v.(type) {
	case nil:
		return append(b, "null"...), true
	case bool:
		return strconv.AppendBool(b, v), true
	case string:
		return appendString(b, v)
	case float64:
		// json.Marshal writes 'f' format in [1e-6, 1e21) and zero; the
		// exponent form (and NaN, infinities) are left to it.
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return b, false
		}
		if a := math.Abs(v); a != 0 && (a < 1e-6 || a >= 1e21) {
			return b, false
		}
		return strconv.AppendFloat(b, v, 'f', -1, 64), true
	case []any:
		if v == nil {
			return append(b, "null"...), true
		}
		b = append(b, '[')
		for i, e := range v {
			if i > 0 {
				b = append(b, ',')
			}
			var ok bool
			if b, ok = appendValue(b, e, depth+1); !ok {
				return b, false
			}
		}
		return append(b, ']'), true
	case map[string]any:
		if v == nil {
			return append(b, "null"...), true
		}
		kp := keysPool.Get().(*[]string)
		keys := (*kp)[:0]
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b = append(b, '{')
		ok := true
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			if b, ok = appendString(b, k); !ok {
				break
			}
			b = append(b, ':')
			if b, ok = appendValue(b, v[k], depth+1); !ok {
				break
			}
		}
		clear(keys)
		*kp = keys[:0]
		keysPool.Put(kp)
		return append(b, '}'), ok
	}
	return b, false
}

// appendString appends s quoted when it holds only printable ASCII that
// json.Marshal writes as is (no quote, backslash, or <, >, & which it
// escapes for HTML); otherwise it reports false.
func appendString(b []byte, s string) ([]byte, bool) {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20, c >= 0x7f, c == '"', c == '\\', c == '<', c == '>', c == '&':
			return b, false
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"'), true
}
