// Bundling with esbuild (its JS API), which leaves `new URL('…/x.wasm', import.meta.url)` alone:
// it copies no .wasm file. 'spring-solver' then runs on 'simd' from the embedded copy, which the
// loader imports with import() when the file is missing: with esbuild's defaults that import is
// bundled into the one output file; with `splitting` each build's copy is a chunk of its own, loaded only then.
// 'spring-solver/embedded' works as is too, in Node (ESM and CommonJS) and in Chromium.
import { cp, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSolver } from '../../dist/index.js';
import {
  embeddedChunks,
  embeddedMarker,
  listOutput,
  makeApp,
  OTHER_CHUNK,
  runNodeBundle,
  threadsChunk,
  type BundledApp,
} from '../helpers/bundled-app.js';
import { launchChromium, openWatchedPage } from '../helpers/chromium.js';
import { loadScenario, maxDifference, SCENARIO_TOLERANCE, type ScenarioResult } from '../helpers/scenario.js';
import { runScenario } from '../fixtures/spring-scenario.js';
import { startStaticServer } from '../helpers/static-server.js';

let app: BundledApp;
let reference: ScenarioResult;

beforeAll(async () => {
  app = await makeApp('esbuild');
  reference = await runScenario(createSolver, 'js');
});

afterAll(async () => {
  if (app) await rm(app.dir, { recursive: true, force: true });
});

/** Bundles one entry of test/fixtures/bundler-app/ into `out/`, minified, as a user would. */
async function bundle(entry: string, out: string, options: esbuild.BuildOptions = {}): Promise<string> {
  const outdir = join(app.dir, out);
  await esbuild.build({ entryPoints: [app.entry(entry)], bundle: true, minify: true, outdir, logLevel: 'silent', ...options });
  return outdir;
}

describe('an esbuild bundle of a Node app', () => {
  it("importing 'spring-solver' with esbuild's defaults: no .wasm is written, and it runs on 'simd' from the embedded copy, with no warning", async () => {
    const outdir = await bundle('node-main.js', 'node-esm', { platform: 'node', format: 'esm' });
    expect((await listOutput(outdir)).files).toEqual(['node-main.js']);
    // Without splitting, esbuild bundles the import() of the embedded copy into the one file.
    expect(await readFile(join(outdir, 'node-main.js'), 'utf8')).toContain(await embeddedMarker());
    for (const backend of [undefined, 'simd', 'wasm']) {
      const { result, stderr } = await runNodeBundle(join(outdir, 'node-main.js'), backend);
      expect(result.backend).toBe(backend ?? 'simd');
      expect(result.fallbackReason).toBeNull();
      expect(stderr).toBe('');
      expect(maxDifference(result, reference)).toBeLessThan(SCENARIO_TOLERANCE);
    }
  });

  it("the README's recipe: the two .wasm files copied next to the ESM bundle, and it runs on 'simd'", async () => {
    const outdir = await bundle('node-main.js', 'node-esm-copied', { platform: 'node', format: 'esm' });
    for (const build of ['simd', 'scalar']) {
      const file = `spring-solver.${build}.wasm`;
      await cp(join(app.dir, 'node_modules/spring-solver/dist/backends/wasm', file), join(outdir, file));
    }
    const { result, stderr } = await runNodeBundle(join(outdir, 'node-main.js'));
    expect(result.backend).toBe('simd');
    expect(result.fallbackReason).toBeNull();
    expect(stderr).toBe('');
    expect(maxDifference(result, reference)).toBeLessThan(SCENARIO_TOLERANCE);
  });

  it("as CommonJS (no import.meta, so no file to read), 'spring-solver' runs on 'simd' from the embedded copy", async () => {
    const outdir = await bundle('node-main.js', 'node-cjs', { platform: 'node', format: 'cjs' });
    const { result, stderr } = await runNodeBundle(join(outdir, 'node-main.js'));
    expect(result.backend).toBe('simd');
    expect(result.fallbackReason).toBeNull();
    expect(stderr).toBe('');
    expect(maxDifference(result, reference)).toBeLessThan(SCENARIO_TOLERANCE);
  });

  it('with splitting, each embedded copy is a chunk of its own, loaded only when its .wasm file is missing', async () => {
    const outdir = await bundle('node-main.js', 'node-split', { platform: 'node', format: 'esm', splitting: true });
    const chunks = await embeddedChunks(outdir, 'node-main.js');
    expect(chunks).toEqual({
      simd: expect.stringMatching(/^embedded-simd-\w+\.js$/),
      scalar: expect.stringMatching(/^embedded-scalar-\w+\.js$/),
    });
    const files = (await listOutput(outdir)).files;
    expect(files.filter((file) => !OTHER_CHUNK.test(file))).toEqual([chunks.scalar, chunks.simd, 'node-main.js']);
    expect(await readFile(join(outdir, 'node-main.js'), 'utf8')).not.toContain(await embeddedMarker());
    // The threads' code is a lazy chunk of its own, out of the entry (createSolver imports it only for threads > 1)
    expect(await readFile(join(outdir, 'node-main.js'), 'utf8')).not.toContain('Atomics.notify');
    expect(files).toContain(await threadsChunk(outdir));
    // The scalar chunk deleted: 'simd' needs only its own.
    await rm(join(outdir, chunks.scalar));
    const { result, stderr } = await runNodeBundle(join(outdir, 'node-main.js'));
    expect(result.backend).toBe('simd');
    expect(result.fallbackReason).toBeNull();
    expect(stderr).toBe('');

    // The .wasm files copied beside it and the SIMD chunk deleted too: still 'simd', so no chunk was needed.
    for (const build of ['simd', 'scalar']) {
      const file = `spring-solver.${build}.wasm`;
      await cp(join(app.dir, 'node_modules/spring-solver/dist/backends/wasm', file), join(outdir, file));
    }
    await rm(join(outdir, chunks.simd));
    const copied = await runNodeBundle(join(outdir, 'node-main.js'));
    expect(copied.result.backend).toBe('simd');
    expect(copied.stderr).toBe('');
  });

  it("with neither the .wasm files nor the chunks of the embedded copies, it runs on 'js', names both failures of each build and warns", async () => {
    const outdir = await bundle('node-main.js', 'node-split-lost', { platform: 'node', format: 'esm', splitting: true });
    const chunks = await embeddedChunks(outdir, 'node-main.js');
    for (const chunk of Object.values(chunks)) await rm(join(outdir, chunk));
    const { result, stderr } = await runNodeBundle(join(outdir, 'node-main.js'));
    expect(result.backend).toBe('js');
    // The loader sits in the chunk esbuild shares between the entry and the threads' chunk
    const loader = (await listOutput(outdir)).files.find((file) => file.startsWith('chunk-')) ?? 'node-main.js';
    const failure = (build: 'simd' | 'scalar', name: string) =>
      `the ${name} build (from file://${outdir}/spring-solver.${build}.wasm) failed to load: ENOENT: no such file or directory, open '${outdir}/spring-solver.${build}.wasm'; ` +
      `its embedded copy failed to load too: Cannot find module '${join(outdir, chunks[build])}' imported from ${join(outdir, loader)}`;
    expect(result.fallbackReason).toBe(`${failure('simd', 'SIMD')}; ${failure('scalar', 'scalar')}`);
    expect(stderr).toContain(`createSolver() runs the slower 'js' backend: ${result.fallbackReason}.`);
    expect(maxDifference(result, reference)).toBeLessThan(SCENARIO_TOLERANCE);
  });

  it("importing 'spring-solver/embedded' runs on 'simd' as ESM and as CommonJS, with no file beside it and no warning", async () => {
    const marker = await embeddedMarker();
    for (const format of ['esm', 'cjs'] as const) {
      const outdir = await bundle('node-embedded.js', `embedded-${format}`, { platform: 'node', format });
      const { files } = await listOutput(outdir);
      expect(files).toEqual(['node-embedded.js']);
      expect(await readFile(join(outdir, 'node-embedded.js'), 'utf8')).toContain(marker);
      for (const backend of [undefined, 'simd', 'wasm']) {
        const { result, stderr } = await runNodeBundle(join(outdir, 'node-embedded.js'), backend);
        expect(result.backend).toBe(backend ?? 'simd');
        expect(result.fallbackReason).toBeNull();
        expect(stderr).toBe('');
        expect(maxDifference(result, reference)).toBeLessThan(SCENARIO_TOLERANCE);
      }
    }
  });

  it("the embedded builds stay out of bundles that import only pure functions of 'spring-solver/embedded'; what they cost", async () => {
    const marker = await embeddedMarker();
    const before = await bundle('node-main.js', 'shaken-main', { platform: 'node', format: 'esm', splitting: true });
    const inlined = await bundle('node-main.js', 'shaken-inlined', { platform: 'node', format: 'esm' });
    const embedded = await bundle('node-embedded.js', 'shaken-embedded', { platform: 'node', format: 'esm' });
    const pure = await bundle('conversion-only.js', 'shaken-pure', { platform: 'node', format: 'esm' });
    const pureCode = await readFile(join(pure, 'conversion-only.js'), 'utf8');
    expect(pureCode).not.toContain(marker);
    expect(pureCode).not.toContain('createSolver');
    // The builds are about 240 kB of base64 (scripts/measure-sizes.mjs): the entry file of a split
    // bundle goes without them, and the one-file bundles of either entry carry them.
    const size = async (dir: string, file: string) => (await readFile(join(dir, file))).length;
    const entryBytes = await size(before, 'node-main.js');
    expect(entryBytes).toBeLessThan(60_000);
    expect((await size(inlined, 'node-main.js')) - entryBytes).toBeGreaterThan(200_000);
    expect((await size(embedded, 'node-embedded.js')) - entryBytes).toBeGreaterThan(200_000);
  });
});

describe('an esbuild bundle of a web app', () => {
  it("importing 'spring-solver' with esbuild's defaults runs on 'simd' in Chromium from the embedded copy after the .wasm's 404, with no warning", async () => {
    const outdir = await bundle('browser-main.js', 'web-main', { platform: 'browser', format: 'esm', entryNames: 'main' });
    await cp(app.entry('index.html'), join(outdir, 'index.html'));
    expect((await listOutput(outdir)).files).toEqual(['index.html', 'main.js']);
    const browser = await launchChromium();
    const server = await startStaticServer({ mounts: { '/': outdir } });
    try {
      const { page, errors, warnings } = await openWatchedPage(browser);
      const result = await loadScenario(page, server.url);
      expect(result.backend).toBe('simd');
      expect(result.fallbackReason).toBeNull();
      expect(maxDifference(result, reference)).toBeLessThan(SCENARIO_TOLERANCE);
      // The file is tried first: Chromium logs its 404 itself, and nothing else is fetched.
      expect(server.requests.map((r) => `${r.path} ${r.status}`)).toEqual(['/ 200', '/main.js 200', '/spring-solver.simd.wasm 404']);
      expect(errors).toEqual(['Failed to load resource: the server responded with a status of 404 (Not Found)']);
      expect(warnings).toEqual([]);
    } finally {
      await server.close();
      await browser.close();
    }
  });

  it("importing 'spring-solver/embedded' runs on 'simd' in Chromium, fetching no .wasm, with no console error or warning", async () => {
    const outdir = await bundle('browser-embedded.js', 'web', { platform: 'browser', format: 'esm', entryNames: 'main' });
    await cp(app.entry('index.html'), join(outdir, 'index.html'));
    const browser = await launchChromium();
    const server = await startStaticServer({ mounts: { '/': outdir } });
    try {
      const { page, errors, warnings } = await openWatchedPage(browser);
      const result = await loadScenario(page, server.url);
      expect(result.backend).toBe('simd');
      expect(result.fallbackReason).toBeNull();
      expect(maxDifference(result, reference)).toBeLessThan(SCENARIO_TOLERANCE);
      expect(server.requests.map((r) => r.path)).toEqual(['/', '/main.js']);
      expect(errors).toEqual([]);
      expect(warnings).toEqual([]);
    } finally {
      await server.close();
      await browser.close();
    }
  });
});
