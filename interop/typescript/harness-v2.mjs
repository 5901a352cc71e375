// The stateless era (protocol 2026-07-28) from an independent client: the
// demo-weather server (DEMO_WEATHER_BIN) against the TypeScript SDK v2
// client, @modelcontextprotocol/client, pinned to 2026-07-28. There is no
// initialize: the client sends its capabilities, the extension's settings
// among them, in the _meta of every request, and the server must read them
// there on every transport. Elicitation is multi-round-trip: the server
// answers inputRequests, the client fulfils them through its
// elicitation/create handler and retries with inputResponses.
//
// Each v2-*.test.mjs file calls defineV2Suite with one transport. The suite
// checks the advertisement, identical lists for every profile, every
// rendering, hints, the elicitation gate, and resources with their format
// alternatives. Everything is observed from outside, through the client.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

import { EXTENSION, capabilities, checkRendering, demoBinary, httpTransport, isCompact } from './harness.mjs';

/** The protocol revision the client is pinned to. */
export const PROTOCOL = '2026-07-28';

/** Every request and every connection ends within this many milliseconds. */
const CALL_MS = 15_000;

/** The per-test deadline of node:test, above CALL_MS. */
const TEST_MS = 60_000;

/**
 * The profiles, what get_weather and get_forecast must render for each (see
 * checkRendering in harness.mjs), which media type weather://bern must come
 * as, and whether the profile asked for hints (`sampling`). `undeclared`
 * gets the handler's result unchanged, and every format alternative of a
 * resource.
 */
const PROFILES = [
  { name: 'undeclared', features: undefined, rendering: 'json', mime: 'application/json' },
  { name: 'agent, format=json, compact', features: ['agent', 'format=json', 'verbosity=compact'], rendering: 'structured', mime: 'application/json' },
  { name: 'agent', features: ['agent'], rendering: 'json', mime: 'application/json' },
  { name: 'human, format=markdown', features: ['human', 'format=markdown'], rendering: 'markdown', mime: 'text/markdown' },
  { name: 'human, compact', features: ['human', 'verbosity=compact'], rendering: 'markdown', mime: 'text/markdown' },
  { name: 'format=text', features: ['format=text'], rendering: 'text', mime: 'text/plain' },
  { name: 'format=text, compact', features: ['format=text', 'verbosity=compact'], rendering: 'text', mime: 'text/plain' },
  { name: 'human, sampling', features: ['human', 'sampling'], rendering: 'markdown', mime: 'text/markdown', hints: true },
  { name: 'agent, sampling', features: ['agent', 'sampling'], rendering: 'json', mime: 'application/json', hints: true },
];

/** Clients that must never be asked anything: the gate answers for them. */
const NON_INTERACTIVE = [
  { name: 'elicitation capability, !interactive', features: ['!interactive'], elicitation: true },
  { name: 'elicitation capability, interactive and !interactive', features: ['interactive', '!interactive'], elicitation: true },
  { name: 'elicitation capability, agent, !interactive, format=text', features: ['agent', '!interactive', 'format=text'], elicitation: true },
  { name: 'no elicitation capability, interactive', features: ['interactive'], elicitation: false },
];

const WEATHER = { name: 'get_weather', arguments: { city: 'Bern' } };
const FORECAST = { name: 'get_forecast', arguments: { city: 'Bern', days: 3 } };
const AMBIGUOUS = { name: 'get_weather', arguments: { city: 'Springfield' } };
const CANDIDATES = ['Springfield, IL', 'Springfield, MA', 'Springfield, MO'];

/** The weather report's three format alternatives, in the handler's order. */
const REPORT_MIMES = ['application/json', 'text/markdown', 'text/plain'];

/** Options for every request: the SDK's own timeout and an abort signal. */
function bounded() {
  return { timeout: CALL_MS, signal: AbortSignal.timeout(CALL_MS) };
}

/** The stdio transport: each client spawns its own demo with -stdio. */
export function stdioTransport() {
  const bin = demoBinary();
  return {
    name: 'stdio',
    async start() {},
    transport: () => new StdioClientTransport({ command: bin, args: ['-stdio'], stderr: 'inherit' }),
    async stop() {},
  };
}

/** Stateless streamable HTTP: one demo per suite, -http 127.0.0.1:0 -stateless. */
export function statelessHTTPTransport() {
  const demo = httpTransport({ stateless: true });
  return {
    name: 'streamable HTTP, stateless',
    start: () => demo.start(),
    transport: () => new StreamableHTTPClientTransport(demo.url()),
    stop: () => demo.stop(),
  };
}

/**
 * Watches what a transport delivers to the client, before the SDK sees it:
 * every server-to-client request (by method), and every result that asks
 * for input (its inputRequests keys).
 */
function spy(transport) {
  const seen = { requests: [], inputRequests: [] };
  let dispatch;
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    get: () => dispatch && ((message, extra) => {
      if (message && typeof message.method === 'string' && message.id !== undefined) {
        seen.requests.push(message.method);
      }
      const asks = message?.result?.inputRequests;
      if (asks && typeof asks === 'object') {
        seen.inputRequests.push(...Object.keys(asks));
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
 * Connects a client pinned to 2026-07-28 with the given feature tags (none:
 * the extension is not declared), and the elicitation capability when
 * `elicitation`. Its elicitation/create handler records each question in
 * `asked`; with no `answer` it fails the test (the question must not have
 * reached this client), otherwise it returns answer(params).
 */
async function connect(server, features, { elicitation = false, answer } = {}) {
  const asked = [];
  const client = new Client(
    { name: 'contentneg-interop-v2', version: '1.0.0' },
    { capabilities: capabilities(features, elicitation), versionNegotiation: { mode: { pin: PROTOCOL } } },
  );
  if (elicitation) {
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(request.params);
      if (!answer) {
        assert.fail(`${server.name}, features ${JSON.stringify(features)}: the client was asked ${JSON.stringify(request.params)}`);
      }
      return answer(request.params);
    });
  }
  const transport = server.transport();
  const seen = spy(transport);
  await client.connect(transport, bounded());
  return { client, seen, asked, close: () => client.close() };
}

function call(client, params) {
  return client.callTool(params, bounded());
}

/** Whether a content block is meant for the assistant only (a hint). */
function forAssistant(block) {
  const audience = block?.annotations?.audience;
  return Array.isArray(audience) && audience.length === 1 && audience[0] === 'assistant';
}

/**
 * Whether the demo attaches hints to these conditions (the rule of
 * weathermcp.Hints): precipitation at 30 % or more, UV index 3 or more, a
 * wind chill of 2 °C or more, or freezing.
 */
function hintsDue(c) {
  return c.precipitation_probability >= 0.3 || c.uv_index >= 3 || c.temperature_c - c.feels_like_c >= 2 || c.temperature_c <= 0;
}

/**
 * Checks a result for a profile: the rendering of its own block, and the
 * hint blocks, which only a `sampling` profile gets, each annotated for the
 * assistant alone. Returns the number of hint blocks.
 */
function checkResult(profile, result, label, { hintsExpected, city } = {}) {
  const hints = (result.content ?? []).filter(forAssistant);
  const own = (result.content ?? []).filter((b) => !forAssistant(b));
  if (city && profile.rendering === 'structured') {
    assert.deepEqual(own, [], `${label}: want structuredContent alone, got ${JSON.stringify(own)}`);
  } else if (city) {
    // checkRendering knows Bern only: for other cities, the block is the
    // one rendering of the city's conditions.
    assert.equal(own.length, 1, `${label}: want one block besides the hints, got ${JSON.stringify(own)}`);
    assert.equal(own[0].type, 'text', `${label}: not a text block: ${JSON.stringify(own[0])}`);
    assert.ok(own[0].text.includes(city), `${label}: the text does not name ${city}:\n${own[0].text}`);
  } else {
    checkRendering(profile.rendering, { ...result, content: own }, label, { compact: isCompact(profile) });
  }
  if (!profile.hints) {
    assert.equal(hints.length, 0, `${label}: hints for a profile without "sampling": ${JSON.stringify(hints)}`);
    assert.ok(!(result.content ?? []).some((b) => b.annotations), `${label}: annotated blocks: ${JSON.stringify(result.content)}`);
    return 0;
  }
  for (const hint of hints) {
    assert.equal(hint.type, 'text', `${label}: a hint that is not text: ${JSON.stringify(hint)}`);
    assert.ok(hint.text.trim().length > 0, `${label}: an empty hint`);
  }
  if (hintsExpected !== undefined) {
    assert.equal(hints.length > 0, hintsExpected, `${label}: hints ${JSON.stringify(hints)} for ${JSON.stringify(result.structuredContent)}`);
  }
  assert.ok(!JSON.stringify(result.structuredContent).includes(hints[0]?.text ?? '\u0000'), `${label}: a hint inside structuredContent`);
  return hints.length;
}

/** The text of a result's text blocks, joined. */
function texts(result) {
  return (result.content ?? []).filter((b) => b.type === 'text').map((b) => b.text).join('\n');
}

/** Checks the ambiguous-city error: an isError result naming every candidate. */
function checkAmbiguous(result, label) {
  assert.equal(result.isError, true, `${label}: want a tool error, got ${JSON.stringify(result)}`);
  for (const candidate of CANDIDATES) {
    assert.ok(texts(result).includes(candidate), `${label}: the error does not name ${candidate}:\n${texts(result)}`);
  }
}

async function alerts(client, label) {
  const res = await call(client, { name: 'list_alerts', arguments: {} });
  assert.notEqual(res.isError, true, `${label}: list_alerts failed: ${texts(res)}`);
  assert.ok(Array.isArray(res.structuredContent?.alerts), `${label}: list_alerts without an alerts array: ${JSON.stringify(res)}`);
  return res.structuredContent.alerts;
}

/** Drops the parts of a list result that may differ between two reads. */
function listed(result) {
  const { _meta, ...rest } = result;
  return rest;
}

/** Defines the suite for one transport. */
export function defineV2Suite(server) {
  describe(`TypeScript SDK v2 client, pinned to ${PROTOCOL}, over ${server.name}`, { timeout: 10 * TEST_MS }, () => {
    const sessions = new Map();

    before(async () => {
      await server.start();
      for (const profile of PROFILES) {
        sessions.set(profile.name, await connect(server, profile.features));
      }
    });

    after(async () => {
      for (const session of sessions.values()) {
        await session.close();
      }
      await server.stop();
    });

    it(`speaks ${PROTOCOL} and sees the extension advertised`, () => {
      for (const [name, { client }] of sessions) {
        assert.equal(client.getProtocolEra(), 'modern', `${name}: protocol era`);
        assert.equal(client.getNegotiatedProtocolVersion(), PROTOCOL, `${name}: protocol version`);
        const caps = client.getServerCapabilities();
        assert.ok(caps?.extensions?.[EXTENSION] && typeof caps.extensions[EXTENSION] === 'object', `${name}: capabilities.extensions["${EXTENSION}"] missing from ${JSON.stringify(caps)}`);
        assert.ok(caps.tools && caps.resources && caps.prompts, `${name}: a capability is gone: ${JSON.stringify(caps)}`);
      }
    });

    for (const [what, list] of [
      ['tools', (c) => c.listTools(undefined, { ...bounded(), cacheMode: 'bypass' })],
      ['resources', (c) => c.listResources(undefined, { ...bounded(), cacheMode: 'bypass' })],
      ['resource templates', (c) => c.listResourceTemplates(undefined, { ...bounded(), cacheMode: 'bypass' })],
      ['prompts', (c) => c.listPrompts(undefined, { ...bounded(), cacheMode: 'bypass' })],
    ]) {
      it(`lists the same ${what} for every profile`, { timeout: TEST_MS }, async () => {
        const want = listed(await list(sessions.get('undeclared').client));
        const items = Object.values(want).find(Array.isArray);
        assert.ok(items?.length > 0, `no ${what} listed: ${JSON.stringify(want)}`);
        for (const [name, { client }] of sessions) {
          assert.deepEqual(listed(await list(client)), want, `${server.name}, ${name}: the ${what} differ from the undeclared client's`);
        }
      });
    }

    for (const profile of PROFILES) {
      for (const params of [WEATHER, FORECAST]) {
        it(`${profile.name}: ${params.name} ${JSON.stringify(params.arguments)} is ${profile.rendering}`, { timeout: TEST_MS }, async () => {
          const { client } = sessions.get(profile.name);
          const result = await call(client, params);
          checkResult(profile, result, `${server.name}, ${profile.name}, ${params.name}`, {
            hintsExpected: params === WEATHER ? hintsDue(result.structuredContent) : false,
          });
        });
      }

      it(`${profile.name}: weather://bern is ${profile.mime}`, { timeout: TEST_MS }, async () => {
        const label = `${server.name}, ${profile.name}, weather://bern`;
        const { contents } = await sessions.get(profile.name).client.readResource({ uri: 'weather://bern' }, bounded());
        assert.equal(contents.length, 1, `${label}: want one content, got ${JSON.stringify(contents)}`);
        const [c] = contents;
        assert.equal(c.uri, 'weather://bern', `${label}: uri`);
        assert.equal(c.mimeType, profile.mime, `${label}: mimeType`);
        assert.ok(c.text.includes('Bern, Switzerland'), `${label}: the city is missing:\n${c.text}`);
        if (profile.mime === 'application/json') {
          assert.equal(JSON.parse(c.text).location, 'Bern, Switzerland', `${label}: not the JSON of the conditions`);
        } else {
          assert.throws(() => JSON.parse(c.text), `${label}: want ${profile.mime}, got JSON:\n${c.text}`);
        }
      });

      const reportMimes = profile.features ? [profile.mime] : REPORT_MIMES;
      it(`${profile.name}: weather://bern/report comes as ${reportMimes.join(', ')}`, { timeout: TEST_MS }, async () => {
        const label = `${server.name}, ${profile.name}, weather://bern/report`;
        const { contents } = await sessions.get(profile.name).client.readResource({ uri: 'weather://bern/report' }, bounded());
        assert.deepEqual(contents.map((c) => c.mimeType), reportMimes, `${label}: the alternatives returned`);
        for (const c of contents) {
          assert.equal(c.uri, 'weather://bern/report', `${label}: uri`);
          assert.ok(c.text.includes('Bern, Switzerland'), `${label}: ${c.mimeType} does not name the city:\n${c.text}`);
        }
      });

      it(`${profile.name}: get_weather Springfield is a tool error naming the candidates`, { timeout: TEST_MS }, async () => {
        checkAmbiguous(await call(sessions.get(profile.name).client, AMBIGUOUS), `${server.name}, ${profile.name}`);
      });

      it(`${profile.name}: a missing resource is -32602 naming its uri`, { timeout: TEST_MS }, async () => {
        const uri = 'weather://atlantis';
        await assert.rejects(sessions.get(profile.name).client.readResource({ uri }, bounded()), (err) => {
          if (process.env.CONTENTNEG_SDK === 'mcp-go') {
            // mcp-go v1.2.1 lets no resource handler choose its error code (docs/mcpgo.md).
            assert.ok(err instanceof Error, `${server.name}, ${profile.name}: error ${err}`);
            return true;
          }
          assert.equal(err.code, -32602, `${server.name}, ${profile.name}: error ${err}`);
          assert.equal(err.data?.uri, uri, `${server.name}, ${profile.name}: error data ${JSON.stringify(err.data)}`);
          return true;
        });
      });
    }

    it('hints go to sampling profiles only, in every city, exactly when the conditions call for them', { timeout: 3 * TEST_MS }, async () => {
      const { contents } = await sessions.get('undeclared').client.readResource({ uri: 'weather://cities' }, bounded());
      const cities = JSON.parse(contents[0].text).cities.map((c) => c.name);
      assert.ok(cities.length >= 10, `cities: ${cities}`);
      let hinted = 0;
      for (const city of cities) {
        for (const profile of PROFILES.filter((p) => p.name === 'human, sampling' || p.name === 'human, format=markdown')) {
          const result = await call(sessions.get(profile.name).client, { name: 'get_weather', arguments: { city } });
          const label = `${server.name}, ${profile.name}, get_weather ${city}`;
          assert.equal(result.structuredContent?.location, city, `${label}: location`);
          hinted += checkResult(profile, result, label, { hintsExpected: hintsDue(result.structuredContent), city }) > 0 ? 1 : 0;
        }
      }
      assert.ok(hinted > 0, `no city had hints: the check proved nothing`);
    });

    describe('non-interactive clients are never asked', () => {
      for (const who of NON_INTERACTIVE) {
        it(who.name, { timeout: TEST_MS }, async (t) => {
          const label = `${server.name}, ${who.name}`;
          const session = await connect(server, who.features, { elicitation: who.elicitation });
          t.after(() => session.close());
          const { client } = session;
          checkAmbiguous(await call(client, AMBIGUOUS), label);

          const before = await alerts(client, label);
          const set = await call(client, { name: 'set_alert', arguments: { city: 'Bern', threshold_c: 1.5 } });
          assert.equal(set.isError, true, `${label}: set_alert without a confirmation is not a tool error: ${JSON.stringify(set)}`);
          assert.match(texts(set), /not set/, `${label}: set_alert's error`);
          assert.deepEqual(await alerts(client, label), before, `${label}: an alert was set without a confirmation`);

          assert.deepEqual(session.asked, [], `${label}: the elicitation handler was called`);
          assert.deepEqual(session.seen.inputRequests, [], `${label}: the server returned inputRequests`);
          assert.deepEqual(session.seen.requests, [], `${label}: the server sent requests`);
        });
      }
    });

    describe('an interactive client with the elicitation capability is asked, and its answer is used', () => {
      it('get_weather Springfield asks which one, and answers for the city chosen', { timeout: TEST_MS }, async (t) => {
        const session = await connect(server, ['interactive', 'format=text'], {
          elicitation: true,
          answer: () => ({ action: 'accept', content: { city: 'Springfield, MA' } }),
        });
        t.after(() => session.close());
        const label = `${server.name}, interactive`;
        const result = await call(session.client, AMBIGUOUS);
        assert.notEqual(result.isError, true, `${label}: ${texts(result)}`);
        assert.equal(result.structuredContent?.location, 'Springfield, MA', `${label}: the answer was not used`);
        assert.ok(texts(result).includes('Springfield, MA') && !texts(result).trim().startsWith('{'), `${label}: want the text rendering:\n${texts(result)}`);
        assert.equal(session.asked.length, 1, `${label}: asked ${session.asked.length} times`);
        const asked = session.asked[0];
        assert.match(asked.message, /Springfield/, `${label}: the question`);
        assert.deepEqual(asked.requestedSchema?.properties?.city?.enum, CANDIDATES, `${label}: the choices offered`);
        assert.deepEqual(session.seen.inputRequests, ['city'], `${label}: the wire spy did not see the inputRequests`);
        assert.deepEqual(session.seen.requests, [], `${label}: a server-to-client request in the stateless era`);
      });

      it('get_weather Springfield, declined, is the tool error naming the candidates', { timeout: TEST_MS }, async (t) => {
        const session = await connect(server, ['interactive'], { elicitation: true, answer: () => ({ action: 'decline' }) });
        t.after(() => session.close());
        checkAmbiguous(await call(session.client, AMBIGUOUS), `${server.name}, interactive, declined`);
        assert.equal(session.asked.length, 1, `asked ${session.asked.length} times`);
      });

      it('set_alert asks for a confirmation and sets the alert once confirmed', { timeout: TEST_MS }, async (t) => {
        const threshold = -7.25;
        const session = await connect(server, ['interactive'], {
          elicitation: true,
          answer: () => ({ action: 'accept', content: { confirm: true } }),
        });
        t.after(() => session.close());
        const label = `${server.name}, interactive, set_alert`;
        const set = await call(session.client, { name: 'set_alert', arguments: { city: 'Bern', threshold_c: threshold } });
        assert.notEqual(set.isError, true, `${label}: ${texts(set)}`);
        assert.deepEqual(set.structuredContent, { location: 'Bern, Switzerland', threshold_c: threshold }, `${label}: result`);
        assert.equal(session.asked.length, 1, `${label}: asked ${session.asked.length} times`);
        assert.match(session.asked[0].message, /Bern/, `${label}: the question`);
        assert.deepEqual(session.asked[0].requestedSchema?.required, ['confirm'], `${label}: the form`);
        const list = await alerts(session.client, label);
        assert.ok(list.some((a) => a.location === 'Bern, Switzerland' && a.threshold_c === threshold), `${label}: the alert is not listed: ${JSON.stringify(list)}`);
      });

      it('set_alert, declined, sets nothing', { timeout: TEST_MS }, async (t) => {
        const session = await connect(server, ['interactive'], { elicitation: true, answer: () => ({ action: 'decline' }) });
        t.after(() => session.close());
        const label = `${server.name}, interactive, set_alert declined`;
        const before = await alerts(session.client, label);
        const set = await call(session.client, { name: 'set_alert', arguments: { city: 'Bern', threshold_c: 3.5 } });
        assert.equal(set.isError, true, `${label}: ${JSON.stringify(set)}`);
        assert.equal(session.asked.length, 1, `${label}: asked ${session.asked.length} times`);
        assert.deepEqual(await alerts(session.client, label), before, `${label}: an alert was set`);
      });

      it('a client that did not declare the extension is asked as the SDK would ask it', { timeout: TEST_MS }, async (t) => {
        const session = await connect(server, undefined, {
          elicitation: true,
          answer: () => ({ action: 'accept', content: { city: 'Springfield, IL' } }),
        });
        t.after(() => session.close());
        const result = await call(session.client, AMBIGUOUS);
        assert.equal(result.structuredContent?.location, 'Springfield, IL', `${server.name}, undeclared: ${texts(result)}`);
        assert.equal(session.asked.length, 1, `${server.name}, undeclared: asked ${session.asked.length} times`);
      });
    });
  });
}
