package journeymcp

import (
	"fmt"

	"github.com/contentneg/contentneg/format"
	"github.com/contentneg/contentneg/renderers"
	"github.com/contentneg/contentneg/shaping"
)

// Tools returns the journey server's rendering configuration per tool:
// find_connections reads as an itinerary (markdown templates at each
// verbosity, plain-text templates for terminals and compact agents);
// get_station is left to the generic renderers, with units for its
// coordinates at verbose.
func Tools() map[string]shaping.Tool {
	connections, err := renderers.NewTemplate(renderers.TemplateSpec{
		Markdown: map[format.Verbosity]string{
			format.Compact:  connectionsCompactMD,
			format.Standard: connectionsStandardMD,
			format.Verbose:  connectionsVerboseMD,
		},
		Text: map[format.Verbosity]string{
			format.Compact:  connectionsCompactText,
			format.Standard: connectionsStandardText,
			format.Verbose:  connectionsVerboseText,
		},
		Funcs: TimeFuncs(),
	})
	if err != nil {
		panic(fmt.Sprintf("journeymcp: the find_connections templates do not compile: %v", err)) // a programming error, caught by every test
	}
	return map[string]shaping.Tool{
		FindConnections: {Renderer: connections},
		GetStation:      {Units: map[string]string{"latitude": "°", "longitude": "°"}},
	}
}
