// Lets @modelcontextprotocol/conformance run on Node 20: it imports
// globSync from "fs", which Node added in 22, and uses it only in its
// tier-check command. Run the suite as
//
//	node --import ./register.mjs node_modules/@modelcontextprotocol/conformance/dist/index.js ...
//
// This hook resolves the suite's "fs" import to fs-shim.mjs (node:fs plus a
// small globSync); every other module, and any Node that has globSync, is
// left alone.
import fs from 'node:fs';
import { register } from 'node:module';

if (typeof fs.globSync !== 'function') {
  register('./hooks.mjs', import.meta.url);
}
