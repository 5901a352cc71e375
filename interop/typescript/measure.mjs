// What the model reads, with the TypeScript v1 and v2 clients (which
// declare nothing), from each demo tool: (a) the demo as it is, (b) with
// default tags, (c) with the format argument set to each format. Prints
// one JSON object per line; interop/typescript/tokentable counts the o200k
// tokens and prints the tables of docs/defaults.md:
//
//   go build -o /tmp/demo-weather ./cmd/demo-weather
//   cd interop/typescript && npm ci
//   DEMO_WEATHER_BIN=/tmp/demo-weather node measure.mjs | go run ./tokentable
import { ARGUMENT, FORMATS, TOOLS, call, connect, modelText } from './options.mjs';

const DEFAULTS = ['human', 'human, verbosity=compact', 'format=text, verbosity=compact', 'format=toon', 'agent'];

function emit(record) {
  process.stdout.write(JSON.stringify(record) + '\n');
}

async function measure(version, config, flags, format) {
  const session = await connect(version, flags);
  try {
    if (format === undefined) {
      const { tools } = await session.listTools();
      emit({ client: version, config, tool: 'tools/list', format: '', text: JSON.stringify(tools) });
    }
    for (const tool of TOOLS) {
      const args = format ? { ...tool.arguments, [ARGUMENT]: format } : tool.arguments;
      const res = await call(session, tool.name, args);
      emit({ client: version, config, tool: tool.name, format: format ?? '', text: modelText(res), isError: res.isError === true, structured: res.structuredContent !== undefined });
    }
  } finally {
    await session.close();
  }
}

for (const version of ['v1', 'v2']) {
  await measure(version, '(a) plain', []);
  for (const tags of DEFAULTS) {
    await measure(version, `(b) -default-tags "${tags}"`, ['-default-tags', tags]);
  }
  await measure(version, `(c) -format-argument ${ARGUMENT}`, ['-format-argument', ARGUMENT]);
  for (const format of FORMATS) {
    await measure(version, `(c) ${ARGUMENT}=${format}`, ['-format-argument', ARGUMENT], format);
  }
}
