// Command contentneg puts content negotiation and a REST API in front of any
// MCP server, in any language, without a line of its code changed.
//
//	contentneg [flags] -- COMMAND ARGS...   run COMMAND as the upstream, on stdio
//	contentneg -upstream URL [flags]        connect to a streamable-HTTP upstream
//
// Downstream, it serves the upstream's mirror on stdio (the default), and/or:
//
//	-http ADDR [-stateless]   streamable HTTP at /mcp
//	-rest ADDR                the REST binding at /mcp/v1 (with /openapi.json)
//	-stdio                    stdio as well as -http or -rest
//	-default TAGS             what clients that declare nothing get ("human, format=markdown")
//	-format-argument NAME     an optional argument with which the model picks a call's format
//	-config FILE              per-tool settings, default tags, the format argument (docs/gateway.md)
//
// A client that declares nothing gets the upstream's results unchanged; a
// client that declares a profile (human, format=toon, ...) gets them
// rendered, and REST clients choose with Accept. With CONTENTNEG_API_KEY
// set (or the variable the config file names), REST clients must send the
// key (Authorization: Bearer KEY or X-API-Key: KEY). The upstream's stderr goes to the gateway's stderr;
// SIGINT and SIGTERM end everything, with exit code 0.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
