package gosdkbackend

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// The structured content a REST client gets is byte for byte what
// json.Marshal writes for the value the client session decoded.
func TestRawSameBytesAsMarshal(t *testing.T) {
	deep := any("leaf")
	for range maxDepth + 5 {
		deep = []any{deep}
	}
	tests := []struct {
		name string
		v    any
	}{
		{name: "weather", v: map[string]any{"city": "Bern", "temp_c": 7.5, "feels_like_c": 5.0, "conditions": "cloudy", "wind": map[string]any{"kph": 12.0, "dir": "NW"}, "alerts": []any{}, "ok": true, "note": nil}},
		{name: "keys sorted as json.Marshal sorts them", v: map[string]any{"b": 1.0, "B": 2.0, "a": 3.0, "é": 4.0, "aa": 5.0, "": 6.0}},
		{name: "html and controls escaped", v: map[string]any{"<b>&": "<script>alert(1)</script> & \"q\" \\ \n\t\b\f\x01"}},
		{name: "unicode and line separators", v: []any{"Zürich", "\u2028\u2029", "\xff\xfe", "🙂"}},
		{name: "numbers", v: []any{0.0, math.Copysign(0, -1), 1.0, -1.5, 1e-6, 9.99e-7, 1e20, 1e21, 123456789012345680000.0, 0.1, 1.0 / 3, math.MaxFloat64, math.SmallestNonzeroFloat64}},
		{name: "nil map and slice", v: map[string]any{"m": map[string]any(nil), "s": []any(nil)}},
		{name: "types a decoder never makes", v: map[string]any{"n": json.Number("12"), "i": 3, "t": struct{ A int }{1}, "ss": []string{"x"}}},
		{name: "deeper than the fast path follows", v: deep},
		{name: "empty", v: map[string]any{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want, err := json.Marshal(tt.v)
			if err != nil {
				t.Fatal(err)
			}
			if got := raw(tt.v); !bytes.Equal(got, want) {
				t.Fatalf("raw:\n got %s\nwant %s", got, want)
			}
		})
	}
}

// What json.Marshal refuses or writes as null is no structured content.
func TestRawNothing(t *testing.T) {
	tests := []struct {
		name string
		v    any
	}{
		{name: "nil", v: nil},
		{name: "nil map", v: map[string]any(nil)},
		{name: "NaN", v: map[string]any{"x": math.NaN()}},
		{name: "infinity", v: []any{math.Inf(1)}},
		{name: "channel", v: map[string]any{"c": make(chan int)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := raw(tt.v); got != nil {
				t.Fatalf("raw = %s, want nil", got)
			}
		})
	}
}

// Any JSON document, decoded as the client session decodes it, encodes to
// json.Marshal's bytes.
func FuzzRawSameBytesAsMarshal(f *testing.F) {
	for _, s := range []string{`{"a":1,"b":[true,null,"x<y"],"c":{"d":1e-7}}`, `[1e21,0.000001,-0,"\u2028"]`, `"\ud800"`, `{"é":"\u0000"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		var v any
		if json.Unmarshal([]byte(doc), &v) != nil {
			return
		}
		want, err := json.Marshal(v)
		if err != nil || string(want) == "null" {
			want = nil
		}
		if got := raw(v); !bytes.Equal(got, want) {
			t.Fatalf("%s:\n got %s\nwant %s", strings.TrimSpace(doc), got, want)
		}
	})
}

func BenchmarkRaw(b *testing.B) {
	v := map[string]any{"city": "Bern", "temp_c": 7.5, "feels_like_c": 5.0, "conditions": "cloudy", "wind": map[string]any{"kph": 12.0, "dir": "NW"}, "alerts": []any{}, "ok": true}
	b.ReportAllocs()
	for b.Loop() {
		raw(v)
	}
}
