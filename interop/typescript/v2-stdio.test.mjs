// The demo over stdio (demo-weather -stdio, one process per client) against
// the TypeScript SDK v2 client pinned to 2026-07-28: the extension's
// settings arrive in every request's _meta.
import { defineV2Suite, stdioTransport } from './harness-v2.mjs';

defineV2Suite(stdioTransport());
