package shaping

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"

	"github.com/contentneg/contentneg/negotiation"
	"github.com/contentneg/contentneg/renderers"
)

// mirror is what content carries beside structuredContent in the
// structured rendering for clients that declared format=json themselves
// ([Options].Mirror).
type mirror uint8

const (
	mirrorNone        mirror = iota // no text block; structuredContent alone
	mirrorJSON                      // one text block with the minified JSON
	mirrorCompactText               // one text block with the compact text rendering
)

// The values of [Options].Mirror.
const (
	mirrorNameJSON = "json"
	mirrorNameText = "text"
)

// mirrorOf reads [Options].Mirror: any value but "" and "text" is the
// JSON mirror ([Shaper.Check] reports those other than "json").
func mirrorOf(name string) mirror {
	switch name {
	case "":
		return mirrorNone
	case mirrorNameText:
		return mirrorCompactText
	}
	return mirrorJSON
}

// Options configures a [Shaper]. A nil *Options means the defaults.
type Options struct {
	// Logger receives one debug line per negotiation, warnings for clients'
	// diagnostics and renderer failures, and every gated elicitation
	// (debug). nil means zap.NewNop().
	Logger *zap.Logger
	// Mirror is the text block beside structuredContent in the structured
	// rendering for clients that declared "format=json" themselves
	// (contract section 5): "" (the default) for none, structuredContent
	// alone, since the client said it reads structured content and a
	// mirror would double its tokens; "json" for the minified JSON; "text"
	// for the compact text rendering. [Shaper.Check] reports any other
	// value. Other clients that get the structured rendering (an "agent"
	// without an explicit format, a format=json chosen by the format
	// argument or by the default tags) always get the JSON mirror the MCP
	// specification recommends for backwards compatibility.
	Mirror string
	// Store keeps profiles by session id for transports where the SDK does
	// not keep a session's initialize capabilities (resolution step 3).
	// nil means none.
	Store negotiation.Store
	// Refusal is the answer the elicitation gate gives in place of a client
	// that cannot answer: decline (the zero Refusal, the default) or
	// negotiation.Cancel.
	Refusal negotiation.Refusal
	// QuestionTimeout bounds how long an elicitation put to a client waits
	// for its answer before it ends as "cancel" (see [Send]).
	// Zero means five minutes.
	QuestionTimeout time.Duration
	// Tools configures the rendering of individual tools (and resource URIs
	// or URI templates) by name, as [Shaper.Register] does.
	Tools map[string]Tool
	// Recover turns a panic in a request handler into a failed request (a
	// tools/call result with isError, an internal error for other
	// requests) and one error log line, and the server goes on serving; the
	// panic's value never reaches the client. Off by default: an SDK that
	// recovers nothing lets a panic end the process.
	Recover bool
	// Default are the feature tags a client gets when it declares nothing
	// (contract section 1, step 4 of the resolution order): the
	// operator's choice, not the client's. Off by default, so that such
	// clients get the handler's results as they are. A feature may list
	// several tags separated by commas ("human, format=markdown", as a
	// command-line flag gives them). Check them with [Shaper.Check] when
	// the server starts; see docs/defaults.md for what each choice costs
	// the clients that parse the JSON mirror.
	Default negotiation.Settings
	// FormatArgument, when not empty, is the name of an optional argument
	// added to every tool's advertised input schema (contract section 1):
	// the model sets it to a format name ("markdown", "json", a registered
	// "csv") to get that call's result in that format, whatever the
	// client declared. It is taken out of the arguments before the SDK
	// validates them and before the handler; a tool with a property of
	// that name keeps it as its own. "json" gives the structured rendering
	// with its minified JSON mirror. See [Shaper.ToolInputSchema] and
	// [Shaper.TakeArgument].
	FormatArgument string
}

// Tool is the rendering settings of one tool (or resource URI, or URI
// template), registered by name in [Options].Tools or with
// [Shaper.Register].
type Tool struct {
	// Renderer renders the tool's values as markdown and plain text; nil
	// means renderers.Generic. Further media types are registered with
	// [Shaper.Handle].
	Renderer renderers.Renderer
	// Title is shown as a heading (markdown) or first line (text); empty for none.
	Title string
	// Units maps field names to units shown at verbose verbosity ("°C").
	Units map[string]string
	// Markdown says the tool answers in markdown text: for clients that get
	// the text rendering, its text is converted to plain text. Text of
	// other tools is never guessed to be markdown, and passes through.
	Markdown bool
	// Verbatim says the tool's text is a document, such as a file's
	// contents: every client gets the result exactly as the handler gave
	// it, final newline included. Its text is never read as a JSON value,
	// converted or rendered; only hints may be added, in a block of their
	// own. Use it for tools whose output a client may need to quote back
	// byte for byte (read_file, a template, a diff).
	Verbatim bool
}

// Shaper makes the contract's decisions for the requests of one server, or
// several. It holds what the server registered (each tool's and resource's
// settings and renderers, the formats it adds), the sessions it keeps and
// the elicitations open. Make one with [New]; front ends give it, with each
// request, to [ServeTool], [ServeResource], [ServePrompt], [Serve] and
// [Send]. It is safe for concurrent use.
type Shaper struct {
	log         *zap.Logger
	mirror      mirror
	mirrorName  string // Options.Mirror, for Check
	refusal     negotiation.Refusal
	negotiator  *negotiation.Negotiator
	registry    *registry
	sessions    sessions
	questions   questions
	schemas     schemaCache
	recover     bool
	defaults    negotiation.Settings
	def         atomic.Pointer[defaultTags] // the checked default; reset by AddFormat
	argument    string
	warnDefault sync.Once
	// unread is the profile of a client whose declaration cannot be read
	// (Request.Unreadable) when no default applies: declared, with no
	// preference, so that its results pass through and the gate is closed.
	unread *negotiation.Profile
}

// New returns a Shaper.
func New(opts *Options) *Shaper {
	if opts == nil {
		opts = &Options{}
	}
	log := opts.Logger
	if log == nil {
		log = zap.NewNop()
	}
	s := &Shaper{
		log:        log.Named("contentneg"),
		mirror:     mirrorOf(opts.Mirror),
		mirrorName: opts.Mirror,
		refusal:    opts.Refusal,
		negotiator: negotiation.New(log),
		registry:   newRegistry(opts.Tools),
		recover:    opts.Recover,
		defaults:   opts.Default,
		argument:   opts.FormatArgument,
	}
	s.unread = s.negotiator.Negotiate(map[string]any{ExtensionID: map[string]any{"version": "1.0", "features": []any{}}}, nil)
	s.sessions.store = opts.Store
	s.questions.timeout = opts.QuestionTimeout
	if s.questions.timeout <= 0 {
		s.questions.timeout = defaultQuestionTimeout
	}
	return s
}

// Register sets how the named tool's values are rendered as markdown and
// text, replacing any earlier registration. Resources use the same
// registry: name is then a resource URI, or a URI template
// ("weather://{city}") that covers every URI it matches. Registering while
// serving is safe: a call under way keeps the registrations it started
// with.
func (s *Shaper) Register(name string, t Tool) {
	s.registry.update(func(tab *table) { tab.register(name, t) })
}

// Handle registers r as the renderer of mediaType for the named tool (or
// resource URI, or URI template). Clients get it when their profile asks
// for that media type: for a media type other than the built-in markdown,
// text and TOON, register its format name with [Shaper.AddFormat] too. A nil r removes the
// registration.
func (s *Shaper) Handle(name, mediaType string, r renderers.Renderer) {
	s.registry.update(func(t *table) { t.handleName(name, mediaType, r) })
}

// AddFormat makes a further media type negotiable under a format name
// ("csv" for "text/csv"): clients may then ask for it with "format=csv",
// and HTTP clients with Accept. generic, when not nil, renders it for every
// tool without a renderer of its own; tools that have neither get the
// structured rendering. See negotiation.Negotiator.AddFormat for the rules
// on names.
func (s *Shaper) AddFormat(name, mediaType string, generic renderers.Renderer) error {
	if err := s.negotiator.AddFormat(name, mediaType); err != nil {
		return fmt.Errorf("shaping: %w", err)
	}
	if generic != nil {
		s.registry.update(func(t *table) { t.handleGeneric(mediaType, generic) })
	}
	s.def.Store(nil) // the default may name the format
	return nil
}

// Negotiator returns the negotiator the shaper resolves profiles with; it
// knows the formats added with [Shaper.AddFormat].
func (s *Shaper) Negotiator() *negotiation.Negotiator { return s.negotiator }
