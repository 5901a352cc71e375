// Package clientcaps translates a client capability object as JSON
// decoders leave it (a map), as the stateless era's _meta envelope carries
// it after transit, into shaping.Capabilities: the one translation both
// SDK front ends need for a request's own capabilities.
package clientcaps

import "github.com/contentneg/contentneg/shaping"

// Read reads caps: its extensions, experimental and whether it has
// elicitation. Values of other types than the JSON object a decoder makes
// count as absent.
func Read(caps map[string]any) shaping.Capabilities {
	extensions, _ := caps["extensions"].(map[string]any)
	experimental, _ := caps["experimental"].(map[string]any)
	return shaping.Capabilities{Extensions: extensions, Experimental: experimental, Elicitation: caps["elicitation"] != nil}
}
