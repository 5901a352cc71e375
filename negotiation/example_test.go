package negotiation_test

import (
	"context"
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
	fmt.Println("rendering:", p.Rendering())
	fmt.Println("may elicit (client has the capability):", p.MayElicit(true))

	// The middleware puts the profile in each handler's context.
	ctx := negotiation.WithProfile(context.Background(), p)
	if got, ok := negotiation.FromContext(ctx); ok {
		fmt.Println("from context:", got.Rendering())
	}
	// Output:
	// audience: human
	// rendering: text
	// may elicit (client has the capability): false
	// from context: text
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

func ExampleMemoryStore() {
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
