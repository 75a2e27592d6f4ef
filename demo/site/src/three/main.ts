// The 3D page: the skeleton panel (no blending, crossFadeTo, InertializedMixer), a crowd on InstancedMeshes (zero-copy springs, Inertializer) and a
// spring-following camera (synchronous helpers), each with its code shown.
import '../common/style.css';
import { markReady, showError, slider } from '../common/page.js';
import type { ThreeDemoHook } from '../common/test-hooks.js';
import { loadClip } from '../skeleton/clip.js';
import { CROWD_SIZES, CrowdSection } from './crowd-section.js';
import { CameraSection } from './camera-section.js';
import { mountSkeletonPanel } from './skeleton-panel.js';
import { createSolver } from 'spring-solver';
import crowdCode from './crowd-section.ts?raw';
import cameraCode from './camera-section.ts?raw';

const DEFAULT_CROWD = 1000;
/** s: the longest step a frame takes (a hidden tab must not jump ahead). */
const MAX_FRAME = 0.05;

async function main(): Promise<void> {
  document.getElementById('crowd-code')!.textContent = crowdCode;
  document.getElementById('camera-code')!.textContent = cameraCode;
  const camera = new CameraSection(document.getElementById('camera-canvas') as HTMLCanvasElement);
  const clip = await loadClip('./data/pirouette.bvh');
  const bvhText = await (await fetch('./data/pirouette.bvh')).text();
  const skeleton = mountSkeletonPanel(document.getElementById('skeleton-panel')!, await createSolver(), bvhText);
  const crowd = new CrowdSection(document.getElementById('crowd-canvas') as HTMLCanvasElement, clip);
  const params = new URLSearchParams(location.search);
  let backend: 'simd' | 'js' = params.get('backend') === 'js' ? 'js' : 'simd';
  let count = Number(params.get('crowd')) || DEFAULT_CROWD;
  let running = await crowd.build(backend, count);
  /** The last smoothed ms per frame (solver work: inertialize + springs) of each backend. */
  const perBackend: Record<string, number> = {};
  let jumpRequested = false;

  const controls = document.getElementById('crowd-controls')!;
  const select = (id: string, label: string, options: [string, string][], value: string, onChange: (v: string) => void) => {
    const wrap = document.createElement('label');
    const element = document.createElement('select');
    element.id = id;
    for (const [v, text] of options) element.add(new Option(text, v, false, v === value));
    element.addEventListener('change', () => onChange(element.value));
    wrap.append(`${label} `, element);
    controls.append(wrap);
  };
  let rebuilding = false;
  const rebuild = async () => {
    rebuilding = true;
    try {
      running = await crowd.build(backend, count);
    } catch (error) {
      showError(error);
    }
    rebuilding = false;
  };
  const sizes = CROWD_SIZES.includes(count) ? CROWD_SIZES : [count, ...CROWD_SIZES];
  select(
    'crowd',
    'crowd',
    sizes.map((n) => [String(n), `${n.toLocaleString('en')} characters`]),
    String(count),
    (v) => {
      count = Number(v);
      void rebuild();
    },
  );
  select(
    'backend',
    'backend',
    [
      ['simd', 'SIMD (wasm)'],
      ['js', 'JS (float64 reference)'],
    ],
    backend,
    (v) => {
      backend = v as 'simd' | 'js';
      void rebuild();
    },
  );
  const button = (id: string, text: string, onClick: () => void) => {
    const b = document.createElement('button');
    b.id = id;
    b.textContent = text;
    b.addEventListener('click', onClick);
    controls.append(b);
  };
  button('jump', 'Jump', () => (jumpRequested = true));
  button('regroup', 'Regroup', () => crowd.regroup());
  slider(
    controls,
    { id: 'halflife', label: 'inertialization halflife', unit: 's', min: 0.02, max: 0.6, step: 0.01, value: crowd.halflife },
    (v) => (crowd.halflife = v),
  );

  const hook: ThreeDemoHook = {
    frames: 0,
    crowdCount: () => count,
    backend: () => running,
    cameraPosition: () => camera.camera.position.toArray(),
    skeleton,
  };
  window.threeDemo = hook;
  // A section off screen is not stepped or drawn (two WebGL canvases cost twice the frame time).
  const visible = new Map<Element, boolean>();
  const observer = new IntersectionObserver((entries) => entries.forEach((e) => visible.set(e.target, e.isIntersecting)));
  const crowdCanvas = document.getElementById('crowd-canvas')!,
    cameraCanvas = document.getElementById('camera-canvas')!;
  observer.observe(crowdCanvas);
  observer.observe(cameraCanvas);
  const crowdStats = document.getElementById('crowd-stats')!;
  const cameraStats = document.getElementById('camera-stats')!;
  let last = performance.now();
  const loop = (now: number) => {
    const dt = Math.min(MAX_FRAME, Math.max(0, now - last) / 1000);
    last = now;
    try {
      if (!rebuilding && visible.get(crowdCanvas) !== false) {
        crowd.frame(dt, jumpRequested);
        jumpRequested = false;
        const t = crowd.timings;
        perBackend[running] = t.inertialize + t.springs;
        const ms = (v: number) => `${v.toFixed(2)} ms`;
        crowdStats.textContent =
          `${count.toLocaleString('en')} characters × ${clip.bones} bones, '${running}' backend · per frame: pose ${ms(t.pose)}, ` +
          `inertialize ${ms(t.inertialize)}, spot springs ${ms(t.springs)}, joints (forward kinematics) ${ms(t.joints)}, render ${ms(t.render)}` +
          ` · solver work: ${Object.entries(perBackend)
            .map(([b, v]) => `${b} ${ms(v)}`)
            .join(', ')}`;
      }
      if (visible.get(cameraCanvas) !== false) camera.frame(dt);
      const p = camera.camera.position;
      cameraStats.textContent = `camera (${p.x.toFixed(2)}, ${p.y.toFixed(2)}, ${p.z.toFixed(2)}) → goal (${camera.goal.x.toFixed(2)}, ${camera.goal.z.toFixed(2)})`;
      hook.frames++;
      if (hook.frames >= 2) markReady();
    } catch (error) {
      showError(error);
      return;
    }
    requestAnimationFrame(loop);
  };
  requestAnimationFrame(loop);
}

main().catch(showError);
