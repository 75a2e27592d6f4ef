/**
 * Issue 11 ("Nothing silent"), one test per defect: −0 halflives, numbers beyond float32, errors
 * that name nothing, calls that never return, freed arrays, aliasing the kernels get wrong.
 */
import { describe, expect, it } from 'vitest';
import { FixedStepper, Inertializer, SecondOrderDynamics, type Solver } from '../../dist/index.js';
import { BACKENDS, type ExtraOptions, LARGE_DT_ON_PURPOSE, makeSolver } from '../helpers/backends.js';
import { SIMD_PER_M } from '../helpers/tolerances.js';

const state = () => [
  Float32Array.of(1, -2, 3, 0.5, 4),
  Float32Array.of(0.5, 1, -1, 2, 0),
  new Float32Array(5).fill(0.25),
  new Float32Array(5),
];

function rejects(action: () => unknown, type: typeof TypeError | typeof RangeError, pattern: RegExp): void {
  let error: unknown = null;
  try {
    action();
  } catch (e) {
    error = e;
  }
  expect(error, String(pattern)).toBeInstanceOf(type);
  expect((error as Error).message).toMatch(pattern);
}

describe.each(BACKENDS.map((b) => [b] as const))('%s backend', (backend) => {
  const withSolver = async (body: (s: Solver) => void | Promise<void>, options: ExtraOptions = {}) => {
    const s = await makeSolver(backend, 4 * 1024 * 1024, options);
    try {
      await body(s);
    } finally {
      s.dispose();
    }
  };

  it('defect 1: a halflife of −0 is rejected (number and per-element), nothing written', () =>
    withSolver((s) => {
      const [x, v, g, q] = state();
      const before = [x.slice(), v.slice()];
      rejects(
        () => s.criticalSpringDamper(x, v, g, q, -0, 1 / 60),
        RangeError,
        /^criticalSpringDamper: halflife is -0; it must be finite and ≥ 0/,
      );
      rejects(
        () => s.criticalSpringDamper(x, v, g, q, new Float32Array(5).fill(0.1).fill(-0, 4), 1 / 60),
        RangeError,
        /halflife\[4\] is -0/,
      );
      const h = s.alloc(5);
      h.fill(0.2).fill(-0, 2);
      rejects(
        () => s.quatDecaySpringDamper(s.alloc(20), s.alloc(15), h, 1 / 60),
        RangeError,
        /^quatDecaySpringDamper: halflife\[2\] is -0/,
      );
      expect([x, v]).toEqual(before);
    }));

  it('defect 3: numbers beyond float32 are rejected on the uniform path too', () =>
    withSolver((s) => {
      const [x, v, g, q] = state();
      rejects(
        () => s.springDamper(x, v, g, q, 1e300, 0.2, 1 / 60),
        RangeError,
        /^springDamper: frequency is 1e\+300, which is Infinity as float32/,
      );
      rejects(() => s.springDamperStiffness(x, v, g, q, 3, 1e300, 1 / 60), RangeError, /^springDamperStiffness: damping is 1e\+300/);
      rejects(
        () => s.springDamperRatio(x, v, g, q, 5e-324, 0.2, 1 / 60),
        RangeError,
        /^springDamperRatio: dampingRatio is 5e-324, which is 0 as float32/,
      );
      rejects(
        () => s.trackingSpringUpdate(x, v, new Float32Array(5), g, q, g, 0.5, 0.5, 0.5, 1 / 60, 5e-324),
        RangeError,
        /^trackingSpringUpdate: gainDt is 5e-324/,
      );
      expect(Array.from(x).every(Number.isFinite)).toBe(true);
    }));

  it('defect 4: huge sizes and detached arrays get errors naming the method and the argument', () =>
    withSolver((s) => {
      rejects(() => s.alloc(1e15), RangeError, /^alloc: length is 1000000000000000; it must be at most/);
      rejects(
        () => new Inertializer(s, { count: 1e30, bones: 3, halflife: 0.1 }),
        RangeError,
        /^Inertializer: options.count × options.bones is 1e\+30 × 3/,
      );
      rejects(() => new FixedStepper(s, 1e30, 1 / 60, () => {}), RangeError, /^FixedStepper: n is 1e\+30/);
      const x0 = new Float32Array(4);
      structuredClone(x0.buffer, { transfer: [x0.buffer] });
      rejects(
        () => new SecondOrderDynamics(s, 0.5, 0.5, 0.5, x0),
        TypeError,
        /^SecondOrderDynamics: x0 is a Float32Array whose buffer is detached/,
      );
    }));

  it('defect 5: calls that would not return in bounded time are rejected', () =>
    withSolver((s) => {
      const dynamics = new SecondOrderDynamics(s, 100, 1000, 0, new Float32Array(4), { method: 'euler-substep' });
      const x = new Float32Array(4).fill(1);
      rejects(
        () => dynamics.update(1e4, x),
        RangeError,
        /^SecondOrderDynamics.update: dt is 10000, which needs \d+ 'euler-substep' substeps/,
      );
      rejects(() => dynamics.update(1e30, x), RangeError, /^SecondOrderDynamics.update: dt is 1e\+30/);
      dynamics.update(1 / 60, x); // a frame is fine
      let calls = 0;
      const step = () => void calls++;
      rejects(() => s.substep(1, { maxDt: 5e-324 }, step), RangeError, /^substep: dt \/ options.maxDt/);
      rejects(() => s.substep(1e300, { maxDt: 1e-300 }, step), RangeError, /^substep: dt \/ options.maxDt/);
      rejects(() => s.substep(1, { maxDt: 5e-324, mode: 'max-dt' }, step), RangeError, /^substep: dt \/ options.maxDt/);
      expect(calls).toBe(0);
      const stepper = new FixedStepper(s, 2, 1 / 60, () => void calls++, { maxUpdates: Infinity });
      rejects(() => stepper.advance(1e300), RangeError, /^FixedStepper.advance: frameDt is 1e\+300/);
      expect(calls).toBe(0);
      const capped = new FixedStepper(s, 2, 1 / 60, () => void calls++);
      expect(capped.advance(1e300)).toBe(8); // the cap drops the rest at once
      expect(capped.accumulator).toBeGreaterThanOrEqual(-1e-9 / 60);
      expect(capped.accumulator).toBeLessThan(1 / 60);
    }, LARGE_DT_ON_PURPOSE));

  it('per-element critical springs at dt = 1.5e-323 (1/dt beyond float64): finite, as the reference (fuzz counterexample)', () =>
    withSolver(async (s) => {
      // a·u = u²·(1/dt) was 0·∞ = NaN in the SIMD lanes; five elements: four lanes and the scalar tail
      const js = await makeSolver('js');
      const h = Float32Array.of(8.111541748046875, 0.005166887771338224, 1e-6, 0.08116941154003143, 860349.5);
      const g = Float32Array.of(-999999.8125, 0, 5.15e-24, 0, 99.9998);
      const q = Float32Array.of(0, -8.881029245344507e-10, 1.3e-28, 0, 7.5e-24);
      try {
        for (const dt of [1.5e-323, 3.5e-323]) {
          const x = Float32Array.of(999998.25, -4.5525069825025355e-11, 1596.2766, 0, -10.888642);
          const v = Float32Array.of(7.296041483646765e-13, 0, -2.7133172574372948e-24, -3.605745746426692e-7, 99.9999);
          const [xr, vr] = [x.slice(), v.slice()];
          for (const [solver, xs, vs] of [
            [s, x, v],
            [js, xr, vr],
          ] as const) {
            solver.criticalSpringDamper(xs, vs, g, q, h, dt);
            solver.simpleSpringDamper(xs, vs, g, h, dt);
            solver.decaySpringDamper(xs, vs, h, dt);
          }
          // over 1e-323 s nothing moves in float32 but the kernels' own rounding: SIMD_PER_M of the terms'
          // magnitude M (test/helpers/tolerances.ts), |g| + |x − g| for x' = g + xx·(x − g) + …, and |v| for
          // v' = vv·v + (terms of size a²·dt ≤ 1e-300), above subnormal rounding
          for (let i = 0; i < x.length; i++) {
            const mx = Math.abs(g[i]) + Math.abs(xr[i] - g[i]);
            expect(Math.abs(x[i] - xr[i]), `x[${i}] = ${x[i]}, the reference ${xr[i]}, dt ${dt}`).toBeLessThanOrEqual(SIMD_PER_M * mx);
            const mv = Math.abs(vr[i]) + 8 * 2 ** -149;
            expect(Math.abs(v[i] - vr[i]), `v[${i}] = ${v[i]}, the reference ${vr[i]}, dt ${dt}`).toBeLessThanOrEqual(SIMD_PER_M * mv);
          }
        }
      } finally {
        js.dispose();
      }
    }));

  it('defect 6: a freed array is refused by free and by every method; it never frees a live array', () =>
    withSolver((s) => {
      const a = s.alloc(8);
      s.free(a);
      const b = s.alloc(8);
      b.fill(7);
      rejects(() => s.free(a), TypeError, /^free: array .*(already freed|not allocated)/);
      const c = s.alloc(8); // must not overlap b
      c.fill(1);
      expect(Array.from(b)).toEqual(Array(8).fill(7));
      rejects(() => s.damper(a, c, 0.1, 0.1), TypeError, /^damper: x was freed/);
      rejects(() => s.damper(c, a, 0.1, 0.1), TypeError, /^damper: g was freed/);
      expect(Array.from(b)).toEqual(Array(8).fill(7));
    }));

  it('defect 7: aliasing the kernels get wrong is rejected; what they get right is accepted', () =>
    withSolver((s) => {
      const n = 4;
      const arrays = () => Array.from({ length: 6 }, (_, k) => Float32Array.from({ length: n }, (_, i) => (k + 1) * 0.3 + i * 0.1));
      const [outX, outV, offX, offV, , inV] = arrays();
      rejects(
        () => s.inertializeUpdate(outX, outV, offX, offV, offX, inV, 0.1, 0.1),
        RangeError,
        /^inertializeUpdate: offX and inX overlap in memory; inX may only be the very same array as outX or outV/,
      );
      rejects(
        () => s.inertializeUpdate(outX, outV, offX, offV, outV, outX, 0.1, 0.1),
        RangeError,
        /^inertializeUpdate: outX and inV overlap/,
      );
      const [ox, ov, sx, , dx, dv] = arrays();
      rejects(() => s.inertializeTransition(ox, ov, sx, ox, dx, dv), RangeError, /^inertializeTransition: offX and srcV overlap/);
      const [q, w, oq, ow, , iw] = [4, 3, 4, 3, 4, 3].map((width) => new Float32Array(n * width).fill(0.5));
      rejects(() => s.quatInertializeUpdate(q, w, oq, ow, oq, iw, 0.1, 0.1), RangeError, /^quatInertializeUpdate: offQ and inQ overlap/);
      const [ex, ev, et, srcX] = arrays();
      rejects(() => s.deadBlendingTransition(ex, ev, et, srcX, ex), RangeError, /^deadBlendingTransition: extX and srcV overlap/);
      rejects(() => s.deadBlendingUpdate(srcX, ex, ev, et, ex, 0.5, 0.1), RangeError, /^deadBlendingUpdate: extX and inX overlap/);
      // Documented aliasing stays accepted, and equals the call with a copy.
      const [x1, v1, in1, iv1] = arrays();
      const [x2, v2] = [Float32Array.from(x1), Float32Array.from(v1)];
      const [o1, ov1] = [Float32Array.from(x1), Float32Array.from(v1)];
      s.inertializeUpdate(in1, iv1, o1, ov1, in1, iv1, 0.1, 0.1);
      const [o2, ov2] = [Float32Array.from(x1), Float32Array.from(v1)];
      const [in2, iv2] = arrays().slice(2, 4);
      const [out2, outV2] = [new Float32Array(n), new Float32Array(n)];
      s.inertializeUpdate(out2, outV2, o2, ov2, in2, iv2, 0.1, 0.1);
      expect(Array.from(in1)).toEqual(Array.from(out2));
      expect(Array.from(iv1)).toEqual(Array.from(outV2));
      void x2;
      void v2;
    }));
});
