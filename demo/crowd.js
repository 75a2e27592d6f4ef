// The crowd demo (`npm start`): 250 characters × 20 bones (5,000 bones) play the pirouette
// capture from random frames, each with root motion of its own (around a circle at a speed that
// varies along the clip). Every 0.5 s every character jumps to another random frame and the
// jump is inertialized (Inertializer: positions, rotations, velocities and angular velocities;
// the root re-anchored as in Motion-Matching). 10 simulated seconds at 60 Hz on each backend:
// prints the time per frame, the speedup over the JS reference, the largest jump of the output
// at a transition, and the largest offset left 1 s after the last transition.
//
//   npm run build && node demo/crowd.js
import { readFileSync } from 'node:fs';
import { mulberry32 } from '../tools/mulberry32.js';
import { createSolver, Inertializer } from '../dist/index.js';
import { parseBvh, bvhLocalPositions, bvhLocalRotations, bvhVelocities } from '../dist/bvh/index.js';

const COUNT = 250;
const DT = 1 / 60;
const SECONDS = 10;
const JUMP_EVERY = 30; // frames: 0.5 s
const LAST_JUMP = (SECONDS - 1) / DT; // no jump in the last second: the offsets left are measured there
const WARMUP_FRAMES = 120; // untimed, before the timed run (lets the JS backend's JIT settle)
const SEED = 2024;

// ---------------------------------------------------------------------------------------------
// The clip: the repository's copy of the three.js example capture (data/README.md)

const clipUrl = new URL('../data/pirouette.bvh', import.meta.url);
const bvh = parseBvh(readFileSync(clipUrl, 'utf8'));
const BONES = bvh.names.length;
const N = COUNT * BONES;
const clip = {
  rotations: bvhLocalRotations(bvh),
  positions: bvhLocalPositions(bvh),
};
Object.assign(clip, bvhVelocities(clip.positions, clip.rotations, BONES, bvh.frameTime));
const STEP_FRAMES = Math.round(DT / bvh.frameTime); // clip frames per simulation step (120 Hz clip: 2)
// a jump lands where the clip still has a second of frames after it
const JUMP_RANGE = bvh.frameCount - STEP_FRAMES * (JUMP_EVERY * 2 + 2);

/** Halflife per bone: the root and spine settle more slowly than the limbs. */
const HALFLIFE = Float32Array.from(bvh.names, (name, b) => (b === 0 ? 0.15 : /abdomen|chest|neck/.test(name) ? 0.12 : 0.08));

/** Root speed along the clip: 0.5 … 1.5 of a character's own speed, varying with the frame. */
const speedProfile = Float64Array.from({ length: bvh.frameCount }, (_, f) => 1 + 0.5 * Math.sin((6 * Math.PI * f) / bvh.frameCount));
/** Distance covered from frame 0 to frame f at unit speed (the profile integrated). */
const distance = new Float64Array(bvh.frameCount);
for (let f = 1; f < bvh.frameCount; f++) distance[f] = distance[f - 1] + 0.5 * (speedProfile[f] + speedProfile[f - 1]) * bvh.frameTime;

const random = mulberry32;

// ---------------------------------------------------------------------------------------------
// Poses: every character's bones at its clip frame, the root moved around its own circle

function makePose(solver) {
  return {
    positions: solver.alloc(3 * N),
    rotations: solver.alloc(4 * N),
    velocities: solver.alloc(3 * N),
    angularVelocities: solver.alloc(3 * N),
  };
}

/**
 * Writes character c at clip frame f into pose. The root's motion, in the animation's space:
 * around a circle of radius r at speed s·profile(f), facing along it: position
 * (r cos φ, 0, r sin φ) with φ = s·distance(f)/r, rotation yaw(−φ) ⊗ hip, velocity s·profile·tangent,
 * angular velocity φ'·Y + yaw(−φ)·ω_hip.
 */
function writeCharacter(pose, c, f, character) {
  const bones4 = 4 * BONES;
  const bones3 = 3 * BONES;
  pose.rotations.set(clip.rotations.subarray(f * bones4, (f + 1) * bones4), c * bones4);
  pose.positions.set(clip.positions.subarray(f * bones3, (f + 1) * bones3), c * bones3);
  pose.velocities.set(clip.velocities.subarray(f * bones3, (f + 1) * bones3), c * bones3);
  pose.angularVelocities.set(clip.angularVelocities.subarray(f * bones3, (f + 1) * bones3), c * bones3);
  const { radius, speed } = character;
  const phi = (speed * distance[f]) / radius;
  const phiRate = (speed * speedProfile[f]) / radius;
  const cos = Math.cos(phi);
  const sin = Math.sin(phi);
  const i = c * BONES; // the root
  pose.positions.set([radius * cos, 0, radius * sin], 3 * i);
  pose.velocities.set([-radius * sin * phiRate, 0, radius * cos * phiRate], 3 * i);
  // yaw(−φ) = [0, sin(−φ/2), 0, cos(−φ/2)]: counterclockwise travel seen from above (+Y)
  const yy = -Math.sin(phi / 2);
  const yw = Math.cos(phi / 2);
  const [hx, hy, hz, hw] = clip.rotations.subarray(4 * (f * BONES), 4 * (f * BONES) + 4);
  pose.rotations.set([yw * hx + yy * hz, yw * hy + yy * hw, yw * hz - yy * hx, yw * hw - yy * hy], 4 * i);
  const [wx, wy, wz] = clip.angularVelocities.subarray(3 * (f * BONES), 3 * (f * BONES) + 3);
  // rotate ω_hip by yaw(−φ) (about Y by −φ), then add −φ'·Y
  pose.angularVelocities.set([cos * wx - sin * wz, wy - phiRate, sin * wx + cos * wz], 3 * i);
}

function writeAll(pose, frames, characters) {
  for (let c = 0; c < COUNT; c++) writeCharacter(pose, c, frames[c], characters[c]);
}

// ---------------------------------------------------------------------------------------------
// Measures

const median = (values) => values.slice().sort((a, b) => a - b)[values.length >> 1];
const norm3 = (a, i) => Math.hypot(a[3 * i], a[3 * i + 1], a[3 * i + 2]);
/** Rotation angle of quaternion i (shortest arc). */
const angle4 = (q, i) => 2 * Math.atan2(Math.hypot(q[4 * i], q[4 * i + 1], q[4 * i + 2]), Math.abs(q[4 * i + 3]));

function largestOffsets(inertializer) {
  const { positions, rotations } = inertializer.offsets;
  let position = 0;
  let rotation = 0;
  for (let i = 0; i < N; i++) {
    position = Math.max(position, norm3(positions, i));
    rotation = Math.max(rotation, angle4(rotations, i));
  }
  return { position, rotation };
}

/**
 * Largest difference between two poses: positions relative to the largest position (float32
 * rounding is relative), rotations in rad (the angle of a ⊗ b⁻¹: 2·atan2(|xyz|, |w|)).
 */
function largestJump(a, b) {
  let position = 0;
  let size = 0;
  let rotation = 0;
  for (let i = 0; i < N; i++) {
    position = Math.max(
      position,
      Math.hypot(
        a.positions[3 * i] - b.positions[3 * i],
        a.positions[3 * i + 1] - b.positions[3 * i + 1],
        a.positions[3 * i + 2] - b.positions[3 * i + 2],
      ),
    );
    size = Math.max(size, norm3(b.positions, i));
    const [ax, ay, az, aw] = a.rotations.subarray(4 * i, 4 * i + 4);
    const [bx, by, bz, bw] = b.rotations.subarray(4 * i, 4 * i + 4);
    // a ⊗ b⁻¹, b⁻¹ = [−bx, −by, −bz, bw]
    const x = -aw * bx + ax * bw - ay * bz + az * by;
    const y = -aw * by + ax * bz + ay * bw - az * bx;
    const z = -aw * bz - ax * by + ay * bx + az * bw;
    const w = aw * bw + ax * bx + ay * by + az * bz;
    rotation = Math.max(rotation, 2 * Math.atan2(Math.hypot(x, y, z), Math.abs(w)));
  }
  return { position: position / size, rotation };
}

// ---------------------------------------------------------------------------------------------
// One backend's crowd, advanced a frame at a time (the three backends are stepped in turn, frame
// by frame, so that whatever else runs on the machine slows them alike)

async function crowd(backend) {
  const solver = await createSolver({ backend });
  const rng = random(SEED);
  const characters = Array.from({ length: COUNT }, () => ({ radius: 150 + 250 * rng(), speed: 60 + 90 * rng() }));
  const frames = Int32Array.from({ length: COUNT }, () => Math.floor(rng() * JUMP_RANGE));
  const inertializer = new Inertializer(solver, { count: COUNT, bones: BONES, halflife: HALFLIFE, rootBone: 0 });
  const input = makePose(solver);
  const src = makePose(solver);
  const output = makePose(solver);
  const probe = makePose(solver);
  const updateTimes = [];
  const transitionTimes = [];
  const r = {
    backend,
    transitions: 0,
    sampleMs: 0,
    worstJump: { position: 0, rotation: 0 },
    peakAfterLastJump: { position: 0, rotation: 0 }, // the largest offsets from the last transition on
    left: { position: 0, rotation: 0 }, // 1 s after the last transition
  };

  function step(frame) {
    const timed = frame > WARMUP_FRAMES;
    const t = frame - WARMUP_FRAMES; // frames into the timed run
    for (let c = 0; c < COUNT; c++) frames[c] += STEP_FRAMES;
    const t0 = performance.now();
    writeAll(input, frames, characters);
    const t1 = performance.now();
    let t2 = t1;
    if (frame % JUMP_EVERY === 0 && (!timed || t <= LAST_JUMP)) {
      src.positions.set(input.positions); // where each character would have gone on
      src.rotations.set(input.rotations);
      src.velocities.set(input.velocities);
      src.angularVelocities.set(input.angularVelocities);
      for (let c = 0; c < COUNT; c++) frames[c] = Math.floor(rng() * JUMP_RANGE);
      writeAll(input, frames, characters);
      inertializer.update(src, undefined, 0, probe); // untimed: the output just before (dt = 0 only composes)
      const t3 = performance.now();
      inertializer.transition(src, input);
      const t4 = performance.now();
      if (timed) {
        transitionTimes.push(t4 - t3);
        r.transitions++;
      }
      inertializer.update(input, undefined, 0, output); // untimed: the output just after
      const jump = largestJump(probe, output);
      r.worstJump = { position: Math.max(r.worstJump.position, jump.position), rotation: Math.max(r.worstJump.rotation, jump.rotation) };
      t2 = performance.now();
    }
    inertializer.update(input, undefined, DT, output);
    const t5 = performance.now();
    if (!timed) return;
    r.sampleMs += t1 - t0;
    updateTimes.push(t5 - t2);
    if (t >= LAST_JUMP) {
      // untimed: a root's position offset grows from 0 after a transition (its velocity differs), then decays
      r.left = largestOffsets(inertializer);
      r.peakAfterLastJump = {
        position: Math.max(r.peakAfterLastJump.position, r.left.position),
        rotation: Math.max(r.peakAfterLastJump.rotation, r.left.rotation),
      };
    }
  }

  /** Medians, not means: a frame preempted by another process on the machine does not count. */
  function finish() {
    inertializer.dispose();
    solver.dispose();
    const frames60 = SECONDS / DT;
    const updateMs = median(updateTimes);
    const transitionMs = median(transitionTimes);
    return { ...r, updateMs, transitionMs, frameMs: updateMs + (transitionMs * r.transitions) / frames60, sampleMs: r.sampleMs / frames60 };
  }

  return { step, finish };
}

// ---------------------------------------------------------------------------------------------

const started = performance.now();
console.log(
  `Crowd: ${COUNT} characters × ${BONES} bones = ${N.toLocaleString('en')} bones of ${bvh.frameCount}-frame pirouette.bvh, ` +
    `${SECONDS} s at ${1 / DT} Hz, every character jumps to a random frame every ${JUMP_EVERY * DT} s (inertialized, halflife ` +
    `${HALFLIFE[0].toFixed(2)} s root / ${HALFLIFE[1].toFixed(2)} s spine / ${HALFLIFE[BONES - 1].toFixed(2)} s limbs).`,
);
const crowds = [];
for (const backend of ['simd', 'wasm', 'js']) crowds.push(await crowd(backend));
for (let frame = 1; frame <= WARMUP_FRAMES + SECONDS / DT; frame++) for (const c of crowds) c.step(frame);
const results = crowds.map((c) => c.finish());
const js = results.find((r) => r.backend === 'js');
if (!js) throw new Error('crowd: the JS backend did not run');
const fmt = (x, digits = 3) => x.toFixed(digits).padStart(7);
console.log(
  '\nmedians    update ms/frame   transition ms   inertialization ms/frame   speedup vs js   (pose sampling in JS ms/frame, mean)',
);
for (const r of results) {
  console.log(
    `${r.backend.padEnd(9)}  ${fmt(r.updateMs)}           ${fmt(r.transitionMs)}         ${fmt(r.frameMs)}                  ` +
      `${(js.frameMs / r.frameMs).toFixed(1).padStart(5)}×          (${r.sampleMs.toFixed(3)})`,
  );
}
let decayed = true;
console.log('');
for (const r of results) {
  const ratio = Math.max(r.left.position / r.peakAfterLastJump.position, r.left.rotation / r.peakAfterLastJump.rotation);
  decayed &&= ratio < 0.01;
  console.log(
    `${r.backend.padEnd(5)} ${r.transitions} transitions. Largest jump of the output at a transition: position ${r.worstJump.position.toExponential(1)} ` +
      `of the largest position, rotation ${r.worstJump.rotation.toExponential(1)} rad. Largest offset after the last transition: position ` +
      `${r.peakAfterLastJump.position.toFixed(2)}, rotation ${r.peakAfterLastJump.rotation.toFixed(3)} rad; 1 s after it: position ` +
      `${r.left.position.toExponential(2)}, rotation ${r.left.rotation.toExponential(2)} rad (${(100 * ratio).toFixed(2)}% left).`,
  );
}
console.log(`\n(positions in the clip's units; ${((performance.now() - started) / 1000).toFixed(1)} s in all)`);
if (!decayed) {
  console.error('The offsets did not decay below 1% of their peak within 1 s.');
  process.exitCode = 1;
}
