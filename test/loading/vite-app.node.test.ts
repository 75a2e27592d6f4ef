// Loading through a bundler: test/fixtures/vite-app imports 'spring-solver' by name and is built
// here with Vite's JS API, then served and opened in Chromium: the default backend, each forced
// backend, and a Content-Security-Policy with and without 'wasm-unsafe-eval'.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openWatchedPage } from '../helpers/chromium.js';
import { loadScenario, maxDifference, SCENARIO_TOLERANCE } from '../helpers/scenario.js';
import { startStaticServer, type StaticServer } from '../helpers/static-server.js';

const FALLBACK_ADVICE =
  "Serve the .wasm files, pass them as createSolver({ wasm: { simd, scalar } }), or import 'spring-solver/embedded'; " +
  "createSolver({ onFallback: 'silent' }) hides this warning.";

const fixture = fileURLToPath(new URL('../fixtures/vite-app/', import.meta.url));

let outDir: string;
let browser: Browser;

beforeAll(async () => {
  outDir = await mkdtemp(join(tmpdir(), 'spring-solver-vite-app-'));
  // No alias: 'spring-solver' resolves through this package's own "exports" map to dist/index.js,
  // exactly as it would from node_modules.
  await build({ root: fixture, configFile: false, logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  if (outDir) await rm(outDir, { recursive: true, force: true });
});

/** Serves the built app (with extra headers), runs `body`, closes the server. */
async function withServer<T>(headers: Record<string, string>, body: (server: StaticServer) => Promise<T>): Promise<T> {
  const server = await startStaticServer({ mounts: { '/': outDir }, headers });
  try {
    return await body(server);
  } finally {
    await server.close();
  }
}

describe('a Vite-built app importing spring-solver', () => {
  it('the build copies both wasm builds as assets, and the embedded copies as chunks of their own', async () => {
    const assets = await readdir(join(outDir, 'assets'));
    expect(assets.filter((name) => name.endsWith('.wasm')).sort()).toEqual([
      expect.stringMatching(/^spring-solver\.scalar-.*\.wasm$/),
      expect.stringMatching(/^spring-solver\.simd-.*\.wasm$/),
    ]);
    expect(assets.filter((name) => name.startsWith('embedded-')).sort()).toEqual([
      expect.stringMatching(/^embedded-scalar-[\w-]+\.js$/),
      expect.stringMatching(/^embedded-simd-[\w-]+\.js$/),
    ]);
  });

  it("runs on 'simd' by default, fetching the wasm as application/wasm, with no console error", async () => {
    await withServer({}, async (server) => {
      const { page, errors, warnings } = await openWatchedPage(browser);
      const result = await loadScenario(page, server.url);
      await page.context().close();
      expect(result.backend).toBe('simd');
      expect(result.fallbackReason).toBeNull();
      expect(warnings).toEqual([]);
      expect(result.x.every(Number.isFinite)).toBe(true);
      expect(server.requests).toContainEqual({
        path: expect.stringMatching(/simd-.*\.wasm$/),
        status: 200,
        contentType: 'application/wasm',
      });
      // The embedded copies are lazy chunks, for a missing .wasm only: not fetched.
      expect(server.requests.map((r) => r.path).filter((path) => path.includes('/embedded-'))).toEqual([]);
      expect(errors).toEqual([]);
    });
  });

  it('each forced backend runs and all three agree', async () => {
    await withServer({}, async (server) => {
      const results = [];
      for (const backend of ['simd', 'wasm', 'js']) {
        const { page, errors } = await openWatchedPage(browser);
        results.push(await loadScenario(page, `${server.url}?backend=${backend}`));
        await page.context().close();
        expect(errors).toEqual([]);
      }
      const [simd, wasm, js] = results;
      expect(results.map((r) => r!.backend)).toEqual(['simd', 'wasm', 'js']);
      // The springs moved from x = sin(i) most of the way to g = cos(0.7·i): not untouched inputs.
      expect(js!.x.filter((x, i) => Math.abs(x - Math.sin(i)) > 0.5).length).toBeGreaterThan(100);
      expect(maxDifference(simd!, js!)).toBeLessThan(SCENARIO_TOLERANCE);
      expect(maxDifference(wasm!, js!)).toBeLessThan(SCENARIO_TOLERANCE);
    });
  });

  it("under script-src 'self' 'wasm-unsafe-eval' the SIMD backend loads and runs", async () => {
    await withServer({ 'Content-Security-Policy': "script-src 'self' 'wasm-unsafe-eval'" }, async (server) => {
      const { page, errors } = await openWatchedPage(browser);
      const result = await loadScenario(page, server.url);
      await page.context().close();
      expect(result.backend).toBe('simd');
      expect(errors).toEqual([]);
    });
  });

  it("under script-src 'self' alone WebAssembly is refused: createSolver() falls back to 'js', works, and says why", async () => {
    await withServer({ 'Content-Security-Policy': "script-src 'self'" }, async (server) => {
      const { page, warnings } = await openWatchedPage(browser);
      await page.addInitScript(() => {
        const w = window as unknown as { violations: string[] };
        w.violations = [];
        document.addEventListener('securitypolicyviolation', (e) => w.violations.push(`${e.effectiveDirective} ${e.blockedURI}`));
      });
      const fallback = await loadScenario(page, server.url);
      const violations = await page.evaluate(() => (window as unknown as { violations: string[] }).violations);
      await page.context().close();
      expect(fallback.backend).toBe('js');
      expect(fallback.x.every(Number.isFinite)).toBe(true);
      // It was the policy that refused the wasm builds (not a missing file or a broken build).
      expect(violations).toContain('script-src wasm-eval');
      // …and the solver says so: both builds, each refused by the policy, and one console warning.
      const refused = (build: string, file: string) =>
        `the ${build} build \\(from ${server.url.replace(/[.]/g, '\\.')}assets/${file}-[\\w-]+\\.wasm\\) failed to load: CompileError: [^;]*Content Security Policy[^;]*`;
      expect(fallback.fallbackReason).toMatch(
        new RegExp(`^${refused('SIMD', 'spring-solver.simd')}; ${refused('scalar', 'spring-solver.scalar')}$`),
      );
      expect(warnings).toEqual([
        `spring-solver: createSolver() runs the slower 'js' backend: ${fallback.fallbackReason}. ${FALLBACK_ADVICE}`,
      ]);
      // The files were there: a refused compilation does not turn to the embedded copy.
      expect(server.requests.map((r) => r.path).filter((path) => path.includes('/embedded-'))).toEqual([]);
    });
  });
});
