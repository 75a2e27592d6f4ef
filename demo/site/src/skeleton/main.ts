// The Skeleton page: a crowd playing the pirouette, drawn twice: as played (inertialization off)
// and through an Inertializer (on), with a button that jumps every character to another frame,
// and the time each part of a frame takes. The joints of the characters drawn, both poses, come
// from one ForwardKinematics update a frame.
import { createSolver, ForwardKinematics, Inertializer, type Pose, type Solver } from 'spring-solver';
import '../common/style.css';
import { markReady, showError, slider } from '../common/page.js';
import type { SkeletonDemoHook } from '../common/test-hooks.js';
import { loadClip, type Clip } from './clip.js';
import { Crowd } from './crowd.js';
import { createWorldPose, forwardKinematics } from './forward-kinematics.js';
import { CrowdRenderer, jointsFromMatrices, MAX_DRAWN } from './renderer.js';

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
  /**
   * The characters drawn (the first `drawn`), both poses: skeletons 0 … drawn − 1 as played
   * (crowd.input), drawn … 2·drawn − 1 inertialized (output).
   */
  joints: ForwardKinematics;
  drawn: number;
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
  const timings = { pose: 0, inertialize: 0, joints: 0, draw: 0 };
  const published: SkeletonDemoHook = {
    frames: 0,
    jumps: 0,
    jointUpdates: 0,
    offsetRotation: () => largestRotationOffset(scene.inertializer),
    jointError: () => jointError(scene, clip),
  };
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
    updateJoints(scene);
    published.jointUpdates++;
    const t3 = performance.now();
    const world = scene.joints.worldMatrices!;
    scene.off.draw(world, 0, scene.drawn);
    scene.on.draw(world, scene.drawn, scene.drawn);
    const t4 = performance.now();
    if (jumpRequested) published.jumps++;
    jumpRequested = false;
    smooth(timings, { pose: t1 - t0, inertialize: t2 - t1, joints: t3 - t2, draw: t4 - t3 });
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
  const drawn = Math.min(count, MAX_DRAWN);
  const joints = new ForwardKinematics(solver, { count: 2 * drawn, parents: clip.parents });
  return { crowd, inertializer, output, joints, drawn, off: new CrowdRenderer(off, clip), on: new CrowdRenderer(on, clip) };
}

/** Both poses of the characters drawn into the ForwardKinematics' inputs, and one update for all of them. */
function updateJoints({ crowd, output, joints, drawn }: Scene): void {
  const n = drawn * crowd.clip.bones;
  joints.positions.set(crowd.input.positions.subarray(0, 3 * n));
  joints.positions.set(output.positions.subarray(0, 3 * n), 3 * n);
  joints.rotations.set(crowd.input.rotations.subarray(0, 4 * n));
  joints.rotations.set(output.rotations.subarray(0, 4 * n), 4 * n);
  joints.update();
}

/**
 * The largest distance (clip units, cm) between the joints drawn (from ForwardKinematics) and the
 * page's per-bone JS forward kinematics of the same poses, over the drawn characters of both views.
 */
function jointError({ crowd, output, joints, drawn }: Scene, clip: Clip): number {
  const fromMatrices = createWorldPose(clip),
    reference = createWorldPose(clip);
  let largest = 0;
  for (let c = 0; c < drawn; c++) {
    for (const [pose, first] of [
      [crowd.input, 0],
      [output, drawn],
    ] as const) {
      jointsFromMatrices(clip, joints.worldMatrices!, (first + c) * clip.bones, fromMatrices);
      forwardKinematics(clip, pose.rotations, pose.positions, c * clip.bones, 0, 0, reference);
      for (const key of ['bones', 'endSites'] as const) {
        fromMatrices[key].forEach((v, i) => (largest = Math.max(largest, Math.abs(v - reference[key][i]!))));
      }
    }
  }
  return largest;
}

function disposeScene(scene: Scene, solver: Solver): void {
  scene.joints.dispose();
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

function describeFrame(count: number, backend: string, t: { pose: number; inertialize: number; joints: number; draw: number }): string {
  const ms = (value: number) => `${value.toFixed(2)} ms`;
  return (
    `${count.toLocaleString('en')} characters (${Math.min(count, MAX_DRAWN)} drawn), '${backend}' backend · ` +
    `per frame: pose ${ms(t.pose)}, inertialize ${ms(t.inertialize)}, ` +
    `forward kinematics of both poses drawn (ForwardKinematics, ${2 * Math.min(count, MAX_DRAWN)} skeletons) ${ms(t.joints)}, draw ${ms(t.draw)}, ` +
    `total ${ms(t.pose + t.inertialize + t.joints + t.draw)}`
  );
}

main().catch(showError);
