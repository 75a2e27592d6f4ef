// The generated blocks of README.md and docs/benchmarks.md: the text between a line
// `<!-- name: how it is made -->` and a line `<!-- end of name -->`. The scripts that make a block
// (bench/readme-tables.js, scripts/readme-sizes.mjs) print it, or with `--write` replace it in its
// file; test/docs/readme-numbers.node.test.ts fails while a file and its script's output disagree.
import { readFileSync, writeFileSync } from 'node:fs';

/**
 * The opening line, the content and the closing line of block `name`.
 * @param {string} name
 */
const pattern = (name) => new RegExp(`(<!-- ${name}: [^\\n]*-->\\n)([\\s\\S]*?)(<!-- end of ${name} -->)`);

/**
 * The content of block `name` in `text` (its last line ends with a newline), or null if there is none.
 * @param {string} text
 * @param {string} name
 * @returns {string | null}
 */
export function readBlock(text, name) {
  return pattern(name).exec(text)?.[2] ?? null;
}

/**
 * Replaces the content of block `name` in the file at `url` with `content` (a newline added), keeping its
 * opening and closing lines; throws if the file has no such block.
 * @param {URL} url
 * @param {string} name
 * @param {string} content
 */
export function writeBlock(url, name, content) {
  const before = readFileSync(url, 'utf8');
  if (readBlock(before, name) === null) throw new Error(`${url.pathname} has no <!-- ${name}: … --> … <!-- end of ${name} --> block`);
  writeFileSync(
    url,
    before.replace(pattern(name), (_, open, _old, close) => `${open}${content}\n${close}`),
  );
  console.log(`wrote the ${name} block of ${url.pathname}`);
}
