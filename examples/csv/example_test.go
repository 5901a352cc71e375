package main

// Example runs the command: what go run ./examples/csv prints.
func Example() {
	main()
	// Output:
	// A server that renders text/csv, a client with format=csv:
	// name,population,elevation_m
	// Zürich,421878,408
	// Bern,134794,540
	//
	// A server without it: the tag is unknown (a diagnostic), and the client gets its usual rendering:
	// WARN	profile negotiated with diagnostics	{"profile": {"declared": true, "version": "1.0", "audience": "human", "format": "unset", "verbosity": "unset", "interactive": "unknown", "mcpCapable": "unknown", "wantsHints": false, "rendering": "markdown"}, "origin": "extensions", "diagnostics": ["features[0] \"format=csv\": not a value the registry lists for this key; ignored"]}
	// ## Cities
	//
	// | Name | Population | Elevation m |
	// | --- | --- | --- |
	// | Zürich | 421878 | 408 |
	// | Bern | 134794 | 540 |
}
