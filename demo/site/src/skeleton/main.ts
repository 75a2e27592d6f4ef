// The Skeleton page: a crowd playing the pirouette, drawn twice: as played (inertialization off)
// and through an Inertializer (on), with a button that jumps every character to another frame,
// and the time each part of a frame takes.
import { createSolver, Inertializer, type Pose, type Solver } from 'spring-solver';
import '../common/style.css';
import { markReady, showError, slider } from '../common/page.js';
import type { SkeletonDemoHook } from '../common/test-hooks.js';
import { loadClip, type Clip } from './clip.js';
import { Crowd } from './crowd.js';
import { CrowdRenderer, MAX_DRAWN } from './renderer.js';

const CROWD_SIZES = [1, 10, 100, 1000, 10000];
const DEFAULT_CROWD = 10;
/** Room for 10,000 characters of 20 bones: three poses (13 floats a bone) and the offsets (13 more). */
const MEMORY_BYTES = 64 * 1024 * 1024;
/** s: the longest step a frame takes (a hidden tab must not jump ahead). */
const MAX_FRAME = 0.05;
/** Weight of the newest frame in the smoothed timings. */
const SMOOTHING = 0.1;

interface Scene {
  crowd: Crowd;
  inertializer: Inertializer;
  output: Pose;
  off: CrowdRenderer;
  on: CrowdRenderer;
}

async function main(): Promise<void> {
  const [solver, clip] = await Promise.all([createSolver({ memoryBytes: MEMORY_BYTES }), loadClip('./data/pirouette.bvh')]);
  const controls = document.getElementById('controls')!;
  const stats = document.getElementById('stats')!;
  const canvases = ['off', 'on'].map((id) => document.getElementById(id) as HTMLCanvasElement) as [HTMLCanvasElement, HTMLCanvasElement];

  let halflife = 0.15;
  let jumpRequested = false;
  let scene = buildScene(solver, clip, DEFAULT_CROWD, halflife, canvases);
  const timings = { pose: 0, inertialize: 0, draw: 0 };
  const published: SkeletonDemoHook = { frames: 0, jumps: 0, offsetRotation: () => largestRotationOffset(scene.inertializer) };
  window.skeletonDemo = published;

  const sizeLabel = document.createElement('label');
  const size = document.createElement('select');
  size.id = 'crowd';
  for (const n of CROWD_SIZES)
    size.add(new Option(`${n.toLocaleString('en')} character${n > 1 ? 's' : ''}`, String(n), false, n === DEFAULT_CROWD));
  size.addEventListener('change', () => {
    disposeScene(scene, solver);
    scene = buildScene(solver, clip, Number(size.value), halflife, canvases);
  });
  sizeLabel.append('crowd ', size);
  const jump = document.createElement('button');
  jump.id = 'jump';
  jump.textContent = 'Jump';
  jump.addEventListener('click', () => (jumpRequested = true));
  controls.append(sizeLabel, jump);
  slider(
    controls,
    { id: 'halflife', label: 'halflife', unit: 's', min: 0.02, max: 0.6, step: 0.01, value: halflife },
    (value) => (halflife = value),
  );

  let last = performance.now();
  const loop = (now: number) => {
    const dt = Math.min(MAX_FRAME, Math.max(0, now - last) / 1000); // the first rAF time may precede `last`
    last = now;
    const t0 = performance.now();
    const switched = scene.crowd.advance(dt, jumpRequested);
    const t1 = performance.now();
    if (switched) scene.inertializer.transition(scene.crowd.source, scene.crowd.input);
    scene.inertializer.update(scene.crowd.input, halflife, dt, scene.output);
    const t2 = performance.now();
    scene.off.draw(scene.crowd.input, scene.crowd.count);
    scene.on.draw(scene.output, scene.crowd.count);
    const t3 = performance.now();
    if (jumpRequested) published.jumps++;
    jumpRequested = false;
    smooth(timings, { pose: t1 - t0, inertialize: t2 - t1, draw: t3 - t2 });
    stats.textContent = describeFrame(scene.crowd.count, solver.backend, timings);
    published.frames++;
    markReady();
    requestAnimationFrame(loop);
  };
  requestAnimationFrame(loop);
}

function buildScene(solver: Solver, clip: Clip, count: number, halflife: number, [off, on]: [HTMLCanvasElement, HTMLCanvasElement]): Scene {
  const crowd = new Crowd(clip, count, solver);
  const inertializer = new Inertializer(solver, { count, bones: clip.bones, halflife });
  const n = count * clip.bones;
  const output: Pose = {
    positions: solver.alloc(3 * n),
    rotations: solver.alloc(4 * n),
    velocities: solver.alloc(3 * n),
    angularVelocities: solver.alloc(3 * n),
  };
  return { crowd, inertializer, output, off: new CrowdRenderer(off, clip), on: new CrowdRenderer(on, clip) };
}

function disposeScene(scene: Scene, solver: Solver): void {
  scene.crowd.dispose();
  scene.inertializer.dispose();
  for (const array of Object.values(scene.output)) solver.free(array);
}

/** The largest rotation offset still being absorbed, as |(x, y, z)| of the offset quaternion (0 when settled). */
function largestRotationOffset(inertializer: Inertializer): number {
  const q = inertializer.offsets.rotations;
  let largest = 0;
  for (let i = 0; i < q.length; i += 4) largest = Math.max(largest, Math.hypot(q[i]!, q[i + 1]!, q[i + 2]!));
  return largest;
}

function smooth<T extends Record<string, number>>(average: T, sample: T): void {
  for (const key of Object.keys(sample) as (keyof T)[]) {
    (average[key] as number) = average[key] === 0 ? sample[key] : average[key] + SMOOTHING * (sample[key] - average[key]);
  }
}

function describeFrame(count: number, backend: string, t: { pose: number; inertialize: number; draw: number }): string {
  const ms = (value: number) => `${value.toFixed(2)} ms`;
  return (
    `${count.toLocaleString('en')} characters (${Math.min(count, MAX_DRAWN)} drawn), '${backend}' backend · ` +
    `per frame: pose ${ms(t.pose)}, inertialize ${ms(t.inertialize)}, forward kinematics + draw ${ms(t.draw)}, ` +
    `total ${ms(t.pose + t.inertialize + t.draw)}`
  );
}

main().catch(showError);
