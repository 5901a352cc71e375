package shaping_test

import (
	"fmt"

	"github.com/contentneg/contentneg/negotiation"
	"github.com/contentneg/contentneg/shaping"
)

func ExampleShaper_Tool() {
	s := shaping.New(nil)
	result := shaping.Result{
		Tool:            "get_weather",
		Value:           []byte(`{"conditions":"Light rain","location":"Bern","temperature_c":8.1}`),
		HasOutputSchema: true,
	}
	for _, tags := range [][]string{{"agent"}, {"human"}, {"format=text", "verbosity=compact"}} {
		plan := s.Tool(negotiation.FromTags(tags...), result)
		fmt.Printf("%v -> %v, keep structuredContent: %v\n%s\n", tags, plan.Rendering, !plan.DropStructured, plan.Text)
	}
	// Output:
	// [agent] -> structured, keep structuredContent: true
	// {"conditions":"Light rain","location":"Bern","temperature_c":8.1}
	// [human] -> markdown, keep structuredContent: true
	// - **Conditions:** Light rain
	// - **Location:** Bern
	// - **Temperature c:** 8.1
	// [format=text verbosity=compact] -> text, keep structuredContent: true
	// conditions="Light rain" location=Bern temperature_c=8.1
}
