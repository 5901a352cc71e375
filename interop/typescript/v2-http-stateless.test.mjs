// The demo over stateless streamable HTTP (demo-weather -http 127.0.0.1:0
// -stateless) against the TypeScript SDK v2 client pinned to 2026-07-28.
// Unlike the v1 client, whose capabilities travel once in initialize and are
// forgotten by the stateless handler, this client sends them with every
// request, so every profile gets its own rendering here too.
import { defineV2Suite, statelessHTTPTransport } from './harness-v2.mjs';

defineV2Suite(statelessHTTPTransport());
