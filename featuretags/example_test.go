package featuretags_test

import (
	"fmt"
	"strings"

	"github.com/contentneg/contentneg/featuretags"
)

func ExampleParse() {
	set, diags := featuretags.Parse([]string{"agent", "Format=JSON", "!interactive", "format!=markdown", "x-acme=Terse", "format==json"})

	format, _ := set.Value("format")
	fmt.Println("agent:", set.Has("agent"))
	fmt.Println("format:", format)
	fmt.Println("not interactive:", set.Negated("interactive"))
	fmt.Println("markdown excluded:", set.Excludes("format", "markdown"))
	for tag := range set.All() {
		if strings.HasPrefix(tag.Name, "x-") {
			fmt.Println("vendor:", tag)
		}
	}
	for _, d := range diags {
		fmt.Println("diagnostic:", d)
	}
	// Output:
	// agent: true
	// format: json
	// not interactive: true
	// markdown excluded: true
	// vendor: x-acme=Terse
	// diagnostic: features[5] "format==json": not a valid feature tag; ignored
}
