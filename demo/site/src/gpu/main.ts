// The GPU page: a million instances springing to new layouts on WebGPURenderer
// (GpuInstancedSprings), the frame's CPU time shown; where WebGPU is absent, the reason, in place
// of the canvas.
import '../common/style.css';
import { markReady } from '../common/page.js';
import { GpuInstancesSection, LAYOUTS, type Layout } from './instances-section.js';
import code from './instances-section.ts?raw';

const DEFAULT_COUNT = 1_000_000;
/** s: the longest step a frame takes (a hidden tab must not jump ahead). */
const MAX_FRAME = 0.05;
/** s between automatic layout changes. */
const HOLD = 4;

const canvas = document.getElementById('gpu-canvas') as HTMLCanvasElement;
const stats = document.getElementById('gpu-stats')!;
const message = document.getElementById('gpu-message')!;

/** Shows why the section cannot run, instead of a blank canvas. */
function unavailable(reason: string): void {
  canvas.hidden = true;
  message.hidden = false;
  message.textContent =
    `WebGPU is not available here, so this section cannot run: ${reason}. ` +
    'It needs a browser with WebGPU enabled; the CPU path (InstancedSprings, spring-solver/three) runs on the 3D page.';
  stats.textContent = '';
  document.body.dataset.gpu = 'unavailable';
  markReady();
}

async function main(): Promise<void> {
  document.getElementById('gpu-code')!.textContent = code;
  const params = new URLSearchParams(location.search);
  const count = Math.max(1, Math.floor(Number(params.get('count')))) || DEFAULT_COUNT;
  let section: GpuInstancesSection;
  try {
    section = await GpuInstancesSection.create(canvas, count);
  } catch (error) {
    unavailable((error as Error).message);
    return;
  }
  section.renderer.onDeviceLost = (info: { message?: string }) => {
    section.renderer.setAnimationLoop(null);
    unavailable(`the GPU device was lost (${info.message ?? 'no reason given'})`);
  };
  const controls = document.getElementById('gpu-controls')!;
  let auto = true;
  let changed = 0;
  const choose = (layout: Layout, time: number) => {
    section.setLayout(layout);
    changed = time;
  };
  for (const layout of LAYOUTS) {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = layout;
    button.addEventListener('click', () => {
      auto = false;
      choose(layout, performance.now() / 1000);
    });
    controls.append(button);
  }
  let last = performance.now() / 1000;
  let smoothed = 0;
  let frames = 0;
  section.renderer.setAnimationLoop(() => {
    const now = performance.now() / 1000;
    const dt = Math.min(MAX_FRAME, now - last);
    last = now;
    if (auto && now - changed > HOLD && frames > 0) choose(LAYOUTS[(LAYOUTS.indexOf(section.layout) + 1) % LAYOUTS.length], now);
    const width = canvas.clientWidth,
      height = canvas.clientHeight;
    if (canvas.width !== width || canvas.height !== height) section.resize(width, height);
    const t0 = performance.now();
    try {
      section.frame(dt, now);
    } catch (error) {
      // a device that went away without a device-lost event (headless Chromium on SwiftShader,
      // presenting to a canvas) makes every createBuffer throw: stop, and say so
      section.renderer.setAnimationLoop(null);
      unavailable(`the GPU stopped: ${(error as Error).message}`);
      return;
    }
    const ms = performance.now() - t0; // the frame's CPU time: springs.update and renderer.render
    smoothed = frames === 0 ? ms : 0.9 * smoothed + 0.1 * ms;
    frames++;
    stats.textContent =
      `${count.toLocaleString('en')} instances springing to the ${section.layout} on ${section.gpu.adapter}: ` +
      `frame CPU time ${smoothed.toFixed(2)} ms (springs.update and render), 0 bytes of instance data uploaded`;
    document.body.dataset.gpu = 'running';
    document.body.dataset.frames = String(frames);
    if (frames === 1) markReady();
  });
}

main().catch((error) => unavailable((error as Error).message));
