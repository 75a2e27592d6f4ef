// The 3D page of the demo site (demo/site/three.html) built with Vite, served, and driven in
// headless Chromium (WebGL 2 through SwiftShader): it renders both canvases with no console
// error, its camera follows a drag, the crowd switches backend; and every page of the site fits
// a 390 px wide viewport (no horizontal overflow; content in a <pre> or a .scroll-x box scrolls
// inside it and is exempt). Screenshots go to test-results/.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openWatchedPage, type WatchedPage } from '../helpers/chromium.js';
import { screenshotVariance } from '../helpers/screenshot.js';
import { startStaticServer, type StaticServer } from '../helpers/static-server.js';

const CONFIG = fileURLToPath(new URL('../../demo/site/vite.config.ts', import.meta.url));
const PAGES = ['index', 'springs', 'bench', 'skeleton', 'three'];
// As in demo-site.node.test.ts: a region of one flat colour has variance 0; drawn pages measure
// in the thousands (the 3D canvases: crowd ~1,000+, camera ~1,000+), 200 fails an empty canvas.
const NON_BLANK_VARIANCE = 200;

let outDir: string;
let server: StaticServer;
let browser: Browser;

beforeAll(async () => {
  outDir = await mkdtemp(join(tmpdir(), 'spring-solver-three-'));
  await build({ configFile: CONFIG, logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  server = await startStaticServer({ mounts: { '/': outDir } });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (outDir) await rm(outDir, { recursive: true, force: true });
});

async function open(path: string, viewport = { width: 900, height: 700 }): Promise<WatchedPage> {
  const watched = await openWatchedPage(browser, viewport);
  await watched.page.goto(`${server.url}${path}`);
  await watched.page.waitForSelector('body[data-ready="true"]', { timeout: 20_000 });
  return watched;
}

describe('3D page', () => {
  it('renders the crowd and the camera with WebGL 2, and the camera follows a drag', async () => {
    const { page, errors } = await open('three.html?crowd=200');
    expect(await page.evaluate(() => Boolean(document.createElement('canvas').getContext('webgl2')))).toBe(true);
    await page.waitForFunction(() => window.threeDemo!.frames > 5, null, { timeout: 15_000 });
    expect(await page.evaluate(() => window.threeDemo!.backend())).toBe('simd');
    expect(await page.textContent('#crowd-stats')).toMatch(
      /200 characters .* 'simd' backend .* inertialize \d+\.\d+ ms, spot springs \d+\.\d+ ms/,
    );
    expect(await page.locator('#skeleton-panel').count()).toBe(1);

    // The skeleton panel: three skeletons drawn; Jump snaps the unblended one, whose angular speed
    // spikes well above the inertialized one's.
    await page.locator('#skeleton-canvas').scrollIntoViewIfNeeded();
    expect(await screenshotVariance(page, 'three-skeletons', '#skeleton-canvas')).toBeGreaterThan(NON_BLANK_VARIANCE);
    // A jump goes to a random time, so its snap may be small: of four jumps, the largest ratio of
    // the unblended peak to the inertialized one must be clear (the inertialized view never snaps).
    const ratios: { none: number; inertialized: number }[] = [];
    for (let k = 0; k < 4; k++) {
      const jumps = await page.evaluate(() => window.threeDemo!.skeleton.jumps());
      await page.locator('#skeleton-panel button', { hasText: 'Jump' }).click();
      await page.waitForFunction((j) => window.threeDemo!.skeleton.jumps() > j, jumps, { timeout: 5_000 });
      await page.waitForTimeout(400);
      ratios.push(
        await page.evaluate(() => ({
          none: window.threeDemo!.skeleton.peakSinceJump('none'),
          inertialized: window.threeDemo!.skeleton.peakSinceJump('inertialized'),
        })),
      );
    }
    expect(ratios.every((r) => r.inertialized > 0)).toBe(true);
    expect(Math.max(...ratios.map((r) => r.none / r.inertialized)), JSON.stringify(ratios)).toBeGreaterThan(1.5);
    expect(await page.textContent('#camera-code')).toContain('spring3(this.camera.position');
    await page.locator('#crowd-canvas').scrollIntoViewIfNeeded();
    expect(await screenshotVariance(page, 'three-crowd', '#crowd-canvas')).toBeGreaterThan(NON_BLANK_VARIANCE);

    // Drag toward the left edge of the camera canvas: the goal moves left (−x), the camera follows.
    const canvas = page.locator('#camera-canvas');
    await canvas.scrollIntoViewIfNeeded();
    const before = await page.evaluate(() => window.threeDemo!.cameraPosition());
    const box = (await canvas.boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.7);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.1, box.y + box.height * 0.7, { steps: 5 });
    await page.mouse.up();
    await page.waitForFunction((x0) => window.threeDemo!.cameraPosition()[0]! < x0 - 1, before[0]!, { timeout: 10_000 });
    expect(await screenshotVariance(page, 'three-camera', '#camera-canvas')).toBeGreaterThan(NON_BLANK_VARIANCE);

    // The backend toggle rebuilds the crowd on the JS reference, and the page reports both.
    await page.locator('#crowd-canvas').scrollIntoViewIfNeeded();
    await page.selectOption('#backend', 'js');
    await page.waitForFunction(() => window.threeDemo!.backend() === 'js', null, { timeout: 10_000 });
    await expect.poll(() => page.textContent('#crowd-stats'), { timeout: 10_000 }).toMatch(/solver work: simd \d+\.\d+ ms, js \d+\.\d+ ms/);
    await page.click('#regroup');
    await page.click('#jump');
    const frames = await page.evaluate(() => window.threeDemo!.frames);
    await page.waitForFunction((f) => window.threeDemo!.frames > f + 3, frames, { timeout: 10_000 });
    await page.context().close();
    expect(errors).toEqual([]);
  }, 120_000);

  it.each(PAGES)('%s fits 390 px: no horizontal overflow', async (name) => {
    const { page, errors } = await open(`${name}.html${name === 'three' ? '?crowd=200' : ''}`, { width: 390, height: 844 });
    const overflow = await page.evaluate(() => {
      const width = document.documentElement.clientWidth;
      const wide = [...document.querySelectorAll('body *')]
        .filter((e) => e.getBoundingClientRect().right > width + 0.5 && !e.closest('pre, .scroll-x'))
        .map(
          (e) =>
            `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}${e.className && typeof e.className === 'string' ? `.${e.className.split(' ')[0]}` : ''}`,
        );
      return { scrollWidth: document.documentElement.scrollWidth, width, wide: wide.slice(0, 8) };
    });
    if (name === 'index' || name === 'three')
      await page.screenshot({ path: fileURLToPath(new URL(`../../test-results/${name}-390.png`, import.meta.url)), fullPage: true });
    expect(overflow.wide, `elements past the right edge of ${name}`).toEqual([]);
    expect(overflow.scrollWidth).toBeLessThanOrEqual(overflow.width);
    await page.context().close();
    expect(errors).toEqual([]);
  });
});
