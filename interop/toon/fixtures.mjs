// Runs the TOON spec's v4.0.0 fixtures (toon/testdata/spec-v4.0.0) against the reference
// implementation pinned here, to see which spec version it implements:
//   node fixtures.mjs        prints the fixtures it fails and the totals; exits 1 if any fails
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { encode, decode } from '@toon-format/toon';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'toon', 'testdata', 'spec-v4.0.0');
let pass = 0;
let fail = 0;
for (const category of ['encode', 'decode']) {
  for (const file of fs.readdirSync(path.join(dir, category)).sort()) {
    const { tests } = JSON.parse(fs.readFileSync(path.join(dir, category, file), 'utf8'));
    for (const t of tests) {
      const o = t.options || {};
      let ok;
      let got;
      try {
        got = category === 'encode'
          ? encode(t.input, { delimiter: o.delimiter, indentSize: o.indentSize })
          : decode(t.input, { strict: o.strict ?? true, indentSize: o.indentSize });
        ok = !t.shouldError && JSON.stringify(got) === JSON.stringify(t.expected);
      } catch (err) {
        got = `error: ${err.message}`;
        ok = !!t.shouldError;
      }
      if (ok) {
        pass++;
      } else {
        fail++;
        console.log(`FAIL ${category}/${file}: ${t.name}${o.strict === false ? ' (non-strict)' : ''}: ${JSON.stringify(got)}`);
      }
    }
  }
}
console.log(`${pass} passed, ${fail} failed`);
process.exit(fail ? 1 : 0);
