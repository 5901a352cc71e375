package check

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ExtensionID is the key of the extension in capabilities.extensions.
const ExtensionID = "io.modelcontextprotocol/content-negotiation"

// Target says how to reach the server under test: exactly one of Command,
// URL and Pipe.
type Target struct {
	// Command is a server to start once per session and talk to over
	// stdio: the program and its arguments.
	Command []string
	// Stderr receives the stderr of each server Command starts; nil
	// discards it.
	Stderr io.Writer
	// URL is a streamable HTTP endpoint.
	URL string
	// HTTPClient makes the HTTP requests to URL; nil means a client with
	// http.DefaultTransport.
	HTTPClient *http.Client
	// Pipe starts one session of an in-process server and returns the two
	// ends of its stdio: what the server writes, and where it reads. The
	// session ends when both are closed.
	Pipe func(ctx context.Context) (fromServer io.ReadCloser, toServer io.WriteCloser, err error)
}

// How long a started server gets to exit once its stdin is closed.
const exitGrace = 3 * time.Second

// dial returns a transport to a new session of the server, recording its
// messages in w, and a function that ends what dial started.
func (t Target) dial(ctx context.Context, w *wire) (mcp.Transport, func(), error) {
	switch {
	case len(t.Command) > 0:
		return t.dialCommand(w)
	case t.URL != "":
		base := http.DefaultTransport
		if t.HTTPClient != nil && t.HTTPClient.Transport != nil {
			base = t.HTTPClient.Transport
		}
		client := &http.Client{Transport: recordingTransport{base: base, wire: w}}
		if t.HTTPClient != nil {
			client.Timeout = t.HTTPClient.Timeout
		}
		return &mcp.StreamableClientTransport{Endpoint: t.URL, HTTPClient: client}, func() {}, nil
	case t.Pipe != nil:
		r, wc, err := t.Pipe(ctx)
		if err != nil {
			return nil, nil, fmt.Errorf("start the in-process server: %w", err)
		}
		return ioTransport(r, wc, w), func() {}, nil
	}
	return nil, nil, errors.New("no server: give a command, a URL or a pipe")
}

// dialCommand starts the command, with no context: the session's end, not
// a request's, ends it.
func (t Target) dialCommand(w *wire) (mcp.Transport, func(), error) {
	cmd := exec.Command(t.Command[0], t.Command[1:]...)
	cmd.Stderr = t.Stderr
	cmd.WaitDelay = exitGrace
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, nil, fmt.Errorf("start %s: %w", t.Command[0], err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, nil, fmt.Errorf("start %s: %w", t.Command[0], err)
	}
	if err := cmd.Start(); err != nil {
		return nil, nil, fmt.Errorf("start the server: %w", err)
	}
	var once sync.Once
	stop := func() {
		once.Do(func() {
			_ = stdin.Close()
			done := make(chan struct{})
			go func() { _ = cmd.Wait(); close(done) }()
			select {
			case <-done:
			case <-time.After(exitGrace):
				_ = cmd.Process.Kill()
				<-done
			}
		})
	}
	return ioTransport(stdout, stdin, w), stop, nil
}

// ioTransport is the stdio transport over r and wc, recording both ways.
func ioTransport(r io.ReadCloser, wc io.WriteCloser, w *wire) mcp.Transport {
	return &mcp.IOTransport{
		Reader: teeReadCloser{r: r, w: &lineRecorder{f: w.received}},
		Writer: teeWriteCloser{w: wc, tee: &lineRecorder{f: w.sent}},
	}
}

// observation is what one client of one case saw.
type observation struct {
	c          Case
	wire       *wire
	protocol   string
	advertised bool
	offers     map[string]bool // list method -> the server has the capability
	tool       *mcp.Tool
	call       exchange // the last tools/call response on the wire
	callErr    error    // the client's error for the call, if any
	elicited   int      // elicitation requests the handler saw
}

// lists are the list methods compared across profiles.
var lists = []string{"tools/list", "resources/list", "prompts/list"}

// Limits of a session.
const maxToolPages = 100

// observe runs one session: connect as c's client, list, call the tool.
func observe(ctx context.Context, opts *Options, era Era, c Case) (*observation, error) {
	obs := &observation{c: c, wire: newWire(), offers: map[string]bool{}}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	transport, stop, err := opts.Target.dial(ctx, obs.wire)
	if err != nil {
		return nil, err
	}
	defer stop()

	caps := &mcp.ClientCapabilities{}
	if c.Settings != nil {
		caps.AddExtension(ExtensionID, c.Settings)
	}
	var mu sync.Mutex
	copts := &mcp.ClientOptions{Capabilities: caps}
	if c.DeclaresElicitation() {
		copts.ElicitationHandler = func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			mu.Lock()
			obs.elicited++
			mu.Unlock()
			return &mcp.ElicitResult{Action: "decline"}, nil
		}
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "contentneg-conformance", Version: "1.0.0"}, copts)
	var sopts *mcp.ClientSessionOptions
	if era == Legacy {
		sopts = &mcp.ClientSessionOptions{ProtocolVersion: string(Legacy)}
	}
	rctx, rcancel := withTimeout(ctx, opts.Timeout)
	cs, err := client.Connect(rctx, transport, sopts)
	rcancel()
	if err != nil {
		return nil, fmt.Errorf("connect: %w", err)
	}
	defer cs.Close()
	if ir := cs.InitializeResult(); ir != nil {
		obs.protocol = ir.ProtocolVersion
		if ir.Capabilities != nil {
			_, obs.advertised = ir.Capabilities.Extensions[ExtensionID]
			obs.offers["tools/list"] = ir.Capabilities.Tools != nil
			obs.offers["resources/list"] = ir.Capabilities.Resources != nil
			obs.offers["prompts/list"] = ir.Capabilities.Prompts != nil
		}
	}
	if err := obs.listAll(ctx, cs, opts); err != nil {
		return nil, err
	}
	if obs.tool == nil {
		return nil, fmt.Errorf("the server lists no tool named %q", opts.Tool)
	}
	rctx, rcancel = withTimeout(ctx, opts.Timeout)
	_, obs.callErr = cs.CallTool(rctx, &mcp.CallToolParams{Name: opts.Tool, Arguments: opts.Arguments})
	rcancel()
	if errors.Is(obs.callErr, context.DeadlineExceeded) {
		return nil, fmt.Errorf("call %s: %w", opts.Tool, obs.callErr)
	}
	// The last response is the call's outcome: in the stateless era, the
	// ones before it asked for input.
	if calls := obs.wire.responses("tools/call"); len(calls) > 0 {
		obs.call = calls[len(calls)-1]
	}
	mu.Lock()
	defer mu.Unlock()
	return obs, nil
}

// listAll makes the first request of each list method the server offers,
// then finds the tool, following tools/list's pages.
func (obs *observation) listAll(ctx context.Context, cs *mcp.ClientSession, opts *Options) error {
	var cursor string
	for page := 0; page < maxToolPages; page++ {
		rctx, cancel := withTimeout(ctx, opts.Timeout)
		res, err := cs.ListTools(rctx, &mcp.ListToolsParams{Cursor: cursor})
		cancel()
		if err != nil {
			return fmt.Errorf("list tools: %w", err)
		}
		for _, tool := range res.Tools {
			if tool != nil && tool.Name == opts.Tool && obs.tool == nil {
				obs.tool = tool
			}
		}
		if obs.tool != nil || res.NextCursor == "" {
			break
		}
		cursor = res.NextCursor
	}
	if obs.offers["resources/list"] {
		rctx, cancel := withTimeout(ctx, opts.Timeout)
		_, err := cs.ListResources(rctx, nil)
		cancel()
		if errors.Is(err, context.DeadlineExceeded) {
			return fmt.Errorf("list resources: %w", err)
		}
	}
	if obs.offers["prompts/list"] {
		rctx, cancel := withTimeout(ctx, opts.Timeout)
		_, err := cs.ListPrompts(rctx, nil)
		cancel()
		if errors.Is(err, context.DeadlineExceeded) {
			return fmt.Errorf("list prompts: %w", err)
		}
	}
	return nil
}

// firstList returns the first response to method, and whether there was one.
func (obs *observation) firstList(method string) (exchange, bool) {
	r := obs.wire.responses(method)
	if len(r) == 0 {
		return exchange{}, false
	}
	return r[0], true
}

// inputRequests counts the tools/call results on the wire that carry input
// requests.
func (obs *observation) inputRequests() int {
	n := 0
	for _, e := range obs.wire.responses("tools/call") {
		var r struct {
			InputRequests map[string]json.RawMessage `json:"inputRequests"`
		}
		if json.Unmarshal(e.Result, &r) == nil && len(r.InputRequests) > 0 {
			n++
		}
	}
	return n
}

// elicitations counts the elicitation requests the client got, by its
// handler or on the wire, whichever saw more.
func (obs *observation) elicitations() int {
	return max(obs.elicited, obs.wire.requestsFromServer("elicitation/create"))
}

// withTimeout returns ctx bounded by d, or ctx when d is not positive.
func withTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if d <= 0 {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, d)
}
