package negotiation_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/contentneg/contentneg/featuretags"
	"github.com/contentneg/contentneg/negotiation"
)

func problems(p *negotiation.Profile) []featuretags.Problem {
	var out []featuretags.Problem
	for _, d := range p.Diagnostics() {
		out = append(out, d.Problem)
	}
	return out
}

func TestFromSettingsShapes(t *testing.T) {
	tests := []struct {
		name         string
		give         any
		wantDeclared bool
		wantVersion  string
		wantRender   negotiation.Rendering
		wantProblems []featuretags.Problem
	}{
		{"nil: not declared, nothing to say", nil, false, "", negotiation.RenderingPassThrough, nil},
		{"decoded map", map[string]any{"version": "1.0", "features": []any{"agent"}}, true, "1.0", negotiation.RenderingStructured, nil},
		{"map with []string features", map[string]any{"version": "1.0", "features": []string{"human"}}, true, "1.0", negotiation.RenderingMarkdown, nil},
		{"typed settings", negotiation.Settings{Version: "1.2", Features: []string{"format=text"}}, true, "1.2", negotiation.RenderingText, nil},
		{"typed settings pointer", &negotiation.Settings{Version: "1.0", Features: []string{"agent"}}, true, "1.0", negotiation.RenderingStructured, nil},
		{"nil typed pointer", (*negotiation.Settings)(nil), false, "", negotiation.RenderingPassThrough, nil},
		{"typed settings without version", negotiation.Settings{Features: []string{"agent"}}, true, "1.0", negotiation.RenderingStructured, []featuretags.Problem{featuretags.MissingVersion}},
		{"raw JSON", json.RawMessage(`{"version":"1.0","features":["format=markdown"]}`), true, "1.0", negotiation.RenderingMarkdown, nil},
		{"raw JSON that is broken", json.RawMessage(`{"version":`), true, "", negotiation.RenderingPassThrough, []featuretags.Problem{featuretags.NotAnObject}},
		{"raw JSON array", json.RawMessage(`["agent"]`), true, "", negotiation.RenderingPassThrough, []featuretags.Problem{featuretags.NotAnObject}},
		{"empty object", map[string]any{}, true, "1.0", negotiation.RenderingPassThrough, []featuretags.Problem{featuretags.MissingVersion}},
		{"null version is a missing one", map[string]any{"version": nil, "features": []any{"agent"}}, true, "1.0", negotiation.RenderingStructured, []featuretags.Problem{featuretags.MissingVersion}},
		{"null features are no features", map[string]any{"version": "1.0", "features": nil}, true, "1.0", negotiation.RenderingPassThrough, nil},
		{"a string", "agent", true, "", negotiation.RenderingPassThrough, []featuretags.Problem{featuretags.NotAnObject}},
		{"a number", 1.0, true, "", negotiation.RenderingPassThrough, []featuretags.Problem{featuretags.NotAnObject}},
		{"a Go struct of another type", struct{ Features []string }{[]string{"agent"}}, true, "", negotiation.RenderingPassThrough, []featuretags.Problem{featuretags.NotAnObject}},
		{"numeric version", map[string]any{"version": 1.0, "features": []any{"agent"}}, true, "", negotiation.RenderingPassThrough, []featuretags.Problem{featuretags.BadVersion}},
		{"empty version", map[string]any{"version": "", "features": []any{"agent"}}, true, "", negotiation.RenderingPassThrough, []featuretags.Problem{featuretags.BadVersion}},
		{"version with a prefix", map[string]any{"version": "v1.0", "features": []any{"agent"}}, true, "", negotiation.RenderingPassThrough, []featuretags.Problem{featuretags.BadVersion}},
		{"absurd version", map[string]any{"version": "1" + string(make([]byte, 100)), "features": []any{"agent"}}, true, "", negotiation.RenderingPassThrough, []featuretags.Problem{featuretags.BadVersion}},
		{"major 0", map[string]any{"version": "0.9", "features": []any{"agent"}}, false, "", negotiation.RenderingPassThrough, []featuretags.Problem{featuretags.UnsupportedVersion}},
		{"major 10", map[string]any{"version": "10.0", "features": []any{"agent"}}, false, "", negotiation.RenderingPassThrough, []featuretags.Problem{featuretags.UnsupportedVersion}},
		{"three-part version 1", map[string]any{"version": "1.0.7", "features": []any{"agent"}}, true, "1.0.7", negotiation.RenderingStructured, nil},
		{"huge major number", map[string]any{"version": "99999999999999999999999", "features": []any{"agent"}}, false, "", negotiation.RenderingPassThrough, []featuretags.Problem{featuretags.UnsupportedVersion}},
		{"raw JSON null: not declared", json.RawMessage(`null`), false, "", negotiation.RenderingPassThrough, nil},
		{"features a string: a comma-separated list", map[string]any{"version": "1.0", "features": "human, format=text"}, true, "1.0", negotiation.RenderingText, []featuretags.Problem{featuretags.CommaList}},
		{"version diagnostic comes before tag diagnostics", map[string]any{"features": []any{"@"}}, true, "1.0", negotiation.RenderingPassThrough, []featuretags.Problem{featuretags.MissingVersion, featuretags.Invalid}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := negotiation.FromSettings(tt.give)
			got := []any{p.Declared(), p.Version(), p.Rendering()}
			want := []any{tt.wantDeclared, tt.wantVersion, tt.wantRender}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("declared, version, rendering (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantProblems, problems(p)); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRenderingWithExclusions(t *testing.T) {
	tests := []struct {
		give []string
		want negotiation.Rendering
	}{
		{[]string{"human", "format!=markdown"}, negotiation.RenderingText},
		{[]string{"human", "format!=markdown", "format!=text"}, negotiation.RenderingStructured},
		{[]string{"human", "format!=markdown", "format!=text", "format!=json"}, negotiation.RenderingPassThrough},
		{[]string{"agent", "format!=json"}, negotiation.RenderingText},
		{[]string{"agent", "format!=json", "format!=text"}, negotiation.RenderingMarkdown},
		{[]string{"verbosity=compact", "format!=text"}, negotiation.RenderingStructured},
		{[]string{"verbosity=verbose", "format!=markdown"}, negotiation.RenderingText},
		{[]string{"format!=markdown"}, negotiation.RenderingPassThrough},
		{[]string{"format=json", "format!=json", "human"}, negotiation.RenderingMarkdown},
		{[]string{"format=markdown", "format!=json"}, negotiation.RenderingMarkdown},
		{[]string{"agent", "verbosity=verbose"}, negotiation.RenderingStructured},
		{[]string{"!agent", "!human", "verbosity=compact"}, negotiation.RenderingText},
		{[]string{"format=toon"}, negotiation.RenderingTOON},
		{[]string{"Format=TOON", "human", "verbosity=compact"}, negotiation.RenderingTOON},
		{[]string{"format=toon", "format!=toon", "human"}, negotiation.RenderingMarkdown},
		{[]string{"agent", "format!=toon"}, negotiation.RenderingStructured},
	}
	for _, tt := range tests {
		t.Run(fmtTags(tt.give), func(t *testing.T) {
			if got := negotiation.FromTags(tt.give...).Rendering(); got != tt.want {
				t.Errorf("Rendering() = %v, want %v", got, tt.want)
			}
		})
	}
}

func fmtTags(tags []string) string {
	b, _ := json.Marshal(tags)
	return string(b)
}

func TestExcludes(t *testing.T) {
	p := negotiation.FromTags("format!=markdown", "format!=JSON", "format!=toon")
	tests := []struct {
		give negotiation.Format
		want bool
	}{
		{negotiation.FormatMarkdown, true},
		{negotiation.FormatJSON, true},
		{negotiation.FormatText, false},
		{negotiation.FormatTOON, true},
		{negotiation.FormatUnset, false},
		{negotiation.Format(42), false},
	}
	for _, tt := range tests {
		t.Run(tt.give.String(), func(t *testing.T) {
			if got := p.Excludes(tt.give); got != tt.want {
				t.Errorf("Excludes(%v) = %v, want %v", tt.give, got, tt.want)
			}
		})
	}
}

func TestMayElicitNeedsTheRealCapability(t *testing.T) {
	tests := []struct {
		name          string
		give          *negotiation.Profile
		hasCapability bool
		want          bool
	}{
		{"tag without capability", negotiation.FromTags("interactive", "elicitation"), false, false},
		{"capability without tag", negotiation.FromTags("agent"), true, true},
		{"interactive with capability", negotiation.FromTags("interactive"), true, true},
		{"not interactive with capability", negotiation.FromTags("!interactive"), true, false},
		{"both, negation wins", negotiation.FromTags("interactive", "!interactive"), true, false},
		{"not declared with capability: the SDK decides", nil, true, true},
		{"not declared without capability", nil, false, false},
		{"declared, no tags, capability", negotiation.FromTags(), true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.give.MayElicit(tt.hasCapability); got != tt.want {
				t.Errorf("MayElicit(%v) = %v, want %v", tt.hasCapability, got, tt.want)
			}
		})
	}
}

func TestNilProfileIsNotDeclared(t *testing.T) {
	var p *negotiation.Profile
	got := []any{p.Declared(), p.Version(), p.Tags().Len(), p.Audience(), p.Format(), p.Excludes(negotiation.FormatJSON),
		p.Verbosity(), p.Interactive(), p.MCPCapable(), p.WantsHints(), p.Rendering(), len(p.Diagnostics()), p.String()}
	want := []any{false, "", 0, negotiation.AudienceUnknown, negotiation.FormatUnset, false,
		negotiation.VerbosityUnset, negotiation.Unknown, negotiation.Unknown, false, negotiation.RenderingPassThrough, 0, "not declared"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("nil profile (-want +got):\n%s", diff)
	}
}

func TestUndeclaredProfileHidesItsTags(t *testing.T) {
	p := negotiation.FromSettings(map[string]any{"version": "2.0", "features": []any{"agent", "sampling"}})
	if p.Declared() || p.Tags().Len() != 0 || p.WantsHints() || p.Rendering() != negotiation.RenderingPassThrough {
		t.Errorf("a profile of an unsupported version acts on its tags: %v", p)
	}
}

func TestDiagnosticsAreACopy(t *testing.T) {
	p := negotiation.FromTags("@")
	p.Diagnostics()[0].Problem = featuretags.Trimmed
	if got := p.Diagnostics()[0].Problem; got != featuretags.Invalid {
		t.Errorf("changing the returned diagnostics changed the profile: %v", got)
	}
}

func TestSettingsMap(t *testing.T) {
	tests := []struct {
		give negotiation.Settings
		want map[string]any
	}{
		{negotiation.Settings{Features: []string{"agent"}}, map[string]any{"version": "1.0", "features": []any{"agent"}}},
		{negotiation.Settings{Version: "1.1"}, map[string]any{"version": "1.1", "features": []any{}}},
	}
	for _, tt := range tests {
		t.Run(tt.give.Version, func(t *testing.T) {
			got := tt.give.Map()
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Map() (-want +got):\n%s", diff)
			}
			if p := negotiation.FromSettings(got); !p.Declared() || len(p.Diagnostics()) != 0 {
				t.Errorf("the map does not read back cleanly: %v %v", p, p.Diagnostics())
			}
		})
	}
}

func TestStrings(t *testing.T) {
	tests := []struct {
		give fmtStringer
		want string
	}{
		{negotiation.Agent, "agent"}, {negotiation.Human, "human"}, {negotiation.AudienceUnknown, "unknown"},
		{negotiation.FormatJSON, "json"}, {negotiation.FormatText, "text"}, {negotiation.FormatMarkdown, "markdown"}, {negotiation.FormatTOON, "toon"}, {negotiation.FormatCustom, "custom"}, {negotiation.FormatUnset, "unset"},
		{negotiation.Compact, "compact"}, {negotiation.Standard, "standard"}, {negotiation.Verbose, "verbose"}, {negotiation.VerbosityUnset, "unset"},
		{negotiation.Yes, "yes"}, {negotiation.No, "no"}, {negotiation.Unknown, "unknown"},
		{negotiation.RenderingStructured, "structured"}, {negotiation.RenderingMarkdown, "markdown"}, {negotiation.RenderingText, "text"}, {negotiation.RenderingTOON, "toon"}, {negotiation.RenderingCustom, "custom"}, {negotiation.RenderingPassThrough, "pass-through"},
		{negotiation.InExtensions, "extensions"}, {negotiation.InExperimental, "experimental"}, {negotiation.NotFound, "not found"},
		{negotiation.FromTags("agent", "sampling", "format=json"), "v1.0 audience=agent format=json verbosity=unset interactive=unknown mcp-capable=unknown rendering=structured hints"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			if got := tt.give.String(); got != tt.want {
				t.Errorf("String() = %q, want %q", got, tt.want)
			}
		})
	}
	if got := negotiation.VerbosityUnset.OrStandard(); got != negotiation.Standard {
		t.Errorf("unset.OrStandard() = %v", got)
	}
	if got := negotiation.Compact.OrStandard(); got != negotiation.Compact {
		t.Errorf("compact.OrStandard() = %v", got)
	}
}

type fmtStringer interface{ String() string }
