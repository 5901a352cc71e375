// node:fs as it is, plus globSync for Node versions without it (before 22).
// Enough for the conformance suite's one use, globSync('**/checks.json',
// { cwd }): it walks cwd and returns the relative paths of the files that
// match the pattern, as Node 22 does. Symbolic links are not followed.
import fs from 'node:fs';
import path from 'node:path';

export * from 'node:fs';
export default fs;

/** Converts a glob (*, **, ?) to a regular expression over /-separated paths. */
function toRegExp(pattern) {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '*' && pattern[i + 1] === '*') {
      i++;
      if (pattern[i + 1] === '/') {
        i++;
        re += '(?:.*/)?';
      } else {
        re += '.*';
      }
    } else if (c === '*') {
      re += '[^/]*';
    } else if (c === '?') {
      re += '[^/]';
    } else {
      re += c.replace(/[\\^$.|+(){}[\]]/g, '\\$&');
    }
  }
  return new RegExp(`^${re}$`);
}

export function globSync(pattern, options = {}) {
  const cwd = options.cwd ? String(options.cwd) : process.cwd();
  const patterns = (Array.isArray(pattern) ? pattern : [pattern]).map(toRegExp);
  const found = [];
  const walk = (rel) => {
    let entries;
    try {
      entries = fs.readdirSync(path.join(cwd, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      if (patterns.some((re) => re.test(child))) {
        found.push(child.split('/').join(path.sep));
      }
      if (entry.isDirectory()) {
        walk(child);
      }
    }
  };
  walk('');
  return found;
}
