package shaping

// ReadCapabilities reads a client capability object as JSON decoders leave
// it (a map), as the stateless era's _meta envelope carries it after
// transit: its extensions, experimental and whether it has elicitation.
// Values of other types than the JSON object a decoder makes count as
// absent. It is the one translation both SDK front ends need for a
// request's own capabilities.
func ReadCapabilities(caps map[string]any) Capabilities {
	extensions, _ := caps["extensions"].(map[string]any)
	experimental, _ := caps["experimental"].(map[string]any)
	return Capabilities{Extensions: extensions, Experimental: experimental, Elicitation: caps["elicitation"] != nil}
}
