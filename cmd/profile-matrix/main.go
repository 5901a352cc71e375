// Command profile-matrix shows how an MCP server serves each client profile
// of the content-negotiation extension: it connects once per profile (the
// four presets, or a JSON or YAML file of them), calls one tool with the
// same arguments, and prints side by side the rendering each profile got,
// its size in bytes and estimated tokens, whether structuredContent
// validates against the tool's output schema, and whether the server
// elicited.
//
//	profile-matrix -command "demo-weather -stdio" -tool get_weather -args '{"city":"Bern"}'
//	profile-matrix -url http://127.0.0.1:8080/mcp -tool get_weather -args '{"city":"Bern"}' -json
//	profile-matrix -tool get_weather -args '{"city":"Bern"}' -- go run ./cmd/demo-weather -stdio
//
// Exit codes: 0 when every profile got a result, 1 when one failed (what
// was observed is still printed), 2 for a usage error. See docs/matrix.md.
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
