// The bundle sizes in the docs, from bench/results/sizes.json, which `node scripts/measure-sizes.mjs
// --write` stores after `npm run build`:
//   node scripts/readme-sizes.mjs             prints the sizes table of docs/benchmarks.md (every bundler)
//   node scripts/readme-sizes.mjs --summary   prints the README's one-paragraph summary (section Bundlers)
//   node scripts/readme-sizes.mjs --write     writes both into their generated blocks
// test/docs/readme-numbers.node.test.ts fails while either file and this output disagree.
import { readFileSync } from 'node:fs';
import { writeBlock } from '../tools/generated-block.js';

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

/**
 * The smallest and largest start-up JavaScript of `bundlers` (main entry), "a–b kB (c–d kB gzip)".
 * @param {string[]} bundlers
 */
function startRange(bundlers) {
  const sizesOf = bundlers.map((b) => sizes.bundles[b].main.initial);
  const span = (/** @type {(s: Size) => number} */ pick) =>
    `${(Math.min(...sizesOf.map(pick)) / 1000).toFixed(1)}–${kB(Math.max(...sizesOf.map(pick)))}`;
  return `${span((s) => s.bytes)} (${span((s) => s.gzip)} gzip)`;
}
const [simdChunk] = bySize(sizes.bundles.rollup.main.lazy);
/** The README's summary: what the usual setups cost, every bundler in docs/benchmarks.md. */
const summary = `In a minified browser bundle, \`createSolver()\` adds ${startRange(['vite', 'webpack'])} of JavaScript at start with Vite or webpack, which then fetch the SIMD \`.wasm\` (${kB(wasm.simd.gzip)} gzip); with Rollup or esbuild's \`splitting\`, ${startRange(['rollup', 'esbuild --splitting'])} at start, and the SIMD build comes from a lazy chunk (${kB(simdChunk.gzip)} gzip) unless you copy the \`.wasm\` files next to the bundle (below); under esbuild's defaults both builds are in the bundle: ${kB(whole.bytes)} (${kB(whole.gzip)} gzip). Every bundler's sizes: [docs/benchmarks.md](docs/benchmarks.md) (\`node scripts/measure-sizes.mjs --write\`, \`bench/results/sizes.json\`).`;

if (process.argv.includes('--write')) {
  writeBlock(new URL('../docs/benchmarks.md', import.meta.url), 'sizes', text);
  writeBlock(new URL('../README.md', import.meta.url), 'sizes-summary', summary);
} else {
  console.log(process.argv.includes('--summary') ? summary : text);
}
