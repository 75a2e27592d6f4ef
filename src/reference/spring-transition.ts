/**
 * The exact state transition of the linear spring shared by every model here.
 *
 * Holden's general spring (Spring-It-On) obeys `x'' = s·(g − x) + d·(q − v)`.
 * With y = x − g it is the linear system `[y, v, q]' = B·[y, v, q]`,
 * `B = [[0, 1, 0], [−s, −d, d], [0, 0, 0]]`, whose exact transition over time t is
 *
 *     x' = g + xx·(x − g) + xv·v + xq·q
 *     v' =     vx·(x − g) + vv·v + vq·q
 *
 * with `[[xx, xv], [vx, vv]] = exp(A·t)`, `A = [[0, 1], [−s, −d]]`,
 * `xq = d·P`, `vq = d·xv`, `P = ∫₀ᵗ xv(τ) dτ`. Writing it around g rather than the
 * equilibrium `c = g + d·q/s` keeps it exact at s = 0, where c does not exist.
 *
 * Plain float64 reference: it is the oracle the wasm kernels are tested against.
 * @group Core springs
 */

export interface SpringTransition {
  xx: number;
  xv: number;
  xq: number;
  vx: number;
  vv: number;
  vq: number;
}

/** |z| = |ω²·t²| below which cos/sin and cosh/sinh are replaced by their power series in z. */
export const CRITICAL_SERIES_Z = 0.01;
/** s·t² below which P = (1 − xx)/s would cancel, and its Taylor series in t is used instead. */
export const SMALL_STIFFNESS_ST2 = 0.01;

/**
 * Exact transition coefficients over time `t` for stiffness `s ≥ 0` and damping `d ≥ 0`.
 * `d = Infinity` (halflife 0) gives the limit: with s finite v snaps to q and x moves at q,
 * with s infinite too (critical, damping-ratio springs) the state snaps to (g, 0).
 * @example
 * ```ts
 * import { springTransition } from 'spring-solver/reference';
 * // stiffness 100 1/s², damping 20 1/s (critical), over 1/60 s
 * const { xx, xv, vx, vv } = springTransition(100, 20, 1 / 60);
 * ```
 * @group Core springs
 */
export function springTransition(s: number, d: number, t: number): SpringTransition {
  if (d === Infinity) {
    return s === Infinity ? { xx: 0, xv: 0, xq: 0, vx: 0, vv: 0, vq: 0 } : { xx: 1, xv: 0, xq: t, vx: 0, vv: 0, vq: 1 };
  }
  const a = d / 2; // envelope rate, Holden's y = d/2
  const w2 = s - a * a; // ω², signed: > 0 under-damped, < 0 over-damped
  const z = w2 * t * t;
  let xx: number, xv: number, vv: number, P: number;
  if (z > CRITICAL_SERIES_Z) {
    // Under-damped: e^{−a·t}·(cos ωt, sin ωt / ω).
    const w = Math.sqrt(w2);
    const e = Math.exp(-a * t);
    const c = Math.cos(w * t);
    const sn = Math.sin(w * t) / w;
    xx = e * (c + a * sn);
    xv = e * sn;
    vv = e * (c - a * sn);
    P = (1 - xx) / s; // s·t² > z > 0.01: no cancellation
  } else if (z < -CRITICAL_SERIES_Z) {
    // Over-damped: eigenvalues l1 = −s/(a + b) (computed without cancellation), l2 = −(a + b).
    const b = Math.sqrt(-w2);
    const l1 = -s / (a + b);
    const l2 = -(a + b);
    const e1 = Math.exp(l1 * t);
    const e2 = Math.exp(l2 * t);
    xx = ((a + b) * e1 + l1 * e2) / (2 * b);
    xv = (e1 - e2) / (2 * b);
    vv = (l1 * e1 + (a + b) * e2) / (2 * b);
    // P = ∫ xv = ((e1 − 1)/l1 − (e2 − 1)/l2) / 2b, with (e^u − 1)/u = expm1(u)/u → 1 at u = 0.
    P = (t * (expm1OverX(l1 * t) - expm1OverX(l2 * t))) / (2 * b);
  } else {
    // Near critical: cos(√z) and sin(√z)/√z as power series in z, valid for both signs of z.
    const e = Math.exp(-a * t);
    const c = 1 - (z / 2) * (1 - (z / 12) * (1 - (z / 30) * (1 - z / 56)));
    const sn = t * (1 - (z / 6) * (1 - (z / 20) * (1 - (z / 42) * (1 - z / 72))));
    xx = e * (c + a * sn);
    xv = e * sn;
    vv = e * (c - a * sn);
    P = s * t * t >= SMALL_STIFFNESS_ST2 ? (1 - xx) / s : integralOfXvSeries(s, d, t);
  }
  return { xx, xv, xq: d * P, vx: -s * xv, vv, vq: d * xv };
}

/** (e^u − 1)/u, equal to 1 at u = 0. */
function expm1OverX(u: number): number {
  return u === 0 ? 1 : Math.expm1(u) / u;
}

/**
 * P(t) = ∫₀ᵗ xv as a Taylor series, for s·t² and d·t small.
 * P solves P'' + d·P' + s·P = 1, P(0) = P'(0) = 0, so P = t²·Σ cₖ with c₀ = 1/2 and
 * (k + 2)(k + 1)·cₖ = −(d·t)(k + 1)·cₖ₋₁ − (s·t²)·cₖ₋₂.
 */
function integralOfXvSeries(s: number, d: number, t: number): number {
  const D = d * t;
  const S = s * t * t;
  let cPrev = 0;
  let c = 0.5;
  let sum = c;
  for (let k = 1; k <= 10; k++) {
    const next = (-D * (k + 1) * c - S * cPrev) / ((k + 2) * (k + 1));
    cPrev = c;
    c = next;
    sum += c;
  }
  return t * t * sum;
}
