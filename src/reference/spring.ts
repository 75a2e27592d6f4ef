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

/** Exact damper: `x ← g + (x − g)·exp(−ln2·dt / halflife)` (Holden's damper_exact, true exp). */
export function damper(x: Float32Array, g: Float32Array, halflife: Param, dt: number): void {
  if (dt === 0) return;
  for (let i = 0; i < x.length; i++) {
    const f = Math.exp((-LN2 * dt) / at(halflife, i)); // halflife 0 → exp(−∞) = 0: x snaps to g
    x[i] = g[i] + (x[i] - g[i]) * f;
  }
}

/** Stiffness s and damping d from a mode's two parameters. */
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

/** Holden's spring_damper_exact: frequency (Hz) and halflife (s). */
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

/** The general spring given stiffness s (1/s²) and damping d (1/s) directly. */
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

/** The general spring given damping ratio ζ and halflife (s). */
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

/** Holden's critical_spring_damper_exact: s = d²/4. */
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

/** Holden's simple_spring_damper_exact: critical, goal velocity 0. */
export function simpleSpringDamper(x: Float32Array, v: Float32Array, g: Float32Array, halflife: Param, dt: number): void {
  spring(SpringMode.Critical, x, v, g, null, halflife, 0, dt);
}

/** Holden's decay_spring_damper_exact: critical, goal 0, goal velocity 0. */
export function decaySpringDamper(x: Float32Array, v: Float32Array, halflife: Param, dt: number): void {
  spring(SpringMode.Critical, x, v, null, null, halflife, 0, dt);
}
