/**
 * SecondOrderDynamics (t3ssel8r's second-order dynamics) on every backend: parity with the float64
 * reference over random cases, step-by-step agreement with a direct transcription of the source's
 * formulas, the closed-form step response of 'exact', convergence (and the documented ζ = 0
 * exceptions), the state in solver memory, the package's conversions, and argument errors.
 */
import { describe, expect, it } from 'vitest';
import { SecondOrderDynamics, criticalTimestep, fzrToK, kToFzr, type SecondOrderMethod, type Solver } from '../../dist/index.js';
import * as reference from '../../dist/reference/index.js';
import { BACKENDS, makeSolver, useSolvers } from '../helpers/backends.js';
import { MAGNITUDE, VALUE, type Arith } from '../helpers/magnitude.js';
import { logUniform, mulberry32, uniform, type Rng } from '../helpers/random.js';
import { oscillator, spectralRadius } from '../helpers/closed-form.js';

const METHODS: readonly SecondOrderMethod[] = ['euler-substep', 'clamped', 'pole-zero', 'exact'];
type P = number | Float32Array;

interface Update {
  y: number;
  yd: number;
  /** Magnitude mode: the relative tolerance that applies to y and yd (RELATIVE, or EXACT_RELATIVE). */
  relative: number;
  /** Relative error of the method's float64 coefficients (pole-zero near its double pole), else 0. */
  conditioning: number;
  /**
   * Magnitude mode: a bound of the float64 rounding of the oracles (euler-substep: its iterated
   * substeps; exact: the transcription's cancelling form below).
   */
  iterationError: number;
}

/**
 * One update of one channel, transcribed from t3ssel8r's formulas in float64, from the state
 * (xPrev, y, yd) with input x and, if given, xd.
 */
function transcribe(
  method: SecondOrderMethod,
  f: number,
  zeta: number,
  r: number,
  dt: number,
  x: number,
  xPrev: number,
  xdGiven: number | undefined,
  y: number,
  yd: number,
  A: Arith = VALUE,
): Update {
  const w = 2 * Math.PI * f; // ω = 2πf
  const k1 = zeta / (Math.PI * f); // k1 = ζ/(πf)
  const k2 = 1 / (w * w); // k2 = 1/(2πf)²
  const k3 = (r * zeta) / w; // k3 = rζ/(2πf)
  const xdValue = xdGiven ?? (x - xPrev) / dt; // the input velocity the step uses
  [x, xPrev, y, yd] = [A.in(x), A.in(xPrev), A.in(y), A.in(yd)];
  const slope = A.sub(x, xPrev) / dt;
  const xd = xdGiven === undefined ? slope : A.in(xdGiven); // xd = (x − xPrev)/T when not given
  switch (method) {
    case 'euler-substep': {
      // Tcrit = 0.8·(√(4k2 + k1²) − k1), in the reference's cancellation-free form so that the
      // substep count ceil(T/Tcrit) is the same number.
      const tCrit = (0.8 * (4 * k2)) / (Math.sqrt(4 * k2 + k1 * k1) + k1);
      const iterations = Math.ceil(dt / tCrit);
      const h = dt / iterations;
      const sub = (y0: number, yd0: number, u: number): [number, number] => {
        for (let i = 0; i < iterations; i++) {
          y0 = y0 + h * yd0; // y += T·yd
          yd0 = yd0 + (h * (u - y0 - k1 * yd0)) / k2; // yd += T·(x + k3·xd − y − k1·yd)/k2
        }
        return [y0, yd0];
      };
      if (A === VALUE) {
        const [y1, yd1] = sub(y, yd, x + k3 * xd);
        return { y: y1, yd: yd1, relative: RELATIVE, conditioning: 0, iterationError: 0 };
      }
      // The kernels apply the substeps composed, around the fixed point y = u: with e = y − u,
      // y' = u + a00·e + a01·yd, yd' = a10·e + a11·yd; these are the magnitudes of that form.
      const [a00, a10] = sub(1, 0, 0);
      const [a01, a11] = sub(0, 1, 0);
      const u = x + Math.abs(k3) * xd;
      const e = y + u;
      // Iterating (the reference) or composing (the kernels) in float64 rounds every substep: with
      // G the largest ∞-norm of a partial product of substeps, every |y_k|, |yd_k| is below
      // B = |u| + G·(|y| + |u| + |yd|); a substep errs by ≤ 4ε·(1 + h + (h/k2)·(2 + k1))·B
      // (ε = 2^-53) and later substeps carry that by ≤ G. Twice that, for both computations.
      const gain = partialGain(iterations, h, k1, k2);
      const bound = u + gain * (y + u + yd);
      const iterationError = 2 * iterations * gain * 4 * 2 ** -53 * (1 + h + (h / k2) * (2 + k1)) * bound;
      return {
        y: u + Math.abs(a00) * e + Math.abs(a01) * yd,
        yd: Math.abs(a10) * e + Math.abs(a11) * yd,
        relative: RELATIVE,
        conditioning: 0,
        iterationError,
      };
    }
    case 'clamped':
    case 'pole-zero': {
      let k1s = k1;
      let k2s = Math.max(k2, (dt * dt) / 2 + (dt * k1) / 2, dt * k1); // k2_stable = max(k2, T²/2 + T·k1/2, T·k1)
      let conditioning = 0;
      if (method === 'pole-zero' && w * dt >= zeta) {
        const t1 = Math.exp(-zeta * w * dt); // t1 = exp(−ζωT)
        const d = w * Math.sqrt(Math.abs(zeta * zeta - 1)); // d = ω√|ζ² − 1|
        let alpha = 2 * t1 * (zeta <= 1 ? Math.cos(dt * d) : Math.cosh(dt * d)); // α = 2·t1·(cos | cosh)(T·d)
        if (!Number.isFinite(alpha)) alpha = Math.exp(-zeta * w * dt + dt * d) + Math.exp(-zeta * w * dt - dt * d);
        const beta = t1 * t1; // β = t1²
        const denom = 1 + beta - alpha;
        if (denom > 0) {
          const t2 = dt / denom; // t2 = T/(1 + β − α)
          k1s = (1 - beta) * t2; // k1_stable = (1 − β)·t2
          k2s = dt * t2; // k2_stable = T·t2
          // The SIMD kernels compute α with an absolute error ≤ 6e-14 (exp and cos errors of
          // assembly/maths/x2.ts, docs/DECISIONS.md); 1 + β − α passes it on relative to denom.
          conditioning = 6e-14 / denom;
        }
      }
      const y1 = y + dt * yd; // y += T·yd
      // yd += T·(x + k3·xd − y − k1·yd)/k2, with the stabilised k1s, k2s
      const yd1 = yd + (dt * A.sub(A.sub(x + A.in(k3) * xd, y1), A.in(k1s) * yd)) / k2s;
      return { y: y1, yd: yd1, relative: RELATIVE, conditioning, iterationError: 0 };
    }
    case 'exact': {
      // The method as derived (src/reference/second-order.ts): first-order hold
      // x(t) = xPrev + slope·t, ramp particular solution yP = u − k1·slope with u = x + k3·xd, plus
      // the homogeneous transition of the rest. Evaluated so in float64 it cancels k1·slope, a
      // term far larger than the state: its own rounding is ≤ 8·2^-53 of these terms' magnitude.
      const T = reference.linearTransition(w, zeta, dt);
      const k3xd = A.in(k3) * xd;
      const k1slope = A.in(k1) * slope;
      const e0 = A.sub(y, A.sub(xPrev + k3xd, k1slope));
      const ed0 = A.sub(yd, slope);
      const value = {
        y: A.sub(x + k3xd, k1slope) + A.in(T.xx) * e0 + A.in(T.xv) * ed0,
        yd: slope + A.in(T.vx) * e0 + A.in(T.vv) * ed0,
      };
      if (A === VALUE) return { ...value, relative: 0, conditioning: 0, iterationError: 0 };
      // The tolerance is NOT scaled by these terms (k1·slope reaches 6e4 for a state of 10, and
      // 1e-5 of it hid a lost step): it is the state and inputs (y, yd, x, xPrev, U = k3·xd) times
      // the factors by which the exact step carries each of them (exactScales).
      const scale = exactScales(f, zeta, r, dt, x, xPrev, xdValue, y, yd);
      return { ...scale, relative: EXACT_RELATIVE, conditioning: 0, iterationError: 8 * 2 ** -53 * Math.max(value.y, value.yd) };
    }
  }
}

/**
 * The scales of the 'exact' tolerance: every input of the step (y, yd, x, xPrev and U = k3·xd, all
 * non-negative here) times the factor by which the exact step carries it into y' and yd', i.e. the
 * step's derivatives. The step is linear, so they are the float64 transcription on unit inputs:
 * y' = y + C·(U − e) + xv·yd + D·Δ and yd' = vx·(e − U) + vv·yd + I·Δ with e = y − xPrev,
 * Δ = x − xPrev. A float32 rounding of any input (or of e, Δ, U on the way) moves the result by at
 * most its relative size u times these products; y itself is carried whole (y' = y + …).
 * None of the factors is large: |C| = |1 − xx| ≤ 2, |xv| ≤ T, |D| ≤ 2, and vx, vv, I are the
 * velocity's response to the state; no k1·slope appears.
 */
function exactScales(
  f: number,
  zeta: number,
  r: number,
  dt: number,
  x: number,
  xPrev: number,
  xd: number,
  y: number,
  yd: number,
): { y: number; yd: number } {
  const unit = (y0: number, yd0: number, x0: number, xPrev0: number) => transcribe('exact', f, zeta, r, dt, x0, xPrev0, 0, y0, yd0);
  const dy = unit(1, 0, 0, 0); // ∂/∂y: (1 − C, vx)
  const dyd = unit(0, 1, 0, 0); // ∂/∂yd: (xv, vv)
  const dx = unit(0, 0, 1, 0); // ∂/∂x: (D, I)
  const C = Math.abs(1 - dy.y);
  const U = Math.abs(((r * zeta) / (2 * Math.PI * f)) * xd); // |k3·xd|
  const held = y + xPrev + U; // |e| + |U| bounded by the inputs
  return {
    y: y + C * held + Math.abs(dyd.y) * yd + Math.abs(dx.y) * (x + xPrev),
    yd: Math.abs(dy.yd) * held + Math.abs(dyd.yd) * yd + Math.abs(dx.yd) * (x + xPrev),
  };
}

/** The largest ∞-norm of A^j, j ≤ iterations, A the substep map of (e, yd) = (y − u, yd). */
function partialGain(iterations: number, h: number, k1: number, k2: number): number {
  let [a, b, c, d] = [1, 0, 0, 1];
  let gain = 1;
  for (let j = 0; j < iterations; j++) {
    const [e0, e1] = [a + h * c, b + h * d]; // y += T·yd, on both columns
    [c, d] = [c + (h * (-e0 - k1 * c)) / k2, d + (h * (-e1 - k1 * d)) / k2]; // yd += T·(u − y − k1·yd)/k2
    [a, b] = [e0, e1];
    gain = Math.max(gain, Math.abs(a) + Math.abs(b), Math.abs(c) + Math.abs(d));
  }
  return gain;
}

/**
 * Tolerance of the wasm backends: (1e-5 + conditioning)·M, M from the magnitude transcription.
 * The kernels compute each channel's coefficients in float64, round them to float32 (one relative
 * rounding per term) and step in float32 (SIMD: ≤ 12 roundings, among them 1/T and the product
 * (x − xPrev)·(1/T)) or float64 (scalar build): ≤ 14u·M ≈ 8.3e-7·M with u = 2^-24, plus the
 * expected value's own rounding u·M. 1e-5 leaves a factor 11 for the differences between the
 * float64 algorithms (≤ 1e-12·M, e.g. 'exact' uses the library's transition, the reference its
 * own; euler-substep composes its substeps, the reference iterates them). Pole-zero adds the
 * conditioning of 1 + β − α (above; it exceeds 1e-5 only within 6e-9 of the double pole at
 * ζ = 0, ω·T = 2πk, a set the random draws do not hit). Euler-substep adds the float64 rounding of
 * its iterated substeps (iterationError above): where the result decays to ~1e-30 from inputs of
 * size 10, the reference's own float64 residue (~1e-13) dominates. JS runs the reference itself: exact.
 */
const RELATIVE = 1e-5;
/**
 * 'exact' is held to float32 rounding of its scales (exactScales): the SIMD step rounds U = k3·xd
 * at most 5 times (x − xPrev, 1/T, their product, k3, k3·xd), then ≤ 3 more times through
 * U − e, its coefficient and the product, and ≤ 3 sums; the other terms fewer. 12 roundings of
 * u = 2^-24: 7.2e-7 of the scales. The float64 oracles differ by < 1e-15 of the same scales.
 */
const EXACT_RELATIVE = 12 * 2 ** -24;
const FLOOR = 1e-30;

const solvers = useSolvers(16 * 1024 * 1024);

const drawF = (rng: Rng) => logUniform(rng, 0.05, 20);
const drawZeta = (rng: Rng) => {
  const c = rng();
  return c < 1 / 16 ? 0 : c < 2 / 16 ? 1 : logUniform(rng, 0.01, 4);
};
const drawR = (rng: Rng) => (rng() < 1 / 16 ? 0 : uniform(rng, -2, 3));

type ParamMode = 'uniform' | 'per element' | 'f per element, ζ and r uniform';
const PARAM_MODES: readonly ParamMode[] = ['uniform', 'per element', 'f per element, ζ and r uniform'];
type Input = 'plain x, xd estimated' | 'alloc x and xd';
const INPUTS: readonly Input[] = ['plain x, xd estimated', 'alloc x and xd'];
/** dt per update: repeats exercise the per-element coefficient cache, changes its recomputation. */
const DTS = [1 / 60, 1 / 60, 0.3, 1 / 240, 1, 1];
const N = 10_007; // not a multiple of 4

/** Uniform calls: parameter sets that include ζ = 0 and ζ = 1 (per-element draws mix them). */
const UNIFORM_SETS = (rng: Rng): [number, number, number][] => [
  [drawF(rng), 0, drawR(rng)],
  [drawF(rng), 1, drawR(rng)],
  [drawF(rng), drawZeta(rng), drawR(rng)],
];

describe.each(METHODS.map((m) => [m] as const))('SecondOrderDynamics %s: parity with the float64 reference', (method) => {
  const cases = BACKENDS.flatMap((b) => PARAM_MODES.flatMap((pm) => INPUTS.map((input) => [b, pm, input] as const)));
  it.each(cases)('%s backend, %s parameters, %s', (backend, paramMode, inputMode) => {
    const solver = solvers[backend];
    const rng = mulberry32(
      METHODS.indexOf(method) * 100 + cases.findIndex((c) => c[0] === backend && c[1] === paramMode && c[2] === inputMode),
    );
    const alloc = inputMode === 'alloc x and xd';
    const owned: Float32Array[] = [];
    const make = () => {
      if (!alloc) return new Float32Array(N);
      const a = solver.alloc(N);
      owned.push(a);
      return a;
    };
    const x = make();
    const xd = alloc ? make() : undefined;
    const sets = paramMode === 'uniform' ? UNIFORM_SETS(rng) : [null];
    let worst = { ratio: 0, message: '' };
    try {
      for (const set of sets) {
        const perElement = (draw: (r: Rng) => number) => Float32Array.from({ length: N }, () => draw(rng));
        const f: P = set ? set[0] : perElement(drawF);
        const zeta: P = set ? set[1] : paramMode === 'per element' ? perElement(drawZeta) : drawZeta(rng);
        const r: P = set ? set[2] : paramMode === 'per element' ? perElement(drawR) : drawR(rng);
        const x0 = Float32Array.from({ length: N }, () => uniform(rng, -10, 10));
        const sod = new SecondOrderDynamics(solver, f, zeta, r, x0, { method });
        // The API rounds uniform numbers to float32: the reference gets the same values.
        const round = (p: P) => (typeof p === 'number' ? Math.fround(p) : p);
        const ref = new reference.SecondOrderDynamicsReference(N, round(f), round(zeta), round(r), x0);
        const at = (p: P, i: number) => (typeof p === 'number' ? Math.fround(p) : p[i]);
        for (const dt of DTS) {
          // A random state (the state arrays may be written between updates), copied to the reference.
          for (let i = 0; i < N; i++) {
            sod.xPrev[i] = uniform(rng, -10, 10);
            sod.y[i] = uniform(rng, -10, 10);
            sod.yd[i] = uniform(rng, -20, 20);
            x[i] = uniform(rng, -10, 10);
            if (xd) xd[i] = uniform(rng, -20, 20);
          }
          ref.xPrev.set(sod.xPrev);
          ref.y.set(sod.y);
          ref.yd.set(sod.yd);
          const m = Array.from({ length: N }, (_, i) =>
            transcribe(method, at(f, i), at(zeta, i), at(r, i), dt, x[i], sod.xPrev[i], xd?.[i], sod.y[i], sod.yd[i], MAGNITUDE),
          );
          const out = sod.update(dt, x, xd);
          ref.update(dt, x, xd, method);
          expect(out).toBe(sod.y);
          expect(sod.xPrev).toEqual(x);
          for (let i = 0; i < N; i++) {
            for (const [got, want, mag, name] of [
              [sod.y[i], ref.y[i], m[i].y, 'y'],
              [sod.yd[i], ref.yd[i], m[i].yd, 'yd'],
            ] as const) {
              const tolerance = backend === 'js' ? 0 : (m[i].relative + m[i].conditioning) * mag + m[i].iterationError + FLOOR;
              const err = Math.abs(got - (backend === 'js' ? Math.fround(want) : want));
              const ratio =
                err <= tolerance
                  ? tolerance > 0
                    ? err / tolerance
                    : 0
                  : Number.isNaN(err) || tolerance === 0
                    ? Infinity
                    : err / tolerance;
              if (ratio > worst.ratio) {
                worst = {
                  ratio,
                  message: `${name}[${i}] ${got} vs ${want} (M ${mag}), f ${at(f, i)}, ζ ${at(zeta, i)}, r ${at(r, i)}, dt ${dt}`,
                };
              }
            }
          }
        }
        sod.dispose();
      }
    } finally {
      for (const a of owned) solver.free(a);
    }
    expect(worst.ratio, worst.message).toBeLessThanOrEqual(1);
  });
});

describe('SecondOrderDynamics: each method reproduces the source formulas step by step', () => {
  // Channels in every regime; 40 updates with a moving input and changing dt (so per-element
  // coefficients are both reused and recomputed); each update compared with the transcription
  // applied to the object's own float32 state before it.
  const PARAMS: [f: number, zeta: number, r: number][] = [
    [1, 0, 0],
    [2, 0.3, 1],
    [5, 1, -0.5],
    [0.5, 2.5, 2],
    [20, 0.05, 0],
    [3, 4, 1.5],
    [12, 0.7, 0],
  ];
  const DTS_K = [1 / 60, 1 / 60, 1 / 30, 0.1, 1 / 240, 0.5];

  it.each(
    BACKENDS.flatMap((b) =>
      METHODS.flatMap(
        (m) =>
          [
            [b, m, 'uniform'],
            [b, m, 'per element'],
          ] as const,
      ),
    ),
  )('%s backend, %s, %s parameters', (backend, method, mode) => {
    const solver = solvers[backend];
    for (const [index, set] of mode === 'uniform' ? PARAMS.map((p, i) => [i, [p]] as const) : [[0, PARAMS] as const]) {
      const n = set.length;
      const f: P = mode === 'uniform' ? set[0][0] : Float32Array.from(set, (p) => p[0]);
      const zeta: P = mode === 'uniform' ? set[0][1] : Float32Array.from(set, (p) => p[1]);
      const r: P = mode === 'uniform' ? set[0][2] : Float32Array.from(set, (p) => p[2]);
      const at = (p: P, i: number) => (typeof p === 'number' ? p : p[i]);
      const sod = new SecondOrderDynamics(solver, f, zeta, r, new Float32Array(n).fill(0.5), { method });
      let time = 0;
      for (let k = 0; k < 40; k++) {
        const dt = DTS_K[k % DTS_K.length];
        time += dt;
        const x = Float32Array.from({ length: n }, (_, i) => Math.sin(1.3 * time + i) + 0.5 * Math.floor(time));
        const before = { xPrev: Float32Array.from(sod.xPrev), y: Float32Array.from(sod.y), yd: Float32Array.from(sod.yd) };
        sod.update(dt, x);
        for (let i = 0; i < n; i++) {
          const args = [method, at(f, i), at(zeta, i), at(r, i), dt, x[i], before.xPrev[i], undefined, before.y[i], before.yd[i]] as const;
          const want = transcribe(...args);
          const m = transcribe(...args, MAGNITUDE);
          const where = `set ${index + i}, update ${k}`;
          expect(Math.abs(sod.y[i] - want.y), `y, ${where}`).toBeLessThanOrEqual((m.relative + m.conditioning) * m.y + m.iterationError);
          expect(Math.abs(sod.yd[i] - want.yd), `yd, ${where}`).toBeLessThanOrEqual(
            (m.relative + m.conditioning) * m.yd + m.iterationError,
          );
        }
      }
      expect(Math.abs(sod.y[0] - 0.5)).toBeGreaterThan(1e-3); // it moved
      sod.dispose();
    }
  });

  it.each(BACKENDS.map((b) => [b] as const))('%s backend: changing the method between updates recomputes its coefficients', (backend) => {
    const solver = solvers[backend];
    const n = 6;
    const f = Float32Array.from([1, 2, 3, 4, 5, 6]);
    const zeta = Float32Array.from([0.2, 0.5, 1, 1.5, 3, 0.9]);
    const sod = new SecondOrderDynamics(solver, f, zeta, 1, new Float32Array(n), { method: 'exact' });
    const x = new Float32Array(n).fill(1);
    for (const method of ['exact', 'clamped', 'exact', 'pole-zero', 'euler-substep', 'euler-substep'] as const) {
      sod.method = method;
      const before = { xPrev: Float32Array.from(sod.xPrev), y: Float32Array.from(sod.y), yd: Float32Array.from(sod.yd) };
      sod.update(0.05, x); // the same dt every time
      for (let i = 0; i < n; i++) {
        const args = [method, f[i], zeta[i], 1, 0.05, 1, before.xPrev[i], undefined, before.y[i], before.yd[i]] as const;
        const m = transcribe(...args, MAGNITUDE);
        expect(Math.abs(sod.y[i] - transcribe(...args).y), `${method} y[${i}]`).toBeLessThanOrEqual(
          (m.relative + m.conditioning) * m.y + m.iterationError,
        );
      }
    }
    sod.dispose();
  });
});

describe("SecondOrderDynamics 'exact': the closed-form step response", () => {
  // r = 0 and a constant input x: k2·y'' + k1·y' + y = x is the spring y'' = ω²(x − y) − 2ζω·y',
  // whose textbook solution is oscillator(ω, ζ, y0, yd0, x, 0, t). Each update is compared with it
  // over that update, from the object's float32 state, to float32 rounding of the state and input
  // (exactScales).
  const PARAMS: [f: number, zeta: number][] = [
    [0.5, 0],
    [2, 0.3],
    [5, 1],
    [1, 2.5],
    [20, 0.05],
    [3, 4],
  ];
  const DTS_K = [1 / 60, 0.25, 1 / 240, 1, 0.1, 1 / 30];

  it.each(
    BACKENDS.flatMap(
      (b) =>
        [
          [b, 'uniform'],
          [b, 'per element'],
        ] as const,
    ),
  )('%s backend, %s parameters', (backend, mode) => {
    const solver = solvers[backend];
    const sets = mode === 'uniform' ? PARAMS.map((p) => [p]) : [PARAMS];
    for (const set of sets) {
      const n = set.length;
      const f: P = mode === 'uniform' ? set[0][0] : Float32Array.from(set, (p) => p[0]);
      const zeta: P = mode === 'uniform' ? set[0][1] : Float32Array.from(set, (p) => p[1]);
      const sod = new SecondOrderDynamics(solver, f, zeta, 0, new Float32Array(n).fill(-0.75), { method: 'exact' });
      const x = new Float32Array(n).fill(1.25);
      for (let k = 0; k < 36; k++) {
        const dt = DTS_K[k % DTS_K.length];
        const [y0, yd0, xPrev0] = [Float32Array.from(sod.y), Float32Array.from(sod.yd), Float32Array.from(sod.xPrev)];
        sod.update(dt, x);
        for (let i = 0; i < n; i++) {
          const [fi, zi] = set[i];
          const w = 2 * Math.PI * Math.fround(fi);
          const z = Math.fround(zi);
          // The first update sees the input jump from x0: the hold ramps it over that step.
          if (k === 0) continue;
          const [yt, ydt] = oscillator(w, z, y0[i], yd0[i], 1.25, 0, dt);
          const m = transcribe('exact', Math.fround(fi), z, 0, dt, 1.25, xPrev0[i], undefined, y0[i], yd0[i], MAGNITUDE);
          expect(Math.abs(sod.y[i] - yt), `f ${fi}, ζ ${zi}, update ${k}`).toBeLessThanOrEqual(m.relative * m.y + m.iterationError);
          expect(Math.abs(sod.yd[i] - ydt), `f ${fi}, ζ ${zi}, update ${k}`).toBeLessThanOrEqual(m.relative * m.yd + m.iterationError);
        }
      }
      sod.dispose();
    }
  });
});

describe('SecondOrderDynamics: convergence, and the undamped exceptions', () => {
  // Every method is documented stable for ζ > 0, any T > 0, f > 0 (src/reference/second-order.ts):
  // a constant input is reached on the whole grid f ≤ 20 Hz, 0 < ζ ≤ 4, T ≤ 1 s. ζ = 0 is excluded
  // from convergence because nothing damps the motion (t3ssel8r's k1 = 0): euler-substep, clamped
  // and exact stay bounded, pole-zero too except at ω·T = kπ, where its two poles meet at ±1 and
  // y − x grows linearly (the documented limitation) — both tested below.
  const FREQUENCIES = [0.5, 2, 5, 20];
  const ZETAS = [0.1, 0.5, 1, 2, 4];
  const STEPS = [1 / 240, 1 / 60, 1 / 30, 0.1, 0.3, 1];

  /** The update map of (e = y − x, yd) for a constant input x (xd = 0 after the first update). */
  function map(method: SecondOrderMethod, f: number, zeta: number, dt: number): [number, number, number, number] {
    const a = transcribe(method, f, zeta, 0, dt, 0, 0, 0, 1, 0);
    const b = transcribe(method, f, zeta, 0, dt, 0, 0, 0, 0, 1);
    return [a.y, b.y, a.yd, b.yd];
  }

  /**
   * Updates after which the float64 transcription, started as the test starts (y = yd = 0 …
   * y = 0.25 under a constant input 1.25), is within 1e-4 of the input (|y − x| + |yd|/ω): the
   * transient of each method included. The grid's springs all get there within 20,000 updates.
   */
  const updatesNeeded = new Map<string, number>();
  function updatesToSettle(method: SecondOrderMethod, f: number, zeta: number, dt: number): number {
    const key = `${method} ${f} ${zeta} ${dt}`;
    if (!updatesNeeded.has(key)) {
      const w = 2 * Math.PI * f;
      let [y, yd, xPrev] = [0.25, 0, 0.25];
      let k = 0;
      for (; k < 20_000 && !(Math.abs(y - 1.25) + Math.abs(yd) / w <= 1e-4 && k > 0); k++) {
        ({ y, yd } = transcribe(method, f, zeta, 0, dt, 1.25, xPrev, undefined, y, yd));
        xPrev = 1.25;
      }
      updatesNeeded.set(key, k);
    }
    return updatesNeeded.get(key)!;
  }

  it.each(BACKENDS.flatMap((b) => METHODS.map((m) => [b, m] as const)))(
    '%s backend, %s: every grid spring reaches the input',
    (backend, method) => {
      const solver = solvers[backend];
      for (const dt of STEPS) {
        const springs = FREQUENCIES.flatMap((f) => ZETAS.map((z) => [f, z] as const));
        let steps = 1;
        for (const [f, z] of springs) {
          expect(spectralRadius(...map(method, f, z, dt)), `ρ at f ${f}, ζ ${z}, T ${dt}`).toBeLessThan(1);
          steps = Math.max(steps, updatesToSettle(method, f, z, dt));
        }
        expect(steps, `T ${dt}`).toBeLessThan(20_000);
        const n = springs.length;
        const sod = new SecondOrderDynamics(
          solver,
          Float32Array.from(springs, (s) => s[0]),
          Float32Array.from(springs, (s) => s[1]),
          0,
          new Float32Array(n).fill(0.25),
          { method },
        );
        const x = new Float32Array(n).fill(1.25);
        let peak = 0;
        for (let k = 0; k < steps; k++) {
          sod.update(dt, x);
          for (let i = 0; i < n; i++) peak = Math.max(peak, Math.abs(sod.y[i] - 1.25));
        }
        // The float64 trajectory is within 1e-4 by now. The float32 one follows it: y = x, yd = 0 is
        // an exact fixed point in float32 too, so its rounding errors shrink with the distance to it;
        // 1e-3 of the unit jump leaves a factor 10.
        for (let i = 0; i < n; i++) {
          expect(Math.abs(sod.y[i] - 1.25), `f ${springs[i][0]}, ζ ${springs[i][1]}, T ${dt}`).toBeLessThanOrEqual(1e-3);
        }
        expect(peak).toBeLessThan(20); // and it never diverged on the way
        sod.dispose();
      }
    },
  );

  it.each(BACKENDS.map((b) => [b] as const))('%s backend: at ζ = 0 every method stays bounded, pole-zero except at ω·T = π', (backend) => {
    const solver = solvers[backend];
    const dt = 1 / 60;
    // f = 30 Hz gives ω·T = π; 27 Hz (0.9π) and 2 Hz are ordinary undamped springs.
    for (const method of METHODS) {
      for (const f of [2, 27, 30]) {
        const sod = new SecondOrderDynamics(solver, f, 0, 0, new Float32Array([0]), { method });
        const x = new Float32Array([1]);
        sod.update(dt, x);
        let peak = 0;
        for (let k = 0; k < 400; k++) peak = Math.max(peak, Math.abs(sod.update(dt, x)[0] - 1));
        const [a, b, c, d] = map(method, f, 0, dt);
        if (method === 'pole-zero' && f === 30) {
          // Double pole at −1 (trace −2, det 1): y − x grows by about its first-step size per step.
          expect(a + d).toBeCloseTo(-2, 6);
          expect(a * d - b * c).toBeCloseTo(1, 6);
          expect(peak).toBeGreaterThan(50);
        } else {
          // Unit-modulus, distinct poles: the orbit stays within a few times the unit jump.
          expect(spectralRadius(a, b, c, d)).toBeCloseTo(1, 6);
          expect(peak, `${method}, f ${f}`).toBeLessThan(10);
        }
        sod.dispose();
      }
    }
  });
});

describe('SecondOrderDynamics: state in solver memory, dispose', () => {
  it.each(BACKENDS.map((b) => [b] as const))('%s backend', (backend) => {
    const solver = solvers[backend];
    const x0 = Float32Array.from([1, 2, 3, 4, 5]);
    const sod = new SecondOrderDynamics(solver, 2, 0.5, 1, x0);
    expect(sod.method).toBe('pole-zero');
    expect(sod.n).toBe(5);
    expect(sod.y).toEqual(x0);
    expect(sod.xPrev).toEqual(x0);
    expect(sod.yd).toEqual(new Float32Array(5));
    if (backend !== 'js') {
      const probe = solver.alloc(1);
      for (const a of [sod.y, sod.yd, sod.xPrev]) expect(a.buffer).toBe(probe.buffer);
      solver.free(probe);
    }
    const y = sod.update(0.1, new Float32Array(5));
    expect(y).toBe(sod.y);
    expect(sod.update(0.1, new Float32Array(5))).toBe(y); // the same array every time
    expect(sod.update(0, Float32Array.from([9, 9, 9, 9, 9]))).toBe(y);
    expect(sod.xPrev).toEqual(new Float32Array(5)); // dt = 0 changed nothing
    sod.dispose();
    sod.dispose(); // idempotent
    expect(() => sod.update(0.1, new Float32Array(5))).toThrow(/SecondOrderDynamics.update: this object has been disposed/);
  });

  it('dispose after the solver was disposed does not throw; updates then throw a TypeError', async () => {
    const solver = await makeSolver('simd', 1024 * 1024);
    const sod = new SecondOrderDynamics(solver, Float32Array.from([1, 2]), 0.5, 0, new Float32Array(2));
    solver.dispose();
    expect(() => sod.update(0.1, new Float32Array(2))).toThrow(TypeError);
    expect(() => sod.dispose()).not.toThrow();
  });
});

describe('the conversions exported by the package', () => {
  it('fzrToK, kToFzr and criticalTimestep', () => {
    const { k1, k2, k3 } = fzrToK(2, 0.5, 1.5);
    expect(k1).toBeCloseTo(0.5 / (Math.PI * 2), 15); // k1 = ζ/(πf)
    expect(k2).toBeCloseTo(1 / (4 * Math.PI) ** 2, 15); // k2 = 1/(2πf)²
    expect(k3).toBeCloseTo((1.5 * 0.5) / (4 * Math.PI), 15); // k3 = rζ/(2πf)
    const back = kToFzr(k1, k2, k3);
    expect(back.f).toBeCloseTo(2, 12);
    expect(back.zeta).toBeCloseTo(0.5, 12);
    expect(back.r).toBeCloseTo(1.5, 12);
    expect(criticalTimestep(k1, k2)).toBeCloseTo(0.8 * (Math.sqrt(4 * k2 + k1 * k1) - k1), 14);
    expect(() => fzrToK(0, 0.5, 1)).toThrow(RangeError);
  });
});

describe('SecondOrderDynamics: argument errors', () => {
  const n = 4;
  const x0 = () => Float32Array.from([0.5, -1, 2, 3]);
  type Ctor = (s: Solver) => unknown;
  const BAD_CONSTRUCTION: [what: string, make: Ctor, error: typeof TypeError | typeof RangeError, pattern: RegExp][] = [
    ['not a solver', () => new SecondOrderDynamics({} as Solver, 1, 0.5, 0, x0()), TypeError, /solver must be a Solver/],
    ['x0 an Array', (s) => new SecondOrderDynamics(s, 1, 0.5, 0, [1, 2] as never), TypeError, /x0 must be a Float32Array/],
    ['f = 0', (s) => new SecondOrderDynamics(s, 0, 0.5, 0, x0()), RangeError, /SecondOrderDynamics: f is 0; it must be finite and > 0/],
    ['f negative', (s) => new SecondOrderDynamics(s, -2, 0.5, 0, x0()), RangeError, /f is -2/],
    ['f = 0 per element', (s) => new SecondOrderDynamics(s, Float32Array.from([1, 1, 0, 1]), 0.5, 0, x0()), RangeError, /f\[2\] is 0/],
    ['f 0 in float32', (s) => new SecondOrderDynamics(s, 1e-50, 0.5, 0, x0()), RangeError, /f is 1e-50, 0 in float32/],
    ['zeta NaN', (s) => new SecondOrderDynamics(s, 1, NaN, 0, x0()), RangeError, /zeta is NaN/],
    [
      'zeta negative per element',
      (s) => new SecondOrderDynamics(s, 1, Float32Array.from([0, 0, 0, -1]), 0, x0()),
      RangeError,
      /zeta\[3\] is -1/,
    ],
    ['r Infinity', (s) => new SecondOrderDynamics(s, 1, 0.5, Infinity, x0()), RangeError, /r is Infinity; it must be finite/],
    ['r wrong length', (s) => new SecondOrderDynamics(s, 1, 0.5, new Float32Array(3), x0()), RangeError, /r has length 3, expected 4/],
    ['r a string', (s) => new SecondOrderDynamics(s, 1, 0.5, '1' as never, x0()), TypeError, /r must be a number or a Float32Array/],
    [
      'unknown method',
      (s) => new SecondOrderDynamics(s, 1, 0.5, 0, x0(), { method: 'rk4' as never }),
      RangeError,
      /options.method is 'rk4'/,
    ],
    [
      'method not a string',
      (s) => new SecondOrderDynamics(s, 1, 0.5, 0, x0(), { method: 1 as never }),
      TypeError,
      /options.method must be a string/,
    ],
  ];
  it.each(BACKENDS.flatMap((b) => BAD_CONSTRUCTION.map(([w, m, e, p]) => [b, w, m, e, p] as const)))(
    '%s backend, construction: %s',
    (backend, _w, make, error, pattern) => {
      const solver = solvers[backend];
      expect(() => make(solver)).toThrow(error);
      expect(() => make(solver)).toThrow(pattern);
    },
  );

  type Upd = (sod: SecondOrderDynamics) => unknown;
  const BAD_UPDATE: [what: string, call: Upd, error: typeof TypeError | typeof RangeError, pattern: RegExp][] = [
    ['dt negative', (d) => d.update(-1, new Float32Array(n)), RangeError, /SecondOrderDynamics.update: dt is -1/],
    ['dt NaN', (d) => d.update(NaN, new Float32Array(n)), RangeError, /dt is NaN/],
    ['x too long', (d) => d.update(0.1, new Float32Array(n + 1)), RangeError, /x has length 5, expected 4/],
    ['x a Float64Array', (d) => d.update(0.1, new Float64Array(n) as never), TypeError, /x must be a Float32Array/],
    ['xd an Array', (d) => d.update(0.1, new Float32Array(n), [0, 0, 0, 0] as never), TypeError, /xd must be a Float32Array/],
    ['xd too short', (d) => d.update(0.1, new Float32Array(n), new Float32Array(2)), RangeError, /xd has length 2/],
    ['x overlapping y', (d) => d.update(0.1, new Float32Array(d.y.buffer, d.y.byteOffset + 4, n)), RangeError, /x and y overlap/],
    [
      'unknown method set',
      (d) => {
        d.method = 'verlet' as never;
      },
      RangeError,
      /method is 'verlet'/,
    ],
  ];
  // A partial overlap needs a buffer larger than the state array: only wasm memory has one.
  const updateCases = BACKENDS.flatMap((b) =>
    BAD_UPDATE.filter(([w]) => b !== 'js' || w !== 'x overlapping y').map(([w, c, e, p]) => [b, w, c, e, p] as const),
  );
  it.each(updateCases)('%s backend, update: %s; nothing written', (backend, _w, call, error, pattern) => {
    const solver = solvers[backend];
    const sod = new SecondOrderDynamics(solver, Float32Array.from([1, 2, 3, 4]), 0.5, 1, x0(), { method: 'exact' });
    sod.update(0.1, Float32Array.from([1, 1, 1, 1]));
    const snapshot = [sod.xPrev, sod.y, sod.yd].map((a) => Float32Array.from(a));
    let thrown: unknown;
    try {
      call(sod);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(error);
    expect((thrown as Error).message).toMatch(pattern);
    expect([sod.xPrev, sod.y, sod.yd]).toEqual(snapshot);
    expect(sod.method).toBe('exact');
    sod.dispose();
  });

  it.each(BACKENDS.map((b) => [b] as const))('%s backend: a disposed solver', async (backend) => {
    const solver = await makeSolver(backend, 1024 * 1024);
    solver.dispose();
    expect(() => new SecondOrderDynamics(solver, 1, 0.5, 0, x0())).toThrow(/SecondOrderDynamics: this solver has been disposed/);
  });
});

describe("SecondOrderDynamics 'exact': a slow, damped channel keeps its whole step", () => {
  // k1 = ζ/(πf) = 12.7 and an input jump of 20 over 1/60 s: k1·slope = 1.5e4 against a state of 10.
  // The step written around the ramp solution cancelled such terms in float32 and lost the step
  // (y stayed 10 on the SIMD lanes). Every lane and the scalar tail (n = 5), uniform and per
  // element, must match the float64 step to float32 rounding of the state and inputs.
  const CASES: [f: number, zeta: number, r: number, dt: number, from: number, to: number][] = [
    [0.1, 4, 0, 1 / 60, 10, -10],
    [0.25, 1, 0, 1 / 240, 10, -10],
    [0.1, 4, 2, 1 / 60, 10, -10], // k3·xd = 1.5e4 too, estimated from the jump
    [2, 0.7, 0, 1 / 60, -3, 7], // an ordinary spring: k1·slope = 67 against a state of 7
  ];
  it.each(
    BACKENDS.flatMap((b) =>
      CASES.flatMap(
        (c) =>
          [
            [b, 'uniform', ...c],
            [b, 'per element', ...c],
          ] as const,
      ),
    ),
  )('%s backend, %s parameters, f %s, ζ %s, r %s, dt %s, x %s → %s', (backend, mode, f, zeta, r, dt, from, to) => {
    const solver = solvers[backend];
    const n = 5;
    const p = (v: number): P => (mode === 'uniform' ? v : new Float32Array(n).fill(v));
    const sod = new SecondOrderDynamics(solver, p(f), p(zeta), p(r), new Float32Array(n).fill(from), { method: 'exact' });
    sod.update(dt, new Float32Array(n).fill(to));
    const [F, Z, R] = [f, zeta, r].map(Math.fround);
    const want = transcribe('exact', F, Z, R, dt, to, from, undefined, from, 0);
    const m = transcribe('exact', F, Z, R, dt, to, from, undefined, from, 0, MAGNITUDE);
    for (let i = 0; i < n; i++) {
      expect(Math.abs(sod.y[i] - want.y), `y[${i}] ${sod.y[i]} vs ${want.y}`).toBeLessThanOrEqual(m.relative * m.y + m.iterationError);
      expect(Math.abs(sod.yd[i] - want.yd), `yd[${i}] ${sod.yd[i]} vs ${want.yd}`).toBeLessThanOrEqual(
        m.relative * m.yd + m.iterationError,
      );
    }
    expect(Math.abs(want.y - from)).toBeGreaterThan(10 * (m.relative * m.y)); // so a lost step cannot pass
    sod.dispose();
  });
});
