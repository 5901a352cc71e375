package negotiation

import (
	"fmt"
	"sync"
	"sync/atomic"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/contentneg/contentneg/featuretags"
)

// Options configures a [Negotiator]. A nil *Options means the defaults.
type Options struct {
	// Logger receives one line per negotiation: debug with the resolved
	// profile, or warn when the client's settings had diagnostics. nil
	// means zap.NewNop().
	Logger *zap.Logger
}

// Negotiator turns a client's capability maps into a profile and logs what
// it found. It is safe for concurrent use.
type Negotiator struct {
	log        *zap.Logger
	mu         sync.Mutex // serializes AddFormat
	registered atomic.Pointer[formats]
}

// New returns a Negotiator.
func New(opts *Options) *Negotiator {
	log := zap.NewNop()
	if opts != nil && opts.Logger != nil {
		log = opts.Logger.Named("negotiation")
	}
	return &Negotiator{log: log}
}

// Negotiate finds the extension's settings in a client's capability maps
// (see [Lookup]), builds the profile (see [FromSettings]) and logs one line
// about it. It allocates nothing for logging when the level is disabled.
func (n *Negotiator) Negotiate(extensions, experimental map[string]any) *Profile {
	settings, origin := Lookup(extensions, experimental)
	if origin == NotFound {
		if ce := n.log.Check(zap.DebugLevel, "extension not declared"); ce != nil {
			ce.Write()
		}
		return nil
	}
	p := n.FromSettings(settings)
	n.logProfile(p, origin)
	return p
}

// FromSettings is [FromSettings] with the formats registered with
// [Negotiator.AddFormat]: "format=csv" is then a known value.
func (n *Negotiator) FromSettings(settings any) *Profile {
	return fromSettings(settings, n.formats())
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
func (n *Negotiator) logProfile(p *Profile, origin Origin) {
	level, msg := zap.DebugLevel, "profile negotiated"
	if p != nil && len(p.diags) > 0 {
		level, msg = zap.WarnLevel, "profile negotiated with diagnostics"
	}
	ce := n.log.Check(level, msg)
	if ce == nil {
		return
	}
	fields := []zap.Field{zap.Object("profile", p), zap.Stringer("origin", origin)}
	if p != nil && len(p.diags) > 0 {
		fields = append(fields, zap.Array("diagnostics", diagnosticList(p.diags)))
	}
	ce.Write(fields...)
}

// MarshalLogObject writes the profile as structured log fields.
func (p *Profile) MarshalLogObject(enc zapcore.ObjectEncoder) error {
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
