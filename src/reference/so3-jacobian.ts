/**
 * The Jacobian of SO(3)'s exponential map, float64 (the oracle of assembly/quat/so3-jacobian.ts).
 *
 * The inertialization offset's spring (decay_spring_damper_exact, quaternion version) moves the
 * offset's rotation vector r = log(abs(q)) (scaled angle axis, q = exp(r)) at a rate ṙ. Holden's
 * code treats ṙ as the offset's angular velocity; the angular velocity of q in the frame it maps
 * into (dq/dt = ½ ω ⊗ q, this package's convention) is ω = J(r)·ṙ with the LEFT Jacobian
 * (R(r + δ) ≈ exp(J(r)·δ)·R(r)), θ = |r|, K = [r]× (K·v = r × v):
 *   J(r)   = I + (1 − cos θ)/θ² · K + (θ − sin θ)/θ³ · K²
 *   J⁻¹(r) = I − ½ K + (1/θ² − (1 + cos θ)/(2θ sin θ)) · K²
 * Along r the two are the identity (a rotation about a fixed axis has ω = ṙ). J⁻¹ is finite for
 * θ ≤ π (abs keeps the offsets there). Below θ = 0.05 the coefficients are their series.
 */
import { toScaledAngleAxis, type Vec3 } from './quat.js';

const SERIES = 0.05;

function cross(a: Vec3, b: ArrayLike<number>): Vec3 {
  return [a[1] * b[2]! - a[2] * b[1]!, a[2] * b[0]! - a[0] * b[2]!, a[0] * b[1]! - a[1] * b[0]!];
}

/** J(log q)·v, or J⁻¹(log q)·v when `inverse`; q is any nonzero quaternion (its shortest arc is used). */
export function so3Jacobian(q: ArrayLike<number>, v: ArrayLike<number>, inverse = false): Vec3 {
  const r = toScaledAngleAxis(q);
  const t2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
  const t = Math.sqrt(t2);
  let a: number, b: number;
  if (inverse) {
    a = -0.5;
    // (1 + cos θ)/(2θ sin θ) = cot(θ/2)/(2θ), finite at θ = π
    b = t < SERIES ? 1 / 12 + t2 / 720 + (t2 * t2) / 30240 : 1 / t2 - Math.cos(t / 2) / (2 * t * Math.sin(t / 2));
  } else if (t < SERIES) {
    a = 0.5 - t2 / 24 + (t2 * t2) / 720;
    b = 1 / 6 - t2 / 120 + (t2 * t2) / 5040;
  } else {
    a = (1 - Math.cos(t)) / t2;
    b = (t - Math.sin(t)) / (t2 * t);
  }
  const k = cross(r, v);
  const kk = cross(r, k);
  return [v[0]! + a * k[0] + b * kk[0], v[1]! + a * k[1] + b * kk[1], v[2]! + a * k[2] + b * kk[2]];
}
