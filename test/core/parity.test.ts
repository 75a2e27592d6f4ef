/**
 * Every kernel on every backend against the float64 JS reference (`spring-solver/reference`),
 * over random states, parameters and time steps spanning the under-damped, exactly critical
 * and over-damped regimes, with uniform, per-element and mixed parameters, on plain arrays
 * (copy path, in chunks) and on alloc() arrays (in place), aligned and not.
 * The JS backend runs the reference itself, so its rows check only the plumbing (argument
 * handling, copies, dispatch to the right model), not the maths: that is what the wasm rows and
 * the analytic tests (closed forms, test/core/analytic.test.ts) are for.
 */
import { describe, expect, it } from 'vitest';
import { SpringMode, type Backend, type Solver } from '../../dist/index.js';
import * as reference from '../../dist/reference/index.js';
import { BACKENDS, callKernel, type FnName, useSolvers, LARGE_DT_ON_PURPOSE } from '../helpers/backends.js';
import { FLOAT32_ULP, SCALAR_PER_M, SIMD_PER_M, SUBNORMAL_FLOOR } from '../helpers/tolerances.js';
import { dampingRatio, fillState, integer, logUniform, mulberry32, timeSteps, type Regime, type Rng } from '../helpers/random.js';

/** A regime, or one of the stiffness-mode edge cases. */
type Case = Regime | 'zeroStiffness' | 'zeroDamping';

/** A uniform parameter of a mixed call: which one, and its value. */
interface Fixed {
  index: 0 | 1;
  value: number;
}

interface Spec {
  name: FnName;
  /** null: the damper. */
  mode: SpringMode | null;
  hasV: boolean;
  hasG: boolean;
  hasQ: boolean;
  /** 1 or 2 parameters. */
  arity: 1 | 2;
  /** A parameter set in the given case (random case when undefined), respecting a fixed one. */
  draw(rng: Rng, c: Case | undefined, fixed: Fixed | null): number[];
  /** The value of parameter `index` when it is the uniform one of a mixed call. */
  base(rng: Rng, index: 0 | 1, c: Case): number;
  /** The cases of the successive uniform calls. */
  uniformCases: Case[];
}

const LN2_OVER_PI = Math.LN2 / Math.PI; // springDamper: ζ = ln2 / (π·f·halflife)

function halflifeOnly(name: FnName, mode: SpringMode | null, hasV: boolean, hasG: boolean, hasQ: boolean, lo: number, hi: number): Spec {
  return {
    name,
    mode,
    hasV,
    hasG,
    hasQ,
    arity: 1,
    draw: (rng) => [logUniform(rng, lo, hi)],
    base: (rng) => logUniform(rng, lo, hi),
    uniformCases: Array<Case>(9).fill('critical'),
  };
}

/** Random case for a per-element draw: a damping ratio regime, or (rarely) an edge case. */
function perElementCase(rng: Rng, edges: Case[]): Case | undefined {
  const r = rng();
  return r < edges.length / 16 ? edges[Math.floor(r * 16)] : undefined;
}

/** A damping d = m/64 (m whole, ≤ 3200): d² is exact in float32, so s = d²/4 is exactly critical. */
const exactDamping = (rng: Rng) => integer(rng, 13, 3200) / 64;

const SPECS: Spec[] = [
  halflifeOnly('damper', null, false, true, false, 1e-3, 10),
  {
    name: 'springDamper',
    mode: SpringMode.FrequencyHalflife,
    hasV: true,
    hasG: true,
    hasQ: true,
    arity: 2,
    // ζ = ln2/(π·f·h): pick ζ, then the free parameter from the other one.
    draw(rng, c, fixed) {
      const k = c ?? perElementCase(rng, ['zeroStiffness']);
      if (k === 'zeroStiffness' && fixed?.index !== 0) return [0, fixed ? fixed.value : logUniform(rng, 0.02, 2)];
      const zeta = dampingRatio(rng, k === 'zeroStiffness' ? undefined : (k as Regime | undefined));
      if (!fixed) {
        const h = logUniform(rng, 0.02, 2);
        return [LN2_OVER_PI / (zeta * h), h];
      }
      const other = LN2_OVER_PI / (zeta * fixed.value);
      return fixed.index === 0 ? [fixed.value, other] : [other, fixed.value];
    },
    base: (rng, index) => (index === 0 ? logUniform(rng, 0.1, 5) : logUniform(rng, 0.02, 2)),
    uniformCases: ['critical', 'under', 'over', 'critical', 'under', 'over', 'under', 'over', 'zeroStiffness'],
  },
  {
    name: 'springDamperStiffness',
    mode: SpringMode.StiffnessDamping,
    hasV: true,
    hasG: true,
    hasQ: true,
    arity: 2,
    // ζ = d/(2√s): with s = (m/64)² or d = m/64, ζ = 1 is exactly critical in float32.
    draw(rng, c, fixed) {
      const k = c ?? perElementCase(rng, ['zeroStiffness', 'zeroDamping']);
      if (k === 'zeroStiffness' && fixed?.index !== 0) return [0, fixed ? fixed.value : exactDamping(rng)];
      if (k === 'zeroDamping' && fixed?.index !== 1) return [fixed ? fixed.value : logUniform(rng, 0.01, 2500), 0];
      const zeta = dampingRatio(rng, k === 'zeroStiffness' || k === 'zeroDamping' ? undefined : k);
      if (fixed?.index === 0) return [fixed.value, 2 * zeta * Math.sqrt(fixed.value)];
      const d = fixed ? fixed.value : exactDamping(rng);
      return [(d / (2 * zeta)) ** 2, d];
    },
    base: (rng, index) => (index === 0 ? (integer(rng, 7, 3200) / 64) ** 2 : exactDamping(rng)),
    uniformCases: ['critical', 'under', 'over', 'critical', 'under', 'over', 'over', 'zeroStiffness', 'zeroDamping'],
  },
  {
    name: 'springDamperRatio',
    mode: SpringMode.RatioHalflife,
    hasV: true,
    hasG: true,
    hasQ: true,
    arity: 2,
    draw(rng, c, fixed) {
      const zeta = fixed?.index === 0 ? fixed.value : dampingRatio(rng, c as Regime | undefined);
      const h = fixed?.index === 1 ? fixed.value : logUniform(rng, 0.02, 2);
      return [zeta, h];
    },
    base: (rng, index, c) => (index === 0 ? dampingRatio(rng, c as Regime) : logUniform(rng, 0.02, 2)),
    uniformCases: ['critical', 'under', 'over', 'critical', 'under', 'over', 'under', 'over', 'critical'],
  },
  halflifeOnly('criticalSpringDamper', SpringMode.Critical, true, true, true, 0.01, 5),
  halflifeOnly('simpleSpringDamper', SpringMode.Critical, true, true, false, 0.01, 5),
  halflifeOnly('decaySpringDamper', SpringMode.Critical, true, false, false, 0.01, 5),
];

type ParamMode = 'uniform' | 'perElement' | 'mixed p0 uniform' | 'mixed p1 uniform';
type Layout = 'plain' | 'plain unaligned' | 'alloc' | 'alloc unaligned';

/**
 * Element counts: none a multiple of 4 (the SIMD kernels finish with a scalar tail); the plain
 * ones exceed the 16384-float copy chunk (40,009 = 2 full chunks + 7,241; 20,011 = 1 + 3,627).
 */
const LENGTH: Record<Layout, number> = { plain: 40_009, 'plain unaligned': 20_011, alloc: 10_007, 'alloc unaligned': 10_007 };
const LAYOUTS = Object.keys(LENGTH) as Layout[];

/** Arrays for one test in a layout; unaligned ones start 4, 8 or 12 bytes past a 16-byte boundary. */
class Arrays {
  private owned: Float32Array[] = [];
  private count = 0;
  constructor(
    private solver: Solver,
    private layout: Layout,
    readonly n: number,
  ) {}

  make(): Float32Array {
    const shift = 1 + (this.count++ % 3);
    const n = this.n;
    switch (this.layout) {
      case 'plain':
        return new Float32Array(n);
      case 'plain unaligned':
        return new Float32Array(n + 4).subarray(shift, shift + n);
      case 'alloc': {
        const a = this.solver.alloc(n);
        this.owned.push(a);
        return a;
      }
      case 'alloc unaligned': {
        const a = this.solver.alloc(n + 4);
        this.owned.push(a);
        return a.subarray(shift, shift + n);
      }
    }
  }

  freeAll(): void {
    for (const a of this.owned) this.solver.free(a);
    this.owned = [];
  }
}

// Tolerances (test/helpers/tolerances.ts), per element, relative to M, the sum of |terms| of the
// exact transition x' = g + xx·(x − g) + xv·v + xq·q (float64 coefficients from
// reference.springTransition): SIMD ≤ SIMD_PER_M·M; scalar wasm rounds its float64 result once,
// ≤ FLOAT32_ULP·|ref| + SCALAR_PER_M·M; JS runs the reference code itself: 0. Where the terms
// cancel, no float32 kernel can meet a bound relative to |ref|, only one relative to M.

/** Worst element of one comparison, as a message that locates it. */
interface Worst {
  ratio: number;
  message: string;
}

function compare(
  what: string,
  got: Float32Array,
  ref: Float32Array,
  m: Float64Array,
  backend: Backend,
  worst: Worst,
  context: () => string,
): void {
  const exact = backend === 'js';
  for (let i = 0; i < got.length; i++) {
    const err = Math.abs(got[i] - ref[i]);
    const tol = exact
      ? 0
      : backend === 'wasm'
        ? FLOAT32_ULP * Math.abs(ref[i]) + SCALAR_PER_M * m[i] + SUBNORMAL_FLOOR
        : SIMD_PER_M * m[i] + SUBNORMAL_FLOOR;
    // NaN or a miss of an exact comparison counts as an infinite ratio.
    const ratio = err <= tol ? (tol > 0 ? err / tol : 0) : exact || Number.isNaN(err) ? Infinity : err / tol;
    if (ratio > worst.ratio) {
      worst.ratio = ratio;
      worst.message = `${what}[${i}]: got ${got[i]}, reference ${ref[i]}, M ${m[i]}, ${context()}`;
    }
  }
}

const solvers = useSolvers(8 * 1024 * 1024, LARGE_DT_ON_PURPOSE);

function paramModes(spec: Spec): ParamMode[] {
  return spec.arity === 1 ? ['uniform', 'perElement'] : ['uniform', 'perElement', 'mixed p0 uniform', 'mixed p1 uniform'];
}

/**
 * The regime of a parameter set: the sign of ω² = s − (d/2)², with |ω²| ≤ 1e-6·(d/2)² counted
 * as critical (springDamper's ζ = ln2/(π·f·h) is never exactly 1 in float32; such draws are within
 * float32 rounding of critical and take the kernels' near-critical series branch).
 */
function regimeOfParams(mode: SpringMode, p0: number, p1: number): Regime {
  const [s, d] = reference.stiffnessAndDamping(mode, p0, p1);
  const a2 = (d / 2) ** 2;
  const w2 = s - a2;
  return Math.abs(w2) <= 1e-6 * a2 ? 'critical' : w2 > 0 ? 'under' : 'over';
}

let seed = 1;

describe.each(SPECS.map((spec) => [spec.name, spec] as const))('%s', (_name, spec) => {
  describe.each(BACKENDS.map((b) => [b] as const))('%s backend', (backend) => {
    const cases = paramModes(spec).flatMap((pm) => LAYOUTS.map((layout) => [pm, layout, seed++] as const));
    it.each(cases)('%s parameters, %s arrays', (paramMode, layout, caseSeed) => {
      const solver = solvers[backend];
      const rng = mulberry32(caseSeed * 7919 + BACKENDS.indexOf(backend));
      const arrays = new Arrays(solver, layout, LENGTH[layout]);
      const n = arrays.n;
      const worst: Worst = { ratio: 0, message: '' };
      const calls = paramMode === 'uniform' ? spec.uniformCases.length : 4;
      const dts = timeSteps(rng, calls);
      const regimes = new Set<Regime>();
      try {
        const x = arrays.make();
        const v = spec.hasV ? arrays.make() : new Float32Array(0);
        const g = spec.hasG ? arrays.make() : new Float32Array(0);
        const q = spec.hasQ ? arrays.make() : new Float32Array(0);
        const perElement = Array.from({ length: spec.arity }, () => arrays.make());
        for (let call_ = 0; call_ < calls; call_++) {
          const dt = dts[call_];
          fillState(rng, x, spec.hasV ? v : null, spec.hasG ? g : null, spec.hasQ ? q : null);
          const cycle: Case = spec.uniformCases[call_ % spec.uniformCases.length];
          // The parameters of this call: numbers, or per-element arrays.
          let params: (number | Float32Array)[];
          if (paramMode === 'uniform') {
            params = spec.draw(rng, cycle, null);
            if (spec.mode !== null)
              regimes.add(regimeOfParams(spec.mode, params[0] as number, spec.arity === 2 ? (params[1] as number) : 0));
          } else {
            const fixedIndex = paramMode === 'mixed p0 uniform' ? 0 : paramMode === 'mixed p1 uniform' ? 1 : -1;
            // The uniform parameter of a mixed call is rounded to float32 by the solver (it
            // travels with the per-element values): round it here so the reference sees the same.
            const fixed: Fixed | null =
              fixedIndex < 0 ? null : { index: fixedIndex as 0 | 1, value: Math.fround(spec.base(rng, fixedIndex as 0 | 1, cycle)) };
            for (let i = 0; i < n; i++) {
              const p = spec.draw(rng, undefined, fixed);
              for (let k = 0; k < spec.arity; k++) if (k !== fixedIndex) perElement[k][i] = p[k];
            }
            params = perElement.map((a, k) => (k === fixedIndex ? fixed!.value : a));
          }
          const p0 = (i: number) => (typeof params[0] === 'number' ? params[0] : params[0][i]);
          const p1 = (i: number) => (spec.arity === 1 ? 0 : typeof params[1] === 'number' ? params[1] : params[1][i]);

          // Expected values: the reference on copies (inputs are shared: nobody writes them).
          const xRef = Float32Array.from(x);
          const vRef = Float32Array.from(v);
          callKernel(reference, spec.name, xRef, vRef, g, q, params, dt);
          // The term magnitudes M before the solver overwrites x and v.
          const mx = new Float64Array(n);
          const mv = new Float64Array(n);
          let m = spec.mode === null ? null : reference.springTransition(...reference.stiffnessAndDamping(spec.mode, p0(0), p1(0)), dt);
          const uniform = params.every((p) => typeof p === 'number');
          for (let i = 0; i < n; i++) {
            const gi = spec.hasG ? g[i] : 0;
            const y = x[i] - gi;
            if (spec.mode === null) {
              const f = Math.exp((-Math.LN2 * dt) / p0(i));
              mx[i] = Math.abs(gi) + Math.abs(f * y);
              continue;
            }
            if (!uniform) m = reference.springTransition(...reference.stiffnessAndDamping(spec.mode, p0(i), p1(i)), dt);
            const vi = v[i];
            const qi = spec.hasQ ? q[i] : 0;
            mx[i] = Math.abs(gi) + Math.abs(m!.xx * y) + Math.abs(m!.xv * vi) + Math.abs(m!.xq * qi);
            mv[i] = Math.abs(m!.vx * y) + Math.abs(m!.vv * vi) + Math.abs(m!.vq * qi);
          }

          callKernel(solver, spec.name, x, v, g, q, params, dt);

          const context = () => `dt ${dt}, ${paramMode}, call ${call_}`;
          compare('x', x, xRef, mx, backend, worst, context);
          if (spec.hasV) compare('v', v, vRef, mv, backend, worst, context);
        }
      } finally {
        arrays.freeAll();
      }
      if (paramMode === 'uniform' && spec.arity === 2) {
        // The uniform calls visit every regime (per-element draws mix them within each call).
        expect([...regimes].sort()).toEqual(['critical', 'over', 'under']);
      }
      expect(worst.ratio, worst.message).toBeLessThanOrEqual(1);
    });
  });
});

describe('the random cases', () => {
  it('span the three regimes, per element, in every two-parameter spring', () => {
    // ζ = d/(2√s) of 10,007 per-element draws, as the tests above make them.
    for (const spec of SPECS.filter((s) => s.arity === 2)) {
      const rng = mulberry32(99);
      const counts = { under: 0, critical: 0, over: 0 };
      for (let i = 0; i < 10_007; i++) {
        const p = spec.draw(rng, undefined, null).map(Math.fround);
        counts[regimeOfParams(spec.mode!, p[0], p[1])]++;
      }
      expect(counts.under, spec.name).toBeGreaterThan(3000);
      expect(counts.over, spec.name).toBeGreaterThan(3000);
      expect(counts.critical, spec.name).toBeGreaterThan(500);
    }
  });
});
