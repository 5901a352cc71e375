package toon

import (
	"fmt"
	"strings"
	"testing"
)

// benchValues are a table of records, records with nested objects and lists, and a keyed table.
func benchValues() map[string][]byte {
	var table, nested, keyed strings.Builder
	table.WriteString(`{"rows":[`)
	nested.WriteString(`[`)
	keyed.WriteString(`{`)
	for i := range 2000 {
		if i > 0 {
			table.WriteByte(',')
			nested.WriteByte(',')
			keyed.WriteByte(',')
		}
		fmt.Fprintf(&table, `{"id":%d,"name":"Station %d, Nord","temp":%d.25,"ok":true,"note":null}`, i, i, i%40-10)
		fmt.Fprintf(&nested, `{"id":%d,"tags":["a","b c"],"geo":{"lat":46.%d,"lon":7.%d},"items":[{"k":1},{"k":%d,"x":"-"}]}`, i, i, i, i)
		fmt.Fprintf(&keyed, `"host-%d":{"addr":"10.0.%d.%d","port":%d,"meta":{"zone":"z%d"}}`, i, i/256, i%256, 8000+i, i%3)
	}
	table.WriteString(`]}`)
	nested.WriteString(`]`)
	keyed.WriteString(`}`)
	return map[string][]byte{"table": []byte(table.String()), "nested": []byte(nested.String()), "keyed": []byte(keyed.String())}
}

func BenchmarkFromJSON(b *testing.B) {
	for name, value := range benchValues() {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(value)))
			for b.Loop() {
				if _, err := FromJSON(value, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkToJSON(b *testing.B) {
	for name, value := range benchValues() {
		doc, err := FromJSON(value, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(doc)))
			for b.Loop() {
				if _, err := ToJSON(doc, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
