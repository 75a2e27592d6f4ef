/**
 * GpuSolver.quatSimpleSpringDamper against the float64 reference (src/reference/quat-spring.ts)
 * on the same float32 inputs, uniform and per-bone halflives, dt from 1e-4 to 2 s, halflife 0
 * for one bone in 32, 10,243 bones (not a multiple of the workgroup size).
 *
 * Tolerances, as test/families/quat.test.ts's (whose header derives them) plus what float32
 * rounding of the inputs moves: rotations within ROTATION_TOLERANCE rad, angular velocities within
 * GPU_PARITY_TOLERANCE·(1 + their largest magnitude) plus the effect of the float32 log's absolute
 * error (LOG_ERROR rad, scaled by eydt·y·(y·dt)), each plus GPU_INPUT_ROUNDINGS × the change of the
 * exact result when dt, the halflife or the angular velocity moves by one float32 rounding (at
 * 1000 rad/s over 2 s the rotation turns by 2000 rad, which float32 holds to 1e-4 rad).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGpuSolver, type GpuSolver } from '../../dist/webgpu/index.js';
import * as reference from '../../dist/reference/index.js';
import { logUniform, mulberry32, uniform, type Rng } from '../helpers/random.js';
import { GPU_INPUT_ROUNDINGS, GPU_PARITY_TOLERANCE } from '../helpers/tolerances.js';

const { quat } = reference;
const N = 10_243;
const ROTATION_TOLERANCE = 2e-5; // rad (test/families/quat.test.ts)
const LOG_ERROR = 1e-6; // rad: absolute error of the float32 log j0 (test/families/quat.test.ts)
const DTS = [1e-4, 1 / 60, 0.25, 1, 2];

let gpu: GpuSolver;
beforeAll(async () => {
  gpu = await createGpuSolver({ warnLargeDt: false }); // dt up to 2 s on purpose
});
afterAll(() => gpu.dispose());

function randomQuat(rng: Rng): number[] {
  for (;;) {
    const q = [0, 0, 0, 0].map(() => uniform(rng, -1, 1));
    const n = Math.hypot(...q);
    if (n > 0.1 && n <= 1) return q.map((c) => c / n);
  }
}

/** Bone i: a random rotation; the goal random, equal (either sign), or a tiny rotation away; ω 0, ≤ 10 or 500…1000 rad/s. */
function makeCases(rng: Rng) {
  const q = new Float32Array(4 * N);
  const w = new Float32Array(3 * N);
  const g = new Float32Array(4 * N);
  const h = new Float32Array(N);
  for (let i = 0; i < N; i++) {
    const qi = randomQuat(rng);
    let gi: number[];
    switch (i % 4) {
      case 0:
        gi = randomQuat(rng);
        break;
      case 1:
        gi = rng() < 0.5 ? qi : qi.map((c) => -c);
        break;
      case 2:
        gi = quat.mul(quat.fromScaledAngleAxis([uniform(rng, -1e-3, 1e-3), uniform(rng, -1e-3, 1e-3), uniform(rng, -1e-3, 1e-3)]), qi);
        break;
      default:
        gi = quat.mul(quat.fromScaledAngleAxis([uniform(rng, -2, 2), uniform(rng, -2, 2), uniform(rng, -2, 2)]), qi);
    }
    const speed = i % 3 === 0 ? 0 : i % 3 === 1 ? uniform(rng, 0, 10) : uniform(rng, 500, 1000);
    const axis = randomQuat(rng).slice(0, 3);
    const norm = Math.hypot(...axis) || 1;
    q.set(qi, 4 * i);
    g.set(gi, 4 * i);
    w.set(
      axis.map((c) => (c / norm) * speed),
      3 * i,
    );
    h[i] = rng() < 1 / 32 ? 0 : logUniform(rng, 1e-3, 10);
  }
  return { q, w, g, h };
}

/** The angle (rad) between two rotations, on the shortest arc. */
function angleBetween(a: ArrayLike<number>, b: ArrayLike<number>): number {
  return quat.angle(quat.mul(a, quat.inv(b)));
}

/** Bone i's step in float64 from (q, w, g) with halflife h and dt: [q', w']. */
function exact(q: number[], w: number[], g: number[], h: number, dt: number): [Float64Array, Float64Array] {
  const qa = Float64Array.from(q);
  const wa = Float64Array.from(w);
  reference.quatSimpleSpringDamper(qa, wa, g, h, dt);
  return [qa, wa];
}

async function parity(mode: 'uniform' | 'perBone', seed: number): Promise<string[]> {
  const rng = mulberry32(seed);
  const cases = makeCases(rng);
  const [q, w, g, hArray] = [gpu.alloc(4 * N), gpu.alloc(3 * N), gpu.alloc(4 * N), gpu.alloc(N)];
  gpu.write(g, cases.g);
  gpu.write(hArray, cases.h);
  const largestW = new Float64Array(3 * N);
  const failures: string[] = [];
  let state = { q: cases.q, w: cases.w };
  const up = 1 + 2 ** -24;
  for (const dt of DTS) {
    const h = mode === 'uniform' ? Math.fround(logUniform(rng, 1e-3, 2)) : cases.h;
    const expected = { q: state.q.slice(), w: state.w.slice() };
    reference.quatSimpleSpringDamper(expected.q, expected.w, cases.g, h, dt);
    gpu.write(q, state.q);
    gpu.write(w, state.w);
    gpu.quatSimpleSpringDamper(q, w, g, mode === 'uniform' ? (h as number) : hArray, dt);
    const [gq, gw] = [await gpu.read(q), await gpu.read(w)];
    let worst = '';
    let worstRatio = 1;
    for (let i = 0; i < N; i++) {
      const qi = Array.from(state.q.subarray(4 * i, 4 * i + 4));
      const wi = Array.from(state.w.subarray(3 * i, 3 * i + 3));
      const gi = Array.from(cases.g.subarray(4 * i, 4 * i + 4));
      const hi = typeof h === 'number' ? h : h[i];
      // the exact result's change under one float32 rounding of dt, the halflife, the angular velocity
      const base = exact(qi, wi, gi, hi, dt);
      const moved = [
        exact(qi, wi, gi, hi, dt * up),
        exact(qi, wi, gi, hi * up, dt),
        exact(
          qi,
          wi.map((c) => c * up),
          gi,
          hi,
          dt,
        ),
      ];
      let rotationSensitivity = 0;
      const wSensitivity = [0, 0, 0];
      for (const [mq, mw] of moved) {
        rotationSensitivity += angleBetween(mq, base[0]);
        for (let k = 0; k < 3; k++) wSensitivity[k] += Math.abs(mw[k] - base[1][k]);
      }
      const gotQ = gq.subarray(4 * i, 4 * i + 4);
      const refQ = expected.q.subarray(4 * i, 4 * i + 4);
      const angle = angleBetween(gotQ, refQ);
      const allowedAngle = ROTATION_TOLERANCE + GPU_INPUT_ROUNDINGS * rotationSensitivity;
      if (!(angle / allowedAngle <= worstRatio)) {
        worstRatio = Number.isNaN(angle) ? Infinity : angle / allowedAngle;
        worst = `bone ${i} dt ${dt}: rotation off by ${angle} rad (allowed ${allowedAngle}), got ${Array.from(gotQ)}, reference ${Array.from(refQ)}`;
      }
      const y = hi > 0 ? (2 * Math.LN2) / hi : 0;
      const eydt = hi > 0 ? Math.exp(-y * dt) : 0;
      for (let k = 0; k < 3; k++) {
        const j = 3 * i + k;
        largestW[j] = Math.max(largestW[j], Math.abs(state.w[j]), Math.abs(expected.w[j]));
        const allowed = GPU_PARITY_TOLERANCE * (1 + largestW[j]) + eydt * y * (y * dt) * LOG_ERROR + GPU_INPUT_ROUNDINGS * wSensitivity[k];
        const error = Math.abs(gw[j] - expected.w[j]);
        if (!(error / allowed <= worstRatio)) {
          worstRatio = Number.isNaN(error) ? Infinity : error / allowed;
          worst = `bone ${i} dt ${dt}: w[${k}] ${gw[j]}, reference ${expected.w[j]} ± ${allowed}`;
        }
      }
    }
    if (worst !== '') failures.push(`${mode}: ${worst}`);
    state = expected;
  }
  for (const a of [q, w, g, hArray]) gpu.free(a);
  return failures;
}

describe('quatSimpleSpringDamper on the GPU', () => {
  it('matches the float64 reference with a uniform halflife', async () => {
    expect(await parity('uniform', 11)).toEqual([]);
  });

  it('matches the float64 reference with one halflife per bone (0 among them)', async () => {
    expect(await parity('perBone', 12)).toEqual([]);
  });

  it('rejects arrays of the wrong widths, naming them', () => {
    const [q, w, g] = [gpu.alloc(8), gpu.alloc(6), gpu.alloc(8)];
    expect(() => gpu.quatSimpleSpringDamper(q, g, g, 0.1, 1 / 60)).toThrow(/^quatSimpleSpringDamper: w has length 8, expected 6/);
    expect(() => gpu.quatSimpleSpringDamper(gpu.alloc(6), w, g, 0.1, 1 / 60)).toThrow(
      /^quatSimpleSpringDamper: q has length 6, which is not a multiple of 4/,
    );
    expect(() => gpu.quatSimpleSpringDamper(q, w, g, gpu.alloc(3), 1 / 60)).toThrow(
      /^quatSimpleSpringDamper: halflife has length 3, expected 2/,
    );
  });
});
