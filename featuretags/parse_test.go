package featuretags_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/contentneg/contentneg/featuretags"
)

// tagsOf lists a set's tags in their canonical written form.
func tagsOf(s featuretags.Set) []string {
	var out []string
	for t := range s.All() {
		out = append(out, t.String())
	}
	return out
}

// problemsOf lists the position and problem of each diagnostic.
type problem struct {
	Index   int
	Problem featuretags.Problem
}

func problemsOf(diags []featuretags.Diagnostic) []problem {
	var out []problem
	for _, d := range diags {
		out = append(out, problem{d.Index, d.Problem})
	}
	return out
}

func TestParseGrammar(t *testing.T) {
	tests := []struct {
		name string
		give string
		want []string // the tag as kept, nil when it is dropped
	}{
		{"presence", "agent", []string{"agent"}},
		{"negation", "!interactive", []string{"!interactive"}},
		{"equality", "format=json", []string{"format=json"}},
		{"inequality", "format!=markdown", []string{"format!=markdown"}},
		{"name with digits and punctuation", "a1-b_c.d", []string{"a1-b_c.d"}},
		{"value with plus and colon", "x-mode=a+b:c", []string{"x-mode=a+b:c"}},
		{"upper-case registry name and value", "FORMAT=JSON", []string{"format=json"}},
		{"toon is a registry format", "format=toon", []string{"format=toon"}},
		{"toon in capitals", "Format=TOON", []string{"format=toon"}},
		{"mixed-case flag", "Mcp-Capable", []string{"mcp-capable"}},
		{"upper-case unknown name is lowered", "Screen-Reader", []string{"screen-reader"}},
		{"vendor value keeps its case", "X-Acme=MixedCase", []string{"x-acme=MixedCase"}},
		{"unknown key keeps its value's case", "colour=Blue", []string{"colour=Blue"}},
		{"vendor negation", "!x-beta", []string{"!x-beta"}},
		{"vendor inequality", "x-style!=Terse", []string{"x-style!=Terse"}},
		{"trimmed", "\t agent \r\n", []string{"agent"}},
		{"empty", "", nil},
		{"only white space", "   ", nil},
		{"symbols", "@#$%", nil},
		{"double equals", "format==json", nil},
		{"two equals", "a=b=c", nil},
		{"empty value", "format=", nil},
		{"bare bang", "!", nil},
		{"double bang", "!!agent", nil},
		{"negated equality", "!format=json", nil},
		{"name starts with a digit", "1agent", nil},
		{"name starts with a dash", "-agent", nil},
		{"no name", "=json", nil},
		{"inequality without a name", "!=json", nil},
		{"inequality without a value", "format!=", nil},
		{"interior space", "for mat=json", nil},
		{"space around equals", "format = json", nil},
		{"newline inside", "age\nnt", nil},
		{"NUL", "agent\x00", nil},
		{"escape byte", "hu\x1bman", nil},
		{"non-ASCII letter", "agént", nil},
		{"invalid UTF-8", "ag\xffent", nil},
		{"slash in value", "x-a=b/c", nil},
		{"unknown registry value", "format=xml", nil},
		{"unknown excluded registry value", "format!=xml", nil},
		{"unknown verbosity", "verbosity=loud", nil},
		{"flag with a value", "agent=yes", nil},
		{"flag with an exclusion", "interactive!=no", nil},
		{"key without a value", "format", nil},
		{"negated key", "!verbosity", nil},
		{"exactly 128 bytes", "x-" + strings.Repeat("a", 126), []string{"x-" + strings.Repeat("a", 126)}},
		{"129 bytes", "x-" + strings.Repeat("a", 127), nil},
		{"129 bytes with the padding trimmed", " x-" + strings.Repeat("a", 126), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			set, _ := featuretags.Parse([]string{tt.give})
			if diff := cmp.Diff(tt.want, tagsOf(set)); diff != "" {
				t.Errorf("Parse(%q) tags (-want +got):\n%s", tt.give, diff)
			}
		})
	}
}

func TestParseResolution(t *testing.T) {
	tests := []struct {
		name      string
		give      []string
		wantTags  []string
		wantDiags []problem
	}{
		{
			name:     "scenario 1 is clean",
			give:     []string{"agent", "mcp-capable", "sampling", "elicitation", "roots", "tasks", "verbosity=compact", "format=json"},
			wantTags: []string{"agent", "mcp-capable", "sampling", "elicitation", "roots", "tasks", "verbosity=compact", "format=json"},
		},
		{
			name:     "duplicates are kept once, silently",
			give:     []string{"agent", "AGENT", "agent"},
			wantTags: []string{"agent"},
		},
		{
			name:      "a tag and its negation: the negation wins",
			give:      []string{"interactive", "!interactive"},
			wantTags:  []string{"!interactive"},
			wantDiags: []problem{{0, featuretags.Contradiction}},
		},
		{
			name:      "the negation first: it still wins",
			give:      []string{"!interactive", "interactive"},
			wantTags:  []string{"!interactive"},
			wantDiags: []problem{{1, featuretags.Contradiction}},
		},
		{
			name:      "first valid registry value wins",
			give:      []string{"format=json", "format=markdown", "format=text"},
			wantTags:  []string{"format=json"},
			wantDiags: []problem{{1, featuretags.ConflictingValue}, {2, featuretags.ConflictingValue}},
		},
		{
			name:      "an invalid value does not win",
			give:      []string{"format=xml", "format=text"},
			wantTags:  []string{"format=text"},
			wantDiags: []problem{{0, featuretags.UnknownValue}},
		},
		{
			name:      "an excluded value does not win: the next valid one does",
			give:      []string{"format=json", "format=markdown", "format!=json"},
			wantTags:  []string{"format=markdown", "format!=json"},
			wantDiags: []problem{{0, featuretags.Contradiction}},
		},
		{
			name:     "the same registry value in two cases is one tag",
			give:     []string{"format=json", "Format=JSON"},
			wantTags: []string{"format=json"},
		},
		{
			name:     "vendor keys keep every value",
			give:     []string{"x-a=1", "x-a=2"},
			wantTags: []string{"x-a=1", "x-a=2"},
		},
		{
			name:     "vendor values differing in case are different tags",
			give:     []string{"x-a=b", "x-a=B"},
			wantTags: []string{"x-a=b", "x-a=B"},
		},
		{
			name:      "agent and human: both kept, one diagnostic",
			give:      []string{"agent", "human"},
			wantTags:  []string{"agent", "human"},
			wantDiags: []problem{{1, featuretags.BothAudiences}},
		},
		{
			name:     "agent and a negated human is no conflict",
			give:     []string{"agent", "!human"},
			wantTags: []string{"agent", "!human"},
		},
		{
			name:      "diagnostics come in input order",
			give:      []string{"interactive", "@", "!interactive", " agent"},
			wantTags:  []string{"!interactive", "agent"},
			wantDiags: []problem{{0, featuretags.Contradiction}, {1, featuretags.Invalid}, {3, featuretags.Trimmed}},
		},
		{
			name:      "wrong forms of registry names",
			give:      []string{"agent=yes", "!format", "verbosity"},
			wantDiags: []problem{{0, featuretags.WrongForm}, {1, featuretags.WrongForm}, {2, featuretags.WrongForm}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			set, diags := featuretags.Parse(tt.give)
			if diff := cmp.Diff(tt.wantTags, tagsOf(set)); diff != "" {
				t.Errorf("tags (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantDiags, problemsOf(diags)); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseLimits(t *testing.T) {
	many := make([]string, 1000)
	for i := range many {
		many[i] = "x-t" + strings.Repeat("a", i%50)
	}
	many[featuretags.MaxTags] = "agent"

	set, diags := featuretags.Parse(many)
	if set.Has("agent") {
		t.Error("a tag after the first 64 was read")
	}
	if got := countProblem(diags, featuretags.TooMany); got != 1 {
		t.Errorf("TooMany diagnostics = %d, want exactly 1", got)
	}
	if set.Len() > featuretags.MaxTags {
		t.Errorf("set has %d tags, want at most %d", set.Len(), featuretags.MaxTags)
	}

	huge := strings.Repeat("a", 1<<20)
	_, diags = featuretags.Parse([]string{huge})
	if len(diags) != 1 || diags[0].Problem != featuretags.TooLong {
		t.Fatalf("diagnostics = %v, want one TooLong", diags)
	}
	if len(diags[0].Tag) > featuretags.MaxTagLen {
		t.Errorf("diagnostic keeps %d bytes of the tag, want at most %d", len(diags[0].Tag), featuretags.MaxTagLen)
	}
}

func countProblem(diags []featuretags.Diagnostic, p featuretags.Problem) int {
	n := 0
	for _, d := range diags {
		if d.Problem == p {
			n++
		}
	}
	return n
}

func TestParseValue(t *testing.T) {
	tests := []struct {
		name      string
		give      any
		wantTags  []string
		wantDiags []problem
	}{
		{"nil is no features", nil, nil, nil},
		{"[]any of strings", []any{"agent", "format=json"}, []string{"agent", "format=json"}, nil},
		{"[]string", []string{"human"}, []string{"human"}, nil},
		{"non-strings skipped", []any{"agent", 7.0, nil, true, map[string]any{}, []any{"human"}}, []string{"agent"},
			[]problem{{1, featuretags.NotAString}, {2, featuretags.NotAString}, {3, featuretags.NotAString}, {4, featuretags.NotAString}, {5, featuretags.NotAString}}},
		{"a string is a comma-separated list", "human, !interactive", []string{"human", "!interactive"}, []problem{{-1, featuretags.CommaList}}},
		{"a string of one tag", "agent", []string{"agent"}, []problem{{-1, featuretags.CommaList}}},
		{"a string: empty tags skipped, white space trimmed", " ,human,, \t!interactive ,", []string{"human", "!interactive"}, []problem{{-1, featuretags.CommaList}}},
		{"a string: invalid tags index the list", "human, !\u0456nteractive", []string{"human"}, []problem{{-1, featuretags.CommaList}, {1, featuretags.Invalid}}},
		{"a string: past the limit", strings.Repeat("x-a,", featuretags.MaxTags) + "!interactive", []string{"x-a"},
			[]problem{{-1, featuretags.CommaList}, {featuretags.MaxTags, featuretags.TooMany}}},
		{"an empty string", "", nil, []problem{{-1, featuretags.CommaList}}},
		{"an object is not an array", map[string]any{"agent": true}, nil, []problem{{-1, featuretags.NotAList}}},
		{"a number is not an array", 3.0, nil, []problem{{-1, featuretags.NotAList}}},
		{"non-strings count toward the limit", append(make([]any, featuretags.MaxTags), "agent"), nil,
			append(repeatProblem(featuretags.NotAString, featuretags.MaxTags), problem{featuretags.MaxTags, featuretags.TooMany})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			set, diags := featuretags.ParseValue(tt.give)
			if diff := cmp.Diff(tt.wantTags, tagsOf(set)); diff != "" {
				t.Errorf("tags (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantDiags, problemsOf(diags)); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
		})
	}
}

func TestProblemMalformed(t *testing.T) {
	// Each look-alike and limit the hostile audit used gives a problem that
	// makes the declaration malformed (contract section 2: the gate closes).
	tests := []struct {
		name string
		give any
		want []featuretags.Problem // the malformed problems reported
	}{
		{"well formed", []any{"human", "!interactive", "format=json"}, nil},
		{"trimmed ASCII white space is read", []any{" !interactive "}, nil},
		{"contradiction is read", []any{"interactive", "!interactive"}, nil},
		{"unknown registry value is read", []any{"format=xml"}, nil},
		{"both audiences are read", []any{"agent", "human"}, nil},
		{"Cyrillic i", []any{"!\u0456nteractive"}, []featuretags.Problem{featuretags.Invalid}},
		{"trailing no-break space", []any{"!interactive\u00a0"}, []featuretags.Problem{featuretags.Invalid}},
		{"trailing zero-width space", []any{"!interactive\u200b"}, []featuretags.Problem{featuretags.Invalid}},
		{"fullwidth exclamation mark", []any{"\uff01interactive"}, []featuretags.Problem{featuretags.Invalid}},
		{"padded past 128 bytes", []any{"!interactive" + strings.Repeat(" ", featuretags.MaxTagLen)}, []featuretags.Problem{featuretags.TooLong}},
		{"element not a string", []any{"human", 1.0}, []featuretags.Problem{featuretags.NotAString}},
		{"past the tag limit", append(make([]any, 0, featuretags.MaxTags+1), repeatAny("x-a", featuretags.MaxTags+1)...), []featuretags.Problem{featuretags.TooMany}},
		{"a registry name in the wrong form", []any{"interactive=no"}, []featuretags.Problem{featuretags.WrongForm}},
		{"features an object", map[string]any{"!interactive": true}, []featuretags.Problem{featuretags.NotAList}},
		{"features a string", "human, !interactive", []featuretags.Problem{featuretags.CommaList}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := featuretags.ParseValue(tt.give)
			var got []featuretags.Problem
			for _, d := range diags {
				if d.Problem.Malformed() {
					got = append(got, d.Problem)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("malformed problems (-want +got):\n%s", diff)
			}
		})
	}
}

func repeatAny(s string, n int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = s
	}
	return out
}

func repeatProblem(p featuretags.Problem, n int) []problem {
	out := make([]problem, n)
	for i := range out {
		out[i] = problem{i, p}
	}
	return out
}

func TestSetQueries(t *testing.T) {
	set, _ := featuretags.Parse([]string{"Agent", "!interactive", "Format=JSON", "format!=Markdown", "x-Acme=Terse", "x-acme=Loud", "x-beta"})
	tests := []struct {
		name string
		got  any
		want any
	}{
		{"Has any case", set.Has("AGENT"), true},
		{"Has is not Negated", set.Has("interactive"), false},
		{"Negated", set.Negated("Interactive"), true},
		{"Negated is not Has", set.Negated("agent"), false},
		{"Has vendor", set.Has("x-beta"), true},
		{"Has missing", set.Has("human"), false},
		{"Value registry", value(set, "format"), "json"},
		{"Value vendor first", value(set, "X-ACME"), "Terse"},
		{"Value missing", value(set, "verbosity"), "<none>"},
		{"Values vendor", slices.Collect(set.Values("x-acme")), []string{"Terse", "Loud"}},
		{"Excludes registry any case", set.Excludes("format", "MARKDOWN"), true},
		{"Excludes other value", set.Excludes("format", "text"), false},
		{"Contains", set.Contains(featuretags.Tag{Name: "x-acme", Value: "Loud", Op: featuretags.Equality}), true},
		{"Contains vendor value is case-sensitive", set.Contains(featuretags.Tag{Name: "x-acme", Value: "loud", Op: featuretags.Equality}), false},
		{"Len", set.Len(), 7},
		{"zero Set is empty", featuretags.Set{}.Has("agent"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, tt.got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func value(s featuretags.Set, name string) string {
	v, ok := s.Value(name)
	if !ok {
		return "<none>"
	}
	return v
}

func TestDiagnosticStringQuotesControlBytes(t *testing.T) {
	_, diags := featuretags.Parse([]string{"agent\n{\"level\":\"error\"}\r\x1b[31m"})
	if len(diags) == 0 {
		t.Fatal("no diagnostic for a tag with control bytes")
	}
	for _, d := range diags {
		s := d.String()
		if strings.ContainsAny(s, "\n\r\x1b") {
			t.Errorf("diagnostic %q holds raw control bytes", s)
		}
		if !strings.Contains(s, `\n`) {
			t.Errorf("diagnostic %q does not show the escaped newline", s)
		}
	}
}

func TestProblemStrings(t *testing.T) {
	for p := featuretags.Trimmed; p <= featuretags.UnsupportedVersion; p++ {
		if s := p.String(); s == "" || strings.HasPrefix(s, "problem ") {
			t.Errorf("Problem(%d) has no description: %q", p, s)
		}
	}
	if s := featuretags.Problem(200).String(); s != "problem 200" {
		t.Errorf("unknown problem = %q", s)
	}
}

func TestOpAndTagStrings(t *testing.T) {
	tests := []struct {
		give featuretags.Tag
		want string
	}{
		{featuretags.Tag{Name: "agent"}, "agent"},
		{featuretags.Tag{Name: "interactive", Op: featuretags.Negation}, "!interactive"},
		{featuretags.Tag{Name: "format", Value: "json", Op: featuretags.Equality}, "format=json"},
		{featuretags.Tag{Name: "format", Value: "text", Op: featuretags.Inequality}, "format!=text"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			if got := tt.give.String(); got != tt.want {
				t.Errorf("String() = %q, want %q", got, tt.want)
			}
			set, diags := featuretags.Parse([]string{tt.want})
			if len(diags) != 0 || !set.Contains(tt.give) {
				t.Errorf("Parse(%q) does not give back %+v (diagnostics %v)", tt.want, tt.give, diags)
			}
		})
	}
	if got := featuretags.Op(9).String(); got != "unknown" {
		t.Errorf("Op(9) = %q", got)
	}
}
