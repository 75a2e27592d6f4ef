/**
 * Substepping on every backend: solver.substep (steps of at most maxDt, 'max-dt' with a remainder
 * or 'uniform'), its convergence to the exact solution as maxDt shrinks, and FixedStepper (fixed
 * steps decoupled from the frame rate, state in solver memory, interpolated public state).
 */
import { describe, expect, it } from 'vitest';
import { FixedStepper, type PdIntegrator, type Solver } from '../../dist/index.js';
import * as reference from '../../dist/reference/index.js';
import { BACKENDS, makeSolver, useSolvers, LARGE_DT_ON_PURPOSE } from '../helpers/backends.js';
import { logUniform, mulberry32, uniform } from '../helpers/random.js';
import { oscillator } from '../helpers/closed-form.js';

const solvers = useSolvers(4 * 1024 * 1024, LARGE_DT_ON_PURPOSE);

function schedule(solver: Solver, dt: number, maxDt: number, mode?: 'max-dt' | 'uniform'): { count: number; steps: number[] } {
  const steps: number[] = [];
  const count = solver.substep(dt, mode === undefined ? { maxDt } : { maxDt, mode }, (h) => steps.push(h));
  return { count, steps };
}

describe('solver.substep: the schedule', () => {
  it.each(BACKENDS.map((b) => [b] as const))('%s backend: examples', (backend) => {
    const solver = solvers[backend];
    expect(schedule(solver, 0.1, 0.03, 'max-dt').steps.map((h) => h.toFixed(12))).toEqual([
      '0.030000000000',
      '0.030000000000',
      '0.030000000000',
      '0.010000000000',
    ]);
    expect(schedule(solver, 0.1, 0.03, 'uniform').steps).toEqual([0.025, 0.025, 0.025, 0.025]);
    expect(schedule(solver, 0.1, 0.03).steps).toHaveLength(4); // default 'uniform'
    // 0.1/0.01 is 10.000000000000002 in float64: within the 1e-9 slack, so 10 steps, no sliver.
    expect(schedule(solver, 0.1, 0.01, 'max-dt').count).toBe(10);
    expect(schedule(solver, 0.1, 0.01, 'uniform').count).toBe(10);
    expect(schedule(solver, 0.004, 0.01, 'max-dt').steps).toEqual([0.004]);
    expect(schedule(solver, 0, 0.01, 'max-dt')).toEqual({ count: 0, steps: [] });
    expect(schedule(solver, 0, 0.01, 'uniform')).toEqual({ count: 0, steps: [] });
  });

  it.each(BACKENDS.map((b) => [b] as const))('%s backend: random dt, maxDt: the steps add up to dt and none exceeds maxDt', (backend) => {
    const solver = solvers[backend];
    const rng = mulberry32(11);
    for (let trial = 0; trial < 500; trial++) {
      const dt = logUniform(rng, 1e-4, 2);
      const maxDt = logUniform(rng, 1e-3, 0.5);
      for (const mode of ['max-dt', 'uniform'] as const) {
        const { count, steps } = schedule(solver, dt, maxDt, mode);
        expect(count).toBe(steps.length);
        expect(count).toBe(Math.max(1, Math.ceil(dt / maxDt - 1e-9)));
        // The sum differs from dt only by the rounding of count additions (≤ count·2^-52·dt).
        expect(Math.abs(steps.reduce((a, b) => a + b, 0) - dt)).toBeLessThanOrEqual(count * 2 ** -52 * dt * 4);
        for (const h of steps) expect(h).toBeLessThanOrEqual(maxDt * (1 + 1e-9));
        if (mode === 'uniform') expect(new Set(steps).size).toBe(1);
        else for (const h of steps.slice(0, -1)) expect(h).toBe(maxDt);
      }
    }
  });

  const BAD: [what: string, call: (s: Solver) => unknown, error: typeof TypeError | typeof RangeError, pattern: RegExp][] = [
    ['negative dt', (s) => s.substep(-1, { maxDt: 0.1 }, () => {}), RangeError, /substep: dt is -1/],
    ['maxDt 0', (s) => s.substep(1, { maxDt: 0 }, () => {}), RangeError, /substep: options.maxDt is 0/],
    ['maxDt NaN', (s) => s.substep(1, { maxDt: NaN }, () => {}), RangeError, /options.maxDt is NaN/],
    ['no options', (s) => s.substep(1, undefined as never, () => {}), TypeError, /substep: options must be an object/],
    ['unknown mode', (s) => s.substep(1, { maxDt: 0.1, mode: 'halves' as never }, () => {}), RangeError, /options.mode is "halves"/],
    ['step not a function', (s) => s.substep(1, { maxDt: 0.1 }, 3 as never), TypeError, /substep: step must be a function/],
  ];
  it.each(BACKENDS.flatMap((b) => BAD.map(([w, c, e, p]) => [b, w, c, e, p] as const)))(
    '%s backend: %s',
    (backend, _w, call, error, pattern) => {
      const solver = solvers[backend];
      expect(() => call(solver)).toThrow(error);
      expect(() => call(solver)).toThrow(pattern);
    },
  );

  it('a disposed solver throws a TypeError', async () => {
    const solver = await makeSolver('js');
    solver.dispose();
    expect(() => solver.substep(1, { maxDt: 0.1 }, () => {})).toThrow(/substep: this solver has been disposed/);
  });
});

describe('solver.substep: (a) and (b) converge to the exact solution as maxDt shrinks', () => {
  // A 1 Hz spring (ζ = 0.3, constant target) advanced by 4 frames of 0.25 s, each substepped.
  // The error is the largest |x − x(t)| + |v − v(t)|/ω at the frame ends against the closed form.
  // Euler-type integrators are first order, so it falls like maxDt: by 4 per refinement in the
  // limit (the float64 reference measures 3.1 to 4.5 on this grid); required ≥ 3. That the solver's
  // float32 rounding does not blur this is asserted too: its trajectory's error differs from the
  // float64 reference's (same schedule, Float64Array state) by under 10%.
  const w = 2 * Math.PI;
  const z = 0.3;
  const [x0, v0, g0] = [1, 0, -0.5];
  const MAX_DTS = [0.02, 0.005, 0.00125];

  /** The largest error at the frame ends of `stepFrame` against the closed form. */
  function trajectoryError(stepFrame: () => [number, number]): number {
    let worst = 0;
    for (let frame = 1; frame <= 4; frame++) {
      const [x, v] = stepFrame();
      const [xt, vt] = oscillator(Math.fround(w), Math.fround(z), x0, v0, g0, 0, 0.25 * frame);
      worst = Math.max(worst, Math.abs(x - xt) + Math.abs(v - vt) / w);
    }
    return worst;
  }

  function solverError(solver: Solver, integrator: PdIntegrator, mode: 'max-dt' | 'uniform', maxDt: number): number {
    const [pos, vel, g, q] = [[x0], [v0], [g0], [0]].map((a) => Float32Array.from(a));
    return trajectoryError(() => {
      solver.substep(0.25, { maxDt, mode }, (h) => solver.pdSpring(pos, vel, g, q, w, z, h, { integrator }));
      return [pos[0], vel[0]];
    });
  }

  function float64Error(integrator: PdIntegrator, mode: 'max-dt' | 'uniform', maxDt: number): number {
    const [pos, vel, g, q] = [[x0], [v0], [g0], [0]].map((a) => Float64Array.from(a));
    const substep = mode === 'max-dt' ? reference.substepMaxDt : reference.substepUniform;
    return trajectoryError(() => {
      substep(0.25, maxDt, (h) => reference.pdSpring(pos, vel, g, q, Math.fround(w), Math.fround(z), h, { integrator }));
      return [pos[0], vel[0]];
    });
  }

  it.each(
    BACKENDS.flatMap((b) =>
      (['explicit', 'semi-implicit', 'implicit'] as const).flatMap(
        (m) =>
          [
            [b, m, 'max-dt'],
            [b, m, 'uniform'],
          ] as const,
      ),
    ),
  )('%s backend, %s, %s', (backend, integrator, mode) => {
    const solver = solvers[backend];
    const errors = MAX_DTS.map((maxDt) => solverError(solver, integrator, mode, maxDt));
    const exactErrors = MAX_DTS.map((maxDt) => float64Error(integrator, mode, maxDt));
    for (let k = 0; k < errors.length; k++)
      expect(Math.abs(errors[k] - exactErrors[k]), `${errors} vs ${exactErrors}`).toBeLessThan(0.1 * exactErrors[k]);
    for (let k = 1; k < errors.length; k++) expect(errors[k - 1] / errors[k], `${errors}`).toBeGreaterThan(3);
    expect(errors[errors.length - 1]).toBeLessThan(0.02);
  });

  it.each(BACKENDS.map((b) => [b] as const))("%s backend: 'exact' does not depend on the substeps", (backend) => {
    const solver = solvers[backend];
    // Exact at any step: only float32 rounding remains, ≤ 800 steps × 8u × (|x| + |v|/ω ≤ 3).
    for (const mode of ['max-dt', 'uniform'] as const) {
      expect(solverError(solver, 'exact', mode, 0.00125)).toBeLessThan(800 * 8 * 2 ** -24 * 3);
      expect(solverError(solver, 'exact', mode, 0.25)).toBeLessThan(4 * 8 * 2 ** -24 * 3);
    }
  });
});

describe('FixedStepper: (c) fixed steps decoupled from the frame rate', () => {
  const N = 37;

  /** A stepper of N PD springs (per-element ω, ζ in solver memory) with the given integrator. */
  /** No catch-up cap here: a 0.25 s frame takes its 30 fixed steps (the cap is tested below). */
  function springStepper(solver: Solver, integrator: PdIntegrator, options: { maxUpdates?: number } = {}) {
    const w = solver.alloc(N);
    const z = solver.alloc(N);
    const g = solver.alloc(N);
    const q = solver.alloc(N);
    const rng = mulberry32(3);
    for (let i = 0; i < N; i++) {
      w[i] = logUniform(rng, 1, 30);
      z[i] = uniform(rng, 0.2, 1.5);
      g[i] = uniform(rng, -1, 1);
      q[i] = uniform(rng, -1, 1);
    }
    const pos = Float32Array.from({ length: N }, () => uniform(rng, -5, 5));
    const vel = Float32Array.from({ length: N }, () => uniform(rng, -5, 5));
    return new FixedStepper(solver, N, 1 / 120, (p, v, h) => solver.pdSpring(p, v, g, q, w, z, h, { integrator }), {
      pos,
      vel,
      maxUpdates: Infinity,
      ...options,
    });
  }

  it.each(BACKENDS.flatMap((b) => (['implicit', 'exact'] as const).map((m) => [b, m] as const)))(
    '%s backend, %s: the trajectory does not depend on how frames split the time',
    (backend, integrator) => {
      const solver = solvers[backend];
      const a = springStepper(solver, integrator);
      const b = springStepper(solver, integrator);
      const rng = mulberry32(21);
      for (let checkpoint = 0; checkpoint < 24; checkpoint++) {
        // 0.25 s per checkpoint: a in frames of 1/60 s, b in 1 to 12 random pieces.
        for (let f = 0; f < 15; f++) a.advance(1 / 60);
        const cuts = Array.from({ length: Math.floor(uniform(rng, 0, 12)) }, () => uniform(rng, 0, 0.25)).sort((x, y) => x - y);
        const edges = [0, ...cuts, 0.25];
        for (let k = 1; k < edges.length; k++) b.advance(edges[k] - edges[k - 1]);
        // The same number of fixed steps of exactly 1/120 s: identical fixed states, bit for bit.
        expect(b.stepCount).toBe(a.stepCount);
        expect(b.currPos).toEqual(a.currPos);
        expect(b.currVel).toEqual(a.currVel);
        // The accumulators differ by the rounding of their sums (≤ 1e-15 s), so alpha by ≤ 1e-12
        // and the interpolated state by that fraction of a step plus one float32 rounding.
        for (let i = 0; i < N; i++) {
          const span = Math.abs(a.currPos[i] - a.prevPos[i]);
          expect(Math.abs(b.pos[i] - a.pos[i])).toBeLessThanOrEqual(1e-12 * span + 2 ** -23 * Math.abs(a.pos[i]));
        }
      }
      expect(a.stepCount).toBe(720); // 6 s at 120 Hz
      a.dispose();
      b.dispose();
    },
  );

  it.each(BACKENDS.map((b) => [b] as const))(
    '%s backend: the same schedule and interpolation as the reference FixedStepAccumulator',
    (backend) => {
      const solver = solvers[backend];
      for (const maxUpdates of [8, 3, Infinity]) {
        const steps: number[] = [];
        const stepper = new FixedStepper(
          solver,
          2,
          1 / 90,
          (p, v, h) => {
            steps.push(h);
            for (let i = 0; i < 2; i++) {
              p[i] += v[i] * h;
              v[i] -= p[i] * h;
            }
          },
          { pos: Float32Array.from([1, -2]), vel: Float32Array.from([0.5, 3]), maxUpdates },
        );
        const oracle = new reference.FixedStepAccumulator(2, 1 / 90, () => {}, [1, -2], [0.5, 3], { maxUpdates });
        const rng = mulberry32(maxUpdates === Infinity ? 1 : maxUpdates);
        for (let frame = 0; frame < 300; frame++) {
          // Mostly ordinary frames, some long stalls that hit the cap.
          const dt = rng() < 0.05 ? uniform(rng, 0.1, 0.6) : logUniform(rng, 1e-3, 0.05);
          expect(stepper.advance(dt)).toBe(oracle.advance(dt));
          expect(stepper.accumulator).toBe(oracle.accumulator);
          expect(stepper.alpha).toBe(oracle.alpha);
          expect(stepper.droppedTime).toBe(oracle.droppedTime);
          expect(stepper.stepCount).toBe(oracle.stepCount);
          for (let i = 0; i < 2; i++) {
            const a = stepper.alpha;
            expect(stepper.pos[i]).toBe(Math.fround(stepper.prevPos[i] + (stepper.currPos[i] - stepper.prevPos[i]) * a));
            expect(stepper.vel[i]).toBe(Math.fround(stepper.prevVel[i] + (stepper.currVel[i] - stepper.prevVel[i]) * a));
          }
        }
        expect(steps.every((h) => h === 1 / 90)).toBe(true);
        if (maxUpdates !== Infinity) expect(stepper.droppedTime).toBeGreaterThan(0);
        stepper.dispose();
      }
    },
  );

  it.each(BACKENDS.map((b) => [b] as const))('%s backend: state in solver memory; dispose', (backend) => {
    const solver = solvers[backend];
    const stepper = new FixedStepper(solver, 5, 0.01, () => {});
    expect(stepper.maxUpdates).toBe(8);
    expect([stepper.pos, stepper.vel, stepper.currPos, stepper.prevPos]).toEqual(Array(4).fill(new Float32Array(5)));
    if (backend !== 'js') {
      const probe = solver.alloc(1);
      for (const a of [stepper.pos, stepper.vel, stepper.currPos, stepper.currVel, stepper.prevPos, stepper.prevVel])
        expect(a.buffer).toBe(probe.buffer);
      solver.free(probe);
    }
    stepper.dispose();
    stepper.dispose();
    expect(() => stepper.advance(0.01)).toThrow(/FixedStepper.advance: this stepper has been disposed/);
  });

  const BAD: [what: string, make: (s: Solver) => unknown, error: typeof TypeError | typeof RangeError, pattern: RegExp][] = [
    ['not a solver', () => new FixedStepper({} as Solver, 1, 0.01, () => {}), TypeError, /FixedStepper: solver must be a Solver/],
    ['n negative', (s) => new FixedStepper(s, -1, 0.01, () => {}), RangeError, /n is -1/],
    ['n fractional', (s) => new FixedStepper(s, 1.5, 0.01, () => {}), RangeError, /n is 1.5; it must be a whole number/],
    ['fixedDt 0', (s) => new FixedStepper(s, 1, 0, () => {}), RangeError, /fixedDt is 0/],
    ['step not a function', (s) => new FixedStepper(s, 1, 0.01, null as never), TypeError, /step must be a function/],
    ['maxUpdates 0', (s) => new FixedStepper(s, 1, 0.01, () => {}, { maxUpdates: 0 }), RangeError, /options.maxUpdates is 0/],
    ['maxUpdates 2.5', (s) => new FixedStepper(s, 1, 0.01, () => {}, { maxUpdates: 2.5 }), RangeError, /options.maxUpdates is 2.5/],
    [
      'pos wrong length',
      (s) => new FixedStepper(s, 2, 0.01, () => {}, { pos: new Float32Array(3) }),
      RangeError,
      /options.pos has length 3, expected 2/,
    ],
    [
      'vel a Float64Array',
      (s) => new FixedStepper(s, 2, 0.01, () => {}, { vel: new Float64Array(2) as never }),
      TypeError,
      /options.vel must be a Float32Array/,
    ],
    ['negative frameDt', (s) => new FixedStepper(s, 1, 0.01, () => {}).advance(-0.1), RangeError, /FixedStepper.advance: frameDt is -0.1/],
  ];
  it.each(BACKENDS.flatMap((b) => BAD.map(([w, m, e, p]) => [b, w, m, e, p] as const)))(
    '%s backend: %s',
    (backend, _w, make, error, pattern) => {
      const solver = solvers[backend];
      expect(() => make(solver)).toThrow(error);
      expect(() => make(solver)).toThrow(pattern);
    },
  );

  it('after the solver is disposed: advance throws a TypeError, dispose does not throw', async () => {
    const solver = await makeSolver('wasm', 1024 * 1024);
    const stepper = new FixedStepper(solver, 3, 0.01, () => {});
    solver.dispose();
    expect(() => stepper.advance(0.02)).toThrow(TypeError);
    expect(() => stepper.dispose()).not.toThrow();
  });
});
