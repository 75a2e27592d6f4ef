/**
 * The Inertializer (whole skeletons, src/stateful/inertializer.ts) on every backend: continuity across a
 * transition, decay of the offsets, per-bone halflives (checked against the float64 reference
 * decays), the root bone's re-anchoring, agreement between backends, dispose, and the argument
 * checks. No Node APIs: runs in Node and in Chromium.
 *
 * Tolerances. Poses here have positions and velocities of size ≤ 4, angular velocities ≤ 15 rad/s
 * (with offsets included). A float32 value carries 2^-24 ≈ 6e-8 relative rounding; a transition
 * followed by an update composes ≤ 6 roundings of such values (≤ 6·6e-8·15 = 5.4e-6), and a
 * float32 rotation product is within 1e-6 rad; so 1e-5 (the specification) holds with margin.
 */
import { describe, expect, it } from 'vitest';
import { useSolvers } from '../helpers/backends.js';
import { createSolver, Inertializer, type Backend, type Pose, type Solver } from '../../dist/index.js';
import * as reference from '../../dist/reference/index.js';
import { expectRejected, BACKENDS } from '../helpers/family-harness.js';
import { mulberry32, uniform, type Rng } from '../helpers/random.js';

const { quat } = reference;
const solvers = useSolvers();

// characters: 55 bones, so the SIMD update runs six turns of two groups of four bones, one group
// of four and a scalar tail of three
const COUNT = 11;
const BONES = 5;
const N = COUNT * BONES;
const CONTINUITY = 1e-5;

function randomQuat(rng: Rng): number[] {
  for (;;) {
    const q = [0, 0, 0, 0].map(() => uniform(rng, -1, 1));
    const n = Math.hypot(...q);
    if (n > 0.1 && n <= 1) return q.map((c) => c / n);
  }
}

/** A random pose of every bone: positions, velocities in [−1, 1], angular velocities in [−3, 3] rad/s. */
function randomPose(rng: Rng, solver?: Solver): Pose {
  const make = (length: number) => (solver ? solver.alloc(length) : new Float32Array(length));
  const pose = { positions: make(3 * N), rotations: make(4 * N), velocities: make(3 * N), angularVelocities: make(3 * N) };
  for (let i = 0; i < N; i++) pose.rotations.set(randomQuat(rng), 4 * i);
  for (let k = 0; k < 3 * N; k++) {
    pose.positions[k] = uniform(rng, -1, 1);
    pose.velocities[k] = uniform(rng, -1, 1);
    pose.angularVelocities[k] = uniform(rng, -3, 3);
  }
  return pose;
}

function emptyPose(): Pose {
  return {
    positions: new Float32Array(3 * N),
    rotations: new Float32Array(4 * N),
    velocities: new Float32Array(3 * N),
    angularVelocities: new Float32Array(3 * N),
  };
}

const norm3 = (a: ArrayLike<number>, i: number) => Math.hypot(a[3 * i], a[3 * i + 1], a[3 * i + 2]);
const dist3 = (a: ArrayLike<number>, b: ArrayLike<number>, i: number) =>
  Math.hypot(a[3 * i] - b[3 * i], a[3 * i + 1] - b[3 * i + 1], a[3 * i + 2] - b[3 * i + 2]);
const angleBetween = (a: ArrayLike<number>, b: ArrayLike<number>, i: number) =>
  quat.angle(quat.mul(quat.load4(a, i), quat.inv(quat.load4(b, i))));

/**
 * The largest difference of two poses: [position, rotation (rad), velocity, angular velocity];
 * `relative`: vector differences divided by max(1, |b's vector|).
 */
function poseDifference(a: Pose, b: Pose, relative: boolean): number[] {
  const worst = [0, 0, 0, 0];
  const vector = (x: Float32Array, y: Float32Array, i: number) => dist3(x, y, i) / (relative ? Math.max(1, norm3(y, i)) : 1);
  for (let i = 0; i < N; i++) {
    worst[0] = Math.max(worst[0], vector(a.positions, b.positions, i));
    worst[1] = Math.max(worst[1], angleBetween(a.rotations, b.rotations, i));
    worst[2] = Math.max(worst[2], vector(a.velocities, b.velocities, i));
    worst[3] = Math.max(worst[3], vector(a.angularVelocities, b.angularVelocities, i));
  }
  return worst;
}

function expectPosesClose(label: string, a: Pose, b: Pose, tolerance: number, relative = false): void {
  const [position, rotation, velocity, angular] = poseDifference(a, b, relative);
  expect(position, `${label}: positions`).toBeLessThanOrEqual(tolerance);
  expect(rotation, `${label}: rotations (rad)`).toBeLessThanOrEqual(tolerance);
  expect(velocity, `${label}: velocities`).toBeLessThanOrEqual(tolerance);
  expect(angular, `${label}: angular velocities`).toBeLessThanOrEqual(tolerance);
}

/** The largest offset: [position, rotation angle (rad)]. */
function largestOffset(inertializer: Inertializer): [number, number] {
  const { positions, rotations } = inertializer.offsets;
  let p = 0;
  let r = 0;
  for (let i = 0; i < N; i++) {
    p = Math.max(p, norm3(positions, i));
    r = Math.max(r, quat.angle(quat.load4(rotations, i)));
  }
  return [p, r];
}

const PER_BONE = Float32Array.from([0.05, 0.2, 1, 0, 0.1]);
const SETUPS: [string, { halflife: number | Float32Array; rootBone?: number }][] = [
  ['uniform halflife', { halflife: 0.1 }],
  ['per-bone halflife', { halflife: PER_BONE }],
  ['root bone 0', { halflife: 0.1, rootBone: 0 }],
  ['root bone 2, per-bone halflife', { halflife: PER_BONE, rootBone: 2 }],
];

describe.each(BACKENDS)('%s backend', (backend: Backend) => {
  it.each(SETUPS)('%s: the output right after a transition equals the output right before', (_label, options) => {
    const s = solvers[backend];
    const rng = mulberry32(1);
    const inertializer = new Inertializer(s, { count: COUNT, bones: BONES, ...options });
    const [a, b, c] = [randomPose(rng), randomPose(rng, s), randomPose(rng)];
    const out = emptyPose();
    // some history: offsets and anchors that are not trivial
    inertializer.transition(a, b);
    for (let step = 0; step < 5; step++) inertializer.update(b, undefined, 1 / 60, out);
    for (const [src, dst] of [
      [b, c],
      [c, a],
      [a, a],
    ] as const) {
      const before = emptyPose();
      const after = emptyPose();
      inertializer.update(src, undefined, 0, before); // dt = 0: only composes
      inertializer.transition(src, dst);
      inertializer.update(dst, undefined, 0, after);
      expectPosesClose('continuity', after, before, CONTINUITY);
    }
    inertializer.dispose();
    for (const array of Object.values(b)) s.free(array);
  });

  it.each(SETUPS)('%s: the offsets decay (below 1e-6 after 20 halflives) and the output returns to the input', (_label, options) => {
    const s = solvers[backend];
    const rng = mulberry32(2);
    const inertializer = new Inertializer(s, { count: COUNT, bones: BONES, ...options, halflife: 0.1 });
    const [a, b] = [randomPose(rng), randomPose(rng)];
    inertializer.transition(a, b);
    const [p0, r0] = largestOffset(inertializer);
    expect(p0).toBeGreaterThan(0.1); // there is something to decay
    expect(r0).toBeGreaterThan(0.1);
    const out = emptyPose();
    const still = { ...b, velocities: new Float32Array(3 * N), angularVelocities: new Float32Array(3 * N) };
    let lastPosition = Infinity;
    for (let step = 1; step <= 120; step++) {
      inertializer.update(still, undefined, 1 / 60, out);
      if (step % 30 === 0) {
        const [p] = largestOffset(inertializer);
        expect(p).toBeLessThan(lastPosition); // each half second smaller
        lastPosition = p;
      }
    }
    // 2 s = 20 halflives: the exact critical decay leaves (1 + y·t)·e^(−y·t) ≈ 3e-11 of the start
    // (y·t = 27.7), plus the velocity's share; in float32 that is far below 1e-6
    const [p, r] = largestOffset(inertializer);
    expect(p).toBeLessThan(1e-6);
    expect(r).toBeLessThan(1e-6);
    if (options.rootBone === undefined) expectPosesClose('output = input', out, still, 1e-5);
    inertializer.dispose();
  });

  it('per-bone halflives: each bone decays with its own, as the reference decays do', () => {
    const s = solvers[backend];
    const rng = mulberry32(3);
    const inertializer = new Inertializer(s, { count: COUNT, bones: BONES, halflife: PER_BONE });
    const [a, b] = [randomPose(rng), randomPose(rng)];
    inertializer.transition(a, b);
    const { positions, velocities, rotations, angularVelocities } = inertializer.offsets;
    const start = Array.from({ length: N }, (_, i) => norm3(positions, i));
    const x = Float64Array.from(positions);
    const v = Float64Array.from(velocities);
    const q = Float64Array.from(rotations);
    const w = Float64Array.from(angularVelocities);
    const perBone = Float64Array.from({ length: N }, (_, i) => PER_BONE[i % BONES]);
    const override = Float32Array.from([0.3, 0.02, 0.5, 0.1, 0]);
    const overrideBone = Float64Array.from({ length: N }, (_, i) => override[i % BONES]);
    const out = emptyPose();
    for (let step = 0; step < 10; step++) {
      const useOverride = step % 3 === 1; // an update's own halflife applies to that update only
      inertializer.update(b, useOverride ? override : undefined, 1 / 30, out);
      reference.vec3DecaySpringDamper(x, v, useOverride ? overrideBone : perBone, 1 / 30);
      reference.quatDecaySpringDamper(q, w, useOverride ? overrideBone : perBone, 1 / 30);
    }
    // positions and velocities ≤ 4: 1e-5 absolute is 40× their float32 rounding; rotations 1e-5 rad
    for (let i = 0; i < N; i++) {
      expect(dist3(positions, x, i), `bone ${i} position offset`).toBeLessThan(1e-5);
      expect(dist3(velocities, v, i), `bone ${i} velocity offset`).toBeLessThan(1e-5);
      expect(angleBetween(rotations, q, i), `bone ${i} rotation offset`).toBeLessThan(1e-5);
      expect(dist3(angularVelocities, w, i), `bone ${i} angular velocity offset`).toBeLessThan(1e-5 * (1 + norm3(w, i)));
    }
    // halflife 0 (bone 3) has no offset left at all; after 1/3 s the slow bone 2 (halflife 1 s,
    // 0.5 s for three steps) keeps over half of its offset, the fast bone 0 (0.05 s, 0.3 s) under 5%
    for (let c = 0; c < COUNT; c++) {
      expect(norm3(positions, c * BONES + 3)).toBe(0);
      expect(norm3(positions, c * BONES + 2)).toBeGreaterThan(0.5 * start[c * BONES + 2]);
      expect(norm3(positions, c * BONES)).toBeLessThan(0.05 * start[c * BONES]);
    }
    inertializer.dispose();
  });

  it('the root bone continues from where the character is: re-anchored heading and ground position', () => {
    const s = solvers[backend];
    const rng = mulberry32(4);
    const inertializer = new Inertializer(s, { count: COUNT, bones: BONES, halflife: 0.1, rootBone: 0 });
    const a = randomPose(rng);
    const out = emptyPose();
    inertializer.update(a, undefined, 1 / 60, out);
    const before = emptyPose();
    inertializer.update(a, undefined, 0, before);
    // the destination: every root 100 units away, turned 90° about +Y, 0.3 higher, at rest
    const dst = randomPose(rng);
    const turn = quat.fromScaledAngleAxis([0, Math.PI / 2, 0]);
    for (let c = 0; c < COUNT; c++) {
      const i = c * BONES;
      dst.positions.set([a.positions[3 * i] + 100, a.positions[3 * i + 1] + 0.3, a.positions[3 * i + 2] - 100], 3 * i);
      dst.rotations.set(quat.mul(turn, quat.load4(a.rotations, i)), 4 * i);
      dst.velocities.fill(0, 3 * i, 3 * i + 3);
      dst.angularVelocities.fill(0, 3 * i, 3 * i + 3);
    }
    inertializer.transition(a, dst);
    for (let step = 0; step < 180; step++) inertializer.update(dst, undefined, 1 / 60, out);
    for (let c = 0; c < COUNT; c++) {
      const i = c * BONES;
      // 3 s later the root has not moved on the ground (dst is at rest)…
      expect(
        Math.hypot(out.positions[3 * i] - before.positions[3 * i], out.positions[3 * i + 2] - before.positions[3 * i + 2]),
      ).toBeLessThan(1e-4);
      // …its height is the destination's (the offset decayed)…
      expect(Math.abs(out.positions[3 * i + 1] - dst.positions[3 * i + 1])).toBeLessThan(1e-5);
      // …and its heading is where it was, its tilt the destination's: the output is R ⊗ dst with R about +Y
      const r = quat.mul(quat.load4(out.rotations, i), quat.inv(quat.load4(dst.rotations, i)));
      expect(Math.hypot(r[0], r[2]), `character ${c}: R is a rotation about +Y`).toBeLessThan(1e-5);
      const headingNow = reference.heading(quat.load4(out.rotations, i));
      const headingBefore = reference.heading(quat.load4(before.rotations, i));
      expect(quat.angle(quat.mul(headingNow, quat.inv(headingBefore))), `character ${c}: heading`).toBeLessThan(1e-5);
    }
    inertializer.dispose();
  });

  it('agrees with the JS backend (the float64 reference) over a run of transitions and updates', async () => {
    if (backend === 'js') return;
    const run = (solver: Solver) => {
      const rng = mulberry32(5);
      const poses = [randomPose(rng), randomPose(rng), randomPose(rng)];
      const inertializer = new Inertializer(solver, { count: COUNT, bones: BONES, halflife: PER_BONE, rootBone: 1 });
      const out = emptyPose();
      for (let step = 0; step < 60; step++) {
        if (step % 10 === 0) inertializer.transition(poses[(step / 10) % 3], poses[(step / 10 + 1) % 3]);
        inertializer.update(poses[((step / 10 + 1) % 3) | 0], undefined, 1 / 60, out);
      }
      inertializer.dispose();
      return out;
    };
    // Each step rounds the state to float32 and the kernels differ by ≤ ~10 roundings (6e-7 of
    // the values). The decay shrinks these differences, but a transition carries them over into
    // the new offsets, whose size grows with every transition: relative to max(1, |value|) the
    // six transitions and 60 updates here stay below ~20 roundings, 1.2e-6; 1e-5 holds.
    expectPosesClose('vs js', run(solvers[backend]), run(solvers.js), 1e-5, true);
  });

  it('dispose frees its arrays; a disposed Inertializer or solver is rejected', async () => {
    const s = await createSolver({ backend, memoryBytes: 1 << 20 });
    // memoryBytes 1 MiB (1.06 MiB once rounded to whole pages): an Inertializer of 7,200 bones (13
    // floats a bone of offsets and 1 of halflife: 403 KB) fits twice, not three times
    const options = { count: 1200, bones: 6, halflife: new Float32Array(6).fill(0.1) };
    const first = new Inertializer(s, options);
    const offsets = first.offsets;
    first.dispose();
    first.dispose(); // idempotent
    for (const array of Object.values(offsets)) expect(() => s.free(array)).toThrow(TypeError); // already freed
    if (backend !== 'js') {
      // the memory came back: four in turn fit where two at once would not
      for (let k = 0; k < 4; k++) new Inertializer(s, options).dispose();
      const held = [new Inertializer(s, options), new Inertializer(s, options)];
      expect(() => new Inertializer(s, options)).toThrow(RangeError);
      held.forEach((i) => i.dispose());
    }
    const pose = randomPose(mulberry32(6));
    const live = new Inertializer(s, { count: COUNT, bones: BONES, halflife: 0.1 });
    first.dispose();
    expectRejected(() => first.update(pose, undefined, 0.1, emptyPose()), TypeError, 'Inertializer.update', 'disposed', []);
    expectRejected(() => first.transition(pose, pose), TypeError, 'Inertializer.transition', 'disposed', []);
    s.dispose();
    const out = emptyPose();
    expectRejected(() => live.update(pose, undefined, 0.1, out), TypeError, 'Inertializer.update', 'disposed', Object.values(out));
    live.dispose(); // after the solver: nothing to free, no error
  });
});

describe.each(BACKENDS)('%s backend: rejected calls write nothing', (backend: Backend) => {
  it('constructor arguments', () => {
    const s = solvers[backend];
    const ok = { count: 2, bones: 3, halflife: 0.1 };
    expectRejected(() => new Inertializer({} as Solver, ok), TypeError, 'Inertializer', 'solver', []);
    expectRejected(() => new Inertializer(s, null as unknown as typeof ok), TypeError, 'Inertializer', 'options', []);
    expectRejected(() => new Inertializer(s, { ...ok, count: 0 }), RangeError, 'Inertializer', 'options.count', []);
    expectRejected(() => new Inertializer(s, { ...ok, bones: 2.5 }), RangeError, 'Inertializer', 'options.bones', []);
    expectRejected(() => new Inertializer(s, { ...ok, halflife: NaN }), RangeError, 'Inertializer', 'options.halflife', []);
    expectRejected(() => new Inertializer(s, { ...ok, halflife: -0.1 }), RangeError, 'Inertializer', 'options.halflife', []);
    expectRejected(() => new Inertializer(s, { ...ok, halflife: new Float32Array(2) }), RangeError, 'Inertializer', 'options.halflife', []);
    expectRejected(
      () => new Inertializer(s, { ...ok, halflife: [0.1, 0.1, 0.1] as unknown as Float32Array }),
      TypeError,
      'Inertializer',
      'options.halflife',
      [],
    );
    expectRejected(() => new Inertializer(s, { ...ok, rootBone: 3 }), RangeError, 'Inertializer', 'options.rootBone', []);
  });

  it('transition and update arguments', () => {
    const s = solvers[backend];
    const rng = mulberry32(7);
    const inertializer = new Inertializer(s, { count: COUNT, bones: BONES, halflife: 0.1, rootBone: 0 });
    const [a, b] = [randomPose(rng), randomPose(rng)];
    inertializer.transition(a, b);
    inertializer.update(b, undefined, 1 / 60, emptyPose());
    const out = emptyPose();
    const state = [...Object.values(inertializer.offsets), ...Object.values(out)];
    const short = { ...a, positions: a.positions.subarray(3) };
    const untyped = { ...b, rotations: Array.from(b.rotations) as unknown as Float32Array };
    expectRejected(() => inertializer.transition(short, b), RangeError, 'Inertializer.transition', 'src.positions', state);
    expectRejected(() => inertializer.transition(a, untyped), TypeError, 'Inertializer.transition', 'dst.rotations', state);
    expectRejected(() => inertializer.transition(a, null as unknown as Pose), TypeError, 'Inertializer.transition', 'dst', state);
    expectRejected(
      () => inertializer.update(a, undefined, 0.1, { ...out, velocities: new Float32Array(3) }),
      RangeError,
      'Inertializer.update',
      'output.velocities',
      state,
    );
    expectRejected(() => inertializer.update(a, NaN, 0.1, out), RangeError, 'Inertializer.update', 'halflife', state);
    expectRejected(() => inertializer.update(a, -1, 0.1, out), RangeError, 'Inertializer.update', 'halflife', state);
    const bad = Float32Array.from([0.1, 0.1, NaN, 0.1, 0.1]);
    expectRejected(() => inertializer.update(a, bad, 0.1, out), RangeError, 'Inertializer.update', 'halflife[2]', state);
    expectRejected(() => inertializer.update(a, new Float32Array(N), 0.1, out), RangeError, 'Inertializer.update', 'halflife', state);
    expectRejected(() => inertializer.update(a, undefined, -1 / 60, out), RangeError, 'Inertializer.update', 'dt', state);
    expectRejected(() => inertializer.update(a, undefined, NaN, out), RangeError, 'Inertializer.update', 'dt', state);
    // an output that is the Inertializer's own state
    expectRejected(
      () => inertializer.update(a, undefined, 0.1, { ...out, positions: inertializer.offsets.positions }),
      RangeError,
      'Inertializer.update',
      'output.positions',
      state,
    );
    inertializer.dispose();
  });
});
