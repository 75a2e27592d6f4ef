import { linearTransition } from '../../dist/reference/index.js';

/**
 * Textbook closed-form response of the damped oscillator x'' = ω²·(g − x) + 2ζω·(q − v) from
 * (x0, v0) with constant g, q, for the analytic tests (written from the characteristic roots,
 * independently of the library's transitions). Well conditioned away from ζ ≈ 1 ± 1e-4 and ω ≈ 0:
 * the tests use it at ζ = 1 exactly or clearly away from it, and ω ≥ 0.5 rad/s.
 */
export function oscillator(omega: number, zeta: number, x0: number, v0: number, g: number, q: number, t: number): [x: number, v: number] {
  // Equilibrium: ω²(g − xe) + 2ζω·q = 0.
  const xe = g + (2 * zeta * q) / omega;
  const a0 = x0 - xe;
  const sigma = zeta * omega; // decay rate of the envelope
  const decay = Math.exp(-sigma * t);
  if (zeta === 1) {
    // e(t) = (a0 + b·t)·e^{−ωt}
    const b = v0 + sigma * a0;
    return [xe + (a0 + b * t) * decay, (b - sigma * (a0 + b * t)) * decay];
  }
  if (zeta < 1) {
    // e(t) = e^{−σt}·(a0·cos ωd·t + b·sin ωd·t)
    const wd = omega * Math.sqrt(1 - zeta * zeta);
    const b = (v0 + sigma * a0) / wd;
    const c = Math.cos(wd * t);
    const s = Math.sin(wd * t);
    return [xe + decay * (a0 * c + b * s), decay * ((b * wd - sigma * a0) * c - (a0 * wd + sigma * b) * s)];
  }
  // e(t) = c1·e^{r1·t} + c2·e^{r2·t}, r1,2 = −σ ± ω√(ζ² − 1)
  const root = omega * Math.sqrt(zeta * zeta - 1);
  const r1 = -sigma + root;
  const r2 = -sigma - root;
  const c1 = (v0 - r2 * a0) / (r1 - r2);
  const c2 = a0 - c1;
  const e1 = Math.exp(r1 * t);
  const e2 = Math.exp(r2 * t);
  return [xe + c1 * e1 + c2 * e2, c1 * r1 * e1 + c2 * r2 * e2];
}

/** Spectral radius of the 2×2 matrix [[a, b], [c, d]]. */
export function spectralRadius(a: number, b: number, c: number, d: number): number {
  const trace = a + d;
  const det = a * d - b * c;
  const disc = trace * trace - 4 * det;
  if (disc < 0) return Math.sqrt(det);
  const s = Math.sqrt(disc);
  return Math.max(Math.abs((trace + s) / 2), Math.abs((trace - s) / 2));
}

/**
 * max over τ ∈ [0, t] (400 samples) of the ∞-norm of the exact transition of (x − xe, v) over τ:
 * how much an error made at some step can grow by a later time t.
 */
export function transitionGain(omega: number, zeta: number, t: number): number {
  let gain = 1;
  for (let k = 1; k <= 400; k++) {
    const T = linearTransition(omega, zeta, (t * k) / 400);
    gain = Math.max(gain, Math.abs(T.xx) + Math.abs(T.xv), Math.abs(T.vx) + Math.abs(T.vv));
  }
  return gain;
}
