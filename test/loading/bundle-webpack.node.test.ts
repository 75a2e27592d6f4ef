// Bundling with webpack 5 (its JS API, production mode). webpack treats
// `new URL('…/x.wasm', import.meta.url)` as an asset: it emits both builds with hashed names and
// rewrites the URLs, so 'spring-solver' works as is, in a Node bundle and in Chromium. It also emits
// the embedded copies (the loader's import() for a missing file) as lazy chunks, never loaded here.
import { cp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser } from 'playwright';
import webpack, { type Configuration, type Stats } from 'webpack';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSolver } from '../../dist/index.js';
import { runScenario } from '../fixtures/spring-scenario.js';
import { embeddedChunks, listOutput, makeApp, runNodeBundle, type BundledApp } from '../helpers/bundled-app.js';
import { launchChromium, openWatchedPage } from '../helpers/chromium.js';
import { loadScenario, maxDifference, SCENARIO_TOLERANCE, type ScenarioResult } from '../helpers/scenario.js';
import { startStaticServer } from '../helpers/static-server.js';

let app: BundledApp;
let reference: ScenarioResult;
let browser: Browser | undefined;

beforeAll(async () => {
  app = await makeApp('webpack');
  reference = await runScenario(createSolver, 'js');
});

afterAll(async () => {
  await browser?.close();
  if (app) await rm(app.dir, { recursive: true, force: true });
});

/** Bundles one entry of test/fixtures/bundler-app/ into `out/main.js`; returns the folder, failing on any error or warning. */
async function bundle(entry: string, out: string, config: Configuration): Promise<string> {
  const path = join(app.dir, out);
  const stats = await new Promise<Stats>((done, fail) =>
    webpack({ mode: 'production', entry: app.entry(entry), output: { path, filename: 'main.js' }, ...config }, (error, result) =>
      error || !result ? fail(error) : done(result),
    ),
  );
  const { errors, warnings } = stats.toJson({ all: false, errors: true, warnings: true });
  expect([...(errors ?? []), ...(warnings ?? [])].map((problem) => problem.message)).toEqual([]);
  return path;
}

const HASHED_WASM = /^[0-9a-f]{20}\.wasm$/;

describe("a webpack bundle importing 'spring-solver'", () => {
  it("for Node: both builds are emitted as assets and it runs on 'simd', with no warning", async () => {
    // Node bundles are usually left unminified (and terser is the slow part of a build).
    const outdir = await bundle('node-main.js', 'node', { target: 'node', optimization: { minimize: false } });
    const { files } = await listOutput(outdir);
    expect(files.filter((file) => file.endsWith('.wasm'))).toEqual([
      expect.stringMatching(HASHED_WASM),
      expect.stringMatching(HASHED_WASM),
    ]);
    // The chunks of the embedded copies are deleted: with the .wasm assets there, they are never loaded.
    for (const chunk of Object.values(await embeddedChunks(outdir, 'main.js'))) await rm(join(outdir, chunk));
    for (const backend of [undefined, 'wasm']) {
      const { result, stderr } = await runNodeBundle(join(outdir, 'main.js'), backend);
      expect(result.backend).toBe(backend ?? 'simd');
      expect(result.fallbackReason).toBeNull();
      expect(stderr).toBe('');
      expect(maxDifference(result, reference)).toBeLessThan(SCENARIO_TOLERANCE);
    }
  });

  it("for the web: it runs on 'simd' in Chromium, fetching the hashed SIMD build, with no console error or warning", async () => {
    const outdir = await bundle('browser-main.js', 'web', { target: 'web' });
    await cp(app.entry('index.html'), join(outdir, 'index.html'));
    const chunks = Object.values(await embeddedChunks(outdir, 'main.js'));
    browser = await launchChromium();
    const server = await startStaticServer({ mounts: { '/': outdir } });
    try {
      const { page, errors, warnings } = await openWatchedPage(browser);
      const result = await loadScenario(page, server.url);
      expect(result.backend).toBe('simd');
      expect(result.fallbackReason).toBeNull();
      expect(maxDifference(result, reference)).toBeLessThan(SCENARIO_TOLERANCE);
      expect(server.requests).toContainEqual({
        path: expect.stringMatching(/^\/[0-9a-f]{20}\.wasm$/),
        status: 200,
        contentType: 'application/wasm',
      });
      expect(server.requests.map((r) => r.path.slice(1)).filter((path) => chunks.includes(path))).toEqual([]);
      expect(errors).toEqual([]);
      expect(warnings).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
