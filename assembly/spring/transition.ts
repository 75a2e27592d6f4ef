// Exact transition of x'' = s·(g − x) + d·(q − v) over time t (Holden's general spring),
// written around g so that s = 0 needs no equilibrium c = g + d·q/s:
//   x' = g + xx·(x − g) + xv·v + xq·q
//   v' =     vx·(x − g) + vv·v + vq·q
// [[xx, xv], [vx, vv]] = exp([[0, 1], [−s, −d]]·t), xq = d·P, vq = d·xv, P = ∫₀ᵗ xv.
// The derivation and the regime thresholds are in docs/DECISIONS.md; the float64 JS
// reference (src/reference/spring-transition.ts) is the oracle for this file.

// |ω²t²| below which cos/sin (cosh/sinh) of ωt become power series in z = ω²t².
export const CRITICAL_SERIES_Z: f64 = 0.01;
// s·t² below which P = (1 − xx)/s would cancel and P's Taylor series is used.
export const SMALL_STIFFNESS_ST2: f64 = 0.01;

export let xx: f64 = 0;
export let xv: f64 = 0;
export let xq: f64 = 0;
export let vx: f64 = 0;
export let vv: f64 = 0;
export let vq: f64 = 0;
// P = ∫₀ᵗ xv itself (xq = d·P loses it at d = 0); 0 for infinite d. Used by second-order.ts.
export let xp: f64 = 0;

/** Sets xx … vq for stiffness s ≥ 0, damping d ≥ 0 (+∞ for halflife 0) and time t ≥ 0. */
export function springTransition(s: f64, d: f64, t: f64): void {
  if (d == Infinity) {
    // Halflife 0: with finite s, v snaps to q and x moves at q; with s infinite, snap to (g, 0).
    const finite = s != Infinity;
    xx = finite ? 1 : 0; xv = 0; xq = finite ? t : 0;
    vx = 0; vv = 0; vq = finite ? 1 : 0;
    xp = 0;
    return;
  }
  const a = 0.5 * d;       // envelope rate (Holden's y)
  const w2 = s - a * a;    // ω²: > 0 under-damped, < 0 over-damped
  const z = w2 * t * t;
  let m00: f64, m01: f64, m11: f64, P: f64;
  if (z > CRITICAL_SERIES_Z) {
    // Under-damped: e^{−at}·(cos ωt, sin ωt / ω)
    const w = Math.sqrt(w2);
    const e = Math.exp(-a * t);
    const c = Math.cos(w * t);
    const sn = Math.sin(w * t) / w;
    m00 = e * (c + a * sn);
    m01 = e * sn;
    m11 = e * (c - a * sn);
    P = (1 - m00) / s;
  } else if (z < -CRITICAL_SERIES_Z) {
    // Over-damped: eigenvalues l1 = −s/(a + b) (no cancellation) and l2 = −(a + b)
    const b = Math.sqrt(-w2);
    const l1 = -s / (a + b);
    const l2 = -(a + b);
    const e1 = Math.exp(l1 * t);
    const e2 = Math.exp(l2 * t);
    const inv2b = 1.0 / (2.0 * b);
    m00 = ((a + b) * e1 + l1 * e2) * inv2b;
    m01 = (e1 - e2) * inv2b;
    m11 = (l1 * e1 + (a + b) * e2) * inv2b;
    P = t * (expm1OverX(l1 * t) - expm1OverX(l2 * t)) * inv2b;
  } else {
    // Near critical: cos √z and sin √z / √z as series in z, for either sign of z
    const e = Math.exp(-a * t);
    const c = 1 - (z / 2) * (1 - (z / 12) * (1 - (z / 30) * (1 - z / 56)));
    const sn = t * (1 - (z / 6) * (1 - (z / 20) * (1 - (z / 42) * (1 - z / 72))));
    m00 = e * (c + a * sn);
    m01 = e * sn;
    m11 = e * (c - a * sn);
    P = s * t * t >= SMALL_STIFFNESS_ST2 ? (1 - m00) / s : integralOfXvSeries(s, d, t);
  }
  xx = m00; xv = m01; xq = d * P;
  vx = -s * m01; vv = m11; vq = d * m01;
  xp = P;
}

/** (e^u − 1)/u, 1 at u = 0. */
function expm1OverX(u: f64): f64 {
  return u == 0 ? 1 : Math.expm1(u) / u;
}

/**
 * P = ∫₀ᵗ xv for small s·t² and d·t: P'' + d·P' + s·P = 1, P(0) = P'(0) = 0, so
 * P = t²·Σ cₖ, c₀ = 1/2, (k + 2)(k + 1)·cₖ = −(d·t)(k + 1)·cₖ₋₁ − (s·t²)·cₖ₋₂.
 */
export function integralOfXvSeries(s: f64, d: f64, t: f64): f64 {
  const D = d * t;
  const S = s * t * t;
  let cPrev: f64 = 0;
  let c: f64 = 0.5;
  let sum = c;
  for (let k = 1; k <= 10; k++) {
    const next = (-D * <f64>(k + 1) * c - S * cPrev) / <f64>((k + 2) * (k + 1));
    cPrev = c;
    c = next;
    sum += c;
  }
  return t * t * sum;
}
