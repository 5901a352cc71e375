package rest

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// weatherSchema is get_weather's input schema in the demo.
const weatherSchema = `{"type":"object","properties":{"city":{"type":"string","description":"city name"}},"required":["city"],"additionalProperties":false}`

// unknownKeys is an arguments object with n unknown members beside city.
func unknownKeys(n int) json.RawMessage {
	var b strings.Builder
	b.WriteString(`{"city":"Bern"`)
	for i := range n {
		b.WriteString(`,"k` + strconv.Itoa(i) + `":1`)
	}
	b.WriteString("}")
	return json.RawMessage(b.String())
}

func BenchmarkValidateUnknownKeys(b *testing.B) {
	h := &handler{}
	args := unknownKeys(80000)
	b.ReportAllocs()
	b.SetBytes(int64(len(args)))
	for b.Loop() {
		if e := h.validateArguments(json.RawMessage(weatherSchema), args); e == nil {
			b.Fatal("no error")
		}
	}
}
