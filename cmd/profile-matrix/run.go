package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/contentneg/contentneg/internal/cmdline"
	"github.com/contentneg/contentneg/internal/matrix"
)

// name is the command's name in messages.
const name = "profile-matrix"

// maxArgsLen bounds the -args JSON.
const maxArgsLen = 1 << 20

// config is what the command line asks for.
type config struct {
	argv     []string // the server command, from -command or after --
	url      string
	tool     string
	args     json.RawMessage
	profiles string
	json     bool
	show     bool
	legacy   bool
	quiet    bool
	timeout  time.Duration
}

// errUsage marks errors that are the command line's fault (exit code 2).
var errUsage = errors.New("usage")

// run runs the command with args (without the program name) and returns its
// exit code: 0 ok, 1 a profile failed, 2 a usage error.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cfg, err := parseFlags(args, stderr)
	switch {
	case errors.Is(err, flag.ErrHelp):
		return 0
	case err != nil:
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return 2
	}
	profiles := matrix.Presets()
	if cfg.profiles != "" {
		if profiles, err = matrix.LoadProfiles(cfg.profiles); err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", name, err)
			return 2
		}
	}
	logs := &serverLogs{}
	dial := httpDial(cfg.url)
	if cfg.url == "" {
		dial = commandDial(cfg.argv, logs)
	}
	opts := matrix.Options{
		Tool:      cfg.tool,
		Arguments: cfg.args,
		Profiles:  profiles,
		Legacy:    cfg.legacy,
		Timeout:   cfg.timeout,
	}
	progress := matrix.NewProgress(stderr, isTerminal(stderr))
	if !cfg.quiet {
		opts.Progress = progress.Step
	}
	m, runErr := matrix.Run(ctx, dial, opts)
	progress.Finish()
	if m == nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, runErr)
		return 2
	}
	if errors.Is(runErr, matrix.ErrStopped) && m.Failed() == len(m.Rows) {
		// Nothing was observed: no table, only why, on one line.
		fmt.Fprintf(stderr, "%s: %s\n", name, escapeLine(runErr.Error()))
		writeServerLog(stderr, logs.get(m.Rows[len(m.Rows)-1].Profile))
		return 1
	}
	if err := write(stdout, m, cfg); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return 1
	}
	if w := sameForEveryProfile(m); w != "" {
		fmt.Fprintf(stderr, "%s: warning: %s\n", name, w)
	}
	if runErr != nil {
		if cfg.json {
			// The errors are in the JSON; say only how many.
			fmt.Fprintf(stderr, "%s: %s (the errors are in the JSON)\n", name, failedCount(m, len(profiles)))
			return 1
		}
		reportFailures(stderr, m, len(profiles), logs)
		return 1
	}
	return 0
}

// sameForEveryProfile returns a warning when no negotiation happened: every
// profile that ran, declared or not, got the same result (rendering and
// sizes), though some declared the extension. That is a server without the
// middleware, or one that cannot keep what a client declared: a stateless
// server (no sessions) that legacy-era clients (who declare once, at
// initialize) talk to. It returns "" otherwise.
func sameForEveryProfile(m *matrix.Matrix) string {
	var first *matrix.Row
	declared, ran := false, 0
	for i := range m.Rows {
		r := &m.Rows[i]
		if r.Error != "" {
			continue
		}
		ran++
		declared = declared || r.Tags != nil
		if first == nil {
			first = r
			continue
		}
		if r.Rendering != first.Rendering || r.TextBytes != first.TextBytes || r.ResultBytes != first.ResultBytes {
			return ""
		}
	}
	if ran < 2 || !declared {
		return ""
	}
	why := "the server does not negotiate (no middleware?)"
	if first.Protocol == matrix.LegacyProtocol {
		why = "on the legacy protocol (" + matrix.LegacyProtocol + ") a client declares once, at initialize, " +
			"and a stateless server keeps no session to remember it by; run without -legacy, or serve with sessions"
	}
	return fmt.Sprintf("every profile got the same result (%s, %d bytes): negotiation had no effect. %s",
		first.Rendering, first.ResultBytes, why)
}

// write prints the matrix as the configuration asks.
func write(w io.Writer, m *matrix.Matrix, cfg config) error {
	if cfg.json {
		return matrix.WriteJSON(w, m)
	}
	if err := matrix.WriteTable(w, m); err != nil {
		return err
	}
	if cfg.profiles == "" {
		if _, err := io.WriteString(w, presetNote); err != nil {
			return fmt.Errorf("write the table: %w", err)
		}
	}
	if cfg.show {
		return matrix.WriteTexts(w, m)
	}
	return nil
}

// presetNote follows the table of the presets: a profile is named for what it stands for, and
// the preset "agent" is not the tag agent alone.
const presetNote = `
note: the preset "agent" declares agent, format=json, verbosity=compact: structuredContent alone, no text
note: the tag agent alone gets the structured rendering with the minified JSON mirror
`

// reportFailures says on stderr, once, why profiles failed: one line per
// distinct error naming the profiles that got it, then the end of what the
// server wrote to stderr. total is the number of profiles asked for; those
// past the last row were not run.
func reportFailures(w io.Writer, m *matrix.Matrix, total int, logs *serverLogs) {
	var (
		order    []string
		profiles = make(map[string][]string)
	)
	for _, r := range m.Rows {
		if r.Error == "" {
			continue
		}
		if _, seen := profiles[r.Error]; !seen {
			order = append(order, r.Error)
		}
		profiles[r.Error] = append(profiles[r.Error], r.Profile)
	}
	fmt.Fprintf(w, "%s: %s\n", name, failedCount(m, total))
	var last string
	for _, e := range order {
		who := strings.Join(profiles[e], ", ")
		if len(profiles[e]) == len(m.Rows) && len(m.Rows) > 1 {
			who = "every profile"
		}
		fmt.Fprintf(w, "  %s: %s\n", who, escapeLine(e))
		last = profiles[e][len(profiles[e])-1]
	}
	writeServerLog(w, logs.get(last))
}

// failedCount says how many of total profiles failed, and how many were
// not run.
func failedCount(m *matrix.Matrix, total int) string {
	if skipped := total - len(m.Rows); skipped > 0 {
		return fmt.Sprintf("%d of %d profiles failed, %d not run", m.Failed(), total, skipped)
	}
	return fmt.Sprintf("%d of %d profiles failed", m.Failed(), total)
}

// writeServerLog writes the end of a server's stderr, if it wrote any.
func writeServerLog(w io.Writer, log string) {
	if log = strings.TrimSpace(log); log == "" {
		return
	}
	fmt.Fprintf(w, "  the server's stderr ended with:\n")
	for _, line := range strings.Split(log, "\n") {
		fmt.Fprintf(w, "    | %s\n", escapeLine(line))
	}
}

// escapeLine keeps a message on one line: a server's error text may hold
// line breaks and control bytes, which become "?".
func escapeLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return '?'
		}
		return r
	}, s)
}

// parseFlags reads and checks the command line. Flag errors and the usage
// are written to stderr by the flag package; the other errors wrap errUsage.
func parseFlags(args []string, stderr io.Writer) (config, error) {
	var (
		cfg     config
		command string
		rawArgs string
	)
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { usage(fs) }
	fs.StringVar(&command, "command", "", "start the server with this command line and talk to it over stdio (or give it after --)")
	fs.StringVar(&cfg.url, "url", "", "connect to the server's streamable HTTP endpoint at this URL")
	fs.StringVar(&cfg.tool, "tool", "", "the tool to call (required)")
	fs.StringVar(&rawArgs, "args", "{}", "the tool's arguments, a JSON object")
	fs.StringVar(&cfg.profiles, "profiles", "", "a JSON or YAML file of profiles (name -> list of tags); default: the four presets")
	fs.BoolVar(&cfg.json, "json", false, "print the matrix as JSON")
	fs.BoolVar(&cfg.show, "show", false, "print each profile's text blocks under the table")
	fs.BoolVar(&cfg.legacy, "legacy", false, "connect with protocol "+matrix.LegacyProtocol+" (initialize handshake) instead of the client's default")
	fs.BoolVar(&cfg.quiet, "q", false, "no progress lines on stderr")
	fs.DurationVar(&cfg.timeout, "timeout", 30*time.Second, "time allowed to each request: start and connect, list tools, call; a request that runs out of time ends the run")
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	if err := finishConfig(&cfg, command, rawArgs, fs.Args()); err != nil {
		return cfg, err
	}
	return cfg, nil
}

// finishConfig checks the flags against each other and fills cfg.argv and
// cfg.args.
func finishConfig(cfg *config, command, rawArgs string, rest []string) error {
	switch {
	case command != "" && len(rest) > 0:
		return fmt.Errorf("%w: give the server command with -command or after --, not both", errUsage)
	case command != "":
		argv, err := cmdline.Split(command)
		if err != nil {
			return fmt.Errorf("%w: -command: %w", errUsage, err)
		}
		cfg.argv = argv
	default:
		cfg.argv = rest
	}
	switch {
	case len(cfg.argv) == 0 && cfg.url == "":
		return fmt.Errorf("%w: give the server: -command, -url, or a command after --", errUsage)
	case len(cfg.argv) > 0 && cfg.url != "":
		return fmt.Errorf("%w: give either a command or -url, not both", errUsage)
	case cfg.tool == "":
		return fmt.Errorf("%w: -tool is required", errUsage)
	case cfg.timeout <= 0:
		return fmt.Errorf("%w: -timeout must be positive", errUsage)
	case len(rawArgs) > maxArgsLen:
		return fmt.Errorf("%w: -args is longer than %d bytes", errUsage, maxArgsLen)
	}
	if cfg.url != "" {
		if u, err := url.Parse(cfg.url); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("%w: -url must be an http or https URL, got %q", errUsage, cfg.url)
		}
	}
	var obj map[string]any
	if err := json.Unmarshal([]byte(rawArgs), &obj); err != nil || obj == nil {
		return fmt.Errorf("%w: -args must be a JSON object, such as '{\"city\":\"Bern\"}'", errUsage)
	}
	cfg.args = json.RawMessage(rawArgs)
	return nil
}

// usage writes the command's help.
func usage(fs *flag.FlagSet) {
	w := fs.Output()
	fmt.Fprintf(w, `Usage:
  %[1]s -command "SERVER -stdio" -tool NAME [-args JSON] [flags]
  %[1]s -url http://HOST:PORT/mcp -tool NAME [-args JSON] [flags]
  %[1]s -tool NAME [-args JSON] [flags] -- SERVER COMMAND...

Calls one tool once per client profile and prints, side by side, the
rendering each profile got, its size in bytes and o200k_base tokens, whether
structuredContent validates against the tool's output schema, and whether
the server elicited (requests are declined).

Flags:
`, name)
	fs.PrintDefaults()
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}
