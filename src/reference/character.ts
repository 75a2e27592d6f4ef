/**
 * Float64 reference of Holden's spring character controller ("Spring-It-On",
 * spring_character_update / spring_character_predict), with true exp instead of fast_negexp.
 *
 * The velocity v is a critical spring toward vGoal whose derivative is the acceleration a; x is
 * its exact time integral. Over time t, with y = 2·ln2/halflife, j0 = v − vGoal, j1 = a + j0·y,
 * e = e^{−y·t}:
 *   x' = x + vGoal·t + j0·(1 − e)/y + j1·(1 − e − y·t·e)/y²
 *   v' = vGoal + e·(j0 + j1·t)
 *   a' = e·(a − j1·y·t)
 * The divisions by y and y² are written t·φ1(y·t) and t²·ψ(y·t) (exp-integrals.ts), exact as
 * y·t → 0. halflife 0 is the limit y → ∞: v = vGoal, a = 0, x += vGoal·t (t > 0).
 */
import type { Param } from '../core/types.js';
import { paramAt } from './critical.js';
import { phi1, psi } from './exp-integrals.js';

const TWO_LN2 = 2 * Math.LN2;

/**
 * The state after time t as a transition of (j0 = v − vGoal, a).
 * @group Character
 */
export interface CharacterTransition {
  /** x' = x + vGoal·t + cx0·j0 + cxa·a */
  cx0: number;
  cxa: number;
  /** v' = vGoal + cv0·j0 + cva·a */
  cv0: number;
  cva: number;
  /** a' = ca0·j0 + caa·a */
  ca0: number;
  caa: number;
}

/**
 * Transition over time t ≥ 0 for a halflife (s); t = 0 is the identity for every halflife.
 * @example
 * ```ts
 * import { characterTransition } from 'spring-solver/reference';
 * const { cx0, cxa } = characterTransition(0.2, 0.5); // halflife 0.2 s, t 0.5 s
 * ```
 * @group Character
 */
export function characterTransition(halflife: number, t: number): CharacterTransition {
  const y = TWO_LN2 / halflife; // Holden's halflife_to_damping(halflife) / 2
  if (t === 0) return { cx0: 0, cxa: 0, cv0: 1, cva: 0, ca0: 0, caa: 1 };
  if (y === Infinity) return { cx0: 0, cxa: 0, cv0: 0, cva: 0, ca0: 0, caa: 0 };
  const u = y * t;
  const e = Math.exp(-u);
  const integral1 = t * phi1(u); // (1 − e)/y
  const integral2 = t * t * psi(u); // (1 − e − y·t·e)/y²
  // x: j0·(1 − e)/y + (a + j0·y)·(1 − e − y·t·e)/y²;  v: e·(j0 + j1·t);  a: e·(a − j1·y·t)
  return {
    cx0: integral1 + y * integral2,
    cxa: integral2,
    cv0: e * (1 + u),
    cva: e * t,
    ca0: -e * y * u,
    caa: e * (1 - u),
  };
}

/** Applies transition m over time t to element i of (x, v, a, vGoal), writing element `o` of the outputs. */
function apply(
  m: CharacterTransition,
  t: number,
  i: number,
  o: number,
  x: Float32Array,
  v: Float32Array,
  a: Float32Array,
  vGoal: Float32Array,
  xOut: Float32Array,
  vOut: Float32Array,
  aOut: Float32Array,
): void {
  const vg = vGoal[i];
  const j0 = v[i] - vg;
  const ai = a[i];
  xOut[o] = x[i] + vg * t + m.cx0 * j0 + m.cxa * ai;
  vOut[o] = vg + m.cv0 * j0 + m.cva * ai;
  aOut[o] = m.ca0 * j0 + m.caa * ai;
}

/**
 * spring_character_update: x, v, a advanced by dt in place (dt = 0 leaves them unchanged).
 * @example
 * ```ts
 * import { characterUpdate } from 'spring-solver/reference';
 * const [x, v, a, vGoal] = [new Float32Array(1), new Float32Array(1), new Float32Array(1), new Float32Array([1.5])];
 * characterUpdate(x, v, a, vGoal, 0.2, 1 / 60); // halflife 0.2 s, dt 1/60 s
 * ```
 * @group Character
 */
export function characterUpdate(x: Float32Array, v: Float32Array, a: Float32Array, vGoal: Float32Array, halflife: Param, dt: number): void {
  if (dt === 0) return;
  const uniform = typeof halflife === 'number' ? characterTransition(halflife, dt) : null;
  for (let i = 0; i < x.length; i++) {
    apply(uniform ?? characterTransition(paramAt(halflife, i), dt), dt, i, i, x, v, a, vGoal, x, v, a);
  }
}

/**
 * spring_character_predict: for each of the N characters, `count` samples at times k·dt
 * (k = 0 … count − 1), each in closed form from the current state. Character-major: sample k
 * of character c is element c·count + k of px, pv, pa (N·count floats each).
 * @example
 * ```ts
 * import { characterPredict } from 'spring-solver/reference';
 * const [x, v, a, vGoal] = [new Float32Array(1), new Float32Array(1), new Float32Array(1), new Float32Array([1.5])];
 * const [px, pv, pa] = [new Float32Array(4), new Float32Array(4), new Float32Array(4)];
 * characterPredict(px, pv, pa, x, v, a, vGoal, 0.2, 0.2, 4); // halflife 0.2 s, dt between samples 0.2 s
 * ```
 * @group Character
 */
export function characterPredict(
  px: Float32Array,
  pv: Float32Array,
  pa: Float32Array,
  x: Float32Array,
  v: Float32Array,
  a: Float32Array,
  vGoal: Float32Array,
  halflife: Param,
  dt: number,
  count: number,
): void {
  // Uniform halflife: one transition per sample time, shared by every character.
  const shared = typeof halflife === 'number' ? Array.from({ length: count }, (_, k) => characterTransition(halflife, k * dt)) : null;
  for (let c = 0; c < x.length; c++) {
    for (let k = 0; k < count; k++) {
      const m = shared ? shared[k] : characterTransition(paramAt(halflife, c), k * dt);
      apply(m, k * dt, c, c * count + k, x, v, a, vGoal, px, pv, pa);
    }
  }
}
