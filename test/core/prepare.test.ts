/**
 * Prepared calls (solver.prepare): on every backend a prepared step gives the very bits of the
 * ordinary call on the same backend (the kept coefficients of a fixed dt included: a prepared
 * step runs the same kernel code on the same float32 coefficients), parameters are copied at
 * prepare and refresh (never read stale without a refresh), and bad input is rejected at prepare
 * and at step like the method's own.
 */
import { describe, expect, it } from 'vitest';
import type { Param, Solver } from '../../dist/index.js';
import { BACKENDS, FUNCTIONS, callKernel, makeSolver, useSolvers, type FnInfo, LARGE_DT_ON_PURPOSE } from '../helpers/backends.js';
import { fillState, logUniform, mulberry32, timeSteps, type Rng } from '../helpers/random.js';

const solvers = useSolvers(4 * 1024 * 1024, LARGE_DT_ON_PURPOSE);

/** Not a multiple of 4: the SIMD kernels finish with a scalar tail. */
const N = 1003;

/** A valid parameter of `fn` (number or per-element array). */
function paramValues(rng: Rng, fn: FnInfo, perElement: boolean, make: () => Float32Array): Param[] {
  return fn.params.map((name) => {
    const draw = () =>
      name === 'dampingRatio'
        ? logUniform(rng, 0.1, 10)
        : name === 'frequency'
          ? logUniform(rng, 0.1, 5)
          : name === 'stiffness'
            ? logUniform(rng, 0.1, 500)
            : logUniform(rng, 0.01, 3);
    if (!perElement) return Math.fround(draw());
    const a = make();
    for (let i = 0; i < a.length; i++) a[i] = draw();
    return a;
  });
}

/** Arguments of `fn` without dt, in its order. */
function argsOf(fn: FnInfo, s: { x: Float32Array; v: Float32Array; g: Float32Array; q: Float32Array }, p: Param[]): unknown[] {
  return [s.x, ...(fn.hasV ? [s.v] : []), ...(fn.hasG ? [s.g] : []), ...(fn.hasQ ? [s.q] : []), ...p];
}

type Layout = 'alloc' | 'plain';

describe.each(BACKENDS.map((b) => [b] as const))('%s backend', (backend) => {
  const cases = FUNCTIONS.flatMap((fn) =>
    (['uniform', 'per-element'] as const).flatMap((pm) =>
      (['alloc', 'plain'] as Layout[]).map((layout) => [fn.name, pm, layout, fn] as const),
    ),
  );

  it.each(cases)('%s, %s parameters, %s arrays: prepared steps equal ordinary calls bit for bit', (_name, pm, layout, fn) => {
    const solver = solvers[backend];
    const owned: Float32Array[] = [];
    const make = () => {
      if (layout === 'plain') return new Float32Array(N);
      const a = solver.alloc(N);
      owned.push(a);
      return a;
    };
    try {
      const rng = mulberry32(fn.name.length * 31 + (pm === 'uniform' ? 1 : 2));
      const mine = { x: make(), v: make(), g: make(), q: make() };
      const theirs = { x: make(), v: make(), g: make(), q: make() };
      fillState(rng, mine.x, mine.v, mine.g, mine.q);
      for (const k of ['x', 'v', 'g', 'q'] as const) theirs[k].set(mine[k]);
      const params = paramValues(rng, fn, pm === 'per-element', make);
      const step = (solver.prepare as (m: string, ...a: unknown[]) => (dt: number) => void)(fn.name, ...argsOf(fn, mine, params));
      // A fixed dt (coefficients computed, then kept, then applied), another, then back.
      const [a, b] = timeSteps(rng, 3).slice(1);
      for (const dt of [a, a, a, a, b, a, a, 0, a]) {
        step(dt);
        callKernel(solver, fn.name, theirs.x, theirs.v, theirs.g, theirs.q, params, dt);
        expect(mine.x).toEqual(theirs.x);
        expect(mine.v).toEqual(theirs.v);
      }
      (step as unknown as { dispose(): void }).dispose();
    } finally {
      for (const a of owned) solver.free(a);
    }
  });

  it('reads per-element parameters at prepare and refresh only, and state and goals live', () => {
    const solver = solvers[backend];
    const [x, v, g, q, h, x2, v2] = [0, 0, 0, 0, 0, 0, 0].map(() => solver.alloc(N));
    const rng = mulberry32(5);
    fillState(rng, x, v, g, q);
    for (let i = 0; i < N; i++) h[i] = logUniform(rng, 0.05, 1);
    const old = Float32Array.from(h);
    x2.set(x);
    v2.set(v);
    const step = solver.prepare('criticalSpringDamper', x, v, g, q, h);
    step(1 / 60);
    step(1 / 60); // coefficients kept from here
    solver.criticalSpringDamper(x2, v2, g, q, old, 1 / 60);
    solver.criticalSpringDamper(x2, v2, g, q, old, 1 / 60);
    for (let i = 0; i < N; i++) h[i] *= 2; // no effect until refresh
    g.fill(3); // goals are read live
    step(1 / 60);
    solver.criticalSpringDamper(x2, v2, g, q, old, 1 / 60);
    expect(x).toEqual(x2);
    expect(v).toEqual(v2);
    step.refresh();
    step(1 / 60);
    step(1 / 60);
    solver.criticalSpringDamper(x2, v2, g, q, h, 1 / 60);
    solver.criticalSpringDamper(x2, v2, g, q, h, 1 / 60);
    expect(x).toEqual(x2);
    expect(v).toEqual(v2);
    // A refresh that fails changes nothing: the old copies stay in effect.
    const before = Float32Array.from(h);
    h[7] = -1;
    expect(() => step.refresh()).toThrow(new RangeError('criticalSpringDamper: halflife[7] is -1; it must be finite and ≥ 0 (+0, not −0)'));
    step(1 / 60);
    solver.criticalSpringDamper(x2, v2, g, q, before, 1 / 60);
    expect(x).toEqual(x2);
    step.dispose();
    expect(() => step(1 / 60)).toThrow(new TypeError('criticalSpringDamper: this prepared call has been disposed'));
    expect(() => step.refresh()).toThrow(TypeError);
    for (const a of [x, v, g, q, h, x2, v2]) solver.free(a);
  });

  it('takes one parameter per item with itemSize', () => {
    const solver = solvers[backend];
    const n = 3 * 335;
    const [x, v, g, q, x2, v2] = [0, 0, 0, 0, 0, 0].map(() => solver.alloc(n));
    const rng = mulberry32(11);
    fillState(rng, x, v, g, q);
    x2.set(x);
    v2.set(v);
    const perItem = new Float32Array(n / 3).map(() => logUniform(rng, 0.05, 1));
    const perElement = new Float32Array(n).map((_, i) => perItem[Math.floor(i / 3)]);
    const step = solver.prepare({ method: 'simpleSpringDamper', itemSize: 3 }, x, v, g, perItem);
    for (let k = 0; k < 3; k++) {
      step(1 / 60);
      solver.simpleSpringDamper(x2, v2, g, perElement, 1 / 60);
    }
    expect(x).toEqual(x2);
    expect(v).toEqual(v2);
    step.dispose();
    expect(() => solver.prepare({ method: 'simpleSpringDamper', itemSize: 3 }, x, v, g, perElement)).toThrow(
      new RangeError(`simpleSpringDamper: halflife has length ${n}, expected ${n / 3} (one value per item of 3 elements, x has ${n})`),
    );
    expect(() => solver.prepare({ method: 'quatMul', itemSize: 4 }, x, g, q)).toThrow(RangeError);
    expect(() => solver.prepare({ method: 'damper', itemSize: 1.5 }, x, g, 0.1)).toThrow(RangeError);
    for (const a of [x, v, g, q, x2, v2]) solver.free(a);
  });

  it('prepares the other families like their methods, bit for bit', () => {
    const solver = solvers[backend];
    const rng = mulberry32(3);
    const n = 101;
    const arr = (width = 1) => new Float32Array(n * width).map(() => rng() * 2 - 1);
    const quat = () => {
      const a = arr(4);
      for (let i = 0; i < a.length; i += 4) {
        const r = Math.hypot(a[i], a[i + 1], a[i + 2], a[i + 3]);
        for (let k = 0; k < 4; k++) a[i + k] /= r;
      }
      return a;
    };
    const h = new Float32Array(n).map(() => logUniform(rng, 0.05, 1));
    // [method, make arguments (without dt), index of dt or null]
    const calls: [string, () => unknown[], number | null][] = [
      ['doubleSpringDamper', () => [arr(), arr(), arr(), arr(), arr(), h], 6],
      ['timedSpringDamper', () => [arr(), arr(), arr(), arr(), 0.5, 0.2, 1.5], 6],
      ['quatSimpleSpringDamper', () => [quat(), arr(3), quat(), h], 4],
      ['inertializeTransition', () => [arr(), arr(), arr(), arr(), arr(), arr()], null],
      ['quatMul', () => [new Float32Array(4 * n), quat(), quat()], null],
      ['pdSpring', () => [arr(), arr(), arr(), arr(), 2, 0.7, { integrator: 'semi-implicit' }], 6],
      [
        'characterPredict',
        () => [new Float32Array(n * 4), new Float32Array(n * 4), new Float32Array(n * 4), arr(), arr(), arr(), arr(), 0.2, 4],
        8,
      ],
    ];
    for (const [method, make, dtIndex] of calls) {
      const mine = make();
      const theirs = mine.map((a) => (a instanceof Float32Array ? Float32Array.from(a) : a));
      const prepare = solver.prepare as unknown as (m: string, ...a: unknown[]) => (dt?: number) => void;
      const step = prepare.call(solver, method, ...mine);
      const fn = (solver as unknown as Record<string, (...a: unknown[]) => void>)[method];
      for (const dt of [1 / 60, 1 / 60, 1 / 30]) {
        step(dt);
        const args = theirs.slice();
        if (dtIndex !== null) args.splice(dtIndex, 0, dt);
        fn.apply(solver, args);
      }
      expect(mine, method).toEqual(theirs);
    }
    // substep runs as itself at every step
    let calls_ = 0;
    const sub = solver.prepare('substep', { maxDt: 0.01 }, () => void calls_++);
    expect(sub(0.05)).toBe(5);
    expect(calls_).toBe(5);
  });

  it('rejects bad input at prepare as the method does, and a bad dt at step', () => {
    const solver = solvers[backend];
    const [x, v, g, q] = [0, 0, 0, 0].map(() => new Float32Array(8));
    const bad = new Float32Array(7);
    const prepare = solver.prepare as unknown as (m: unknown, ...a: unknown[]) => (dt?: unknown) => void;
    expect(() => prepare.call(solver, 'springDamper', x, v, g, bad, 2, 0.2)).toThrow(
      new RangeError('springDamper: q has length 7, expected 8 (8 elements × 1, as x)'),
    );
    expect(() => prepare.call(solver, 'criticalSpringDamper', x, v, g, [1], 0.2)).toThrow(TypeError);
    expect(() => prepare.call(solver, 'criticalSpringDamper', x, x, g, q, 0.2)).toThrow(RangeError);
    expect(() => prepare.call(solver, 'damper', x, g, -1)).toThrow(
      new RangeError('damper: halflife is -1; it must be finite and ≥ 0 (+0, not −0)'),
    );
    expect(() => prepare.call(solver, 'nope', x)).toThrow(new TypeError('prepare: method must be the name of a Solver method, got "nope"'));
    expect(() => prepare.call(solver, 'alloc', 3)).toThrow(TypeError);
    expect(() => prepare.call(solver, 'doubleSpringDamper', x, v, x, v, g, 0.2)).toThrow(RangeError);
    // extra or missing arguments (dt given to prepare as to the method; a parameter left out)
    expect(() => prepare.call(solver, 'criticalSpringDamper', x, v, g, q, 0.1, 1 / 60)).toThrow(
      new TypeError('prepare: criticalSpringDamper takes 5 arguments after its name (its own without dt, which each step takes), got 6'),
    );
    expect(() => prepare.call(solver, 'criticalSpringDamper', x, v, g, q)).toThrow(/criticalSpringDamper takes 5 arguments .* got 4/);
    expect(() => prepare.call(solver, 'quatMul', x, g)).toThrow(
      new TypeError('prepare: quatMul takes 3 arguments after its name (its own), got 2'),
    );
    const w = new Float32Array(8);
    expect(() => prepare.call(solver, 'timedSpringDamper', x, v, w, g, 1, 0.2, 2, 1 / 60)).toThrow(/takes 6 to 7 arguments .* got 8/);
    prepare.call(solver, 'timedSpringDamper', x, v, w, g, 1, 0.2); // the apprehension may be left out
    prepare.call(solver, 'timedSpringDamper', x, v, w, g, 1, 0.2, 2);
    expect(() => prepare.call(solver, { method: 'damper' }, x, g, 0.1, 1 / 60)).toThrow(/prepare: damper takes 3 arguments/);
    const step = solver.prepare('simpleSpringDamper', x, v, g, 0.2);
    const before = Float32Array.from(x);
    expect(() => step(-1)).toThrow(new RangeError('simpleSpringDamper: dt is -1; it must be finite and ≥ 0 (+0, not −0)'));
    expect(() => step(NaN)).toThrow(RangeError);
    expect(() => (step as unknown as (dt: unknown) => void)('1')).toThrow(
      new TypeError('simpleSpringDamper: dt must be a number, got string'),
    );
    expect(x).toEqual(before);
    const family = solver.prepare('extrapolate', x, v, 0.2);
    expect(() => family(Infinity)).toThrow(RangeError);
  });

  it('ordinary calls on alloc() arrays: overlaps and bad per-element values still rejected, an input may be an output', () => {
    // The quick path of the ordinary call compares byte offsets; whatever it declines goes
    // through the full checks, so the errors are the full checks' own.
    const solver = solvers[backend];
    const block = solver.alloc(64);
    const x = block.subarray(0, 16);
    const v = block.subarray(16, 32);
    const g = block.subarray(32, 48);
    const h = block.subarray(48, 64).fill(0.2);
    const before = Float32Array.from(block);
    expect(() => solver.simpleSpringDamper(x, block.subarray(8, 24), g, 0.2, 1 / 60)).toThrow(
      new RangeError('simpleSpringDamper: x and v overlap in memory; outputs must be distinct arrays'),
    );
    expect(() => solver.simpleSpringDamper(x, v, block.subarray(20, 36), 0.2, 1 / 60)).toThrow(
      new RangeError('simpleSpringDamper: v and g overlap in memory; g may only be the very same array as x or v'),
    );
    expect(() => solver.criticalSpringDamper(x, v, g, g, block.subarray(24, 40), 1 / 60)).toThrow(RangeError);
    solver.criticalSpringDamper(x, v, g, g, block.subarray(36, 52).fill(0.2), 1 / 60); // inputs may overlap inputs
    h[3] = -2;
    before.set(block);
    expect(() => solver.simpleSpringDamper(x, v, g, h, 1 / 60)).toThrow(
      new RangeError('simpleSpringDamper: halflife[3] is -2; it must be finite and ≥ 0 (+0, not −0)'),
    );
    expect(() => solver.springDamperRatio(x, v, g, g, 0, 0.2, 1 / 60)).toThrow(RangeError);
    expect(block).toEqual(before);
    h[3] = 0.2;
    // g = x: the identical array is allowed (read before written); x then relaxes toward itself.
    x.fill(1);
    solver.simpleSpringDamper(x, v, x, h, 1 / 60);
    expect(x[0]).toBe(1);
    solver.free(block);
  });

  it('refuses a freed array at the next step, and −0 and freed arrays in ordinary calls, writing nothing', async () => {
    const solver = await makeSolver(backend, 1024 * 1024);
    const [x, v, g] = [0, 0, 0].map(() => solver.alloc(8).fill(1));
    const step = solver.prepare('simpleSpringDamper', x, v, g, 0.2);
    step(1 / 60);
    const unrelated = solver.alloc(4);
    solver.free(unrelated); // a free elsewhere: the step checks its arrays again and goes on
    step(1 / 60);
    solver.free(g);
    const before = Float32Array.from(x);
    expect(() => step(1 / 60)).toThrow(new TypeError('simpleSpringDamper: g was freed (solver.free); it must not be used afterwards'));
    expect(() => solver.simpleSpringDamper(x, v, g, 0.2, 1 / 60)).toThrow(TypeError);
    expect(() => solver.simpleSpringDamper(x, v, new Float32Array(8), -0, 1 / 60)).toThrow(RangeError);
    expect(() => solver.damper(x, new Float32Array(8), -0, 1 / 60)).toThrow(RangeError);
    expect(x).toEqual(before);
    step.dispose();
    solver.dispose();
  });

  it('throws after the solver is disposed', async () => {
    const solver = await makeSolver(backend, 1024 * 1024);
    const [x, v, g, h] = [0, 0, 0, 0].map(() => solver.alloc(8));
    h.fill(0.2);
    const step = solver.prepare('simpleSpringDamper', x, v, g, h);
    const family = solver.prepare('extrapolate', x, v, h);
    solver.dispose();
    expect(() => step(1 / 60)).toThrow(new TypeError('simpleSpringDamper: this solver has been disposed'));
    expect(() => family(1 / 60)).toThrow(new TypeError('extrapolate: this solver has been disposed'));
    expect(() => step.refresh()).toThrow(TypeError);
    step.dispose();
  });
});

// Types: a prepared call takes the method's arguments without dt, checked like the method's own.
function typeChecks(solver: Solver, x: Float32Array): void {
  const step = solver.prepare('criticalSpringDamper', x, x, x, x, 0.2);
  step(1 / 60);
  // @ts-expect-error dt is not an argument of prepare
  solver.prepare('criticalSpringDamper', x, x, x, x, 0.2, 1 / 60);
  // @ts-expect-error a step takes dt
  step();
  // @ts-expect-error halflife is a number or a Float32Array
  solver.prepare('simpleSpringDamper', x, x, x, 'slow');
  const transition = solver.prepare('inertializeTransition', x, x, x, x, x, x);
  transition();
  const timed = solver.prepare('timedSpringDamper', x, x, x, x, 1, 0.2, 2);
  timed(1 / 60);
  const count: number = solver.prepare('substep', { maxDt: 0.01 }, () => {})(0.1);
  void count;
}
void typeChecks; // compiled by `npm run typecheck`, never run
