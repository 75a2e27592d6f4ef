// Prints what spring-solver costs in a user's bundle, for the README and docs/DECISIONS.md: a one-line app
// calling createSolver(), from 'spring-solver' and from 'spring-solver/embedded', bundled for the browser with
// each bundler's defaults (esbuild --bundle --minify --format=esm; Rollup + node-resolve, format 'es', each chunk
// then minified by esbuild since Rollup does not minify; Vite build; webpack production). For each output:
// the JavaScript loaded at start, the lazy chunks (loaded only if the .wasm file cannot be fetched), and the
// .wasm files emitted, in bytes and gzip -9 bytes. Run `npm run build` first; then `node scripts/measure-sizes.mjs`.
// With `--write` it also stores them in bench/results/sizes.json, which the README's sizes come from
// (`node scripts/readme-sizes.mjs` prints them; test/docs/readme-numbers.node.test.ts checks them).
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import * as esbuild from 'esbuild';
import { rollup } from 'rollup';
import { build as viteBuild } from 'vite';
import webpack from 'webpack';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = await mkdtemp(join(tmpdir(), 'spring-solver-sizes-'));
const ENTRIES = { main: 'spring-solver', embedded: 'spring-solver/embedded' };

async function bundleEsbuild(entry, out) {
  await esbuild.build({ entryPoints: [entry], bundle: true, minify: true, format: 'esm', outdir: out, logLevel: 'silent' });
  return basename(entry);
}

async function bundleEsbuildSplitting(entry, out) {
  await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format: 'esm',
    splitting: true,
    outdir: out,
    logLevel: 'silent',
  });
  return basename(entry);
}

async function bundleRollup(entry, out) {
  const build = await rollup({ input: entry, plugins: [nodeResolve()], onwarn: () => {} });
  await build.write({ dir: out, format: 'es' });
  await build.close();
  for (const file of await readdir(out)) {
    if (!file.endsWith('.js')) continue;
    const { code } = await esbuild.transform(await readFile(join(out, file), 'utf8'), { minify: true, format: 'esm' });
    await writeFile(join(out, file), code);
  }
  return basename(entry);
}

async function bundleVite(entry, out) {
  const html = join(dir, `vite-${basename(out)}.html`);
  await writeFile(html, `<!doctype html><script type="module" src="${entry}"></script>`);
  await viteBuild({ root: dir, configFile: false, logLevel: 'silent', build: { outDir: out, rollupOptions: { input: html } } });
  const page = await readFile(join(out, basename(html)), 'utf8');
  const script = /<script type="module" crossorigin src="\/([^"]+)"/.exec(page);
  if (!script) throw new Error(`no module script in Vite's ${basename(html)}`);
  return script[1];
}

async function bundleWebpack(entry, out) {
  /** @type {Promise<void>} */
  const built = new Promise((done, fail) =>
    webpack({ mode: 'production', target: 'web', entry, output: { path: out, filename: 'main.js' } }, (error, stats) =>
      error || !stats || stats.hasErrors() ? fail(error ?? new Error(stats?.toString('errors-only'))) : done(),
    ),
  );
  await built;
  return 'main.js';
}

const BUNDLERS = {
  esbuild: bundleEsbuild,
  'esbuild --splitting': bundleEsbuildSplitting,
  rollup: bundleRollup,
  vite: bundleVite,
  webpack: bundleWebpack,
};

/**
 * The JS a start-up loads (the entry file and the chunks it imports statically, found by their import
 * statements), the other JS files (lazy chunks, loaded through import()) and the .wasm files.
 */
async function sizes(out, entry) {
  const files = (await readdir(out, { recursive: true })).filter((file) => /\.(js|wasm)$/.test(file));
  /** @type {Map<string, Buffer>} */
  const contents = new Map();
  for (const file of files) contents.set(file, await readFile(join(out, file)));
  /** @param {string} file */
  const bytesOf = (file) => {
    const bytes = contents.get(file);
    if (!bytes) throw new Error(`${file} is not in ${out}`);
    return bytes;
  };
  const js = files.filter((file) => file.endsWith('.js'));
  const initial = new Set([entry]);
  for (const file of initial) {
    const code = bytesOf(file).toString('utf8');
    for (const [, spec] of code.matchAll(/(?:^|[;}\s])import\s*(?:[\w*{}\s,$]*from\s*)?["']([^"']+)["']/g)) {
      const target = join(file, '..', spec).replace(/^\.\//, '');
      if (contents.has(target)) initial.add(target);
    }
  }
  const sum = (names) => {
    let bytes = 0;
    let gzip = 0;
    for (const name of names) {
      bytes += bytesOf(name).length;
      gzip += gzipSync(bytesOf(name), { level: 9 }).length;
    }
    return { bytes, gzip };
  };
  return {
    initial: sum([...initial]),
    lazy: js.filter((file) => !initial.has(file)).map((file) => sum([file])),
    wasm: files.filter((file) => file.endsWith('.wasm')).map((file) => ({ file, ...sum([file]) })),
  };
}

/** A file's size and its gzip -9 size. @param {Buffer} bytes */
function wasmSize(bytes) {
  return { bytes: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
}

const kB = (bytes) => (bytes / 1000).toFixed(1);
const pair = ({ bytes, gzip }) => `${kB(bytes)} kB (${kB(gzip)} kB gzip)`;

/** The stored measurement: every bundle's sizes and the tools' versions. */
const measured = {
  date: new Date().toISOString(),
  commit: execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root }).toString().trim(),
  tools: Object.fromEntries(
    ['esbuild', 'rollup', 'vite', 'webpack'].map((name) => [name, createRequire(import.meta.url)(`${name}/package.json`).version]),
  ),
  /** @type {Record<string, { bytes: number, gzip: number }>} */
  wasm: {},
  /** @type {Record<string, Record<string, Awaited<ReturnType<typeof sizes>>>>} */
  bundles: {},
};

try {
  const packageDir = join(dir, 'node_modules', 'spring-solver');
  await mkdir(packageDir, { recursive: true });
  await cp(join(root, 'package.json'), join(packageDir, 'package.json'));
  await cp(join(root, 'dist'), join(packageDir, 'dist'), { recursive: true });
  for (const [name, specifier] of Object.entries(ENTRIES)) {
    await writeFile(
      join(dir, `app-${name}.js`),
      `import { createSolver } from '${specifier}';\ncreateSolver().then((solver) => console.log(solver.backend));\n`,
    );
  }
  const wasmDir = join(root, 'dist', 'backends', 'wasm');
  for (const build of ['simd', 'scalar']) {
    const bytes = await readFile(join(wasmDir, `spring-solver.${build}.wasm`));
    measured.wasm[build] = wasmSize(bytes);
    console.log(`dist/backends/wasm/spring-solver.${build}.wasm: ${pair(measured.wasm[build])}`);
  }
  console.log(
    '\nbundler             entry     JS at start                  lazy JS chunks (loaded if a .wasm is missing)          .wasm emitted',
  );
  for (const [bundler, bundle] of Object.entries(BUNDLERS)) {
    for (const name of Object.keys(ENTRIES)) {
      const out = join(dir, `out-${bundler}-${name}`);
      const entry = await bundle(join(dir, `app-${name}.js`), out);
      const { initial, lazy, wasm } = await sizes(out, entry);
      measured.bundles[bundler] = { ...measured.bundles[bundler], [name]: { initial, lazy, wasm } };
      const list = (items, text) =>
        items.length === 0
          ? 'none'
          : items
              .sort((a, b) => b.bytes - a.bytes)
              .map(text)
              .join(' + ');
      const lazyText = list(lazy, pair);
      const wasmText = list(wasm, (w) => `${kB(w.gzip)} kB gzip`);
      console.log(`${bundler.padEnd(19)} ${name.padEnd(9)} ${pair(initial).padEnd(28)} ${lazyText.padEnd(54)} ${wasmText}`);
    }
  }
  if (process.argv.includes('--write')) {
    await writeFile(join(root, 'bench', 'results', 'sizes.json'), `${JSON.stringify(measured, null, 1)}\n`);
    console.log('\nwrote bench/results/sizes.json');
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
