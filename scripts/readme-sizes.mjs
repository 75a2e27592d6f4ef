// Prints the README's bundle sizes (section Bundlers) from bench/results/sizes.json, which
// `node scripts/measure-sizes.mjs --write` stores after `npm run build`:  node scripts/readme-sizes.mjs
// With `--write` it replaces the README's text between `<!-- sizes: … -->` and `<!-- end of sizes -->`
// instead; test/docs/readme-numbers.node.test.ts checks that the README holds this text there.
import { readFileSync, writeFileSync } from 'node:fs';

const sizes = JSON.parse(readFileSync(new URL('../bench/results/sizes.json', import.meta.url), 'utf8'));

/** @typedef {{ bytes: number, gzip: number }} Size */
const kB = (/** @type {number} */ bytes) => `${(bytes / 1000).toFixed(1)} kB`;
const pair = (/** @type {Size} */ s) => `${kB(s.bytes)} (${kB(s.gzip)})`;
const bySize = (/** @type {Size[]} */ list) => [...list].sort((a, b) => b.bytes - a.bytes);

/** The rows: [label, bundler, entry]. */
const ROWS = [
  ['Vite', 'vite', 'main'],
  ['webpack 5', 'webpack', 'main'],
  ['Rollup', 'rollup', 'main'],
  ['esbuild `splitting`', 'esbuild --splitting', 'main'],
  ['esbuild (no split)', 'esbuild', 'main'],
  ['esbuild, `spring-solver/embedded`', 'esbuild', 'embedded'],
];

const body = ROWS.map(([label, bundler, entry]) => {
  const { initial, lazy, wasm } = sizes.bundles[bundler][entry];
  const [simdChunk, scalarChunk] = bySize(lazy);
  const chunks = simdChunk && scalarChunk ? `SIMD ${pair(simdChunk)}, scalar ${pair(scalarChunk)}` : 'none';
  const fetched = wasm.length ? `SIMD ${kB(bySize(wasm)[0].gzip)} gzip` : simdChunk ? 'none: the SIMD chunk is loaded' : 'none';
  return [label, pair(initial), chunks, fetched];
});
const header = ['bundler', 'JavaScript at start', 'lazy chunks, loaded only when their `.wasm` is missing', '`.wasm` fetched'];
const table = [header, header.map(() => '---'), ...body].map((cells) => `| ${cells.join(' | ')} |`).join('\n');

const { tools, wasm } = sizes;
const split = sizes.bundles['esbuild --splitting'].main.initial;
const whole = sizes.bundles.esbuild.main.initial;
const text = [
  `What it costs in a browser bundle of \`createSolver()\`, minified, with gzip -9 sizes in brackets (\`node scripts/measure-sizes.mjs --write\` after \`npm run build\`, stored in \`bench/results/sizes.json\`; esbuild ${tools.esbuild}, Rollup ${tools.rollup} with each chunk minified by esbuild, Vite ${tools.vite}, webpack ${tools.webpack}):\n`,
  table,
  `\nThe \`.wasm\` files are ${kB(wasm.simd.bytes)} SIMD (${kB(wasm.simd.gzip)} gzip) and ${kB(wasm.scalar.bytes)} scalar (${kB(wasm.scalar.gzip)} gzip); the scalar file is fetched only by engines without SIMD. Under esbuild's defaults the embedded copies add ${kB(whole.bytes - split.bytes)} (${kB(whole.gzip - split.gzip)} gzip) to the start-up JavaScript, against esbuild with \`splitting\`.`,
].join('\n');

if (process.argv.includes('--write')) {
  const readme = new URL('../README.md', import.meta.url);
  const block = /(<!-- sizes: [^\n]*-->\n)[\s\S]*?(<!-- end of sizes -->)/;
  const before = readFileSync(readme, 'utf8');
  if (!block.test(before)) throw new Error('README.md has no <!-- sizes: … --> … <!-- end of sizes --> block');
  writeFileSync(
    readme,
    before.replace(block, (_, open, close) => `${open}${text}\n${close}`),
  );
  console.log('wrote the sizes block of README.md');
} else {
  console.log(text);
}
