/**
 * SecondOrderDynamics (t3ssel8r's second-order dynamics) on every backend: parity with the float64
 * reference over random cases, step-by-step agreement with a direct transcription of the source's
 * formulas, the closed-form step response of 'exact', convergence (and the documented ζ = 0
 * exceptions), the state in solver memory, the package's conversions, and argument errors.
 */
import { describe, expect, it } from 'vitest';
import { SecondOrderDynamics, criticalTimestep, fzrToK, kToFzr, type SecondOrderMethod, type Solver } from '../../dist/index.js';
import * as reference from '../../dist/reference/index.js';
import { BACKENDS, makeSolver, useSolvers, LARGE_DT_ON_PURPOSE } from '../helpers/backends.js';
import { MAGNITUDE } from '../helpers/magnitude.js';
import { FLOOR, transcribe } from '../helpers/second-order-transcription.js';
import { logUniform, mulberry32, uniform, type Rng } from '../helpers/random.js';
import { oscillator, spectralRadius } from '../helpers/closed-form.js';

const METHODS: readonly SecondOrderMethod[] = ['euler-substep', 'clamped', 'pole-zero', 'exact'];
type P = number | Float32Array;

const solvers = useSolvers(16 * 1024 * 1024, LARGE_DT_ON_PURPOSE);

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

describe("SecondOrderDynamics 'pole-zero' per element: many periods in one step", () => {
  // α = 2·t1·cos(T·d) with T·d beyond 2^20·π/2 rad (f·T > 2.6e5 periods), where the f64x2 sin/cos
  // of the per-element coefficients does not reduce its argument: T·d = 2.4e34 gave yd = −∞ on SIMD
  // (a fuzz counterexample, test/fuzz/stateful.test.ts). Four SIMD lanes and the scalar tail (n = 5).
  it.each(BACKENDS.flatMap((b) => [1e3, 1e30].map((dt) => [b, dt] as const)))('%s backend, f 3805.9 Hz, ζ 0, dt %s', (backend, dt) => {
    const n = 5;
    const f = Math.fround(3805.949234695568);
    const sod = new SecondOrderDynamics(solvers[backend], new Float32Array(n).fill(f), 0, 0, new Float32Array(n), { method: 'pole-zero' });
    sod.update(dt, new Float32Array(n).fill(1));
    const want = transcribe('pole-zero', f, 0, 0, dt, 1, 0, undefined, 0, 0);
    const m = transcribe('pole-zero', f, 0, 0, dt, 1, 0, undefined, 0, 0, MAGNITUDE);
    for (let i = 0; i < n; i++) {
      const tolerance = (m.relative + m.conditioning) * m.yd + FLOOR;
      expect(Math.abs(sod.yd[i] - want.yd), `yd[${i}] ${sod.yd[i]} vs ${want.yd} ± ${tolerance}`).toBeLessThanOrEqual(tolerance);
      expect(Math.abs(sod.y[i] - want.y), `y[${i}] ${sod.y[i]} vs ${want.y}`).toBeLessThanOrEqual(
        (m.relative + m.conditioning) * m.y + FLOOR,
      );
    }
    sod.dispose();
  });
});

describe('SecondOrderDynamics with no channels', () => {
  // With n = 0 the 'euler-substep' check of ceil(T/Tcrit) ≤ 10^6 has no channel to check, but the
  // wasm kernels still composed the uniform parameters' substeps: f = 1e8 Hz, dt = 0.25 s is 1e8
  // substeps (f = 1e9 took 12–15 s; f = 1e30 never returned). A fuzz counterexample (test/fuzz/stateful.test.ts).
  it.each(BACKENDS)('%s backend: an update returns at once', (backend) => {
    const solver = solvers[backend];
    const sod = new SecondOrderDynamics(solver, 1e8, 0, 0, new Float32Array(0), { method: 'euler-substep' });
    const x = solver.alloc(0); // an input in solver memory: the kernel runs (a plain one of length 0 is not copied in)
    const start = performance.now();
    sod.update(0.25, x);
    expect(performance.now() - start).toBeLessThan(100);
    solver.free(x);
    sod.dispose();
  });
});
