/**
 * The per-element springs' f32x4 coefficients (assembly/spring/coefficients-x4.ts) against the
 * float64 reference, band by band. The parity test draws parameters at random, so a block of four
 * often has one lane outside the f32x4 range and takes the float64 path; here every block of a
 * band is inside it: u = a·dt up to 0.5 (u rounded once), 0.5–2 (u split exactly; vv = e·(1 − u)
 * or e·(C − u·S) cancels near its zero), 2–80 (xq from 1 − xx), and |z| = |s − a²|·dt² ≤ 1 under-
 * and over-damped. Each element isolates one term (only x − g, only v, only q, or all), so the
 * bound SIMD_PER_M·M, M the sum of the exact transition's |terms|, holds each coefficient to its
 * own relative error. Also dt outside the f32x4 range (subnormal, 2^-61, 2^61): the float64 path.
 */
import { describe, expect, it } from 'vitest';
import { SpringMode } from '../../dist/index.js';
import * as reference from '../../dist/reference/index.js';
import { BACKENDS, useSolvers, LARGE_DT_ON_PURPOSE } from '../helpers/backends.js';
import { mulberry32, type Rng } from '../helpers/random.js';
import { FLOAT32_ULP, SCALAR_PER_M, SIMD_PER_M, SUBNORMAL_FLOOR } from '../helpers/tolerances.js';

const N = 4096;
const solvers = useSolvers(4 * 1024 * 1024, LARGE_DT_ON_PURPOSE);

type Method = 'springDamper' | 'springDamperStiffness' | 'springDamperRatio' | 'criticalSpringDamper';
const MODES: Record<Method, SpringMode> = {
  springDamper: SpringMode.FrequencyHalflife,
  springDamperStiffness: SpringMode.StiffnessDamping,
  springDamperRatio: SpringMode.RatioHalflife,
  criticalSpringDamper: SpringMode.Critical,
};

const REFERENCE = {
  springDamper: reference.springDamper,
  springDamperStiffness: reference.springDamperStiffness,
  springDamperRatio: reference.springDamperRatio,
};

const logUniform = (rng: Rng, lo: number, hi: number) => Math.exp(Math.log(lo) + rng() * Math.log(hi / lo));

/** The method's parameters for u = a·dt and z = (s − a²)·dt² (z = 0 for the critical spring). */
function paramsOf(method: Method, u: number, z: number, dt: number): [number, number] {
  const a = u / dt;
  const s = Math.max(0, z / (dt * dt) + a * a);
  const halflife = (2 * Math.LN2) / a;
  if (method === 'springDamper') return [Math.sqrt(s) / (2 * Math.PI), halflife];
  if (method === 'springDamperStiffness') return [s, 2 * a];
  if (method === 'springDamperRatio') return [Math.min(a / Math.sqrt(s), 1e6), halflife]; // s = 0: ζ = ∞, clamped
  return [halflife, 0];
}

interface Band {
  name: string;
  u: (rng: Rng) => number;
  z: (rng: Rng) => number;
}

const signedLog = (rng: Rng, lo: number, hi: number) => (rng() < 0.5 ? -1 : 1) * logUniform(rng, lo, hi);
const BANDS: Band[] = [
  { name: 'u ≤ 0.5', u: (rng) => logUniform(rng, 1e-5, 0.5), z: (rng) => signedLog(rng, 1e-7, 1) },
  { name: '0.5 < u ≤ 2', u: (rng) => 0.5 + 1.5 * rng(), z: (rng) => signedLog(rng, 1e-7, 1) },
  { name: 'u near 1, z near 0', u: (rng) => 1 + (rng() - 0.5) * 1e-3, z: (rng) => signedLog(rng, 1e-9, 1e-3) },
  // over-damped with C = u·S: vv crosses zero
  { name: 'vv near 0', u: (rng) => 1.1 + 0.9 * rng(), z: () => Number.NaN },
  { name: '2 < u ≤ 80', u: (rng) => logUniform(rng, 2, 80), z: (rng) => signedLog(rng, 1e-7, 1) },
];

/** z where C(z) = u·S(z) for z < 0 (cosh √−z = u·sinh √−z / √−z), nudged by a relative 1e-4. */
function zOfZeroVv(rng: Rng, u: number): number {
  // cosh r = u·sinh r / r, r = √−z: solve r·coth r = u by bisection on r ∈ (0, 1.2]
  let lo = 1e-9;
  let hi = 1.2;
  for (let k = 0; k < 100; k++) {
    const r = (lo + hi) / 2;
    if (r / Math.tanh(r) < u) lo = r;
    else hi = r;
  }
  const r = lo * (1 + (rng() - 0.5) * 2e-4);
  return -r * r;
}

function fill(rng: Rng, method: Method, band: Band, dt: number, arrays: Float32Array[]): void {
  const [x, v, g, q, p0, p1] = arrays;
  for (let i = 0; i < N; i++) {
    const u = band.u(rng);
    const drawn = band.z(rng);
    const z = method === 'criticalSpringDamper' ? 0 : Number.isNaN(drawn) ? zOfZeroVv(rng, u) : drawn;
    [p0[i], p1[i]] = paramsOf(method, u, z, dt);
    g[i] = rng() * 2 - 1;
    // element i % 4 of a block isolates a term: x − g, v, q, or all three
    const term = (i >> 2) % 4;
    x[i] = term === 0 || term === 3 ? g[i] + rng() * 2 - 1 : g[i];
    v[i] = term === 1 || term === 3 ? rng() * 4 - 2 : 0;
    q[i] = term === 2 || term === 3 ? rng() * 4 - 2 : 0;
  }
}

/** Worst error of x and v as a multiple of the backend's bound. */
function worstRatio(method: Method, backend: string, dt: number, arrays: Float32Array[], x1: Float32Array, v1: Float32Array): number {
  const [x0, v0, g, q, p0, p1] = arrays;
  const xr = Float32Array.from(x0);
  const vr = Float32Array.from(v0);
  if (method === 'criticalSpringDamper') reference.criticalSpringDamper(xr, vr, g, q, p0, dt);
  else REFERENCE[method](xr, vr, g, q, p0, p1, dt);
  let worst = 0;
  for (let i = 0; i < N; i++) {
    const m = reference.springTransition(...reference.stiffnessAndDamping(MODES[method], p0[i], p1[i]), dt);
    const y = x0[i] - g[i];
    const mx = Math.abs(g[i]) + Math.abs(m.xx * y) + Math.abs(m.xv * v0[i]) + Math.abs(m.xq * q[i]);
    const mv = Math.abs(m.vx * y) + Math.abs(m.vv * v0[i]) + Math.abs(m.vq * q[i]);
    for (const [got, ref, mm] of [
      [x1[i], xr[i], mx],
      [v1[i], vr[i], mv],
    ] as const) {
      const tol =
        backend === 'simd' ? SIMD_PER_M * mm + SUBNORMAL_FLOOR : FLOAT32_ULP * Math.abs(ref) + SCALAR_PER_M * mm + SUBNORMAL_FLOOR;
      const err = Math.abs(got - ref);
      worst = Math.max(worst, Number.isNaN(err) ? Infinity : err / tol);
    }
  }
  return worst;
}

function run(method: Method, backend: (typeof BACKENDS)[number], dt: number, fillWith: (arrays: Float32Array[]) => void): number {
  const solver = solvers[backend];
  const arrays = [0, 1, 2, 3, 4, 5].map(() => solver.alloc(N));
  try {
    fillWith(arrays);
    const before = arrays.map((a) => Float32Array.from(a));
    const [x, v, g, q, p0, p1] = arrays;
    if (method === 'criticalSpringDamper') solver.criticalSpringDamper(x, v, g, q, p0, dt);
    else solver[method](x, v, g, q, p0, p1, dt);
    return worstRatio(method, backend, dt, before, x, v);
  } finally {
    for (const a of arrays) solver.free(a);
  }
}

const METHODS = Object.keys(MODES) as Method[];
const WASM_BACKENDS = BACKENDS.filter((b) => b !== 'js');

describe.each(METHODS)('%s, per-element parameters', (method) => {
  describe.each(WASM_BACKENDS)('%s backend', (backend) => {
    const bands = method === 'criticalSpringDamper' ? BANDS.filter((b) => b.name !== 'vv near 0') : BANDS;
    it.each(bands.map((b) => [b.name, b] as const))('%s: within the bound for every term', (_name, band) => {
      const rng = mulberry32(0x5eed + METHODS.indexOf(method) * 31 + BANDS.indexOf(band));
      for (const dt of [1 / 240, 1 / 60, 0.1, 2]) {
        expect(run(method, backend, dt, (arrays) => fill(rng, method, band, dt, arrays))).toBeLessThanOrEqual(1);
      }
    });

    it.each([5e-324, 1e-300, 2 ** -61, 2 ** 61])('dt = %s (outside the f32x4 range): within the bound', (dt) => {
      const rng = mulberry32(0xd7 + METHODS.indexOf(method));
      const ratio = run(method, backend, dt, (arrays) => {
        const [x, v, g, q, p0, p1] = arrays;
        for (let i = 0; i < N; i++) {
          [p0[i], p1[i]] = method === 'criticalSpringDamper' ? [logUniform(rng, 0.01, 5), 0] : paramsOf(method, 0.3, 0, 1 / 60);
          x[i] = rng() * 2 - 1;
          v[i] = rng() * 4 - 2;
          g[i] = rng() * 2 - 1;
          q[i] = rng() * 4 - 2;
        }
      });
      expect(ratio).toBeLessThanOrEqual(1);
    });
  });
});
