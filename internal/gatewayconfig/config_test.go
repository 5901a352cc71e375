package gatewayconfig_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/contentneg/contentneg/internal/gatewayconfig"
	"github.com/contentneg/contentneg/negotiation"
	"github.com/contentneg/contentneg/renderers"
	"github.com/contentneg/contentneg/shaping"
)

// exampleConfig is the config file docs/gateway.md shows.
var exampleConfig = filepath.Join("..", "..", "examples", "gateway", "gateway.yaml")

// TestConfigErrors: each mistake in a config file is an error that names
// the file, the line and column and the key, and says what is wrong.
func TestConfigErrors(t *testing.T) {
	tests := []struct {
		name string
		give string
		want []string // one line of the error each, in order
	}{
		{
			name: "unknown top-level key",
			give: "defaults: human\n",
			want: []string{"g.yaml:1:1: defaults: unknown key; want default, format_argument, rest, tools or resources"},
		},
		{
			name: "unknown tool key",
			give: "tools:\n  echo:\n    verbatum: true\n",
			want: []string{"g.yaml:3:5: tools.echo.verbatum: unknown key; want verbatim, markdown, title, units, compact or templates"},
		},
		{
			name: "not a boolean",
			give: "tools:\n  echo:\n    markdown: yes\n",
			want: []string{"g.yaml:3:15: tools.echo.markdown: want true or false, got a string"},
		},
		{
			name: "not a string",
			give: "format_argument: 42\n",
			want: []string{"g.yaml:1:18: format_argument: want a string, got an integer"},
		},
		{
			name: "empty format argument",
			give: "format_argument: \"\"\n",
			want: []string{"g.yaml:1:18: format_argument: want the argument's name, got an empty string"},
		},
		{
			name: "tools not a mapping",
			give: "tools:\n  - echo\n",
			want: []string{"g.yaml:2:3: tools: want a mapping, got a list"},
		},
		{
			name: "units not a mapping",
			give: "tools:\n  get-weather:\n    units: \"°C\"\n",
			want: []string{"g.yaml:3:12: tools.get-weather.units: want a mapping, got a string"},
		},
		{
			name: "bad default tag",
			give: "default: \"human, format=xml\"\n",
			want: []string{`g.yaml:1:10: default: shaping: Options.Default: invalid default tags: features[1] "format=xml": not a value the registry lists for this key; ignored`},
		},
		{
			name: "contradictory default tags in a list",
			give: "default:\n  - format=json\n  - format=text\n",
			want: []string{"g.yaml:2:3: default: shaping: Options.Default:"},
		},
		{
			name: "unquoted negated tag",
			give: "default:\n  - human\n  - !interactive\n",
			want: []string{`g.yaml:3:5: YAML reads !interactive as a tag; quote a negated feature tag: "!interactive"`},
		},
		{
			name: "unbalanced gjson path",
			give: "tools:\n  get-weather:\n    compact: \"{city,temp\"\n",
			want: []string{`g.yaml:3:14: tools.get-weather.compact: renderers: template compact path "{city,temp": unclosed '{'`},
		},
		{
			name: "empty gjson path",
			give: "tools:\n  get-weather:\n    compact: \"\"\n",
			want: []string{"g.yaml:3:14: tools.get-weather.compact: want a gjson path, got an empty string"},
		},
		{
			name: "template that does not parse, on its own line",
			give: "tools:\n  get-weather:\n    templates:\n      markdown:\n        verbose: |\n          # {{.city}}\n          {{.temp | celsius}}\n",
			want: []string{`g.yaml:7: tools.get-weather.templates.markdown.verbose: renderers: template markdown verbose: template: markdown verbose:2: function "celsius" not defined`},
		},
		{
			name: "text template that does not parse",
			give: "tools:\n  get-weather:\n    templates:\n      text: \"{{if .city}}\"\n",
			want: []string{"g.yaml:4:13: tools.get-weather.templates.text: renderers: template text standard: template: text standard:1: unexpected EOF"},
		},
		{
			name: "unknown verbosity",
			give: "tools:\n  get-weather:\n    templates:\n      markdown:\n        terse: x\n",
			want: []string{"g.yaml:5:9: tools.get-weather.templates.markdown.terse: unknown verbosity; want compact, standard or verbose"},
		},
		{
			name: "unknown template kind",
			give: "tools:\n  get-weather:\n    templates:\n      html: x\n",
			want: []string{"g.yaml:4:7: tools.get-weather.templates.html: unknown key; want markdown or text"},
		},
		{
			name: "verbatim with settings that never apply",
			give: "tools:\n  read_file:\n    verbatim: true\n    title: File\n    markdown: true\n",
			want: []string{"g.yaml:3:5: tools.read_file.verbatim: a verbatim tool's result is never rendered or converted, so title, markdown would never apply"},
		},
		{
			name: "projection behind a compact text template",
			give: "tools:\n  w:\n    compact: city\n    templates:\n      text:\n        compact: \"{{.city}}\"\n",
			want: []string{"g.yaml:3:5: tools.w.compact: templates.text.compact renders compact text, so the projection would never apply"},
		},
		{
			name: "verbatim on a resource",
			give: "resources:\n  file:///{path}:\n    verbatim: true\n",
			want: []string{"g.yaml:3:5: resources.file:///{path}.verbatim: applies to tools only"},
		},
		{
			name: "a name under tools and resources",
			give: "tools:\n  x: {title: X}\nresources:\n  x: {title: X}\n",
			want: []string{"g.yaml:4:3: resources.x: named under tools too"},
		},
		{
			name: "a key in the file",
			give: "rest:\n  api_key: s3cret\n",
			want: []string{"g.yaml:2:3: rest.api_key: a key is not read from the file"},
		},
		{
			name: "bad variable name",
			give: "rest:\n  api_key_env: \"A=B\"\n",
			want: []string{`g.yaml:2:16: rest.api_key_env: want the name of an environment variable, got "A=B"`},
		},
		{
			name: "key given twice",
			give: "tools:\n  echo:\n    markdown: true\n  echo:\n    verbatim: true\n",
			want: []string{`g.yaml:4:3: YAML: mapping key "echo" already defined at [2:3]`},
		},
		{
			name: "syntax",
			give: "tools: [\n",
			want: []string{"g.yaml:1:8: YAML: sequence end token ']' not found"},
		},
		{
			name: "aliases",
			give: "tools:\n  a: &s {markdown: true}\n  b: *s\n",
			want: []string{
				"g.yaml:2:6: YAML anchors and aliases are not supported in a config file",
				"g.yaml:3:6: YAML anchors and aliases are not supported in a config file",
			},
		},
		{
			name: "two documents",
			give: "default: human\n---\nformat_argument: f\n",
			want: []string{"g.yaml:3:1: a second YAML document; want one"},
		},
		{
			name: "a list as the document",
			give: "- echo\n",
			want: []string{"g.yaml:1:1: want a mapping, got a list"},
		},
		{
			name: "every error, not only the first",
			give: "tools:\n  a:\n    markdown: 1\n  b:\n    title: [x]\nnope: 1\n",
			want: []string{
				"g.yaml:3:15: tools.a.markdown: want true or false, got an integer",
				"g.yaml:5:12: tools.b.title: want a string, got a list",
				"g.yaml:6:1: nope: unknown key",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := gatewayconfig.Parse("g.yaml", []byte(tt.give))
			if err == nil {
				t.Fatalf("no error, want %q (config %+v)", tt.want, c)
			}
			var ce *gatewayconfig.Error
			if !errors.As(err, &ce) {
				t.Errorf("error %v is not a *gatewayconfig.Error", err)
			}
			lines := strings.Split(err.Error(), "\n")
			if len(lines) != len(tt.want) {
				t.Fatalf("error:\n%v\nwant %d lines: %q", err, len(tt.want), tt.want)
			}
			for i, w := range tt.want {
				if !strings.HasPrefix(lines[i], w) {
					t.Errorf("error line %d:\n%s\nwant it to start with\n%s", i+1, lines[i], w)
				}
			}
		})
	}
}

// TestLoadConfigBounds: a file that does not exist, or larger than
// MaxConfigSize, is an error naming it, and nothing is read beyond the
// bound.
func TestLoadConfigBounds(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(big, []byte("default: \""+strings.Repeat("x", gatewayconfig.MaxSize)+"\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path, want string
	}{
		{name: "missing", path: filepath.Join(dir, "none.yaml"), want: "none.yaml"},
		{name: "too large", path: big, want: fmt.Sprintf("big.yaml: larger than %d bytes", gatewayconfig.MaxSize)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := gatewayconfig.Load(tt.path)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want it to say %q", err, tt.want)
			}
		})
	}
}

// TestExampleConfig: the example file parses, and sets exactly what it
// says on the options a Go server would write: the tools' flags, titles,
// units and a renderers.NewTemplate renderer, the default tags, the format argument.
func TestExampleConfig(t *testing.T) {
	c, err := gatewayconfig.Load(exampleConfig)
	if err != nil {
		t.Fatal(err)
	}
	opts := &shaping.Options{Tools: map[string]shaping.Tool{"kept": {Title: "Kept"}}}
	c.Apply(opts)
	if got, want := opts.Default, (negotiation.Settings{Features: []string{"human", "format=markdown"}}); !cmp.Equal(got, want) {
		t.Errorf("Default %+v, want %+v", got, want)
	}
	if opts.FormatArgument != "response_format" {
		t.Errorf("FormatArgument %q, want response_format", opts.FormatArgument)
	}
	weather := opts.Tools["get-structured-content"]
	if got := fmt.Sprintf("%T", weather.Renderer); got != "*renderers.templateRenderer" {
		t.Errorf("get-structured-content's renderer is %s, want renderers.NewTemplate's *renderers.templateRenderer", got)
	}
	weather.Renderer = nil
	want := map[string]shaping.Tool{
		"kept":                   {Title: "Kept"},
		"get-structured-content": {Title: "Weather", Units: map[string]string{"humidity": "%"}},
		"echo":                   {Markdown: true},
		"get-env":                {Verbatim: true},
		"demo://resource/dynamic/text/{resourceId}": {Title: "Text resource"},
	}
	opts.Tools["get-structured-content"] = weather
	if diff := cmp.Diff(want, opts.Tools); diff != "" {
		t.Errorf("Tools (-want +got):\n%s", diff)
	}
	// The template's outputs, for the clients that get them.
	tests := []struct {
		opts renderers.Options
		want string
	}{
		{opts: renderers.Options{MediaType: "text/markdown", Verbosity: 1}, want: "**Light rain / drizzle**, 36°"},
		{opts: renderers.Options{MediaType: "text/plain", Verbosity: 1}, want: "conditions=\"Light rain / drizzle\" temperature=36"},
		{opts: renderers.Options{MediaType: "text/plain", Verbosity: 2}, want: "Light rain / drizzle, 36°, humidity 82 %"},
	}
	for _, tt := range tests {
		got, err := c.Tools["get-structured-content"].Renderer.Render([]byte(`{"temperature":36,"conditions":"Light rain / drizzle","humidity":82}`), tt.opts)
		if err != nil || got != tt.want {
			t.Errorf("%s %v: %q, %v; want %q", tt.opts.MediaType, tt.opts.Verbosity, got, err, tt.want)
		}
	}
}

// TestConfigEmpty: an empty file, or one of comments, sets nothing.
func TestConfigEmpty(t *testing.T) {
	for _, give := range []string{"", "# nothing\n", "tools:\n"} {
		c, err := gatewayconfig.Parse("g.yaml", []byte(give))
		if err != nil {
			t.Fatalf("%q: %v", give, err)
		}
		opts := &shaping.Options{FormatArgument: "f", Default: negotiation.Settings{Features: []string{"human"}}}
		c.Apply(opts)
		if opts.FormatArgument != "f" || len(opts.Default.Features) != 1 || opts.Tools != nil {
			t.Errorf("%q changed the options: %+v", give, opts)
		}
	}
}

// TestConfigAPIKey: the key comes from the variable the file names; a named
// variable that is unset is an error at its line, not an open REST API.
func TestConfigAPIKey(t *testing.T) {
	env := map[string]string{"EVERYTHING_API_KEY": "k1"}
	getenv := func(name string) string { return env[name] }
	tests := []struct {
		name      string
		give      string
		wantKey   string
		wantNamed bool
		wantErr   string
	}{
		{name: "none named", give: "tools: {}\n"},
		{name: "named and set", give: "rest:\n  api_key_env: EVERYTHING_API_KEY\n", wantKey: "k1", wantNamed: true},
		{name: "named and unset", give: "rest:\n  api_key_env: NOT_SET\n", wantNamed: true,
			wantErr: "g.yaml:2:16: rest.api_key_env: $NOT_SET is not set or empty; the REST API would need no key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := gatewayconfig.Parse("g.yaml", []byte(tt.give))
			if err != nil {
				t.Fatal(err)
			}
			key, named, err := c.APIKey(getenv)
			gotErr := ""
			if err != nil {
				gotErr = err.Error()
			}
			if key != tt.wantKey || named != tt.wantNamed || gotErr != tt.wantErr {
				t.Errorf("APIKey = %q, %v, %q; want %q, %v, %q", key, named, gotErr, tt.wantKey, tt.wantNamed, tt.wantErr)
			}
		})
	}
}

// TestConfigUnlisted: the tools and resources a file names that the
// upstream does not list are reported, each at its line; those it lists
// (a tool, a resource's URI, a resource template's URI template) are not.
func TestConfigUnlisted(t *testing.T) {
	c, err := gatewayconfig.Parse("g.yaml", []byte(
		"tools:\n  echo: {markdown: true}\n  ech: {markdown: true}\n"+
			"resources:\n  file:///a.json: {title: A}\n  file:///{path}: {title: F}\n  file:///b.json: {title: B}\n"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range c.Unlisted([]string{"echo", "get-sum"}, []string{"file:///a.json", "file:///{path}"}) {
		got = append(got, w.Error())
	}
	want := []string{
		"g.yaml:3:3: tools.ech: the upstream lists no tool of this name (yet); its settings apply if it lists one",
		"g.yaml:7:3: resources.file:///b.json: the upstream lists no resource or resource template of this URI (yet); its settings apply if it lists one",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Unlisted (-want +got):\n%s", diff)
	}
}

// FuzzParseConfig: no input makes ParseConfig panic, and every error it
// returns is made of *ConfigError values naming the file.
func FuzzParseConfig(f *testing.F) {
	example, err := os.ReadFile(exampleConfig)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(example)
	for _, s := range []string{
		"tools:\n  a:\n    templates:\n      markdown: |\n        {{.x\n",
		"default: [human, !interactive]\n",
		"a: &x [*x]\n",
		"tools: {a: {compact: \"{\\\"a\"}}\n",
		"resources:\n  x:\n    units: {a: b}\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := gatewayconfig.Parse("f.yaml", data)
		if err == nil {
			return
		}
		var ce *gatewayconfig.Error
		if !errors.As(err, &ce) || ce.File != "f.yaml" {
			t.Errorf("error %v (%T) is not a *gatewayconfig.Error naming f.yaml", err, err)
		}
	})
}
