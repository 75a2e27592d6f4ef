// Bundling with esbuild (its JS API), which leaves `new URL('…/x.wasm', import.meta.url)` alone:
// it copies no .wasm file. So 'spring-solver' in a bundle needs the README's recipe (copy the
// two files next to the bundle), else it runs on 'js' and says why; 'spring-solver/embedded'
// works as is, in Node (ESM and CommonJS) and in Chromium.
import { cp, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSolver } from '../../dist/index.js';
import { embeddedMarker, listOutput, makeApp, runNodeBundle, type BundledApp } from '../helpers/bundled-app.js';
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
  it("importing 'spring-solver': no .wasm is written, so it runs on 'js', names the missing file and warns", async () => {
    const outdir = await bundle('node-main.js', 'node-esm', { platform: 'node', format: 'esm' });
    expect((await listOutput(outdir)).files).toEqual(['node-main.js']);
    const { result, stderr } = await runNodeBundle(join(outdir, 'node-main.js'));
    expect(result.backend).toBe('js');
    expect(result.fallbackReason).toContain(`the SIMD build (from file://${outdir}/spring-solver.simd.wasm) failed to load: ENOENT`);
    expect(stderr).toContain(`createSolver() runs the slower 'js' backend: ${result.fallbackReason}.`);
    expect(maxDifference(result, reference)).toBeLessThan(SCENARIO_TOLERANCE);
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

  it("as CommonJS (no import.meta), 'spring-solver' runs on 'js' and says it could not locate the builds", async () => {
    const outdir = await bundle('node-main.js', 'node-cjs', { platform: 'node', format: 'cjs' });
    const { result, stderr } = await runNodeBundle(join(outdir, 'node-main.js'));
    expect(result.backend).toBe('js');
    expect(result.fallbackReason).toBe(
      'the SIMD build (from spring-solver.simd.wasm next to the module, which has no import.meta.url here) failed to load: TypeError: Invalid URL; ' +
        'the scalar build (from spring-solver.scalar.wasm next to the module, which has no import.meta.url here) failed to load: TypeError: Invalid URL',
    );
    expect(stderr).toContain(result.fallbackReason);
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

  it("the embedded builds stay out of bundles that import 'spring-solver', or only pure functions of 'spring-solver/embedded'", async () => {
    const marker = await embeddedMarker();
    const main = await bundle('node-main.js', 'shaken-main', { platform: 'node', format: 'esm' });
    const embedded = await bundle('node-embedded.js', 'shaken-embedded', { platform: 'node', format: 'esm' });
    const pure = await bundle('conversion-only.js', 'shaken-pure', { platform: 'node', format: 'esm' });
    expect(await readFile(join(main, 'node-main.js'), 'utf8')).not.toContain(marker);
    const pureCode = await readFile(join(pure, 'conversion-only.js'), 'utf8');
    expect(pureCode).not.toContain(marker);
    expect(pureCode).not.toContain('createSolver');
    // The builds are 90 + 29 kB of wasm, 159 kB as base64: the difference between the two bundles.
    const [mainBytes, embeddedBytes] = [(await listOutput(main)).bytes, (await listOutput(embedded)).bytes];
    expect(embeddedBytes - mainBytes).toBeGreaterThan(150_000);
    expect(mainBytes).toBeLessThan(60_000);
  });
});

describe('an esbuild bundle of a web app', () => {
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
