// The shared part of the interoperability tests: the demo-weather server
// (cmd/demo-weather, built by the Go test and named by DEMO_WEATHER_BIN)
// against the official TypeScript SDK client, @modelcontextprotocol/sdk.
//
// Each *.test.mjs file calls defineSuite with one transport. The suite
// connects one client per profile, three clients that must never be asked
// anything, and one that may (the control), and checks what each gets.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, it } from 'node:test';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';

/** The extension's identifier, the key under capabilities.extensions. */
export const EXTENSION = 'io.modelcontextprotocol/content-negotiation';

/** Every request and every connection ends within this many milliseconds. */
const CALL_MS = 15_000;

/** The per-test deadline of node:test, above CALL_MS so a hung call fails as a timeout of the call. */
const TEST_MS = 60_000;

/**
 * The four profiles of the issue. `rendering` is what a session-holding
 * transport (stdio, stateful HTTP) must deliver for the profile.
 */
export const PROFILES = [
  { name: 'undeclared', features: undefined, rendering: 'json' },
  { name: 'agent', features: ['agent', 'format=json', 'verbosity=compact'], rendering: 'structured' },
  { name: 'human', features: ['human', 'format=markdown'], rendering: 'markdown' },
  { name: 'terminal', features: ['format=text', 'verbosity=compact'], rendering: 'text' },
];

/** The clients that must never receive elicitation/create. */
const NON_INTERACTIVE = [
  { name: 'elicitation capability, !interactive', features: ['!interactive'], elicitation: true },
  { name: 'elicitation capability, interactive and !interactive', features: ['interactive', '!interactive'], elicitation: true },
  { name: 'no elicitation capability, interactive', features: ['interactive'], elicitation: false },
];

const WEATHER = { name: 'get_weather', arguments: { city: 'Bern' } };
const FORECAST = { name: 'get_forecast', arguments: { city: 'Bern', days: 3 } };
const AMBIGUOUS = { name: 'get_weather', arguments: { city: 'Springfield' } };
const CANDIDATES = ['Springfield, IL', 'Springfield, MA', 'Springfield, MO'];
const SET_ALERT = { name: 'set_alert', arguments: { city: 'Bern', threshold_c: 0 } };

/** The path of the demo binary, from DEMO_WEATHER_BIN. */
export function demoBinary() {
  const bin = process.env.DEMO_WEATHER_BIN;
  if (!bin) {
    throw new Error(
      'DEMO_WEATHER_BIN is not set: build the demo (go build -o /tmp/demo-weather ./cmd/demo-weather, ' +
        'from the module root) and run DEMO_WEATHER_BIN=/tmp/demo-weather node --test, ' +
        'or run go test ./interop/typescript, which does both',
    );
  }
  return bin;
}

/** Options for every request: the SDK's own timeout and an abort signal. */
function bounded() {
  return { timeout: CALL_MS, signal: AbortSignal.timeout(CALL_MS) };
}

/**
 * The client capabilities for a feature list: the extension's settings
 * object under capabilities.extensions (the SDK 1.32.2 schema has an
 * `extensions` record beside `experimental`), and `elicitation: {}` (form
 * mode) when asked for.
 */
export function capabilities(features, elicitation = false) {
  const caps = {};
  if (features) {
    caps.extensions = { [EXTENSION]: { version: '1.0', features } };
  }
  if (elicitation) {
    caps.elicitation = {};
  }
  return caps;
}

/**
 * The stdio transport: each client spawns its own demo process with -stdio.
 * The demo's logs (stderr) go to this process's stderr.
 */
export function stdioTransport() {
  const bin = demoBinary();
  return {
    name: 'stdio',
    sessions: true,
    async start() {},
    transport: () => new StdioClientTransport({ command: bin, args: ['-stdio'], stderr: 'inherit' }),
    async stop() {},
  };
}

/**
 * The streamable HTTP transport: one demo process per suite, started with
 * -http 127.0.0.1:0 (and -stateless when asked), its URL read from the line
 * it prints on stderr.
 */
export function httpTransport({ stateless }) {
  const bin = demoBinary();
  let child;
  let url;
  return {
    name: stateless ? 'streamable HTTP, stateless' : 'streamable HTTP, stateful',
    // The stateless handler gives every request a new session with default
    // initialize params: a client of the SDK's protocol versions (initialize
    // once, then plain requests) cannot keep a profile, so it gets the
    // handler's result unchanged (docs/middleware.md).
    sessions: !stateless,
    async start() {
      const args = ['-http', '127.0.0.1:0'];
      if (stateless) {
        args.push('-stateless');
      }
      child = spawn(bin, args, { stdio: ['ignore', 'inherit', 'pipe'] });
      const m = await waitForLine(child, /serving MCP \((stateful|stateless)\) at (http:\/\/\S+\/mcp)/, 'demo');
      assert.equal(m[1], stateless ? 'stateless' : 'stateful', 'the demo serves the other protocol');
      url = new URL(m[2]);
    },
    transport: () => new StreamableHTTPClientTransport(url),
    /** The demo's URL, once started (for clients of other SDK versions). */
    url: () => url,
    stop: () => stopChild(child),
  };
}

/**
 * Resolves with the match of pattern once the child's stderr (echoed to
 * ours) holds it; rejects when the child fails to start, exits first, or
 * says nothing matching within CALL_MS. what names the child in errors.
 */
export function waitForLine(child, pattern, what) {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`no "serving MCP" line on stderr within ${CALL_MS} ms:\n${seen}`)), CALL_MS);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited (code ${code}, signal ${signal}) before serving:\n${seen}`));
    });
    child.stderr.on('data', (chunk) => {
      process.stderr.write(chunk);
      seen += chunk;
      const m = seen.match(pattern);
      if (m) {
        clearTimeout(timer);
        resolve(m);
      }
    });
  });
}

/** Stops a child that still runs: SIGTERM, then SIGKILL 5 s later. */
export async function stopChild(child) {
  if (!child || child.exitCode !== null || child.signalCode !== null) {
    return;
  }
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

/**
 * Watches what a transport delivers to the client, before the SDK sees it:
 * every server-to-client request (by method) and the protocol version of the
 * initialize result.
 */
function spy(transport) {
  const seen = { requests: [], protocolVersion: undefined };
  let dispatch;
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    get: () => dispatch && ((message, extra) => {
      if (message && typeof message.method === 'string' && message.id !== undefined) {
        seen.requests.push(message.method);
      }
      if (message?.result && typeof message.result.protocolVersion === 'string') {
        seen.protocolVersion = message.result.protocolVersion;
      }
      return dispatch(message, extra);
    }),
    set: (fn) => {
      dispatch = fn;
    },
  });
  return seen;
}

/**
 * Connects a client with the given capabilities. A client with the
 * elicitation capability gets a handler that records the call
 * (`elicitations`) and declines; any other server request is refused.
 */
async function connect(server, caps) {
  const elicitations = [];
  const client = new Client({ name: 'contentneg-interop', version: '1.0.0' }, { capabilities: caps });
  if (caps.elicitation) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      elicitations.push(request.params);
      return { action: 'decline' };
    });
  }
  client.fallbackRequestHandler = async (request) => {
    throw new Error(`unexpected ${request.method} from the server`);
  };
  const transport = server.transport();
  const seen = spy(transport);
  await client.connect(transport, bounded());
  return {
    client,
    seen,
    elicitations,
    async close() {
      if (transport.sessionId !== undefined && typeof transport.terminateSession === 'function') {
        await transport.terminateSession().catch(() => {});
      }
      await client.close();
    },
  };
}

async function call(client, params) {
  return client.callTool(params, undefined, bounded());
}

/** The one text block of a result; fails unless there is exactly one block and it is text. */
function onlyText(result) {
  assert.ok(Array.isArray(result.content), `no content array: ${JSON.stringify(result)}`);
  assert.equal(result.content.length, 1, `want one content block, got ${JSON.stringify(result.content)}`);
  assert.equal(result.content[0].type, 'text', `want a text block, got ${JSON.stringify(result.content[0])}`);
  return result.content[0].text;
}

function parsesAsJSON(text) {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** What the data of a result must show in any rendering: the location, and each forecast date. */
/** Reports whether a profile asked for compact verbosity. */
export function isCompact(profile) {
  return (profile.features ?? []).includes('verbosity=compact');
}

function landmarks(structured, compact) {
  if (compact) {
    // Compact text keeps the few fields that matter (SPEC section 3): the
    // demo's are the conditions, of the day or of each day.
    return structured.days ? structured.days.map((day) => day.conditions) : [structured.conditions];
  }
  const marks = [structured.location];
  for (const day of structured.days ?? []) {
    marks.push(day.date);
  }
  return marks;
}

/**
 * Checks a successful call's result against the rendering its profile must
 * get; `compact` says the profile asked for verbosity=compact.
 */
export function checkRendering(rendering, result, label, { compact = false } = {}) {
  assert.notEqual(result.isError, true, `${label}: tool error ${JSON.stringify(result.content)}`);
  const structured = result.structuredContent;
  assert.ok(structured && typeof structured === 'object', `${label}: structuredContent missing; the demo tools declare output schemas`);
  assert.match(structured.location ?? '', /^Bern, Switzerland$/, `${label}: structuredContent is not Bern's`);
  if (rendering === 'structured') {
    // An explicit format=json: structuredContent alone, no text mirror.
    assert.deepEqual(result.content, [], `${label}: want no content block beside structuredContent, got ${JSON.stringify(result.content)}`);
    return;
  }
  const text = onlyText(result);
  switch (rendering) {
    case 'json': {
      assert.ok(parsesAsJSON(text), `${label}: want the JSON of structuredContent, got:\n${text}`);
      assert.deepEqual(JSON.parse(text), structured, `${label}: the JSON text differs from structuredContent`);
      break;
    }
    case 'markdown': {
      assert.ok(!parsesAsJSON(text), `${label}: want markdown, got JSON:\n${text}`);
      assert.ok(text.includes('**') || /^\|.*\|$/m.test(text), `${label}: want markdown (** or a | table row), got:\n${text}`);
      assert.doesNotMatch(text, /<\/?[A-Za-z][^>]*>/, `${label}: raw HTML in the markdown:\n${text}`);
      break;
    }
    case 'text': {
      assert.ok(!parsesAsJSON(text), `${label}: want plain text, got JSON:\n${text}`);
      assert.ok(!text.includes('**'), `${label}: ** in plain text:\n${text}`);
      assert.doesNotMatch(text, /^#{1,6}\s/m, `${label}: a # heading in plain text:\n${text}`);
      assert.doesNotMatch(text, /\|\s*:?-+:?\s*\|/, `${label}: a |---| table rule in plain text:\n${text}`);
      assert.ok(!text.includes('`'), `${label}: a backtick in plain text:\n${text}`);
      break;
    }
    default:
      throw new Error(`unknown rendering ${rendering}`);
  }
  for (const mark of landmarks(structured, compact && rendering === 'text')) {
    assert.ok(text.includes(mark), `${label}: the text does not mention ${JSON.stringify(mark)}:\n${text}`);
  }
}

/** Checks the ambiguous-city error: an isError result naming every candidate. */
function checkAmbiguous(result, label) {
  assert.equal(result.isError, true, `${label}: want a tool error, got ${JSON.stringify(result)}`);
  const text = (result.content ?? []).filter((b) => b.type === 'text').map((b) => b.text).join('\n');
  for (const candidate of CANDIDATES) {
    assert.ok(text.includes(candidate), `${label}: the error does not name ${candidate}:\n${text}`);
  }
}

/** The text of a result and its structuredContent, for looking for a city. */
function everything(result) {
  return JSON.stringify({ content: result.content, structuredContent: result.structuredContent });
}

/**
 * Defines the suite for one transport: the advertisement, identical tool
 * lists, the renderings of each profile, the tool errors, and the
 * non-interactive clients.
 */
export function defineSuite(server) {
  describe(`TypeScript SDK client over ${server.name}`, { timeout: 5 * TEST_MS }, () => {
    const sessions = new Map();
    const lists = new Map();

    before(async () => {
      await server.start();
      for (const profile of PROFILES) {
        const session = await connect(server, capabilities(profile.features));
        sessions.set(profile.name, session);
        // Listing first also lets the SDK validate structuredContent
        // against each tool's output schema in callTool.
        lists.set(profile.name, await session.client.listTools(undefined, bounded()));
      }
    });

    after(async () => {
      for (const session of sessions.values()) {
        await session.close();
      }
      await server.stop();
    });

    it(`negotiates the SDK's latest protocol version, ${LATEST_PROTOCOL_VERSION}`, () => {
      for (const [name, { client, seen }] of sessions) {
        assert.equal(seen.protocolVersion, LATEST_PROTOCOL_VERSION, `${server.name}, ${name}: negotiated protocol version`);
        assert.equal(client.getServerVersion()?.name, 'demo-weather', `${server.name}, ${name}: serverInfo`);
      }
    });

    it('advertises the extension to every profile', () => {
      for (const [name, { client }] of sessions) {
        const caps = client.getServerCapabilities();
        const advertised = caps?.extensions?.[EXTENSION];
        assert.ok(advertised && typeof advertised === 'object', `${server.name}, ${name}: capabilities.extensions["${EXTENSION}"] missing from ${JSON.stringify(caps)}`);
        assert.ok(caps.tools, `${server.name}, ${name}: the tools capability is gone: ${JSON.stringify(caps)}`);
      }
    });

    it('lists the same tools for every profile', () => {
      const want = lists.get('undeclared');
      const names = want.tools.map((t) => t.name);
      assert.ok(names.includes('get_weather') && names.includes('get_forecast'), `tools: ${names}`);
      for (const [name, list] of lists) {
        assert.deepEqual(list, want, `${server.name}, ${name}: tools/list differs from the undeclared client's`);
      }
    });

    for (const profile of PROFILES) {
      // Without a session the server cannot keep the profile: pass-through.
      const rendering = server.sessions ? profile.rendering : 'json';
      for (const params of [WEATHER, FORECAST]) {
        it(`${profile.name}: ${params.name} ${JSON.stringify(params.arguments)} is ${rendering}`, { timeout: TEST_MS }, async () => {
          const result = await call(sessions.get(profile.name).client, params);
          checkRendering(rendering, result, `${server.name}, ${profile.name}, ${params.name}`, { compact: isCompact(profile) });
        });
      }
      it(`${profile.name}: get_weather Springfield is a tool error naming the candidates`, { timeout: TEST_MS }, async () => {
        checkAmbiguous(await call(sessions.get(profile.name).client, AMBIGUOUS), `${server.name}, ${profile.name}`);
      });
    }

    describe('non-interactive clients are never asked', () => {
      for (const who of NON_INTERACTIVE) {
        it(who.name, { timeout: TEST_MS }, async (t) => {
          const label = `${server.name}, ${who.name}`;
          const session = await connect(server, capabilities(who.features, who.elicitation));
          t.after(() => session.close());
          const { client } = session;
          const { tools } = await client.listTools(undefined, bounded());
          checkAmbiguous(await call(client, AMBIGUOUS), label);

          if (tools.some((tool) => tool.name === 'set_alert')) {
            t.diagnostic('set_alert is listed: calling it, then list_alerts');
            const set = await call(client, SET_ALERT);
            assert.equal(set.isError, true, `${label}: set_alert without a confirmation is not a tool error: ${everything(set)}`);
            const alerts = await call(client, { name: 'list_alerts', arguments: {} });
            assert.notEqual(alerts.isError, true, `${label}: list_alerts failed: ${everything(alerts)}`);
            if (Array.isArray(alerts.structuredContent?.alerts)) {
              assert.deepEqual(alerts.structuredContent.alerts, [], `${label}: an alert was set without a confirmation`);
            }
            assert.ok(!everything(alerts).includes('Bern'), `${label}: an alert was set without a confirmation: ${everything(alerts)}`);
          } else {
            t.diagnostic('set_alert is not listed: skipped that part');
          }

          assert.deepEqual(session.elicitations, [], `${label}: the elicitation handler was called`);
          assert.ok(!session.seen.requests.includes('elicitation/create'), `${label}: the server sent elicitation/create (requests seen: ${session.seen.requests})`);
        });
      }

      // The control: the same handler and wire spy do see a question sent
      // to a client that can answer (it declines, so nothing is set).
      // Only where the server can send requests: not on stateless HTTP.
      if (server.sessions) {
        it('control: an interactive client with the capability is asked by set_alert', { timeout: TEST_MS }, async (t) => {
          const session = await connect(server, capabilities(['interactive'], true));
          t.after(() => session.close());
          const { tools } = await session.client.listTools(undefined, bounded());
          if (!tools.some((tool) => tool.name === 'set_alert')) {
            t.skip('set_alert is not listed');
            return;
          }
          const set = await call(session.client, SET_ALERT);
          assert.equal(set.isError, true, `${server.name}: declined, yet set: ${everything(set)}`);
          assert.equal(session.elicitations.length, 1, `${server.name}: the elicitation handler was not called once`);
          assert.deepEqual(session.seen.requests, ['elicitation/create'], `${server.name}: the wire spy did not see elicitation/create`);
        });
      }
    });
  });
}
