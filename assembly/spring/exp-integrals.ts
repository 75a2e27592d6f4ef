// Time integrals of a decaying exponential, for u = y·t ≥ 0 and e = e^{−u}:
//   φ1(u) = ∫₀¹ e^{−u·s} ds   = (1 − e)/u            (1 at u = 0)
//   ψ(u)  = ∫₀¹ s·e^{−u·s} ds = (φ1 − e)/u = (1 − e − u·e)/u²   (1/2 at u = 0)
// Holden's extrapolate and spring_character_update divide by y and y²: (1 − e)/y = t·φ1,
// (1 − e − y·t·e)/y² = t²·ψ. Below u = 0.5 the direct forms cancel, so ψ is a Taylor series
// (degree 13: truncation 0.5^14/15! < 5e-17 relative) and φ1 = e + u·ψ (two positive terms);
// from 0.5 up the direct forms lose at most a factor 1/(1 − e^−0.5) ≈ 2.5 (φ1) and
// 1/(φ1 − e) ≈ 5.6 (ψ) in relative precision, far below float32; u = ∞ gives φ1 = ψ = 0.
// The float64 reference (src/reference/exp-integrals.ts) uses Math.expm1 and a recurrence instead.

const SERIES_BELOW: f64 = 0.5;

// ψ's Taylor coefficients from degree 13 down to 0: ψ = Σ (−u)^k/((k + 2)·k!).
const PSI_DEGREE = 13;
const PSI_SERIES = memory.data<f64>([
  1.0 / 93405312000.0, 1.0 / 6706022400.0, 1.0 / 518918400.0, 1.0 / 43545600.0, 1.0 / 3991680.0,
  1.0 / 403200.0, 1.0 / 45360.0, 1.0 / 5760.0, 1.0 / 840.0, 1.0 / 144.0, 1.0 / 30.0, 1.0 / 8.0, 1.0 / 3.0, 0.5,
]);

/** ψ of the last decayIntegrals call. */
export let psiOut: f64 = 0.5;

/** φ1(u) (returned) and ψ(u) (in psiOut), given e = e^{−u}. */
export function decayIntegrals(u: f64, e: f64): f64 {
  if (u >= SERIES_BELOW) {
    const phi = (1 - e) / u;
    psiOut = (phi - e) / u;
    return phi;
  }
  const w = -u;
  let p = load<f64>(PSI_SERIES);
  for (let k = 1; k <= PSI_DEGREE; k++) p = p * w + load<f64>(PSI_SERIES + (<usize>k << 3));
  psiOut = p;
  return e + u * p;
}

/** ψ of the last decayIntegralsX2 call. */
// @ts-ignore: decorator
@lazy export let psiOutX2: v128 = f64x2.splat(0);

/**
 * decayIntegrals for two lanes: φ1 returned, ψ in psiOutX2. The series, or the direct forms,
 * are skipped when no lane needs them. Only called from ASC_FEATURE_SIMD branches.
 */
function decayIntegralsX2(u: v128, e: v128): v128 {
  const small = f64x2.lt(u, f64x2.splat(SERIES_BELOW));
  let phi = f64x2.splat(0), psi = f64x2.splat(0);
  if (!i64x2.all_true(small)) {
    const r = f64x2.div(f64x2.splat(1), u);
    phi = f64x2.mul(f64x2.sub(f64x2.splat(1), e), r);
    psi = f64x2.mul(f64x2.sub(phi, e), r);
  }
  if (v128.any_true(small)) {
    const w = f64x2.neg(u);
    let p = v128.load64_splat(PSI_SERIES);
    for (let k = 1; k <= PSI_DEGREE; k++) p = f64x2.add(f64x2.mul(p, w), v128.load64_splat(PSI_SERIES + (<usize>k << 3)));
    psi = v128.bitselect(p, psi, small);
    phi = v128.bitselect(f64x2.add(e, f64x2.mul(u, p)), phi, small);
  }
  psiOutX2 = psi;
  return phi;
}

// Exported by a list, not `export function`: asc reports AS112 (v128 exchange) for every function
// declared `export` with v128 in its signature, as if it were a wasm export; this one is only
// called from other assembly files (docs/DECISIONS.md, Quiet build).
export { decayIntegralsX2 };
