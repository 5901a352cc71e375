package negotiation_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/contentneg/contentneg/featuretags"
	"github.com/contentneg/contentneg/format"
	"github.com/contentneg/contentneg/internal/tagspec"
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
		wantRender   format.Rendering
		wantProblems []featuretags.Problem
	}{
		{"nil: not declared, nothing to say", nil, false, "", format.RenderingPassThrough, nil},
		{"decoded map", map[string]any{"version": "1.0", "features": []any{"agent"}}, true, "1.0", format.RenderingStructured, nil},
		{"map with []string features", map[string]any{"version": "1.0", "features": []string{"human"}}, true, "1.0", format.RenderingMarkdown, nil},
		{"typed settings", negotiation.Settings{Version: "1.2", Features: []string{"format=text"}}, true, "1.2", format.RenderingText, nil},
		{"typed settings pointer", &negotiation.Settings{Version: "1.0", Features: []string{"agent"}}, true, "1.0", format.RenderingStructured, nil},
		{"nil typed pointer", (*negotiation.Settings)(nil), false, "", format.RenderingPassThrough, nil},
		{"typed settings without version", negotiation.Settings{Features: []string{"agent"}}, true, "1.0", format.RenderingStructured, []featuretags.Problem{tagspec.MissingVersion}},
		{"raw JSON", json.RawMessage(`{"version":"1.0","features":["format=markdown"]}`), true, "1.0", format.RenderingMarkdown, nil},
		{"raw JSON that is broken", json.RawMessage(`{"version":`), true, "", format.RenderingPassThrough, []featuretags.Problem{tagspec.NotAnObject}},
		{"raw JSON array", json.RawMessage(`["agent"]`), true, "", format.RenderingPassThrough, []featuretags.Problem{tagspec.NotAnObject}},
		{"empty object", map[string]any{}, true, "1.0", format.RenderingPassThrough, []featuretags.Problem{tagspec.MissingVersion}},
		{"null version is a missing one", map[string]any{"version": nil, "features": []any{"agent"}}, true, "1.0", format.RenderingStructured, []featuretags.Problem{tagspec.MissingVersion}},
		{"null features are no features", map[string]any{"version": "1.0", "features": nil}, true, "1.0", format.RenderingPassThrough, nil},
		{"a string", "agent", true, "", format.RenderingPassThrough, []featuretags.Problem{tagspec.NotAnObject}},
		{"a number", 1.0, true, "", format.RenderingPassThrough, []featuretags.Problem{tagspec.NotAnObject}},
		{"a Go struct of another type", struct{ Features []string }{[]string{"agent"}}, true, "", format.RenderingPassThrough, []featuretags.Problem{tagspec.NotAnObject}},
		{"numeric version", map[string]any{"version": 1.0, "features": []any{"agent"}}, true, "", format.RenderingPassThrough, []featuretags.Problem{tagspec.BadVersion}},
		{"empty version", map[string]any{"version": "", "features": []any{"agent"}}, true, "", format.RenderingPassThrough, []featuretags.Problem{tagspec.BadVersion}},
		{"version with a prefix", map[string]any{"version": "v1.0", "features": []any{"agent"}}, true, "", format.RenderingPassThrough, []featuretags.Problem{tagspec.BadVersion}},
		{"absurd version", map[string]any{"version": "1" + string(make([]byte, 100)), "features": []any{"agent"}}, true, "", format.RenderingPassThrough, []featuretags.Problem{tagspec.BadVersion}},
		{"major 0", map[string]any{"version": "0.9", "features": []any{"agent"}}, false, "", format.RenderingPassThrough, []featuretags.Problem{tagspec.UnsupportedVersion}},
		{"major 10", map[string]any{"version": "10.0", "features": []any{"agent"}}, false, "", format.RenderingPassThrough, []featuretags.Problem{tagspec.UnsupportedVersion}},
		{"three-part version 1", map[string]any{"version": "1.0.7", "features": []any{"agent"}}, true, "1.0.7", format.RenderingStructured, nil},
		{"huge major number", map[string]any{"version": "99999999999999999999999", "features": []any{"agent"}}, false, "", format.RenderingPassThrough, []featuretags.Problem{tagspec.UnsupportedVersion}},
		{"raw JSON null: not declared", json.RawMessage(`null`), false, "", format.RenderingPassThrough, nil},
		{"features a string: a comma-separated list", map[string]any{"version": "1.0", "features": "human, format=text"}, true, "1.0", format.RenderingText, []featuretags.Problem{tagspec.CommaList}},
		{"version diagnostic comes before tag diagnostics", map[string]any{"features": []any{"@"}}, true, "1.0", format.RenderingPassThrough, []featuretags.Problem{tagspec.MissingVersion, tagspec.Invalid}},
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
		want format.Rendering
	}{
		{[]string{"human", "format!=markdown"}, format.RenderingText},
		{[]string{"human", "format!=markdown", "format!=text"}, format.RenderingStructured},
		{[]string{"human", "format!=markdown", "format!=text", "format!=json"}, format.RenderingPassThrough},
		{[]string{"agent", "format!=json"}, format.RenderingText},
		{[]string{"agent", "format!=json", "format!=text"}, format.RenderingMarkdown},
		{[]string{"verbosity=compact", "format!=text"}, format.RenderingStructured},
		{[]string{"verbosity=verbose", "format!=markdown"}, format.RenderingText},
		{[]string{"format!=markdown"}, format.RenderingPassThrough},
		{[]string{"format=json", "format!=json", "human"}, format.RenderingMarkdown},
		{[]string{"format=markdown", "format!=json"}, format.RenderingMarkdown},
		{[]string{"agent", "verbosity=verbose"}, format.RenderingStructured},
		{[]string{"!agent", "!human", "verbosity=compact"}, format.RenderingText},
		{[]string{"format=toon"}, format.RenderingTOON},
		{[]string{"Format=TOON", "human", "verbosity=compact"}, format.RenderingTOON},
		{[]string{"format=toon", "format!=toon", "human"}, format.RenderingMarkdown},
		{[]string{"agent", "format!=toon"}, format.RenderingStructured},
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
		give format.Format
		want bool
	}{
		{format.Markdown, true},
		{format.JSON, true},
		{format.Text, false},
		{format.TOON, true},
		{format.Format{}, false},
		{format.Format{Name: "csv", MediaType: "text/csv", Rendering: format.RenderingCustom}, false},
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
	got := []any{p.Declared(), p.Version(), p.Tags().Len(), p.Audience(), p.Format(), p.Excludes(format.JSON),
		p.Verbosity(), p.Interactive(), p.MCPCapable(), p.WantsHints(), p.Rendering(), len(p.Diagnostics()), p.String()}
	want := []any{false, "", 0, negotiation.AudienceUnknown, format.Format{}, false,
		format.Verbosity(0), negotiation.Unknown, negotiation.Unknown, false, format.RenderingPassThrough, 0, "not declared"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("nil profile (-want +got):\n%s", diff)
	}
}

func TestUndeclaredProfileHidesItsTags(t *testing.T) {
	p := negotiation.FromSettings(map[string]any{"version": "2.0", "features": []any{"agent", "sampling"}})
	if p.Declared() || p.Tags().Len() != 0 || p.WantsHints() || p.Rendering() != format.RenderingPassThrough {
		t.Errorf("a profile of an unsupported version acts on its tags: %v", p)
	}
}

func TestDiagnosticsAreACopy(t *testing.T) {
	p := negotiation.FromTags("@")
	p.Diagnostics()[0].Problem = tagspec.Trimmed
	if got := p.Diagnostics()[0].Problem; got != tagspec.Invalid {
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
		{negotiation.Yes, "yes"}, {negotiation.No, "no"}, {negotiation.Unknown, "unknown"},
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
}

type fmtStringer interface{ String() string }
