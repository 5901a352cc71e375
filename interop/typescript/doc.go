// Package typescript runs the interoperability tests of the demo server
// against an independent client: the official MCP TypeScript SDK
// (@modelcontextprotocol/sdk, pinned in package-lock.json).
//
// The tests themselves are the *.test.mjs files beside this file, run with
// Node's built-in test runner. The Go test in this package builds
// cmd/demo-weather, runs "node --test" with DEMO_WEATHER_BIN naming the
// binary, and fails if node does. It skips when node or node_modules is
// missing (run "npm ci" here first), unless CONTENTNEG_REQUIRE_INTEROP=1 is
// set, as in .ci/run, where it fails instead. See docs/interop.md.
package typescript
