// The 3D page of the demo site (demo/site/three.html) built with Vite, served, and driven in
// headless Chromium (WebGL 2 through SwiftShader): it renders its canvases with no console
// error, its camera follows a drag, the skinned crowd (three clips a character, random cross-fades)
// runs MixerBatch → InertializedMixerGroup → SkeletonBatch or three's own updates (a toggle), shows
// the frame's timings step by step, and switches backend, the spring-bones section runs
// three-vrm and SpringBones (both timed) and fixedStep keeps a hair tip's motion at 30 Hz that of
// 60 Hz; and every page of the site fits a 390 px wide viewport (no horizontal overflow; content
// in a <pre> or a .scroll-x box scrolls inside it and is exempt), with no heading or other bold title
// broken mid-word and no code block wider than its box. Screenshots go to test-results/.
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openWatchedPage, type WatchedPage } from '../helpers/chromium.js';
import { screenshotVariance } from '../helpers/screenshot.js';
import { startDemoSite, type DemoSite } from '../helpers/demo-site.js';
import { startStaticServer } from '../helpers/static-server.js';

const PAGES = ['index', 'springs', 'bench', 'skeleton', 'three', 'gpu'];
// As in demo-site.node.test.ts: a region of one flat colour has variance 0; drawn pages measure
// in the thousands (the 3D canvases: crowd ~1,000+, camera ~1,000+), 200 fails an empty canvas.
const NON_BLANK_VARIANCE = 200;
/** The crowd's frame on the library path. */
const LIBRARY_STAGES = ['MixerBatch', 'InertializedMixerGroup', 'SkeletonBatch'];

let server: DemoSite;
let browser: Browser;

beforeAll(async () => {
  server = await startDemoSite();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** The elements past the right edge of the viewport (outside <pre> and .scroll-x), and the page's scroll width. */
function overflow(page: Page) {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const wide = [...document.querySelectorAll('body *')]
      .filter((e) => e.getBoundingClientRect().right > width + 0.5 && !e.closest('pre, .scroll-x'))
      .map(
        (e) =>
          `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}${e.className && typeof e.className === 'string' ? `.${e.className.split(' ')[0]}` : ''}`,
      );
    return { scrollWidth: document.documentElement.scrollWidth, width, wide: wide.slice(0, 8) };
  });
}

/** The words of the page's titles laid out on two lines (a title broken mid-word, at a hyphen included). */
function brokenWords(page: Page) {
  return page.evaluate(() => {
    const broken: string[] = [];
    // Headings and every other bold text (the 3D page's panel titles, legends).
    const bold = [...document.querySelectorAll('body *')].filter((e) => Number(getComputedStyle(e).fontWeight) >= 600);
    for (const heading of bold) {
      const walker = document.createTreeWalker(heading, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const word of node.textContent!.matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(node, word.index);
          range.setEnd(node, word.index + word[0].length);
          const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.bottom)));
          if (lines.size > 1) broken.push(word[0]);
        }
      }
    }
    return broken;
  });
}

/** The code blocks whose text is wider than their box (cut: only a horizontal scroll shows the rest). */
function cutCode(page: Page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('pre')]
      .filter((pre) => pre.scrollWidth > pre.clientWidth + 1)
      .map((pre) => pre.textContent!.slice(0, 40)),
  );
}

/** Two frames apart, bone 10's skinning matrix of character 3 has changed: the crowd is animated and skinned. */
async function expectMovingBones(page: Page): Promise<void> {
  const read = () => page.evaluate(() => ({ frames: window.threeDemo!.frames, matrix: window.threeDemo!.crowd.boneMatrix(3, 10) }));
  const before = await read();
  expect(before.matrix).toHaveLength(16);
  await page.waitForFunction((f) => window.threeDemo!.frames > f + 2, before.frames, { timeout: 15_000 });
  const after = await read();
  expect(after.matrix.every(Number.isFinite)).toBe(true);
  expect(after.matrix).not.toEqual(before.matrix);
}

async function open(path: string, viewport = { width: 900, height: 700 }): Promise<WatchedPage> {
  const watched = await openWatchedPage(browser, viewport);
  await watched.page.goto(`${server.url}${path}`);
  // two frames drawn: SwiftShader draws a skinned crowd slowly, the more so on a loaded machine
  await watched.page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
  return watched;
}

describe('3D page', () => {
  it('renders the crowd and the camera with WebGL 2, and the camera follows a drag', async () => {
    const { page, errors } = await open('three.html?crowd=100&avatars=20');
    expect(await page.evaluate(() => Boolean(document.createElement('canvas').getContext('webgl2')))).toBe(true);
    await page.waitForFunction(() => window.threeDemo!.frames > 5, null, { timeout: 15_000 });
    expect(await page.evaluate(() => window.threeDemo!.backend())).toBe('simd');
    await expect
      .poll(() => page.textContent('#crowd-stats'), { timeout: 10_000 })
      .toMatch(
        /^100 skinned characters × 25 bones × 3 clips, 'simd' backend, [\d,]+ cross-fades, frame by MixerBatch → InertializedMixerGroup → SkeletonBatch · per frame: sampling \d+\.\d\d ms \(MixerBatch\.update, run by the group\), inertialization \d+\.\d\d ms \(the rest of the group's update\), spot springs \d+\.\d\d ms, skinning matrices \d+\.\d\d ms, scene update \d+\.\d\d ms, render \d+\.\d\d ms/,
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
    // The skinned crowd (stepped while in view) starts on the library's pipeline: a MixerBatch samples
    // every character's three clips in its kernel (none left to three), the group over it inertializes,
    // SkeletonBatch writes the skinning matrices, which move; random characters cross-fade.
    await page.waitForFunction(() => window.threeDemo!.crowd.updates('batch') > 5, null, { timeout: 15_000 });
    expect(await page.evaluate(() => window.threeDemo!.crowd.path())).toBe('batch');
    expect(await page.evaluate(() => window.threeDemo!.crowd.updates('three'))).toBe(0);
    expect(await page.evaluate(() => window.threeDemo!.crowd.stages())).toEqual(LIBRARY_STAGES);
    expect(await page.evaluate(() => window.threeDemo!.crowd.clips())).toBe(3);
    const tracks = (await page.evaluate(() => window.threeDemo!.crowd.tracks()))!;
    expect(tracks.three).toBe(0);
    // at least one track per bone of every character's playing clip, all in the kernel
    expect(tracks.kernel).toBeGreaterThanOrEqual(100 * 25);
    const fades = await page.evaluate(() => window.threeDemo!.crowd.crossFades());
    await page.waitForFunction((f) => window.threeDemo!.crowd.crossFades() > f + 2, fades, { timeout: 30_000 });
    await expectMovingBones(page);
    // the breakdown's five timings (and the springs), each measured: sampling is MixerBatch.update inside the group's update
    const timings = await page.evaluate(() => window.threeDemo!.crowd.timings());
    expect(Object.keys(timings)).toEqual(['sampling', 'inertialization', 'springs', 'scene', 'skinning', 'render']);
    for (const [row, ms] of Object.entries(timings)) expect(ms, row).toBeGreaterThanOrEqual(0);
    expect(timings.render).toBeGreaterThan(0);
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

    // The toggle: three's own updates take over the whole frame (every mixer.update, no MixerBatch,
    // no group, no SkeletonBatch), the bones still move, the cross-fades go on, and the page times both paths.
    await page.locator('#crowd-canvas').scrollIntoViewIfNeeded();
    await page.selectOption('#crowd-skinning', 'three');
    const batchUpdates = await page.evaluate(() => window.threeDemo!.crowd.updates('batch'));
    await page.waitForFunction(() => window.threeDemo!.crowd.updates('three') > 5, null, { timeout: 15_000 });
    expect(await page.evaluate(() => window.threeDemo!.crowd.path())).toBe('three');
    expect(await page.evaluate(() => window.threeDemo!.crowd.updates('batch'))).toBe(batchUpdates);
    expect(await page.evaluate(() => window.threeDemo!.crowd.stages())).toEqual([
      'AnimationMixer.update',
      'scene.updateMatrixWorld',
      'Skeleton.update',
    ]);
    expect(await page.evaluate(() => window.threeDemo!.crowd.tracks())).toBeNull();
    const threeFades = await page.evaluate(() => window.threeDemo!.crowd.crossFades());
    await page.waitForFunction((f) => window.threeDemo!.crowd.crossFades() > f + 1, threeFades, { timeout: 30_000 });
    await expectMovingBones(page);
    await expect
      .poll(() => page.textContent('#crowd-stats'), { timeout: 10_000 })
      .toMatch(
        /frame by AnimationMixer\.update → scene\.updateMatrixWorld → Skeleton\.update · per frame: sampling \d+\.\d\d ms \(every mixer\.update\), inertialization – \(none on three\.js's path\), spot springs \d+\.\d\d ms, skinning matrices \d+\.\d\d ms, scene update \d+\.\d\d ms, render \d+\.\d\d ms/,
      );
    const skinning = await page.evaluate(() => window.threeDemo!.crowd.skinningMs());
    expect(Object.keys(skinning)).toEqual(['SkeletonBatch (simd)', 'three.js']);
    expect(skinning['three.js']).toBeGreaterThan(0);
    await expect
      .poll(() => page.textContent('#crowd-stats'), { timeout: 10_000 })
      .toMatch(
        /frame by AnimationMixer\.update → .* · skinning matrices by path: SkeletonBatch \(simd\) \d+\.\d\d ms, three\.js \d+\.\d\d ms \(three\.js ÷ fastest: \d+\.\d×\)$/,
      );

    // Back to the library's pipeline (a new MixerBatch, group and SkeletonBatch), then the backend toggle
    // rebuilds the crowd on the JS reference, and the page reports both.
    await page.selectOption('#crowd-skinning', 'batch');
    await page.waitForFunction((u) => window.threeDemo!.crowd.updates('batch') > u + 3, batchUpdates, { timeout: 15_000 });
    expect(await page.evaluate(() => window.threeDemo!.crowd.stages())).toEqual(LIBRARY_STAGES);
    expect((await page.evaluate(() => window.threeDemo!.crowd.tracks()))!.kernel).toBeGreaterThanOrEqual(100 * 25);
    await expectMovingBones(page);
    await page.selectOption('#backend', 'js');
    await page.waitForFunction(() => window.threeDemo!.backend() === 'js', null, { timeout: 10_000 });
    await expect
      .poll(() => page.textContent('#crowd-stats'), { timeout: 15_000 })
      .toMatch(/skinning matrices by path: SkeletonBatch \(simd\) \d+\.\d\d ms, three\.js \d+\.\d\d ms, SkeletonBatch \(js\) \d+\.\d\d ms/);
    await page.click('#regroup');
    await page.click('#jump');
    await page.locator('#halflife').fill('0.3'); // released: the group is rebuilt under the batch
    const frames = await page.evaluate(() => window.threeDemo!.frames);
    await page.waitForFunction((f) => window.threeDemo!.frames > f + 3, frames, { timeout: 10_000 });
    await page.context().close();
    expect(errors).toEqual([]);
  }, 180_000);

  it('offers the crowd and the spring bones a threads control only where the page is cross-origin isolated, and runs both on 2 threads', async () => {
    // Served without COOP/COEP (the other tests' server): no control.
    const plain = await open('three.html?crowd=200&avatars=5');
    expect(await plain.page.locator('#threads').count()).toBe(0);
    expect(await plain.page.locator('#spring-threads').count()).toBe(0);
    await plain.page.context().close();
    expect(plain.errors).toEqual([]);
    // Served with them, as the dev server does (demo/site/vite.config.ts): the control, and a crowd on 2 threads.
    const isolated = await startStaticServer({
      mounts: { '/': server.outDir },
      headers: { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' },
    });
    try {
      const watched = await openWatchedPage(browser, { width: 900, height: 700 });
      await watched.page.goto(`${isolated.url}three.html?crowd=200&avatars=5`);
      // two frames drawn: SwiftShader draws a skinned crowd slowly, the more so on a loaded machine
      await watched.page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
      await watched.page.locator('#crowd-canvas').scrollIntoViewIfNeeded();
      await watched.page.selectOption('#threads', '2');
      await expect
        .poll(() => watched.page.textContent('#crowd-stats'), { timeout: 30_000 })
        .toMatch(
          /'simd ×2' backend, .* solver work \(sampling, inertialization, springs, skinning\): simd \d+\.\d+ ms, simd ×2 \d+\.\d+ ms/,
        );
      // the spring-bones section: SpringBones on a solver of 2 threads (its kernel split by avatars), timed
      await watched.page.locator('#spring-canvas').scrollIntoViewIfNeeded();
      await watched.page.selectOption('#spring-mode', 'springbones');
      await watched.page.selectOption('#spring-threads', '2');
      await expect.poll(() => watched.page.evaluate(() => window.springBonesDemo!.threads()), { timeout: 30_000 }).toBe(2);
      await expect
        .poll(() => watched.page.textContent('#spring-stats'), { timeout: 30_000 })
        .toMatch(/SpringBones on 2 threads \d+\.\d+ ms/);
      await watched.page.context().close();
      expect(watched.errors).toEqual([]);
      expect(watched.warnings).toEqual([]);
    } finally {
      await isolated.close();
    }
  }, 120_000);

  it('runs the spring-bones section: three-vrm and SpringBones timed, fixedStep at 30 Hz, 390 px', async () => {
    const { page, errors } = await open('three.html?crowd=10&avatars=20');
    await page.locator('#spring-canvas').scrollIntoViewIfNeeded();
    const read = () =>
      page.evaluate(() => {
        const h = window.springBonesDemo!;
        return {
          updates: h.updates(),
          mode: h.mode(),
          avatars: h.avatars(),
          joints: h.joints(),
          threeVrm: h.msThreeVrm(),
          springBones: h.msSpringBones(),
        };
      });
    await page.waitForFunction(() => window.springBonesDemo!.updates() > 20, null, { timeout: 20_000 });
    let state = await read();
    // the URL's crowd of 20 avatars of 82–98 joints (test/fixtures/vrm-avatars.js), starting on SpringBones
    expect(state.avatars).toBe(20);
    expect(state.joints).toBeGreaterThanOrEqual(20 * 82);
    expect(state.joints).toBeLessThanOrEqual(20 * 98);
    expect(state.mode).toBe('springbones');
    expect(state.springBones).toBeGreaterThan(0);
    expect(state.threeVrm).toBeNaN(); // not run yet
    expect(await screenshotVariance(page, 'three-spring-bones', '#spring-canvas')).toBeGreaterThan(NON_BLANK_VARIANCE);

    // The toggle: every manager's own update; the page then shows both timings.
    await page.selectOption('#spring-mode', 'three-vrm');
    await page.waitForFunction(
      (u) => window.springBonesDemo!.mode() === 'three-vrm' && window.springBonesDemo!.updates() > u + 10,
      state.updates,
      {
        timeout: 20_000,
      },
    );
    state = await read();
    expect(state.threeVrm).toBeGreaterThan(0);
    expect(state.springBones).toBeGreaterThan(0);
    await expect
      .poll(() => page.textContent('#spring-stats'), { timeout: 10_000 })
      .toMatch(
        /^20 avatars, [\d,]+ spring joints, simulated at 60 Hz .* three-vrm \d+\.\d\d ms, SpringBones \d+\.\d\d ms \(\d+\.\d× faster\) · running: three-vrm$/,
      );

    // At 30 Hz, three-vrm's drag per frame moves the traced hair tip away from its 60 Hz run;
    // with fixedStep: 1/60 the two runs step alike (the trace restarts on each change).
    await page.selectOption('#spring-mode', 'springbones');
    await page.selectOption('#spring-rate', '30');
    const traced = async (fixedStep: boolean) => {
      await page.waitForFunction(
        (f) =>
          window.springBonesDemo!.rate() === 30 &&
          window.springBonesDemo!.fixedStep() === f &&
          window.springBonesDemo!.trace().seconds >= 3,
        fixedStep,
        { timeout: 30_000 },
      );
      return page.evaluate(() => window.springBonesDemo!.trace().rmsDegrees);
    };
    const plain = await traced(false);
    await page.check('#spring-fixed-step');
    const fixed = await traced(true);
    expect(plain, 'RMS difference (°) from 60 Hz without fixedStep').toBeGreaterThan(1);
    expect(fixed, `with fixedStep (without: ${plain.toFixed(2)}°)`).toBeLessThan(plain / 4);
    expect(await page.textContent('#spring-trace-stats')).toMatch(
      /^Hair tip at 30 Hz against 60 Hz, both with fixedStep 1\/60: RMS difference \d+\.\d\d°/,
    );
    expect(await page.textContent('#spring-stats')).toMatch(/simulated at 30 Hz .* running: SpringBones with fixedStep 1\/60$/);

    // A phone: the section (running, its texts and chart at the new width) fits 390 px, its title whole.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.locator('#spring-canvas').scrollIntoViewIfNeeded();
    const frames = await page.evaluate(() => window.springBonesDemo!.frames);
    await page.waitForFunction((f) => window.springBonesDemo!.frames > f + 3, frames, { timeout: 10_000 });
    await page.screenshot({
      path: fileURLToPath(new URL('../../test-results/three-spring-bones-390.png', import.meta.url)),
      fullPage: true,
    });
    const narrow = await overflow(page);
    expect(narrow.wide, 'elements past the right edge at 390 px').toEqual([]);
    expect(narrow.scrollWidth).toBeLessThanOrEqual(narrow.width);
    expect(await brokenWords(page)).toEqual([]);
    await page.context().close();
    expect(errors).toEqual([]);
  }, 120_000);

  it.each(PAGES)('%s fits 390 px: no horizontal overflow, no title broken mid-word, no code cut', async (name) => {
    const { page, errors } = await open(`${name}.html${name === 'three' ? '?crowd=10&avatars=20' : ''}`, { width: 390, height: 844 });
    const { wide, scrollWidth, width } = await overflow(page);
    if (name === 'index' || name === 'three')
      await page.screenshot({ path: fileURLToPath(new URL(`../../test-results/${name}-390.png`, import.meta.url)), fullPage: true });
    expect(wide, `elements past the right edge of ${name}`).toEqual([]);
    expect(scrollWidth).toBeLessThanOrEqual(width);
    const broken = await brokenWords(page);
    expect(broken, `titles broken mid-word on ${name}: ${JSON.stringify(broken)}`).toEqual([]);
    const cut = await cutCode(page);
    expect(cut, `code cut on ${name}: ${JSON.stringify(cut)}`).toEqual([]);
    await page.context().close();
    expect(errors).toEqual([]);
  });
});
