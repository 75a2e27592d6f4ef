// The 3D page: the skeleton panel (no blending, crossFadeTo, InertializedMixer), a crowd of skinned characters (MixerBatch →
// InertializedMixerGroup → SkeletonBatch or three's own updates, random cross-fades, zero-copy spot springs), a spring-following camera (synchronous helpers) and a crowd of three-vrm
// avatars' spring bones (three-vrm or SpringBones), each with its code shown.
import '../common/style.css';
import { markReady, showError, slider } from '../common/page.js';
import type { SpringBonesDemoHook, ThreeDemoHook } from '../common/test-hooks.js';
import { CROWD_SIZES, CrowdSection, type SkinningPath } from './crowd-section.js';
import { CameraSection } from './camera-section.js';
import { mountSkeletonPanel } from './skeleton-panel.js';
import { AVATAR_COUNTS, RATES, SpringBonesSection, type SpringMode } from './spring-bones-section.js';
import { createSolver } from 'spring-solver';
import crowdCode from './crowd-section.ts?raw';
import cameraCode from './camera-section.ts?raw';
import springCode from './spring-bones-section.ts?raw';

const DEFAULT_CROWD = 1000;
const DEFAULT_AVATARS = 100;
/** s: the longest step a frame takes (a hidden tab must not jump ahead). */
const MAX_FRAME = 0.05;

async function main(): Promise<void> {
  document.getElementById('crowd-code')!.textContent = crowdCode;
  document.getElementById('camera-code')!.textContent = cameraCode;
  document.getElementById('spring-code')!.textContent = springCode;
  const camera = new CameraSection(document.getElementById('camera-canvas') as HTMLCanvasElement);
  const response = await fetch('./data/pirouette.bvh');
  if (!response.ok) throw new Error(`fetching ./data/pirouette.bvh failed with HTTP ${response.status}`);
  const bvhText = await response.text();
  const skeleton = mountSkeletonPanel(document.getElementById('skeleton-panel')!, await createSolver(), bvhText);
  const crowd = new CrowdSection(document.getElementById('crowd-canvas') as HTMLCanvasElement, bvhText);
  const params = new URLSearchParams(location.search);
  if (params.get('skinning') === 'three') crowd.setSkinningPath('three');
  let backend: 'simd' | 'js' = params.get('backend') === 'js' ? 'js' : 'simd';
  let count = Number(params.get('crowd')) || DEFAULT_CROWD;
  // Threads need a cross-origin-isolated page (the dev server sends COOP and COEP: vite.config.ts).
  const isolated = globalThis.crossOriginIsolated === true;
  let threads: number | 'auto' = 1;
  let running = await crowd.build(backend, count, threads);
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
      running = await crowd.build(backend, count, threads);
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
  select(
    'crowd-skinning',
    'animation frame by',
    [
      ['batch', 'MixerBatch → group → SkeletonBatch'],
      ['three', "three.js's own updates"],
    ],
    crowd.skinningPath,
    (v) => {
      try {
        crowd.setSkinningPath(v as SkinningPath);
      } catch (error) {
        showError(error);
      }
    },
  );
  if (isolated) {
    select(
      'threads',
      'threads',
      [
        ['1', '1 thread'],
        ['2', '2 threads'],
        ['auto', `auto (${navigator.hardwareConcurrency} cores, at most 8)`],
      ],
      '1',
      (v) => {
        threads = v === 'auto' ? 'auto' : Number(v);
        void rebuild();
      },
    );
  }
  const button = (id: string, text: string, onClick: () => void) => {
    const b = document.createElement('button');
    b.id = id;
    b.textContent = text;
    b.addEventListener('click', onClick);
    controls.append(b);
  };
  button('jump', 'Jump', () => (jumpRequested = true));
  button('regroup', 'Regroup', () => crowd.regroup());
  // The group takes its halflife at construction: it is rebuilt (150 ms at 1,000 characters) when the slider is released.
  const halflife = slider(
    controls,
    { id: 'halflife', label: 'inertialization halflife', unit: 's', min: 0.02, max: 0.6, step: 0.01, value: crowd.halflife },
    () => {},
  );
  halflife.input.addEventListener('change', () => (crowd.halflife = Number(halflife.input.value)));

  const hook: ThreeDemoHook = {
    frames: 0,
    crowdCount: () => count,
    backend: () => running,
    cameraPosition: () => camera.camera.position.toArray(),
    skeleton,
    crowd: {
      path: () => crowd.skinningPath,
      updates: (path) => crowd.updates[path],
      stages: () => crowd.stages,
      tracks: () => crowd.tracks,
      clips: () => crowd.clipCount,
      crossFades: () => crowd.crossFades,
      timings: () => crowd.timings,
      skinningMs: () => crowd.skinningMs,
      boneMatrix: (c, b) => crowd.boneMatrix(c, b),
    },
  };
  window.threeDemo = hook;
  // A section off screen is not stepped or drawn (two WebGL canvases cost twice the frame time).
  const visible = new Map<Element, boolean>();
  const observer = new IntersectionObserver((entries) => entries.forEach((e) => visible.set(e.target, e.isIntersecting)));
  const springSection = document.getElementById('spring-section')!;
  observer.observe(springSection);
  const spring = await mountSpringBones(Number(params.get('avatars')) || DEFAULT_AVATARS);
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
        const label = crowd.threads > 1 ? `${running} ×${crowd.threads}` : running;
        perBackend[label] = t.sampling + t.inertialization + t.springs + t.skinning;
        const ms = (v: number) => (Number.isNaN(v) ? '–' : `${v.toFixed(2)} ms`);
        const paths = Object.entries(crowd.skinningMs);
        const three = crowd.skinningMs['three.js'];
        const fastest = Math.min(...paths.map(([, v]) => v));
        const library = crowd.skinningPath === 'batch';
        crowdStats.textContent =
          `${count.toLocaleString('en')} skinned characters × ${crowd.bones} bones × ${crowd.clipCount} clips, '${label}' backend, ` +
          `${crowd.crossFades.toLocaleString('en')} cross-fades, frame by ${crowd.stages.join(' → ')} · ` +
          `per frame: sampling ${ms(t.sampling)} (${library ? 'MixerBatch.update, run by the group' : 'every mixer.update'}), ` +
          `inertialization ${library ? ms(t.inertialization) : "– (none on three.js's path)"}` +
          `${library ? " (the rest of the group's update)" : ''}, spot springs ${ms(t.springs)}, ` +
          `skinning matrices ${ms(t.skinning)}, scene update ${ms(t.scene)}, render ${ms(t.render)}` +
          ` · solver work (sampling, inertialization, springs, skinning): ${Object.entries(perBackend)
            .map(([b, v]) => `${b} ${ms(v)}`)
            .join(', ')}` +
          ` · skinning matrices by path: ${paths.map(([path, v]) => `${path} ${ms(v)}`).join(', ')}` +
          (three !== undefined && paths.length > 1 ? ` (three.js ÷ fastest: ${(three / fastest).toFixed(1)}×)` : '');
      }
      if (visible.get(cameraCanvas) !== false) camera.frame(dt);
      if (visible.get(springSection) === true) spring(dt); // built when first seen
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

/**
 * The spring-bones section: its controls, its test hook; returns its frame function, which builds the crowd the
 * first time it runs (the section is seen) and writes the section's stats.
 */
async function mountSpringBones(initialCount: number): Promise<(dt: number) => void> {
  let solver = await createSolver();
  const section = new SpringBonesSection(
    document.getElementById('spring-canvas') as HTMLCanvasElement,
    document.getElementById('spring-trace')!,
    solver,
  );
  let count = initialCount;
  let built = false;
  const controls = document.getElementById('spring-controls')!;
  const select = (id: string, label: string, options: [string, string][], value: string, onChange: (v: string) => void) => {
    const wrap = document.createElement('label');
    const element = document.createElement('select');
    element.id = id;
    for (const [v, text] of options) element.add(new Option(text, v, false, v === value));
    element.addEventListener('change', () => {
      try {
        onChange(element.value);
      } catch (error) {
        showError(error);
      }
    });
    wrap.append(`${label} `, element);
    controls.append(wrap);
  };
  const counts = AVATAR_COUNTS.includes(count) ? AVATAR_COUNTS : [count, ...AVATAR_COUNTS].sort((a, b) => a - b);
  select(
    'spring-avatars',
    'crowd',
    counts.map((n) => [String(n), `${n} avatars`]),
    String(count),
    (v) => {
      count = Number(v);
      if (built) section.build(count);
    },
  );
  select(
    'spring-mode',
    'spring bones by',
    [
      ['three-vrm', 'three-vrm (each manager)'],
      ['springbones', 'SpringBones (one call)'],
    ],
    section.mode,
    (v) => section.setMode(v as SpringMode),
  );
  select(
    'spring-rate',
    'simulated at',
    RATES.map((r) => [String(r), `${r} Hz`]),
    String(section.rate),
    (v) => section.setRate(Number(v)),
  );
  if (globalThis.crossOriginIsolated === true) {
    // SpringBones on another solver: its kernel split by whole avatars over the threads
    select(
      'spring-threads',
      'SpringBones on',
      [
        ['1', '1 thread'],
        ['2', '2 threads'],
        ['auto', `auto (${navigator.hardwareConcurrency} cores, at most 8)`],
      ],
      '1',
      (v) => {
        void createSolver({ threads: v === 'auto' ? 'auto' : Number(v) })
          .then((next) => {
            const old = solver;
            solver = next;
            section.setSolver(next);
            old.dispose();
          })
          .catch(showError);
      },
    );
  }
  const fixed = document.createElement('label');
  const checkbox = document.createElement('input');
  checkbox.type = 'checkbox';
  checkbox.id = 'spring-fixed-step';
  checkbox.checked = section.fixedStep;
  checkbox.addEventListener('change', () => {
    try {
      section.setFixedStep(checkbox.checked);
    } catch (error) {
      showError(error);
    }
  });
  const code = document.createElement('code');
  code.textContent = 'fixedStep: 1/60';
  fixed.append(checkbox, code);
  controls.append(fixed);

  const hook: SpringBonesDemoHook = {
    frames: 0,
    updates: () => section.updates,
    avatars: () => section.avatarCount,
    joints: () => section.jointCount,
    mode: () => section.mode,
    rate: () => section.rate,
    fixedStep: () => section.fixedStep,
    threads: () => section.threads,
    msThreeVrm: () => section.ms['three-vrm'],
    msSpringBones: () => section.ms.springbones,
    trace: () => section.trace(),
  };
  window.springBonesDemo = hook;
  const stats = document.getElementById('spring-stats')!;
  const traceStats = document.getElementById('spring-trace-stats')!;
  const ms = (v: number) => (Number.isNaN(v) ? '– (switch to measure)' : `${v.toFixed(2)} ms`);
  return (dt) => {
    if (!built) {
      section.build(count);
      built = true;
    }
    section.frame(dt);
    hook.frames = section.frames;
    const { 'three-vrm': slow, springbones: fast } = section.ms;
    const ratio = Number.isNaN(slow) || Number.isNaN(fast) ? '' : ` (${(slow / fast).toFixed(1)}× faster)`;
    stats.textContent =
      `${section.avatarCount} avatars, ${section.jointCount.toLocaleString('en')} spring joints, simulated at ${section.rate} Hz ` +
      `(${section.updatesPerFrame.toFixed(1)} updates per drawn frame${section.behind ? ', slower than real time' : ''}) · ` +
      `spring bones, ms per frame: three-vrm ${ms(slow)}, SpringBones${section.threads > 1 ? ` on ${section.threads} threads` : ''} ${ms(fast)}${ratio} · running: ` +
      (section.mode === 'three-vrm' ? 'three-vrm' : `SpringBones${section.fixedStep ? ' with fixedStep 1/60' : ''}`);
    const trace = section.trace();
    traceStats.textContent =
      `Hair tip at ${section.rate} Hz against 60 Hz${section.fixedStep ? ', both with fixedStep 1/60' : ' (no fixed step: as three-vrm)'}: ` +
      `RMS difference ${Number.isNaN(trace.rmsDegrees) ? '–' : `${trace.rmsDegrees.toFixed(2)}°`} over the last ${Math.min(6, trace.seconds).toFixed(1)} s.`;
  };
}

main().catch(showError);
