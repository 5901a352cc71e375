package renderers

import (
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/contentneg/contentneg/format"
)

// growthSizes are the value sizes of the growth benchmarks: rendering cost must grow linearly
// across them (docs/renderers.md reports the exponent).
var growthSizes = []struct {
	name string
	size int
}{{"1KB", 1 << 10}, {"100KB", 100 << 10}, {"1MB", 1 << 20}}

// growthShapes build a value of about n bytes of one shape; several are hostile to a naive
// renderer (long runs that a look-back or a per-key scan would make quadratic).
var growthShapes = []struct {
	name  string
	value func(n int) []byte
	opts  func(n int) Options
}{
	{name: "table", value: growthTable},
	{name: "records", value: growthRecords},
	{name: "hostile", value: growthHostile},
	{name: "digits-dots", value: func(n int) []byte {
		return jsonString(strings.Repeat("1", n/2) + strings.Repeat(".", n/2-8))
	}},
	{name: "non-ascii", value: func(n int) []byte { return jsonString(strings.Repeat("東", n/3-4)) }},
	{name: "wide-object", value: growthWide, opts: func(n int) Options { return Options{Schema: wideSchema(n / 16)} }},
}

func jsonString(s string) []byte {
	b, err := encodeJSON(s)
	if err != nil {
		panic(err)
	}
	return b
}

// growthTable is a uniform array of 4-field objects.
func growthTable(n int) []byte {
	var b strings.Builder
	b.WriteByte('[')
	for i := 0; b.Len() < n-64; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":%d,"name":"item %d","path":"C:\\tmp\\%d\\","ok":true}`, i, i, i)
	}
	b.WriteByte(']')
	return []byte(b.String())
}

// growthRecords is an array of records that hold arrays.
func growthRecords(n int) []byte {
	var b strings.Builder
	b.WriteByte('[')
	for i := 0; b.Len() < n-96; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":%d,"tags":["a","b|c"],"events":[{"at":"t%d","what":"*x*"},{"at":"u","what":"# y"}]}`, i, i)
	}
	b.WriteByte(']')
	return []byte(b.String())
}

// growthHostile is an object whose values cycle through the hostile strings.
func growthHostile(n int) []byte {
	var b strings.Builder
	b.WriteByte('{')
	for i := 0; b.Len() < n-64; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"k` + strconv.Itoa(i) + `":`)
		b.Write(jsonString(hostile[i%len(hostile)]))
	}
	b.WriteByte('}')
	return []byte(b.String())
}

// growthWide is one object with about n/16 keys.
func growthWide(n int) []byte {
	var b strings.Builder
	b.WriteByte('{')
	for i := 0; i < n/16; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"key%d":%d`, n/16-i, i)
	}
	b.WriteByte('}')
	return []byte(b.String())
}

// wideSchema lists the properties key1 to keyN.
func wideSchema(n int) *Schema {
	s := &Schema{Properties: make([]Property, n)}
	for i := range s.Properties {
		s.Properties[i].Name = "key" + strconv.Itoa(i+1)
	}
	return s
}

// BenchmarkGrowth renders each shape at 1 KB, 100 KB and 1 MB as markdown and text (standard and
// compact). Compare cpu-ns/op (or ns/op on a quiet machine) across sizes: the exponent
// log(t2/t1)/log(n2/n1) must stay near 1.
func BenchmarkGrowth(b *testing.B) {
	for _, shape := range growthShapes {
		for _, sz := range growthSizes {
			value := shape.value(sz.size)
			opts := Options{}
			if shape.opts != nil {
				opts = shape.opts(sz.size)
			}
			for _, v := range []format.Verbosity{format.Standard, format.Compact} {
				opts.Verbosity = v
				for _, format := range []string{"markdown", "text"} {
					render := Generic{}.markdown
					if format == "text" {
						render = Generic{}.text
					}
					b.Run(shape.name+"/"+format+"/"+v.String()+"/"+sz.name, func(b *testing.B) {
						b.ReportAllocs()
						b.SetBytes(int64(len(value)))
						runtime.GC() // the garbage of the previous benchmark is not this one's CPU time
						cpu := cpuTime()
						for b.Loop() {
							if _, err := render(value, opts); err != nil {
								b.Fatal(err)
							}
						}
						if cpu > 0 {
							// Process CPU time (GC included) per rendering: on a machine shared
							// with other work it varies far less than wall time.
							b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
						}
					})
				}
			}
		}
	}
}
