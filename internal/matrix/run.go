package matrix

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Dial returns a new transport to the server for the session of profile p:
// a command to start, an HTTP endpoint, or one end of an in-memory pipe.
type Dial func(ctx context.Context, p Profile) (mcp.Transport, error)

// Options says what Run calls and how.
type Options struct {
	// Tool is the tool to call. Required.
	Tool string
	// Arguments are the call's arguments: a JSON object, or nil for {}.
	Arguments json.RawMessage
	// Profiles are the clients to connect, in order; nil means Presets().
	Profiles []Profile
	// Legacy connects with the initialize handshake of protocol
	// LegacyProtocol instead of the client's default.
	Legacy bool
	// Timeout bounds each profile's session (connect, list, call); zero
	// means no bound beyond the context's.
	Timeout time.Duration
	// Progress, when set, is called before each profile is run.
	Progress func(Step)
}

// Step tells Options.Progress which profile is about to run.
type Step struct {
	// Index counts from 1.
	Index int
	// Total is the number of profiles.
	Total int
	// Profile is the profile about to run.
	Profile Profile
}

// maxListedTools bounds the tools read from tools/list.
const maxListedTools = 10000

// ErrOptions is wrapped by the errors Run returns for unusable options.
var ErrOptions = errors.New("bad options")

// Run connects one client per profile through dial, calls the tool once
// with the arguments, and returns what each profile got. Profiles are run
// one after the other. A profile that fails (connection, listing, call)
// gets a row with its Error set, the others still run, and Run returns the
// matrix together with an error joining the failures. Options that cannot
// work give a nil matrix and an error wrapping ErrOptions.
func Run(ctx context.Context, dial Dial, opts Options) (*Matrix, error) {
	args, err := checkOptions(dial, opts)
	if err != nil {
		return nil, err
	}
	profiles := opts.Profiles
	if profiles == nil {
		profiles = Presets()
	}
	m := &Matrix{Tool: opts.Tool, Arguments: args, Tokenizer: Tokenizer, Rows: make([]Row, 0, len(profiles))}
	var errs []error
	for i, p := range profiles {
		if opts.Progress != nil {
			opts.Progress(Step{Index: i + 1, Total: len(profiles), Profile: p})
		}
		row, err := runProfile(ctx, dial, opts, args, p)
		if err != nil {
			row.Rendering = RenderFailed
			row.Error = err.Error()
			errs = append(errs, fmt.Errorf("profile %q: %w", p.Name, err))
		}
		m.Rows = append(m.Rows, row)
	}
	return m, errors.Join(errs...)
}

// checkOptions returns the arguments to send, or an error wrapping
// ErrOptions.
func checkOptions(dial Dial, opts Options) (json.RawMessage, error) {
	switch {
	case dial == nil:
		return nil, fmt.Errorf("%w: no dial function", ErrOptions)
	case strings.TrimSpace(opts.Tool) == "":
		return nil, fmt.Errorf("%w: no tool", ErrOptions)
	case opts.Profiles != nil && len(opts.Profiles) == 0:
		return nil, fmt.Errorf("%w: an empty list of profiles", ErrOptions)
	}
	if len(opts.Arguments) == 0 {
		return json.RawMessage(`{}`), nil
	}
	var obj map[string]any
	if err := json.Unmarshal(opts.Arguments, &obj); err != nil || obj == nil {
		return nil, fmt.Errorf("%w: the arguments must be a JSON object", ErrOptions)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, opts.Arguments); err != nil {
		return nil, fmt.Errorf("%w: the arguments: %w", ErrOptions, err)
	}
	return compact.Bytes(), nil
}

// runProfile runs one profile's session. The row it returns holds what was
// observed, also when it fails.
func runProfile(ctx context.Context, dial Dial, opts Options, args json.RawMessage, p Profile) (row Row, err error) {
	row = Row{Profile: p.Name, Tags: p.Tags, Warnings: p.Warnings()}
	if opts.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opts.Timeout)
		defer cancel()
	}
	rec := &elicitations{}
	defer func() { row.Elicitations, row.ElicitationMessages = rec.snapshot() }()

	transport, err := dial(ctx, p)
	if err != nil {
		return row, fmt.Errorf("dial: %w", err)
	}
	cs, err := newClient(p, rec).Connect(ctx, transport, sessionOptions(opts.Legacy))
	if err != nil {
		return row, fmt.Errorf("connect: %w", err)
	}
	defer cs.Close()
	if ir := cs.InitializeResult(); ir != nil {
		row.Protocol = ir.ProtocolVersion
	}
	tool, err := findTool(ctx, cs, opts.Tool)
	if err != nil {
		return row, err
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: opts.Tool, Arguments: args})
	if err != nil {
		return row, fmt.Errorf("call %s: %w", opts.Tool, err)
	}
	if err := observe(&row, res, tool.OutputSchema); err != nil {
		return row, fmt.Errorf("read the result of %s: %w", opts.Tool, err)
	}
	return row, nil
}

// findTool lists the server's tools and returns the one named name.
func findTool(ctx context.Context, cs *mcp.ClientSession, name string) (*mcp.Tool, error) {
	var names []string
	n := 0
	for tool, err := range cs.Tools(ctx, nil) {
		if err != nil {
			return nil, fmt.Errorf("list tools: %w", err)
		}
		if tool == nil {
			continue
		}
		if tool.Name == name {
			return tool, nil
		}
		if n++; n > maxListedTools {
			return nil, fmt.Errorf("list tools: more than %d tools, none named %q", maxListedTools, name)
		}
		if len(names) < 20 {
			names = append(names, cell(tool.Name, 64))
		}
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("the server lists no tools, so none named %q", name)
	}
	return nil, fmt.Errorf("the server lists no tool named %q (it has %s)", name, strings.Join(names, ", "))
}
