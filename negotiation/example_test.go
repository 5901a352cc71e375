package negotiation_test

import (
	"fmt"

	"github.com/contentneg/contentneg/negotiation"
)

func Example() {
	// What an SDK hands over from a client's capabilities.
	extensions := map[string]any{
		negotiation.ExtensionID: map[string]any{
			"version":  "1.0",
			"features": []any{"human", "!interactive", "format!=markdown"},
		},
	}

	p := negotiation.New(nil).Negotiate(extensions, nil)
	fmt.Println("audience:", p.Audience())
	fmt.Println("rendering:", p.Rendering(), p.MediaType())
	closed, reason := p.ElicitationGate(true) // the client has the capability
	fmt.Println("elicitation gate closed:", closed, "-", reason)

	// A handler reads the profile of its client from its context:
	// p, _ := negotiation.FromContext(ctx)
	// Output:
	// audience: human
	// rendering: text text/plain
	// elicitation gate closed: true - the client declared !interactive
}

func ExampleFromTags() {
	for _, tags := range [][]string{
		{"agent"},
		{"human"},
		{"verbosity=compact"},
		{"agent", "format=markdown"},
		{"screen-reader"},
	} {
		fmt.Println(tags, "->", negotiation.FromTags(tags...).Rendering())
	}
	// Output:
	// [agent] -> structured
	// [human] -> markdown
	// [verbosity=compact] -> text
	// [agent format=markdown] -> markdown
	// [screen-reader] -> pass-through
}

func ExampleNewMemoryStore() {
	store := negotiation.NewMemoryStore(1000)
	store.Save("session-1", negotiation.FromTags("agent", "format=json"))

	p, ok := store.Load("session-1")
	fmt.Println(ok, p.Rendering())

	store.Forget("session-1") // the session ended
	_, ok = store.Load("session-1")
	fmt.Println(ok)
	// Output:
	// true structured
	// false
}
