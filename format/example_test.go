package format_test

import (
	"fmt"

	"github.com/contentneg/contentneg/format"
)

func Example() {
	for _, f := range []format.Format{format.JSON, format.Markdown, format.Text, format.TOON, format.HTML} {
		fmt.Printf("format=%s: %s, rendering %s\n", f, f.MediaType, f.Rendering)
	}
	v, ok := format.ParseVerbosity("compact")
	fmt.Println("verbosity=compact:", v, ok)
	// Output:
	// format=json: application/json, rendering structured
	// format=markdown: text/markdown, rendering markdown
	// format=text: text/plain, rendering text
	// format=toon: text/toon, rendering toon
	// format=html: text/html, rendering html
	// verbosity=compact: compact true
}
