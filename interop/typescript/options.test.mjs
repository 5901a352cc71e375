// The server's default tags and format argument against the TypeScript SDK
// v1 client (see options.mjs).
import { defineOptionsSuite } from './options.mjs';

defineOptionsSuite('v1');
