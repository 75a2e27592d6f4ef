// createSolver({ threads: 2 }) in headless Chromium, on a page with no bundler: served cross-origin
// isolated (Cross-Origin-Opener-Policy: same-origin, Cross-Origin-Embedder-Policy: require-corp),
// it runs two threads (the page's main thread spins instead of blocking) and every method gives the
// single-thread SIMD solver's bits; served without the headers, it runs on one thread, says why in
// threadsReason and warns once.
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METHODS, type ArgKind } from '../fuzz/table.js';
import { launchChromium, openWatchedPage } from '../helpers/chromium.js';
import { logUniform, mulberry32, pick, uniform, type Rng } from '../helpers/random.js';
import { startStaticServer } from '../helpers/static-server.js';

const path = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));
const MOUNTS = { '/': path('../fixtures/threads-page/'), '/dist': path('../../dist/') };
const ISOLATED = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };

interface PageThreads {
  threads: number;
  threadsReason: string | null;
  crossOriginIsolated: boolean;
}

let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

/** A drawn argument as JSON: an array's floats, or a value. */
function drawArgument(rng: Rng, kind: ArgKind, n: number, perElement: boolean): { floats: number[] } | { value: unknown } {
  const floats = (length: number, draw: () => number) => ({ floats: Array.from({ length }, () => Math.fround(draw())) });
  switch (kind.kind) {
    case 'in':
    case 'out':
      return floats(n * (kind.width === 'count' ? 3 : kind.width), () => uniform(rng, -10, 10));
    case 'param': {
      const draw = kind.rule === 'gain' ? rng : kind.rule === 'slerpT' ? () => uniform(rng, 0, 2) : () => logUniform(rng, 0.01, 10);
      return perElement ? floats(n, draw) : { value: Math.fround(draw()) };
    }
    case 'dt':
    case 'gainDt':
      return { value: 1 / 60 };
    case 'count':
      return { value: 3 };
    case 'pdOptions':
      return { value: { integrator: pick(rng, ['explicit', 'semi-implicit', 'implicit', 'exact']) } };
  }
}

/** Opens the page served with `headers`; returns it (for run()), what it reports, and its console warnings. */
async function openPage(headers: Record<string, string>) {
  const server = await startStaticServer({ mounts: MOUNTS, headers });
  const { page, errors, warnings } = await openWatchedPage(browser);
  await page.goto(server.url);
  await page.waitForFunction(() => (window as unknown as { threads?: unknown }).threads !== undefined, undefined, { timeout: 30_000 });
  const report = await page.evaluate(() => {
    const { threads, threadsReason, crossOriginIsolated } = (window as unknown as { threads: PageThreads }).threads;
    return { threads, threadsReason, crossOriginIsolated };
  });
  const close = async () => {
    await page.context().close();
    await server.close();
  };
  return { page, errors, warnings, report, close };
}

describe('a page with createSolver({ threads: 2 }) in Chromium', () => {
  it('cross-origin isolated: two threads, and every method gives the single-thread bits', async () => {
    const { page, errors, warnings, report, close } = await openPage(ISOLATED);
    try {
      expect(report).toEqual({ threads: 2, threadsReason: null, crossOriginIsolated: true });
      const rng = mulberry32(20);
      const calls = Object.entries(METHODS).flatMap(([method, kinds]) =>
        [false, true].map((perElement) => ({ method, args: kinds.map(([, kind]) => drawArgument(rng, kind, 1037, perElement)) })),
      );
      const differ = await runIn(page, calls);
      expect(differ).toEqual([]);
      expect(errors).toEqual([]);
      expect(warnings).toEqual([]);
    } finally {
      await close();
    }
  });

  it('without the headers: one thread, the reason in threadsReason, one warning', async () => {
    const { errors, warnings, report, close } = await openPage({});
    try {
      expect(report.crossOriginIsolated).toBe(false);
      expect(report.threads).toBe(1);
      expect(report.threadsReason).toMatch(/^SharedArrayBuffer is not available: the page is not cross-origin isolated/);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain(`runs on one thread: ${report.threadsReason}`);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });
});

function runIn(page: Page, calls: { method: string; args: unknown[] }[]): Promise<string[]> {
  return page.evaluate((list) => (window as unknown as { threads: { run(c: typeof list): string[] } }).threads.run(list), calls);
}
