/**
 * JS reference (and JS backend) of the damper and spring family from Holden's "Spring-It-On".
 * Plain float64 maths per element; results are stored back into the Float32Arrays.
 */
import { SpringMode, type Param } from '../core/types.js';
import { springTransition } from './spring-transition.js';

const LN2 = Math.LN2;

function at(p: Param, i: number): number {
  return typeof p === 'number' ? p : p[i];
}

/**
 * Exact damper: `x ← g + (x − g)·exp(−ln2·dt / halflife)` (Holden's damper_exact, true exp).
 * @example
 * ```ts
 * import { damper } from 'spring-solver/reference';
 * const [x, g] = [new Float32Array(3), new Float32Array(3).fill(1)];
 * damper(x, g, 0.1, 1 / 60); // halflife 0.1 s, dt 1/60 s
 * ```
 * @group Core springs
 */
export function damper(x: Float32Array, g: Float32Array, halflife: Param, dt: number): void {
  if (dt === 0) return;
  for (let i = 0; i < x.length; i++) {
    const f = Math.exp((-LN2 * dt) / at(halflife, i)); // halflife 0 → exp(−∞) = 0: x snaps to g
    x[i] = g[i] + (x[i] - g[i]) * f;
  }
}

/**
 * Stiffness s and damping d from a mode's two parameters.
 * @example
 * ```ts
 * import { SpringMode } from 'spring-solver';
 * import { stiffnessAndDamping } from 'spring-solver/reference';
 * const [s, d] = stiffnessAndDamping(SpringMode.FrequencyHalflife, 2, 0.3); // 2 Hz, halflife 0.3 s → 1/s², 1/s
 * ```
 * @group Core springs
 */
export function stiffnessAndDamping(mode: SpringMode, p0: number, p1: number): [s: number, d: number] {
  switch (mode) {
    case SpringMode.FrequencyHalflife:
      return [(2 * Math.PI * p0) ** 2, (4 * LN2) / p1];
    case SpringMode.StiffnessDamping:
      return [p0, p1];
    case SpringMode.RatioHalflife: {
      const d = (4 * LN2) / p1;
      return [(d / (2 * p0)) ** 2, d];
    }
    case SpringMode.Critical: {
      const d = (4 * LN2) / p0;
      return [(d / 2) * (d / 2), d];
    }
  }
  throw new RangeError(`unknown spring mode ${mode as number}`);
}

/**
 * The general spring `x'' = s·(g − x) + d·(q − v)`, stepped exactly by dt.
 * `g` or `q` may be null, meaning 0 (the simple spring has q = 0, the decay spring g = q = 0).
 * @example
 * ```ts
 * import { SpringMode } from 'spring-solver';
 * import { spring } from 'spring-solver/reference';
 * const [x, v, g] = [new Float32Array(3), new Float32Array(3), new Float32Array(3).fill(1)];
 * spring(SpringMode.Critical, x, v, g, null, 0.1, 0, 1 / 60); // halflife 0.1 s, dt 1/60 s
 * ```
 * @group Core springs
 */
export function spring(
  mode: SpringMode,
  x: Float32Array,
  v: Float32Array,
  g: Float32Array | null,
  q: Float32Array | null,
  p0: Param,
  p1: Param,
  dt: number,
): void {
  if (dt === 0) return;
  const uniform = typeof p0 === 'number' && typeof p1 === 'number';
  let m = uniform ? springTransition(...stiffnessAndDamping(mode, p0, p1), dt) : null;
  for (let i = 0; i < x.length; i++) {
    if (!uniform) m = springTransition(...stiffnessAndDamping(mode, at(p0, i), at(p1, i)), dt);
    const gi = g ? g[i] : 0;
    const qi = q ? q[i] : 0;
    const y = x[i] - gi;
    const vi = v[i];
    x[i] = gi + m!.xx * y + m!.xv * vi + m!.xq * qi;
    v[i] = m!.vx * y + m!.vv * vi + m!.vq * qi;
  }
}

/**
 * Holden's spring_damper_exact: frequency (Hz) and halflife (s).
 * @example
 * ```ts
 * import { springDamper } from 'spring-solver/reference';
 * const [x, v, g, q] = [new Float32Array(3), new Float32Array(3), new Float32Array(3).fill(1), new Float32Array(3)];
 * springDamper(x, v, g, q, 2, 0.3, 1 / 60); // frequency 2 Hz, halflife 0.3 s, dt 1/60 s
 * ```
 * @group Core springs
 */
export function springDamper(
  x: Float32Array,
  v: Float32Array,
  g: Float32Array,
  q: Float32Array,
  frequency: Param,
  halflife: Param,
  dt: number,
): void {
  spring(SpringMode.FrequencyHalflife, x, v, g, q, frequency, halflife, dt);
}

/**
 * The general spring given stiffness s (1/s²) and damping d (1/s) directly.
 * @example
 * ```ts
 * import { springDamperStiffness } from 'spring-solver/reference';
 * const [x, v, g, q] = [new Float32Array(3), new Float32Array(3), new Float32Array(3).fill(1), new Float32Array(3)];
 * springDamperStiffness(x, v, g, q, 100, 10, 1 / 60); // stiffness 100 1/s², damping 10 1/s, dt 1/60 s
 * ```
 * @group Core springs
 */
export function springDamperStiffness(
  x: Float32Array,
  v: Float32Array,
  g: Float32Array,
  q: Float32Array,
  stiffness: Param,
  damping: Param,
  dt: number,
): void {
  spring(SpringMode.StiffnessDamping, x, v, g, q, stiffness, damping, dt);
}

/**
 * The general spring given damping ratio ζ and halflife (s).
 * @example
 * ```ts
 * import { springDamperRatio } from 'spring-solver/reference';
 * const [x, v, g, q] = [new Float32Array(3), new Float32Array(3), new Float32Array(3).fill(1), new Float32Array(3)];
 * springDamperRatio(x, v, g, q, 0.5, 0.2, 1 / 60); // ζ 0.5, halflife 0.2 s, dt 1/60 s
 * ```
 * @group Core springs
 */
export function springDamperRatio(
  x: Float32Array,
  v: Float32Array,
  g: Float32Array,
  q: Float32Array,
  dampingRatio: Param,
  halflife: Param,
  dt: number,
): void {
  spring(SpringMode.RatioHalflife, x, v, g, q, dampingRatio, halflife, dt);
}

/**
 * Holden's critical_spring_damper_exact: s = d²/4.
 * @example
 * ```ts
 * import { criticalSpringDamper } from 'spring-solver/reference';
 * const [x, v, g, q] = [new Float32Array(3), new Float32Array(3), new Float32Array(3).fill(1), new Float32Array(3)];
 * criticalSpringDamper(x, v, g, q, 0.1, 1 / 60); // halflife 0.1 s, dt 1/60 s
 * ```
 * @group Core springs
 */
export function criticalSpringDamper(
  x: Float32Array,
  v: Float32Array,
  g: Float32Array,
  q: Float32Array,
  halflife: Param,
  dt: number,
): void {
  spring(SpringMode.Critical, x, v, g, q, halflife, 0, dt);
}

/**
 * Holden's simple_spring_damper_exact: critical, goal velocity 0.
 * @example
 * ```ts
 * import { simpleSpringDamper } from 'spring-solver/reference';
 * const [x, v, g] = [new Float32Array(3), new Float32Array(3), new Float32Array(3).fill(1)];
 * simpleSpringDamper(x, v, g, 0.1, 1 / 60); // halflife 0.1 s, dt 1/60 s
 * ```
 * @group Core springs
 */
export function simpleSpringDamper(x: Float32Array, v: Float32Array, g: Float32Array, halflife: Param, dt: number): void {
  spring(SpringMode.Critical, x, v, g, null, halflife, 0, dt);
}

/**
 * Holden's decay_spring_damper_exact: critical, goal 0, goal velocity 0.
 * @example
 * ```ts
 * import { decaySpringDamper } from 'spring-solver/reference';
 * const [x, v] = [new Float32Array(3).fill(1), new Float32Array(3)];
 * decaySpringDamper(x, v, 0.1, 1 / 60); // halflife 0.1 s, dt 1/60 s
 * ```
 * @group Core springs
 */
export function decaySpringDamper(x: Float32Array, v: Float32Array, halflife: Param, dt: number): void {
  spring(SpringMode.Critical, x, v, null, null, halflife, 0, dt);
}
