// The GPU page of the demo site (demo/site/gpu.html: GpuInstancedSprings on WebGPURenderer),
// built with Vite, served, and opened in headless Chromium twice: as the other browser tests launch
// it (no WebGPU adapter: three falls back to WebGL), where the page must say why in place of the
// canvas, and with WebGPU (SwiftShader, `--enable-unsafe-webgpu`), where it shows the running
// count and the frame's CPU time, frame after frame, or, if the device is lost (presenting to a
// canvas in headless SwiftShader loses its instance after a frame or two: "Instance dropped",
// then every createBuffer throws), the message saying so: never a blank canvas.
import { chromium, type Browser } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS, CHROMIUM_PATH, WEBGPU_ARGS } from '../helpers/chromium-launch.js';
import { openWatchedPage } from '../helpers/chromium.js';
import { startDemoSite, type DemoSite } from '../helpers/demo-site.js';

let server: DemoSite;
beforeAll(async () => {
  server = await startDemoSite();
}, 120_000);
afterAll(async () => {
  await server?.close();
});

/** The section's state once the page is ready: what it shows, and frames drawn so far. */
async function openGpuPage(browser: Browser, count: number) {
  const watched = await openWatchedPage(browser);
  await watched.page.goto(`${server.url}gpu.html?count=${count}`);
  await watched.page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
  const read = () =>
    watched.page.evaluate(() => ({
      state: document.body.dataset.gpu,
      frames: Number(document.body.dataset.frames ?? 0),
      stats: document.getElementById('gpu-stats')!.textContent,
      message: document.getElementById('gpu-message')!.hidden ? null : document.getElementById('gpu-message')!.textContent,
      canvasShown: !document.getElementById('gpu-canvas')!.hidden,
    }));
  return { watched, read };
}

describe('the GPU page', () => {
  it('without WebGPU: says why in place of the canvas', async () => {
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    try {
      const { watched, read } = await openGpuPage(browser, 1000);
      const shown = await read();
      expect(shown.state).toBe('unavailable');
      expect(shown.canvasShown).toBe(false);
      expect(shown.message).toMatch(
        /^WebGPU is not available here, so this section cannot run: createGpuSolverFor: WebGPU is not available/,
      );
      expect(watched.errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('with WebGPU (SwiftShader): the running count and the frame CPU time, frame after frame, or the reason it stopped', async () => {
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, ...WEBGPU_ARGS] });
    try {
      const count = 20_000;
      const { watched, read } = await openGpuPage(browser, count);
      const first = await read();
      if (first.state === 'running') {
        expect(first.canvasShown).toBe(true);
        expect(first.stats).toMatch(/^20,000 instances springing to the grid on google swiftshader: frame CPU time \d+\.\d\d ms/);
        // more frames, or the message saying why they stopped
        await watched.page.waitForFunction(
          (n) => Number(document.body.dataset.frames) > n || document.body.dataset.gpu !== 'running',
          first.frames,
          {
            timeout: 30_000,
          },
        );
      }
      const later = await read();
      if (later.state === 'running') {
        expect(later.frames).toBeGreaterThan(first.frames);
        expect(later.message).toBeNull();
      } else {
        // the device went away: the page says so instead of leaving a blank canvas
        expect(later.state).toBe('unavailable');
        expect(later.canvasShown).toBe(false);
        expect(later.message).toMatch(/^WebGPU is not available here, so this section cannot run: /);
      }
    } finally {
      await browser.close();
    }
  });
});
