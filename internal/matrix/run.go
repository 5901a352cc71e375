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
	// Timeout bounds each request on its own: starting and connecting,
	// listing the tools, calling the tool. Zero means no bound beyond the
	// context's. A request that runs out of time stops the run: the server
	// is not answering, and waiting as long again for each remaining
	// profile would only multiply the wait.
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

// ErrStopped is wrapped by the error Run returns when it stopped before the
// last profile because the server cannot serve any: the first profile could
// not start or reach it, or a request ran out of time. The matrix then
// holds the rows run so far, the failing one last.
var ErrStopped = errors.New("stopped")

// Run connects one client per profile through dial, calls the tool once
// with the arguments, and returns what each profile got. Profiles are run
// one after the other. A profile that fails (connection, listing, call)
// gets a row with its Error set, the others still run, and Run returns the
// matrix together with an error joining the failures; but when the first
// profile cannot connect at all, or a request times out, Run stops there
// and its error wraps ErrStopped. Options that cannot work give a nil
// matrix and an error wrapping ErrOptions.
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
	var data any // the first result's data, to tell text from markdown (see reclassify)
	for i, p := range profiles {
		if opts.Progress != nil {
			opts.Progress(Step{Index: i + 1, Total: len(profiles), Profile: p})
		}
		row, value, err := runProfile(ctx, dial, opts, args, p)
		if data == nil {
			data = value
		}
		if err != nil {
			row.Rendering = RenderFailed
			row.Error = err.Error()
			m.Rows = append(m.Rows, row)
			if stops(err, i) {
				reclassify(m.Rows, data)
				return m, fmt.Errorf("%w after profile %q: %w", ErrStopped, p.Name, err)
			}
			errs = append(errs, fmt.Errorf("profile %q: %w", p.Name, err))
			continue
		}
		m.Rows = append(m.Rows, row)
	}
	reclassify(m.Rows, data)
	return m, errors.Join(errs...)
}

// noToolError says that a tool is missing from tools/list.
type noToolError struct{ msg string }

// Error implements error.
func (e noToolError) Error() string { return e.msg }

// errConnect marks the errors of starting and connecting to the server.
var errConnect = errors.New("connect")

// stops reports whether the failure err of the profile at index i ends the
// run: a request that ran out of time, or a first profile that could not
// reach the server or find the tool (no profile will).
func stops(err error, i int) bool {
	var noTool noToolError
	return errors.Is(err, context.DeadlineExceeded) ||
		(i == 0 && (errors.Is(err, errConnect) || errors.As(err, &noTool)))
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
// observed, also when it fails; value is the result's data (see canonical).
func runProfile(ctx context.Context, dial Dial, opts Options, args json.RawMessage, p Profile) (row Row, value any, err error) {
	row = Row{Profile: p.Name, Tags: p.Tags, Warnings: p.Warnings()}
	rec := &elicitations{}
	defer func() { row.Elicitations, row.ElicitationMessages = rec.snapshot() }()

	// The session lives in ctx; each request gets its own deadline.
	ctx, cancelSession := context.WithCancel(ctx)
	defer cancelSession()
	transport, err := dial(ctx, p)
	if err != nil {
		return row, nil, fmt.Errorf("%w: dial: %w", errConnect, err)
	}
	callCtx, cancel := withTimeout(ctx, opts.Timeout)
	cs, err := newClient(p, rec).Connect(callCtx, transport, sessionOptions(opts.Legacy))
	cancel()
	if err != nil {
		return row, nil, fmt.Errorf("%w: %w", errConnect, err)
	}
	defer cs.Close()
	if ir := cs.InitializeResult(); ir != nil {
		row.Protocol = ir.ProtocolVersion
	}
	callCtx, cancel = withTimeout(ctx, opts.Timeout)
	tool, err := findTool(callCtx, cs, opts.Tool)
	cancel()
	if err != nil {
		return row, nil, err
	}
	callCtx, cancel = withTimeout(ctx, opts.Timeout)
	res, err := cs.CallTool(callCtx, &mcp.CallToolParams{Name: opts.Tool, Arguments: args})
	cancel()
	if err != nil {
		return row, nil, fmt.Errorf("call %s: %w", opts.Tool, err)
	}
	value, err = observe(&row, res, tool.OutputSchema)
	if err != nil {
		return row, nil, fmt.Errorf("read the result of %s: %w", opts.Tool, err)
	}
	return row, value, nil
}

// withTimeout returns ctx bounded by d, or ctx itself when d is not
// positive.
func withTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if d <= 0 {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, d)
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
			return nil, noToolError{fmt.Sprintf("list tools: more than %d tools, none named %q", maxListedTools, name)}
		}
		if len(names) < 20 {
			names = append(names, cell(tool.Name, 64))
		}
	}
	if len(names) == 0 {
		return nil, noToolError{fmt.Sprintf("the server lists no tools, so none named %q", name)}
	}
	return nil, noToolError{fmt.Sprintf("the server lists no tool named %q (it has %s)", name, strings.Join(names, ", "))}
}
