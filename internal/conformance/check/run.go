package check

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Era is a protocol era, named by the protocol version its sessions ask
// for.
type Era string

// The eras of SPEC section 1.
const (
	// Stateless is the 2026-07-28 protocol: server/discover, the client's
	// capabilities in each request's _meta.
	Stateless Era = "2026-07-28"
	// Legacy is the 2025-11-25 protocol: the initialize handshake.
	Legacy Era = "2025-11-25"
)

// Options says what Run checks and how.
type Options struct {
	// Target is the server under test.
	Target Target
	// Tool is the tool to call; it must be in the server's tools/list.
	Tool string
	// Arguments are the call's arguments, a JSON object; nil means {}.
	Arguments json.RawMessage
	// Eras are the eras to check, in order; nil means both.
	Eras []Era
	// Timeout bounds each request on its own (connect, list, call); zero
	// means no bound beyond ctx's.
	Timeout time.Duration
	// Progress, when set, is told what runs, a line at a time.
	Progress func(line string)
	// Cases are the clients to run; nil means those of renderings.json.
	Cases []Case
}

// Status is the outcome of one check.
type Status string

// The outcomes.
const (
	Pass Status = "pass"
	Fail Status = "FAIL"
	Skip Status = "skip"
)

// Result is the outcome of one check in one era.
type Result struct {
	Check
	// Era is the era the check ran in.
	Era Era `json:"era"`
	// Protocol is the protocol version the era's sessions negotiated.
	Protocol string `json:"protocol"`
	// Status is pass, FAIL or skip.
	Status Status `json:"status"`
	// Detail says what was seen: why it failed, why it was skipped, or
	// what it covered.
	Detail string `json:"detail"`
}

// Report is the outcome of a run.
type Report struct {
	// Tool and Arguments are the call used.
	Tool      string          `json:"tool"`
	Arguments json.RawMessage `json:"arguments"`
	// Results holds the checks of each era, in the order of Catalog.
	Results []Result `json:"results"`
}

// OK reports whether every MUST holds (none failed).
func (r *Report) OK() bool {
	for _, res := range r.Results {
		if res.Status == Fail && res.Level == Must {
			return false
		}
	}
	return true
}

// Count returns how many results have the level and status.
func (r *Report) Count(level Level, status Status) int {
	n := 0
	for _, res := range r.Results {
		if res.Level == level && res.Status == status {
			n++
		}
	}
	return n
}

// ErrOptions is wrapped by the errors of unusable options.
var ErrOptions = errors.New("bad options")

// Run checks the server: for each era it connects one client per case,
// lists, calls the tool once, and evaluates every check of Catalog on what
// was on the wire. It returns an error, and no report, when the options are
// unusable or the server cannot be reached, or does not list the tool, in
// some era.
func Run(ctx context.Context, opts Options) (*Report, error) {
	if err := checkOptions(&opts); err != nil {
		return nil, err
	}
	report := &Report{Tool: opts.Tool, Arguments: opts.Arguments}
	for _, era := range opts.Eras {
		results, err := runEra(ctx, &opts, era)
		if err != nil {
			return nil, fmt.Errorf("era %s: %w", era, err)
		}
		report.Results = append(report.Results, results...)
	}
	return report, nil
}

// checkOptions fills the defaults of opts and checks it.
func checkOptions(opts *Options) error {
	t := opts.Target
	n := 0
	for _, set := range []bool{len(t.Command) > 0, t.URL != "", t.Pipe != nil} {
		if set {
			n++
		}
	}
	switch {
	case n != 1:
		return fmt.Errorf("%w: give exactly one server: a command, a URL or a pipe", ErrOptions)
	case strings.TrimSpace(opts.Tool) == "":
		return fmt.Errorf("%w: no tool", ErrOptions)
	}
	if len(opts.Arguments) == 0 {
		opts.Arguments = json.RawMessage(`{}`)
	}
	var obj map[string]any
	if err := json.Unmarshal(opts.Arguments, &obj); err != nil || obj == nil {
		return fmt.Errorf("%w: the arguments must be a JSON object", ErrOptions)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, opts.Arguments); err != nil {
		return fmt.Errorf("%w: the arguments: %w", ErrOptions, err)
	}
	opts.Arguments = compact.Bytes()
	if opts.Eras == nil {
		opts.Eras = []Era{Stateless, Legacy}
	}
	for _, e := range opts.Eras {
		if e != Stateless && e != Legacy {
			return fmt.Errorf("%w: unknown era %q", ErrOptions, e)
		}
	}
	if opts.Cases == nil {
		cases, err := Renderings()
		if err != nil {
			return err
		}
		opts.Cases = cases
	}
	if len(opts.Cases) == 0 || opts.Cases[0].Settings != nil {
		return fmt.Errorf("%w: the first case must be the undeclared client", ErrOptions)
	}
	return nil
}

// runEra runs every case in one era and evaluates the checks.
func runEra(ctx context.Context, opts *Options, era Era) ([]Result, error) {
	progress := func(format string, args ...any) {
		if opts.Progress != nil {
			opts.Progress(fmt.Sprintf("[%s] ", era) + fmt.Sprintf(format, args...))
		}
	}
	total := len(opts.Cases) + 1
	var (
		obs   []*observation
		again *observation
	)
	for i, c := range opts.Cases {
		progress("%d/%d %s", i+1, total, c.Name)
		o, err := observe(ctx, opts, era, c)
		if err != nil {
			return nil, fmt.Errorf("client %q: %w", c.Name, err)
		}
		obs = append(obs, o)
	}
	// The undeclared client once more: is the call's result the same twice?
	progress("%d/%d %s (again)", total, total, opts.Cases[0].Name)
	again, err := observe(ctx, opts, era, opts.Cases[0])
	if err != nil {
		return nil, fmt.Errorf("client %q: %w", opts.Cases[0].Name, err)
	}
	e := newEvaluation(era, obs, again)
	if name := formatArgument(obs[0].tool); name != "" {
		e.argument = name
		for _, v := range []string{"markdown", "json", unknownFormat} {
			progress("format argument %s=%s", name, v)
			o, err := observe(ctx, withArgument(opts, name, v), era, opts.Cases[0])
			if err != nil {
				return nil, fmt.Errorf("client %q with %s=%s: %w", opts.Cases[0].Name, name, v, err)
			}
			e.withArgument = append(e.withArgument, o)
		}
	}
	if era == Legacy && opts.Target.URL != "" && !obs[0].wire.sawSession() {
		return e.sessionless(), nil
	}
	return e.run(), nil
}

// unknownFormat is the value of the format argument that no server renders.
const unknownFormat = "x-conformance-no-such-format"

// formatArgument returns the name of the per-call format argument a tool
// advertises (contract section 1): a property of its input schema whose
// enum holds json, markdown and text; "" when it has none.
func formatArgument(tool *mcp.Tool) string {
	if tool == nil || tool.InputSchema == nil {
		return ""
	}
	doc, err := json.Marshal(tool.InputSchema)
	if err != nil {
		return ""
	}
	var schema struct {
		Properties map[string]struct {
			Type string   `json:"type"`
			Enum []string `json:"enum"`
		} `json:"properties"`
	}
	if json.Unmarshal(doc, &schema) != nil {
		return ""
	}
	names := make([]string, 0, len(schema.Properties))
	for name := range schema.Properties {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		p := schema.Properties[name]
		if p.Type == "string" && slices.Contains(p.Enum, "json") && slices.Contains(p.Enum, "markdown") && slices.Contains(p.Enum, "text") {
			return name
		}
	}
	return ""
}

// withArgument returns opts whose call sets the format argument name to
// value.
func withArgument(opts *Options, name, value string) *Options {
	var args map[string]json.RawMessage
	_ = json.Unmarshal(opts.Arguments, &args)
	if args == nil {
		args = map[string]json.RawMessage{}
	}
	v, _ := json.Marshal(value)
	args[name] = v
	cp := *opts
	cp.Arguments, _ = json.Marshal(args)
	return &cp
}
