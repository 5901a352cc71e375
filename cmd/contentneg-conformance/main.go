// Command contentneg-conformance checks an MCP server, written in any
// language, against the content-negotiation extension: it connects to the
// server (a command over stdio, or a streamable HTTP URL) in both protocol
// eras, once per client of the conformance kit's renderings.json, calls one
// tool with the same arguments, and checks every MUST and SHOULD of the
// extension that a client can observe. It prints a table on stdout (JSON
// with -json) and progress on stderr.
//
//	contentneg-conformance -command "python server.py" -tool get_weather -args '{"city":"Bern"}'
//	contentneg-conformance -url http://127.0.0.1:8080/mcp -tool get_weather -args '{"city":"Bern"}' -json
//
// Exit codes: 0 when every MUST holds, 1 when one fails, 2 for a usage
// error, 3 when the server could not be checked (it could not be started
// or reached, or does not list the tool). See docs/conformance.md.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
