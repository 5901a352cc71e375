// The module resolution hook registered by register.mjs: "fs" and "node:fs",
// imported from inside the conformance suite (0.1.16, or the 0.2.0
// prerelease installed as conformance-next), resolve to fs-shim.mjs.
const SUITES = ['/node_modules/@modelcontextprotocol/conformance/', '/node_modules/conformance-next/'];
const SHIM = new URL('./fs-shim.mjs', import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
  const parent = context.parentURL ?? '';
  if ((specifier === 'fs' || specifier === 'node:fs') && SUITES.some((dir) => parent.includes(dir))) {
    return { url: SHIM, shortCircuit: true };
  }
  return nextResolve(specifier, context);
}
