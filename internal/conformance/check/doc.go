// Package check runs the conformance kit of the content-negotiation
// extension against a live MCP server, over stdio or streamable HTTP, in
// both protocol eras, as a black box: it connects one client per case of
// renderings.json (package conformance), lists, calls one tool, records
// every JSON-RPC message byte for byte, and evaluates each MUST and SHOULD
// of the contract that a client can observe (see Catalog and
// docs/conformance.md). It never changes the server's state beyond that one
// call per client, and never answers an elicitation but with "decline".
package check
