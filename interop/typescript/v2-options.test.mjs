// The server's default tags and format argument against the TypeScript SDK
// v2 client, pinned to 2026-07-28 (see options.mjs).
import { defineOptionsSuite } from './options.mjs';

defineOptionsSuite('v2');
