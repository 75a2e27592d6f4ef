// The demo site (demo/site), built here with Vite's JS API into a temporary folder, served, and
// driven in Chromium: every page loads with no console error and draws something, the Springs
// page reacts to its slider and to a click in a plot, the Benchmark page finishes with SIMD ahead
// of JS, and the Skeleton page's jump is absorbed by the Inertializer (its joints, from one
// ForwardKinematics update, agree with per-bone JS forward kinematics). As `npm run demo:build`
// does, typedoc writes the API docs into the build's api/ folder: every link of the navigation
// opens a page, typedoc prints no warning, and API pages fit a 390 px wide viewport.
// Screenshots go to test-results/ (test-results/springs.png is the one `npm run screenshot`
// copies to docs/).
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlotData } from '../../demo/site/src/common/test-hooks.js';
import { launchChromium, openWatchedPage, type WatchedPage } from '../helpers/chromium.js';
import { screenshotVariance } from '../helpers/screenshot.js';
import { startDemoSite, type DemoSite } from '../helpers/demo-site.js';

const VIEWPORT = { width: 1200, height: 800 };
const TYPEDOC = fileURLToPath(new URL('../../node_modules/typedoc/bin/typedoc', import.meta.url));

let server: DemoSite;
let browser: Browser;
/** What typedoc printed (stdout and stderr) while writing the API docs. */
let typedocOutput: string;

beforeAll(async () => {
  server = await startDemoSite(async (outDir) => {
    const typedoc = await promisify(execFile)(process.execPath, [TYPEDOC, '--out', join(outDir, 'api')], {
      cwd: fileURLToPath(new URL('../../', import.meta.url)),
    });
    typedocOutput = typedoc.stdout + typedoc.stderr;
  });
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Opens a page of the site and waits until it has drawn once. */
async function open(page: string): Promise<WatchedPage> {
  const watched = await openWatchedPage(browser, VIEWPORT);
  await watched.page.goto(`${server.url}${page}.html`);
  await watched.page.waitForSelector('body[data-ready="true"]', { timeout: 15_000 });
  return watched;
}

// Luminance variance (0–255 scale, squared) of the region that shows each page's content. A
// region of one flat colour has 0; measured: About text 1,370, Springs plots 740, Benchmark
// charts 860, Skeleton canvases 1,420. 200 fails a region where nothing was drawn, with a margin
// of more than 3× under the least of the pages.
const NON_BLANK_VARIANCE = 200;

/** The data the Springs page's chart for `model` holds (x, goal, values…). */
function plotData(page: Page, model: string): Promise<PlotData> {
  return page.evaluate((id) => window.springsDemo!.data(id)!, model);
}

/**
 * Largest difference between the 30 Hz value line (column 2) and the 144 Hz one (column 4) at the
 * instants both sampled (every 1/6 s; joined as separate x when their times differ by an ulp).
 */
function rateDisagreement([x, , at30, , at144]: PlotData): number {
  let largest = 0;
  let compared = 0;
  for (let i = 0; i < x!.length; i++) {
    if (at30![i] == null) continue;
    const j = x!.findIndex((t, k) => at144![k] != null && Math.abs(t! - x![i]!) < 1e-9);
    if (j < 0) continue;
    largest = Math.max(largest, Math.abs(at30![i]! - at144![j]!));
    compared++;
  }
  expect(compared).toBeGreaterThan(10); // 3 s of data hold about 20 common instants
  return largest;
}

describe('demo site', () => {
  it('About: loads, names the backend, and draws', async () => {
    const { page, errors } = await open('index');
    await expect.poll(() => page.textContent('#backend')).toContain("'simd' backend");
    expect(await screenshotVariance(page, 'about', 'main')).toBeGreaterThan(NON_BLANK_VARIANCE);
    await page.context().close();
    expect(errors).toEqual([]);
  });

  it('Springs: plots every model of the API and follows its slider and a click in a plot', async () => {
    const { page, errors } = await open('springs');
    const models = await page.evaluate(() => window.springsDemo!.models);
    // The core springs are all there (the others are included as the build provides them).
    for (const core of ['damper', 'springDamper', 'springDamperRatio', 'criticalSpringDamper', 'simpleSpringDamper', 'decaySpringDamper']) {
      expect(models).toContain(core);
    }
    // 3 s of simulated time: the first automatic goal step (at 1.5 s) and the response to it.
    await page.waitForFunction(
      () => {
        const x = window.springsDemo!.data('damper')![0]!;
        return x[x.length - 1]! > 3;
      },
      null,
      { timeout: 10_000 },
    );
    // Freeze at ~3 s, before the 4 s window starts to scroll: a replay then covers exactly the
    // samples shown (once scrolling, live traces keep a few stale samples a replay drops).
    await page.click('#pause');
    await page.waitForTimeout(100);
    expect(await screenshotVariance(page, 'springs', '#plots')).toBeGreaterThan(NON_BLANK_VARIANCE);

    // Overlaid 30, 60 and 144 Hz: an exact model gives the same curve at every rate, an
    // integrator does not. States are float32: 576 steps at 144 Hz round by ≤ 576 · 6e-8 ≈ 3.5e-5
    // (measured 1.8e-7); explicit Euler at ω·dt = 0.31 (30 Hz) is off by 0.1 after a goal step.
    expect(rateDisagreement(await plotData(page, 'criticalSpringDamper'))).toBeLessThan(1e-4);
    expect(rateDisagreement(await plotData(page, 'pdSpring-explicit'))).toBeGreaterThan(1e-2);

    // Paused, the window is replayed with the new halflife: same times and goal, other values.
    const before = await plotData(page, 'criticalSpringDamper');
    const halflife = page.locator('#halflife');
    const track = (await halflife.boundingBox())!;
    await halflife.click({ position: { x: track.width * 0.9, y: track.height / 2 } }); // from 0.2 s to about 1.35 s
    await page.waitForTimeout(100);
    const after = await plotData(page, 'criticalSpringDamper');
    expect(after[0]).toEqual(before[0]);
    expect(after[1]).toEqual(before[1]);
    const values = (data: PlotData) => data[data.length - 1]!.map((v) => v ?? NaN);
    const change = Math.max(
      ...values(after)
        .map((v, i) => Math.abs(v - values(before)[i]!))
        .filter(Number.isFinite),
    );
    // The goal stepped by 0.8 at 1.5 s: with halflife 0.2 s the value covers ~99% of it by 3 s,
    // with ~1.35 s under half, so the curves differ by far more than 0.1.
    expect(change).toBeGreaterThan(0.1);

    // A press at 20% of the plot's height sets the goal to 1.6 − 0.2·3.2 = 0.96 (the y range is ±1.6).
    await page.click('#pause');
    const over = page.locator('[data-model="criticalSpringDamper"] .u-over');
    const plot = (await over.boundingBox())!;
    await over.click({ position: { x: plot.width / 2, y: plot.height * 0.2 } });
    // One pixel of the plot is 3.2 / height ≈ 0.03 in goal units: allow 0.05.
    await page.waitForFunction(
      () => {
        const goal = window.springsDemo!.data('criticalSpringDamper')![1]!;
        return Math.abs(goal[goal.length - 1]! - 0.96) < 0.05;
      },
      null,
      { timeout: 5_000 },
    );
    expect(await page.isChecked('#automatic')).toBe(false);

    // One frame rate: one value line.
    await page.selectOption('#rate', '30');
    await expect.poll(async () => (await plotData(page, 'criticalSpringDamper')).length).toBe(3); // x, goal, value
    await page.context().close();
    expect(errors).toEqual([]);
  });

  it('Benchmark: runs every backend at every N and reports SIMD faster than JS', async () => {
    const { page, errors } = await open('bench');
    await page.waitForSelector('#status[data-state="done"]', { timeout: 40_000 });
    const results = await page.evaluate(() => window.benchDemo!.results);
    expect(results).toHaveLength(9); // 3 backends × 3 sizes
    // Every cell is 5 runs: the median with its range, shown in the table as "median (min–max)".
    for (const r of results) {
      expect(r.runs).toHaveLength(5);
      expect(r.min).toBe(Math.min(...r.runs));
      expect(r.max).toBe(Math.max(...r.runs));
      expect(r.nsPerElement).toBe([...r.runs].sort((a, b) => a - b)[2]);
    }
    expect(await page.textContent('#results')).toMatch(/\d+\.\d\d \(\d+\.\d\d–\d+\.\d\d\)/);
    const largest = Math.max(...results.map((r) => r.n));
    const at = (backend: string) => results.find((r) => r.n === largest && r.backend === backend)!.nsPerElement;
    // Measured in this Chromium at N = 256Ki: SIMD 16× faster than JS, scalar wasm 2.3×. 4× can
    // only be met by the SIMD build, and medians of ≥ 5 ms samples do not swing by 4× under load.
    expect(at('js') / at('simd')).toBeGreaterThan(4);
    expect(await page.textContent('#status')).toMatch(/SIMD is [\d.]+× faster than JS/);
    expect(await screenshotVariance(page, 'bench', '#charts')).toBeGreaterThan(NON_BLANK_VARIANCE);
    await page.context().close();
    expect(errors).toEqual([]);
  });

  it('Skeleton: draws the crowd, and a jump is absorbed by the Inertializer and decays', async () => {
    const { page, errors } = await open('skeleton');
    await page.waitForFunction(() => window.skeletonDemo!.frames > 10, null, { timeout: 5_000 });
    expect(await screenshotVariance(page, 'skeleton', '.panels')).toBeGreaterThan(NON_BLANK_VARIANCE);
    expect(await page.textContent('#stats')).toMatch(
      /^10 characters \(10 drawn\), 'simd' backend · per frame: .* inertialize \d+\.\d+ ms, forward kinematics of both poses drawn \(ForwardKinematics, 20 skeletons\) \d+\.\d+ ms, draw \d+\.\d+ ms/,
    );
    // The joints drawn come from the ForwardKinematics update, and agree with the per-bone JS forward kinematics.
    expect(await page.evaluate(() => window.skeletonDemo!.jointUpdates)).toBeGreaterThan(10);
    // Both are float32 (coordinates up to ~200 cm, where an ulp is 1.5e-5 cm) along chains of up to
    // 8 bones, a few roundings each: 5e-4 cm is about 16 ulps (measured: 1.5e-5, one ulp).
    expect(await page.evaluate(() => window.skeletonDemo!.jointError())).toBeLessThan(5e-4);

    // One character, which loops only every 4.9 s: the offsets are at rest before the jump.
    await page.selectOption('#crowd', '1');
    const offset = () => page.evaluate(() => window.skeletonDemo!.offsetRotation());
    expect(await offset()).toBeLessThan(1e-3);
    await page.click('#jump');
    await page.waitForFunction(() => window.skeletonDemo!.jumps === 1, null, { timeout: 5_000 });
    // A jump of 40% of the pirouette turns bones by tens of degrees: |xyz| of the offset
    // quaternion is sin(θ/2), and 0.05 is θ ≈ 6°.
    expect(await offset()).toBeGreaterThan(0.05);
    // With halflife 0.15 s, 2 s is 13 halflives: the offset is under 1% of 0.05 well before.
    await page.waitForFunction(() => window.skeletonDemo!.offsetRotation() < 5e-4, null, { timeout: 3_000 });
    await page.context().close();
    expect(errors).toEqual([]);
  });

  it('navigation: every link of the header opens a page, the API docs included', async () => {
    const { page, errors } = await open('index');
    const links = await page.$$eval('header a', (anchors) => anchors.map((a) => (a as HTMLAnchorElement).href));
    expect(links).toContain(`${server.url}api/index.html`);
    expect(links.length).toBeGreaterThanOrEqual(6); // five pages and the API
    for (const link of links) expect((await fetch(link)).status, link).toBe(200);
    await page.context().close();
    expect(errors).toEqual([]);
  });

  it('API docs: typedoc prints no warning and no error', () => {
    expect(typedocOutput).toContain('html generated');
    expect(typedocOutput).not.toMatch(/warning|error/i);
  });

  // The readme, the longest interface, a class with long signatures and a module's index. Wide
  // content may scroll inside a README table; typedoc's menu lies off-screen until opened.
  it.each([
    'index.html',
    'interfaces/spring-solver.Solver.html',
    'classes/spring-solver_three.InstancedSprings.html',
    'modules/spring-solver_three.html',
    'modules/spring-solver.html',
  ])('API docs: %s fits 390 px', async (path) => {
    const { page, errors } = await openWatchedPage(browser, { width: 390, height: 844 });
    expect((await page.goto(`${server.url}api/${path}`))!.status()).toBe(200);
    const { scrollWidth, width, wide } = await page.evaluate(() => {
      const width = document.documentElement.clientWidth;
      const wide = [...document.querySelectorAll('body *')]
        .filter((e) => e.getBoundingClientRect().right > width + 0.5 && !e.closest('.col-sidebar, .tsd-typography table'))
        .map((e) => `${e.tagName.toLowerCase()}.${e.getAttribute('class')?.split(' ')[0] ?? ''} ${e.textContent!.slice(0, 40)}`);
      return { scrollWidth: document.documentElement.scrollWidth, width, wide: wide.slice(0, 8) };
    });
    if (path === 'interfaces/spring-solver.Solver.html')
      await page.screenshot({ path: fileURLToPath(new URL('../../test-results/api-solver-390.png', import.meta.url)) });
    expect(wide, `elements past the right edge of ${path}`).toEqual([]);
    expect(scrollWidth).toBeLessThanOrEqual(width);
    await page.context().close();
    expect(errors).toEqual([]);
  });
});
