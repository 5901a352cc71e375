// Options.Default and Options.FormatArgument against the official
// TypeScript clients, which declare nothing: the demo started with
// -default-tags "human, format=markdown" (b) and -format-argument
// response_format (c). Used by options.test.mjs (SDK v1) and
// v2-options.test.mjs (SDK v2, pinned to 2026-07-28), and by measure.mjs.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';

import { capabilities, checkRendering, demoBinary } from './harness.mjs';

/** The name of the format argument the demo is started with. */
export const ARGUMENT = 'response_format';

/** The default tags the demo is started with. */
export const DEFAULT_TAGS = 'human, format=markdown';

/** The demo's tools and the arguments each is called with. */
export const TOOLS = [
  { name: 'get_weather', arguments: { city: 'Bern' } },
  { name: 'get_forecast', arguments: { city: 'Bern', days: 3 } },
  { name: 'set_alert', arguments: { city: 'Bern', threshold_c: 0 } },
  { name: 'list_alerts', arguments: {} },
];

/** The formats the demo renders, as the argument's enum lists them. */
export const FORMATS = ['json', 'markdown', 'text', 'toon'];

const CALL_MS = 15_000;

function bounded() {
  return { timeout: CALL_MS, signal: AbortSignal.timeout(CALL_MS) };
}

/**
 * Connects a client of the SDK version ('v1' or 'v2') declaring features
 * (undefined: nothing) to a demo started over stdio with the flags.
 */
export async function connect(version, flags, features) {
  const args = ['-stdio', ...flags];
  if (process.env.CONTENTNEG_SDK) {
    args.push('-sdk', process.env.CONTENTNEG_SDK); // the SDKs' stdio transports pass on only a few variables
  }
  const bin = demoBinary();
  let client;
  let transport;
  if (version === 'v1') {
    client = new ClientV1({ name: 'contentneg-options-v1', version: '1.0.0' }, { capabilities: capabilities(features) });
    transport = new StdioV1({ command: bin, args, stderr: 'inherit' });
  } else {
    client = new ClientV2(
      { name: 'contentneg-options-v2', version: '1.0.0' },
      { capabilities: capabilities(features), versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    transport = new StdioV2({ command: bin, args, stderr: 'inherit' });
  }
  await client.connect(transport, bounded());
  return { version, client, close: () => client.close(), listTools: () => client.listTools(undefined, bounded()) };
}

/** Calls a tool (v1's callTool takes a result schema before the options). */
export function call(session, name, args) {
  if (session.version === 'v1') {
    return session.client.callTool({ name, arguments: args }, undefined, bounded());
  }
  return session.client.callTool({ name, arguments: args }, bounded());
}

/** The text a model reads of a result: its text blocks, joined by newlines. */
export function modelText(result) {
  return (result.content ?? []).filter((b) => b.type === 'text').map((b) => b.text).join('\n');
}

const WEATHER = TOOLS[0];

/** Defines the suite for one SDK version. */
export function defineOptionsSuite(version) {
  describe(`TypeScript SDK ${version} client, which declares nothing, and the server's options`, { timeout: 120_000 }, () => {
    describe(`-default-tags "${DEFAULT_TAGS}" (b)`, () => {
      let undeclared;
      let agent;
      before(async () => {
        undeclared = await connect(version, ['-default-tags', DEFAULT_TAGS]);
        agent = await connect(version, ['-default-tags', DEFAULT_TAGS], ['agent', 'format=json', 'verbosity=compact']);
      });
      after(async () => {
        await undeclared?.close();
        await agent?.close();
      });
      it('an undeclared client gets the default profile\'s markdown', async () => {
        checkRendering('markdown', await call(undeclared, WEATHER.name, WEATHER.arguments), 'undeclared, default');
      });
      it('a declared client is untouched by the default', async () => {
        checkRendering('structured', await call(agent, WEATHER.name, WEATHER.arguments), 'agent, format=json, default');
      });
    });

    describe(`-format-argument ${ARGUMENT} (c)`, () => {
      let client;
      before(async () => {
        client = await connect(version, ['-format-argument', ARGUMENT]);
      });
      after(async () => client?.close());
      it('advertises the argument with the formats', async () => {
        const { tools } = await client.listTools();
        for (const tool of tools) {
          const prop = tool.inputSchema?.properties?.[ARGUMENT];
          assert.ok(prop, `${tool.name}: no ${ARGUMENT} in ${JSON.stringify(tool.inputSchema)}`);
          assert.deepEqual(prop.enum, FORMATS, `${tool.name}: enum`);
          assert.ok(!(tool.inputSchema.required ?? []).includes(ARGUMENT), `${tool.name}: the argument is required`);
        }
      });
      it('sets the format of one call only', async () => {
        const withArg = (format) => ({ ...WEATHER.arguments, [ARGUMENT]: format });
        checkRendering('markdown', await call(client, WEATHER.name, withArg('markdown')), 'markdown');
        checkRendering('json', await call(client, WEATHER.name, WEATHER.arguments), 'the next call, without it');
        checkRendering('text', await call(client, WEATHER.name, withArg('text')), 'text');
        checkRendering('json', await call(client, WEATHER.name, withArg('json')), 'json keeps the mirror');
        const toon = await call(client, WEATHER.name, withArg('toon'));
        assert.match(modelText(toon), /^location: "?Bern, Switzerland"?$/m, `toon:\n${modelText(toon)}`);
      });
      it('an unknown value is a tool error naming the choices', async () => {
        const res = await call(client, WEATHER.name, { ...WEATHER.arguments, [ARGUMENT]: 'xml' });
        assert.equal(res.isError, true, JSON.stringify(res));
        assert.match(modelText(res), /json, markdown, text, toon/);
      });
    });
  });
}
