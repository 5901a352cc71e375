// The gateway (cmd/contentneg, named by CONTENTNEG_GATEWAY_BIN) in front of
// the pinned npm reference servers (interop/servers, their .bin folder named
// by CONTENTNEG_SERVERS_BIN), with the TypeScript SDK clients downstream:
// v1 (@modelcontextprotocol/sdk, the initialize era) over stdio and stateful
// streamable HTTP, and v2 (@modelcontextprotocol/client) pinned to
// 2026-07-28 over stdio and stateless streamable HTTP.
//
// For each: a client that declares nothing gets the result a client of the
// same SDK gets from the upstream directly (its members in the same order),
// a client that declares
// `human` gets markdown for the memory server's read_graph, and the
// everything server's question reaches an interactive client (v1: the
// gateway's elicitation/create; v2: its inputRequests and the client's
// retry) and never a `!interactive` one.
//
// Not matched by node --test's default patterns: typescript_test.go runs this
// file alone, once (TestGatewayDownstream).

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HTTPV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as ClientV2, StreamableHTTPClientTransport as HTTPV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';

import { capabilities, stopChild, waitForLine } from './harness.mjs';

/** Every request, connection and start-up ends within this many milliseconds. */
const CALL_MS = 20_000;

/** The per-test deadline of node:test, above a few CALL_MS. */
const TEST_MS = 90_000;

/** The stateless era the v2 client is pinned to. */
const PROTOCOL = '2026-07-28';

function required(name) {
  const v = process.env[name];
  if (!v) {
    throw new Error(`${name} is not set: run go test ./interop/typescript -run TestGatewayDownstream, which sets it`);
  }
  return v;
}

const GATEWAY = required('CONTENTNEG_GATEWAY_BIN');
const SERVERS_BIN = required('CONTENTNEG_SERVERS_BIN');

function bounded() {
  return { timeout: CALL_MS, signal: AbortSignal.timeout(CALL_MS) };
}

/** A fresh directory, removed when the test ends. */
function tempDir(t) {
  const dir = mkdtempSync(join(tmpdir(), 'contentneg-gw-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The upstream servers: their command line and environment, given a fresh directory. */
const UPSTREAMS = {
  memory: (dir) => ({
    args: [join(SERVERS_BIN, 'mcp-server-memory')],
    env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') },
  }),
  everything: () => ({ args: [join(SERVERS_BIN, 'mcp-server-everything'), 'stdio'], env: {} }),
};

const ENTITIES = {
  name: 'create_entities',
  arguments: {
    entities: [
      { name: 'Zoë', entityType: 'person', observations: ['admin of contentneg', 'lives in Bern'] },
      { name: 'contentneg', entityType: 'project', observations: ['content negotiation for MCP'] },
    ],
  },
};
const READ_GRAPH = { name: 'read_graph', arguments: {} };

/** The calls compared directly and through the gateway: the first ones set state up. */
const CALLS = {
  memory: [ENTITIES, READ_GRAPH],
  everything: [
    { name: 'get-structured-content', arguments: { location: 'Chicago' } },
    { name: 'echo', arguments: { message: 'hi' } },
    { name: 'get-sum', arguments: { a: 2, b: 3 } },
  ],
};

/** The two SDKs: how each makes a client and a stdio transport. */
const SDKS = {
  v1: {
    client: (features, elicitation) =>
      new ClientV1({ name: 'contentneg-gateway-v1', version: '1.0.0' }, { capabilities: capabilities(features, elicitation) }),
    onElicit: (client, handler) => client.setRequestHandler(ElicitRequestSchema, handler),
    stdio: (command, args, env) => new StdioV1({ command, args, env: { ...process.env, ...env }, stderr: 'inherit' }),
    http: (url) => new HTTPV1(url),
    // v1's callTool takes the result schema second.
    call: (client, params) => client.callTool(params, undefined, bounded()),
    // The upstream speaks the initialize era: the v1 client connects to it as is.
    direct: (features) => SDKS.v1.client(features),
  },
  v2: {
    client: (features, elicitation) =>
      new ClientV2(
        { name: 'contentneg-gateway-v2', version: '1.0.0' },
        { capabilities: capabilities(features, elicitation), versionNegotiation: { mode: 'auto' } },
      ),
    // Also how the client answers the stateless era's inputRequests.
    onElicit: (client, handler) => client.setRequestHandler('elicitation/create', handler),
    stdio: (command, args, env) => new StdioV2({ command, args, env: { ...process.env, ...env }, stderr: 'inherit' }),
    http: (url) => new HTTPV2(url),
    call: (client, params) => client.callTool(params, bounded()),
    // The npm servers do not speak 2026-07-28: the v2 client negotiates
    // what they speak.
    direct: (features) => new ClientV2({ name: 'contentneg-gateway-v2', version: '1.0.0' }, { capabilities: capabilities(features) }),
  },
};

/**
 * Starts the gateway with -http on a free port in front of an upstream, and
 * returns its /mcp URL; the gateway stops when the test ends (stopChild).
 */
async function startHTTPGateway(t, upstream, stateless) {
  const args = ['-http', '127.0.0.1:0'];
  if (stateless) {
    args.push('-stateless');
  }
  args.push('--', process.execPath, ...upstream.args);
  const child = spawn(GATEWAY, args, { stdio: ['ignore', 'inherit', 'pipe'], env: { ...process.env, ...upstream.env } });
  t.after(() => stopChild(child));
  const m = await waitForLine(child, /serving MCP \((stateful|stateless)\) under \/mcp at (http:\/\/\S+)/, 'the gateway');
  return new URL('/mcp', m[2]);
}

/** The downstream transports the gateway serves each SDK on. */
const DOWNSTREAMS = [
  { sdk: 'v1', name: 'stdio', connect: (t, sdk, up) => sdk.stdio(GATEWAY, ['--', process.execPath, ...up.args], up.env) },
  { sdk: 'v1', name: 'streamable HTTP, stateful', connect: async (t, sdk, up) => sdk.http(await startHTTPGateway(t, up, false)) },
  { sdk: 'v2', name: 'stdio', connect: (t, sdk, up) => sdk.stdio(GATEWAY, ['--', process.execPath, ...up.args], up.env) },
  { sdk: 'v2', name: 'streamable HTTP, stateful', connect: async (t, sdk, up) => sdk.http(await startHTTPGateway(t, up, false)) },
  // The npm servers speak the initialize era, and the gateway bridges no
  // era: over stateless HTTP the client speaks that era too, so its
  // declaration at initialize reaches no later request (they have no
  // session). It gets the upstream's results as they are, and is asked
  // nothing (docs/decisions.md, "The gateway bridges no era").
  { sdk: 'v2', name: 'streamable HTTP, stateless', stateless: true, connect: async (t, sdk, up) => sdk.http(await startHTTPGateway(t, up, true)) },
];

/** Connects a client, closed when the test ends. */
async function connect(t, client, transport) {
  await client.connect(transport, bounded());
  t.after(() => client.close());
  return client;
}

/** Makes the calls in order and returns their results. */
async function callAll(sdk, client, calls) {
  const results = [];
  for (const params of calls) {
    results.push(await sdk.call(client, params));
  }
  return results;
}

/**
 * A result without the stateless era's envelope (resultType and the
 * serving side's _meta), which describe the connection, not the tool.
 */
function toolResult(result) {
  const { resultType, _meta, ...rest } = result;
  return rest;
}

for (const down of DOWNSTREAMS) {
  const sdk = SDKS[down.sdk];
  const era = down.sdk === 'v2' ? 'v2 client, negotiating its era' : 'v1 client';
  describe(`The gateway to a TypeScript SDK ${era}, over ${down.name}`, { timeout: 10 * TEST_MS }, () => {
    for (const [server, calls] of Object.entries(CALLS)) {
      it(`a client that declares nothing gets from ${server} what it gets directly`, { timeout: TEST_MS }, async (t) => {
        const up = UPSTREAMS[server](tempDir(t));
        const direct = await connect(t, sdk.direct(undefined), sdk.stdio(process.execPath, up.args, up.env));
        const want = (await callAll(sdk, direct, calls)).map(toolResult);
        for (let i = 0; i < calls.length; i++) {
          assert.notEqual(want[i].isError, true, `${server}, ${calls[i].name}, directly: ${JSON.stringify(want[i])}`);
          assert.ok(want[i].content?.length > 0, `${server}, ${calls[i].name}, directly: no content: ${JSON.stringify(want[i])}`);
        }

        const client = sdk.client(undefined);
        const gw = await connect(t, client, await down.connect(t, sdk, UPSTREAMS[server](tempDir(t))));
        if (down.sdk === 'v2') {
          // The gateway bridges no era: the client speaks the upstream's.
          assert.equal(gw.getNegotiatedProtocolVersion(), direct.getNegotiatedProtocolVersion(), 'the gateway offered another era than the upstream');
        }
        const got = (await callAll(sdk, gw, calls)).map(toolResult);
        for (let i = 0; i < calls.length; i++) {
          // The same members in the same order: the gateway passes the
          // upstream's bytes on (JSON.parse keeps their order).
          assert.equal(
            JSON.stringify(got[i]),
            JSON.stringify(want[i]),
            `${server}, ${calls[i].name}: through the gateway differs from directly`,
          );
        }
      });
    }

    it('a client that declares human gets markdown for read_graph', { timeout: TEST_MS }, async (t) => {
      const gw = await connect(t, sdk.client(['human']), await down.connect(t, sdk, UPSTREAMS.memory(tempDir(t))));
      const created = await sdk.call(gw, ENTITIES);
      assert.notEqual(created.isError, true, `create_entities failed: ${JSON.stringify(created)}`);
      const result = await sdk.call(gw, READ_GRAPH);
      assert.notEqual(result.isError, true, `read_graph failed: ${JSON.stringify(result)}`);
      const blocks = result.content ?? [];
      assert.equal(blocks.length, 1, `want one block, got ${JSON.stringify(blocks)}`);
      assert.equal(blocks[0].type, 'text', `not a text block: ${JSON.stringify(blocks[0])}`);
      const text = blocks[0].text;
      if (down.stateless) {
        assert.doesNotThrow(() => JSON.parse(text), undefined, `want the upstream's JSON, got:\n${text}`);
        return;
      }
      assert.throws(() => JSON.parse(text), undefined, `want markdown, got JSON:\n${text}`);
      for (const want of ['Zoë', 'lives in Bern', 'content negotiation for MCP']) {
        assert.ok(text.includes(want), `the markdown does not say ${JSON.stringify(want)}:\n${text}`);
      }
      assert.match(text, /^\s*(#|-|\*|\|)/m, `no markdown structure (heading, list or table):\n${text}`);
    });

    it("the everything server's question reaches an interactive client, never a !interactive one", { timeout: TEST_MS }, async (t) => {
      const cases = [
        { features: ['human'], asked: 1, shows: '"name": "Zoë"' },
        { features: ['human', '!interactive'], asked: 0, shows: '"action": "decline"' },
      ];
      for (const c of cases) {
        if (down.stateless) {
          // The gateway's shared session declares no elicitation: the
          // upstream does not offer the tool that asks.
          Object.assign(c, { asked: 0, shows: 'trigger-elicitation-request' });
        }
        const client = sdk.client(c.features, true);
        let asked = 0;
        sdk.onElicit(client, async () => {
          asked++;
          return { action: 'accept', content: { name: 'Zoë', check: true } };
        });
        const gw = await connect(t, client, await down.connect(t, sdk, UPSTREAMS.everything()));
        const result = await sdk.call(gw, { name: 'trigger-elicitation-request', arguments: {} });
        const text = (result.content ?? []).map((b) => b.text ?? '').join('');
        assert.equal(asked, c.asked, `features ${JSON.stringify(c.features)}: asked ${asked} times, want ${c.asked}`);
        assert.ok(text.includes(c.shows), `features ${JSON.stringify(c.features)}: the upstream's result does not show ${c.shows}:\n${text}`);
      }
    });
  });
}

