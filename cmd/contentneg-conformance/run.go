package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"strings"
	"time"

	"github.com/contentneg/contentneg/internal/cmdline"
	"github.com/contentneg/contentneg/internal/conformance/check"
)

// name is the command's name in messages.
const name = "contentneg-conformance"

// Exit codes.
const (
	exitOK        = 0
	exitMustFails = 1
	exitUsage     = 2
	exitNoServer  = 3
)

// maxArgsLen bounds the -args JSON.
const maxArgsLen = 1 << 20

// errUsage marks errors that are the command line's fault.
var errUsage = errors.New("usage")

// run runs the command with args (without the program name) and returns its
// exit code.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	opts, asJSON, quiet, err := parseFlags(args, stderr)
	switch {
	case errors.Is(err, flag.ErrHelp):
		return exitOK
	case err != nil:
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return exitUsage
	}
	if quiet {
		// -q: nothing on stderr but the verdict's failures, so not the
		// server's log (a server that cannot start still says why: the
		// error names it).
		opts.Target.Stderr = nil
	}
	if !quiet {
		opts.Progress = func(line string) { fmt.Fprintf(stderr, "%s ...\n", line) }
	}
	report, err := check.Run(ctx, opts)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %s\n", name, check.OneLine(err.Error()))
		if errors.Is(err, check.ErrOptions) {
			return exitUsage
		}
		return exitNoServer
	}
	if asJSON {
		err = check.WriteJSON(stdout, report)
	} else {
		err = check.WriteTable(stdout, report)
	}
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return exitNoServer
	}
	if w := sessionless(report); w != "" {
		fmt.Fprintf(stderr, "%s: warning: %s\n", name, w)
	}
	if !report.OK() {
		fmt.Fprintf(stderr, "%s: %d MUST check(s) failed\n", name, report.Count(check.Must, check.Fail))
		return exitMustFails
	}
	return exitOK
}

// sessionless returns a warning when an era could not be checked because
// negotiation is impossible there: legacy-era clients of a server that
// serves HTTP without sessions (they declare once, at initialize, and no
// session carries that to their calls). Its checks are skipped, so "every
// MUST holds" would otherwise say more than was seen. "" otherwise.
func sessionless(report *check.Report) string {
	n := 0
	for _, res := range report.Results {
		if res.Status == check.Skip && strings.HasPrefix(res.Detail, "the server serves HTTP without sessions") {
			n++
		}
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("%d check(s) of the %s era were skipped: negotiation is impossible for its clients on a server "+
		"without sessions (they declare at initialize, and nothing carries that to their calls); check that era over stdio "+
		"or HTTP with sessions, or use -era stateless", n, check.Legacy)
}

// parseFlags reads and checks the command line. Flag errors and the usage
// go to stderr through the flag package.
func parseFlags(args []string, stderr io.Writer) (opts check.Options, asJSON, quiet bool, err error) {
	var (
		command, rawURL, rawArgs, era string
		timeout                       time.Duration
	)
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { usage(fs) }
	fs.StringVar(&command, "command", "", "start the server with this command line, once per client, and talk to it over stdio (or give it after --)")
	fs.StringVar(&rawURL, "url", "", "the server's streamable HTTP endpoint")
	fs.StringVar(&opts.Tool, "tool", "", "the tool to call (required): one whose successful result is data (structuredContent, or a JSON text block)")
	fs.StringVar(&rawArgs, "args", "{}", "the tool's arguments, a JSON object")
	fs.StringVar(&era, "era", "both", "the protocol eras to check: both, stateless (2026-07-28) or legacy (2025-11-25)")
	fs.DurationVar(&timeout, "timeout", 30*time.Second, "time allowed to each request (start and connect, list, call)")
	fs.BoolVar(&asJSON, "json", false, "print the report as JSON")
	fs.BoolVar(&quiet, "q", false, "no progress lines on stderr, nor the stdio server's stderr")
	if err := fs.Parse(args); err != nil {
		return opts, false, false, err
	}
	rest := fs.Args()
	switch {
	case command != "" && len(rest) > 0:
		return opts, false, false, fmt.Errorf("%w: give the server command with -command or after --, not both", errUsage)
	case command != "":
		if opts.Target.Command, err = cmdline.Split(command); err != nil {
			return opts, false, false, fmt.Errorf("%w: -command: %w", errUsage, err)
		}
	default:
		opts.Target.Command = rest
	}
	opts.Target.Stderr = stderr
	switch {
	case len(opts.Target.Command) == 0 && rawURL == "":
		return opts, false, false, fmt.Errorf("%w: give the server: -command, -url, or a command after --", errUsage)
	case len(opts.Target.Command) > 0 && rawURL != "":
		return opts, false, false, fmt.Errorf("%w: give either a command or -url, not both", errUsage)
	case opts.Tool == "":
		return opts, false, false, fmt.Errorf("%w: -tool is required", errUsage)
	case timeout <= 0:
		return opts, false, false, fmt.Errorf("%w: -timeout must be positive", errUsage)
	case len(rawArgs) > maxArgsLen:
		return opts, false, false, fmt.Errorf("%w: -args is longer than %d bytes", errUsage, maxArgsLen)
	}
	if rawURL != "" {
		if u, err := url.Parse(rawURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return opts, false, false, fmt.Errorf("%w: -url must be an http or https URL, got %q", errUsage, rawURL)
		}
		opts.Target.URL = rawURL
	}
	var obj map[string]any
	if err := json.Unmarshal([]byte(rawArgs), &obj); err != nil || obj == nil {
		return opts, false, false, fmt.Errorf("%w: -args must be a JSON object, such as '{\"city\":\"Bern\"}'", errUsage)
	}
	opts.Arguments = json.RawMessage(rawArgs)
	switch era {
	case "both":
	case "stateless":
		opts.Eras = []check.Era{check.Stateless}
	case "legacy":
		opts.Eras = []check.Era{check.Legacy}
	default:
		return opts, false, false, fmt.Errorf("%w: -era must be both, stateless or legacy, got %q", errUsage, era)
	}
	opts.Timeout = timeout
	return opts, asJSON, quiet, nil
}

// usage writes the command's help.
func usage(fs *flag.FlagSet) {
	fmt.Fprintf(fs.Output(), `Usage:
  %[1]s -command "SERVER ARGS" -tool NAME [-args JSON] [flags]
  %[1]s -url http://HOST:PORT/mcp -tool NAME [-args JSON] [flags]
  %[1]s -tool NAME [-args JSON] [flags] -- SERVER ARGS...

Checks an MCP server against the content-negotiation extension
(io.modelcontextprotocol/content-negotiation): one client per case of the
conformance kit, in both protocol eras, one call of the tool each. Prints
one line per check and era: its name, MUST or SHOULD, pass, FAIL or skip,
the clause of the contract, and what was seen.

Exit codes: 0 every MUST holds; 1 a MUST fails; 2 usage; 3 the server
could not be checked.

Flags:
`, name)
	fs.PrintDefaults()
}
