// Decodes TOON with the reference implementation, @toon-format/toon (pinned in package.json),
// with its default options (strict mode, two-space indentation).
//
//   node decode.mjs < doc.toon          the document's value as JSON on stdout; an error exits 1
//   node decode.mjs --batch < docs.json  stdin is a JSON array of documents; stdout a JSON array
//                                       of {"value": ...} or {"error": "..."}, one per document
import { decode } from '@toon-format/toon';

let input = '';
process.stdin.setEncoding('utf8');
for await (const chunk of process.stdin) input += chunk;

if (process.argv.includes('--batch')) {
  const out = JSON.parse(input).map((doc) => {
    try {
      return { value: decode(doc) };
    } catch (err) {
      return { error: String(err && err.message || err) };
    }
  });
  process.stdout.write(JSON.stringify(out));
} else {
  try {
    process.stdout.write(JSON.stringify(decode(input)) + '\n');
  } catch (err) {
    process.stderr.write(`decode: ${err && err.message || err}\n`);
    process.exit(1);
  }
}
