package negotiation

import (
	"fmt"
	"sync"
	"sync/atomic"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/contentneg/contentneg/featuretags"
)

// Negotiator turns a client's capability maps into a profile and logs what
// it found, knowing the formats a server added beside the built-in ones
// ([Negotiator.AddFormat]). It is safe for concurrent use. Package shaping
// makes one per server.
type Negotiator struct {
	log        *zap.Logger
	mu         sync.Mutex // serializes AddFormat
	registered atomic.Pointer[formats]
}

// New returns a Negotiator of the built-in formats that logs to logger one
// line per negotiation: debug with the resolved profile, or warn with the
// diagnostics when the client's settings had some. A nil logger logs
// nothing.
func New(logger *zap.Logger) *Negotiator {
	log := zap.NewNop()
	if logger != nil {
		log = logger.Named("negotiation")
	}
	return &Negotiator{log: log}
}

// Negotiate finds the extension's settings in a client's capability maps
// (capabilities.extensions[ExtensionID]; capabilities.experimental when
// extensions has no such key, because some published snippets put the
// settings there), turns them into a profile with the formats added to n,
// and logs one line about it. It returns nil when the client did not
// declare the extension. It never fails and never panics: whatever is wrong
// with the settings is in the log line.
//
// The settings may be what the SDKs decode from JSON (a map[string]any
// whose "features" is a []any), a [Settings] or *Settings, or the JSON text
// as a json.RawMessage. A major version other than 1 gives a profile that
// is not declared. Malformed settings close the gate (contract section 2):
// settings that are present but not an object, or whose version is not a
// version string, give a declared profile with no tags (pass-through)
// whose [Profile.ElicitationGate] is closed; so does a declaration with any
// tag or element the parse could not read (see
// featuretags.Problem.Malformed). It allocates nothing for logging when the
// level is disabled.
func (n *Negotiator) Negotiate(extensions, experimental map[string]any) *Profile {
	settings, origin := lookup(extensions, experimental)
	if origin == notFound {
		if ce := n.log.Check(zap.DebugLevel, "extension not declared"); ce != nil {
			ce.Write()
		}
		return nil
	}
	p := fromSettings(settings, n.formats())
	n.logProfile(p, origin)
	return p
}

// AddFormat registers a format name for a media type the server can render
// ("csv" for "text/csv"), so that clients may ask for it with "format=csv"
// and HTTP clients with Accept: text/csv (contract section 4). Until it is
// registered, "format=csv" is an unknown value, ignored with a diagnostic.
// The name must be a feature-tag value other than the built-in json,
// markdown, text and toon;
// the media type must have no parameters and not be a built-in one. A name
// registered again gets the new media type. It is safe to call while
// negotiating; profiles made before keep what they had.
func (n *Negotiator) AddFormat(name, mediaType string) error {
	name, mt, err := checkFormat(name, mediaType)
	if err != nil {
		return fmt.Errorf("negotiation: add format: %w", err)
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	n.registered.Store(n.registered.Load().with(name, mt))
	return nil
}

// formats returns the registered formats; nil for a nil Negotiator.
func (n *Negotiator) formats() *formats {
	if n == nil {
		return nil
	}
	return n.registered.Load()
}

// logProfile writes the one line a negotiation logs: warn with the
// diagnostics when the profile has any, debug otherwise.
func (n *Negotiator) logProfile(p *Profile, origin origin) {
	level, msg := zap.DebugLevel, "profile negotiated"
	if p != nil && len(p.diags) > 0 {
		level, msg = zap.WarnLevel, "profile negotiated with diagnostics"
	}
	ce := n.log.Check(level, msg)
	if ce == nil {
		return
	}
	fields := []zap.Field{zap.Object("profile", (*profileLog)(p)), zap.Stringer("origin", origin)}
	if p != nil && len(p.diags) > 0 {
		fields = append(fields, zap.Array("diagnostics", diagnosticList(p.diags)))
	}
	ce.Write(fields...)
}

// profileLog is a profile as structured log fields.
type profileLog Profile

// MarshalLogObject writes the profile's fields.
func (l *profileLog) MarshalLogObject(enc zapcore.ObjectEncoder) error {
	p := (*Profile)(l)
	enc.AddBool("declared", p.Declared())
	if !p.Declared() {
		return nil
	}
	enc.AddString("version", p.version)
	enc.AddString("audience", p.audience.String())
	enc.AddString("format", p.formatWord())
	enc.AddString("verbosity", p.verbosity.String())
	enc.AddString("interactive", p.interactive.String())
	enc.AddString("mcpCapable", p.mcpCapable.String())
	enc.AddBool("wantsHints", p.WantsHints())
	enc.AddString("rendering", p.rendering.String())
	if p.malformed != "" {
		enc.AddBool("malformed", true)
	}
	return nil
}

// diagnosticList logs diagnostics as quoted one-line strings, so that the
// bytes of a client's tags cannot forge log lines.
type diagnosticList []featuretags.Diagnostic

func (l diagnosticList) MarshalLogArray(enc zapcore.ArrayEncoder) error {
	for _, d := range l {
		enc.AppendString(d.String())
	}
	return nil
}
