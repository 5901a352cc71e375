// Package typescript runs the interoperability tests of the demo server
// against independent clients: the official MCP TypeScript SDK, v1
// (@modelcontextprotocol/sdk, protocol versions up to 2025-11-25) and v2
// (@modelcontextprotocol/client, pinned to the stateless protocol,
// 2026-07-28), both pinned in package-lock.json.
//
// The tests themselves are the *.test.mjs files beside this file, run with
// Node's built-in test runner: harness.mjs holds the v1 client's suite,
// harness-v2.mjs the v2 client's. The Go test in this package builds
// cmd/demo-weather, runs "node --test" with DEMO_WEATHER_BIN naming the
// binary, and fails if node does or if a suite did not run. It skips when
// node or node_modules is missing (run "npm ci" here first), unless
// CONTENTNEG_REQUIRE_INTEROP=1 is set, as in .ci/run, where it fails
// instead.
//
// TestGatewayDownstream builds the gateway, cmd/contentneg, and runs
// gateway-downstream.mjs alone: both clients downstream of the gateway in
// front of the npm reference servers of interop/servers (npm ci there too).
// See docs/interop.md.
package typescript
