package contentnegfx

// The module's constructor, its inputs and its install step, for the test
// that runs them without fx.
type (
	Params    = params
	NamedTool = namedTool
)

var (
	New     = newMiddleware
	Install = install
)
