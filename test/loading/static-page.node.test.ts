// Loading with no bundler: test/fixtures/static-page imports dist/index.js with a plain
// <script type="module"> (laid out as node_modules/spring-solver/dist/ on the server), and the
// wasm is served as application/wasm (streaming compile) or as application/octet-stream, which
// streaming compilation refuses, so the loader must compile from the downloaded bytes.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openWatchedPage } from '../helpers/chromium.js';
import { loadScenario, type ScenarioResult } from '../helpers/scenario.js';
import { startStaticServer, type StaticServer } from '../helpers/static-server.js';

const path = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));

const MOUNTS = {
  '/': path('../fixtures/static-page/'),
  '/fixtures': path('../fixtures/'),
  '/node_modules/spring-solver/dist': path('../../dist/'),
};

const SIMD_WASM = '/node_modules/spring-solver/dist/backends/wasm/spring-solver.simd.wasm';
const EMBEDDED = '/node_modules/spring-solver/dist/backends/wasm/embedded-simd.js';

let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

/** Serves the page with .wasm as `wasmContentType`, opens `query`, and returns the result, console errors and what streaming compilation makes of the SIMD file. */
async function runPage(wasmContentType: string, query = '', mounts: Record<string, string> = MOUNTS) {
  const server: StaticServer = await startStaticServer({ mounts, wasmContentType });
  try {
    const { page, errors, warnings } = await openWatchedPage(browser);
    const result: ScenarioResult = await loadScenario(page, `${server.url}${query}`);
    const streaming = await page.evaluate(
      (url) =>
        WebAssembly.compileStreaming(fetch(url)).then(
          () => 'compiled',
          (error: Error) => error.name,
        ),
      SIMD_WASM,
    );
    await page.context().close();
    return { result, errors, warnings, streaming, requests: server.requests, url: server.url };
  } finally {
    await server.close();
  }
}

describe('a static page importing dist/index.js with no bundler', () => {
  it("runs on 'simd' with the wasm streamed as application/wasm, with no console error", async () => {
    const { result, errors, warnings, streaming, requests } = await runPage('application/wasm');
    expect(result.backend).toBe('simd');
    expect(result.fallbackReason).toBeNull();
    expect(warnings).toEqual([]);
    expect(result.x.every(Number.isFinite)).toBe(true);
    expect(streaming).toBe('compiled');
    expect(requests).toContainEqual({ path: SIMD_WASM, status: 200, contentType: 'application/wasm' });
    expect(errors).toEqual([]);
  });

  it('served as application/octet-stream, the wasm is compiled from its bytes instead, with the same result', async () => {
    const streamed = await runPage('application/wasm');
    const { result, errors, streaming, requests } = await runPage('application/octet-stream', '?backend=simd');
    // Streaming compilation rejects this Content-Type, so the SIMD solver can only have come
    // from the ArrayBuffer fallback (a forced backend throws rather than falling back to JS).
    expect(streaming).toBe('TypeError');
    expect(requests).toContainEqual({ path: SIMD_WASM, status: 200, contentType: 'application/octet-stream' });
    expect(result.backend).toBe('simd');
    expect(result).toEqual(streamed.result); // the same module, however it was compiled
    expect(errors).toEqual([]);
  });

  it("createSolver() with no options also picks 'simd' when the wasm comes as application/octet-stream", async () => {
    const { result, errors, warnings } = await runPage('application/octet-stream');
    expect(result.backend).toBe('simd');
    expect(result.fallbackReason).toBeNull();
    expect(errors).toEqual([]);
    expect(warnings).toEqual([]);
  });

  it("with the SIMD file missing (HTTP 404), createSolver() runs 'simd' from the embedded copy, fetched only then, with no warning", async () => {
    const { result, warnings, requests } = await runPage('application/wasm');
    expect(requests.map((r) => r.path).filter((path) => path.includes('/embedded-'))).toEqual([]); // with the file there, no copy is fetched
    expect(result.backend).toBe('simd');
    expect(warnings).toEqual([]);

    // The longest mount wins: this one answers 404 for the SIMD build alone.
    const mounts = { ...MOUNTS, [SIMD_WASM]: path('./fixtures/no-such-directory/') };
    const missing = await runPage('application/wasm', '', mounts);
    expect(missing.requests).toContainEqual({ path: SIMD_WASM, status: 404, contentType: null });
    // The SIMD copy alone is fetched, on its own.
    expect(missing.requests.filter((r) => r.path.includes('/embedded-'))).toEqual([
      { path: EMBEDDED, status: 200, contentType: expect.stringMatching(/javascript/) },
    ]);
    expect(missing.result.backend).toBe('simd');
    expect(missing.result.fallbackReason).toBeNull();
    expect(missing.warnings).toEqual([]);
    expect(missing.result).toEqual(result); // the same build, bit for bit
  });

  it("with the SIMD file and the embedded copy missing, createSolver() runs 'wasm', names both in fallbackReason and warns once", async () => {
    const mounts = { ...MOUNTS, [SIMD_WASM]: path('./fixtures/no-such-directory/'), [EMBEDDED]: path('./fixtures/no-such-directory/') };
    const { result, warnings, requests, url } = await runPage('application/wasm', '', mounts);
    const simdUrl = new URL(SIMD_WASM, url).href;
    const embeddedUrl = new URL(EMBEDDED, url).href;
    expect(requests).toContainEqual({ path: SIMD_WASM, status: 404, contentType: null });
    expect(requests).toContainEqual({ path: EMBEDDED, status: 404, contentType: null });
    expect(result.backend).toBe('wasm');
    expect(result.fallbackReason).toBe(
      `the SIMD build (from ${simdUrl}) failed to load: spring-solver: fetching ${simdUrl} failed with HTTP 404; ` +
        `its embedded copy failed to load too: TypeError: Failed to fetch dynamically imported module: ${embeddedUrl}`,
    );
    expect(warnings).toEqual([expect.stringContaining(`runs the slower 'wasm' backend: ${result.fallbackReason}.`)]);

    // Forced, the same missing file and copy are an error, not a fallback.
    const forced = await runPage('application/wasm', '?backend=simd', mounts).then(
      () => 'resolved',
      (error: Error) => error.message,
    );
    const origin = 'http://127\\.0\\.0\\.1:\\d+';
    expect(forced).toMatch(
      new RegExp(
        `^the scenario failed in the page: Error: spring-solver: fetching ${origin}${SIMD_WASM} failed with HTTP 404; ` +
          `its embedded copy failed to load too: TypeError: Failed to fetch dynamically imported module: ${origin}${EMBEDDED}$`,
      ),
    );
  });
});

describe("the README's browser block", () => {
  it("runs as written in a page served beside node_modules/spring-solver/dist, and logs 'simd'", async () => {
    const readme = readFileSync(path('../../README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('### Browser, no bundler'));
    const block = /```html\n([\s\S]*?)\n```/.exec(section)?.[1];
    expect(block).toContain('<script type="module">');
    const dir = mkdtempSync(join(tmpdir(), 'spring-solver-readme-html-'));
    writeFileSync(join(dir, 'index.html'), `<!doctype html>\n<link rel="icon" href="data:," />\n${block}\n`);
    const server = await startStaticServer({ mounts: { '/': dir, '/node_modules/spring-solver/dist': path('../../dist/') } });
    try {
      const { page, errors } = await openWatchedPage(browser);
      const logged = new Promise<string>((resolve) => page.on('console', (message) => message.type() === 'log' && resolve(message.text())));
      await page.goto(server.url);
      expect(await logged).toBe('simd');
      expect(errors).toEqual([]);
      await page.context().close();
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
