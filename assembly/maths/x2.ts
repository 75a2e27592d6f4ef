// Vectorised float64 exp and sin/cos (two lanes of f64x2) for the per-element kernels.
// Polynomials are truncated Taylor series after exact range reduction; their measured
// maximum errors are in docs/DECISIONS.md and checked by test/wasm/simd-math-f64.test.ts.
// Only called from `if (ASC_FEATURE_SIMD)` branches, so the scalar build never compiles them.

const LOG2E: f64 = 1.4426950408889634;
// ln2 split so that k·LN2_HI is exact for |k| < 2^20 (fdlibm's constants).
const LN2_HI: f64 = 6.93147180369123816490e-1;
const LN2_LO: f64 = 1.90821492927058770002e-10;
// Below this exp(u) is under 3e-308: flushed to 0 (the subnormal range is not worth a branch).
const EXP_UNDERFLOW: f64 = -708.0;

/** e^u for u ≤ 0 (lanes above 0 are accurate up to u = 709). Max relative error 2.2e-16·few (see docs). */
// @ts-ignore: decorator
@inline export function expX2(u: v128): v128 {
  const uc = f64x2.pmax(u, f64x2.splat(EXP_UNDERFLOW));
  const k = f64x2.nearest(f64x2.mul(uc, f64x2.splat(LOG2E)));
  // r = u − k·ln2 in [−ln2/2, ln2/2]
  const r = f64x2.sub(f64x2.sub(uc, f64x2.mul(k, f64x2.splat(LN2_HI))), f64x2.mul(k, f64x2.splat(LN2_LO)));
  // Taylor series of e^r to degree 11: truncation (ln2/2)^12/12! < 7e-15 relative.
  let p = f64x2.splat(1.0 / 39916800.0);
  p = f64x2.add(f64x2.mul(p, r), f64x2.splat(1.0 / 3628800.0));
  p = f64x2.add(f64x2.mul(p, r), f64x2.splat(1.0 / 362880.0));
  p = f64x2.add(f64x2.mul(p, r), f64x2.splat(1.0 / 40320.0));
  p = f64x2.add(f64x2.mul(p, r), f64x2.splat(1.0 / 5040.0));
  p = f64x2.add(f64x2.mul(p, r), f64x2.splat(1.0 / 720.0));
  p = f64x2.add(f64x2.mul(p, r), f64x2.splat(1.0 / 120.0));
  p = f64x2.add(f64x2.mul(p, r), f64x2.splat(1.0 / 24.0));
  p = f64x2.add(f64x2.mul(p, r), f64x2.splat(1.0 / 6.0));
  p = f64x2.add(f64x2.mul(p, r), f64x2.splat(0.5));
  p = f64x2.add(f64x2.mul(p, r), f64x2.splat(1.0));
  p = f64x2.add(f64x2.mul(p, r), f64x2.splat(1.0));
  // 2^k built from its exponent bits.
  const ki = i64x2.extend_low_i32x4_s(i32x4.trunc_sat_f64x2_s_zero(k));
  const scale = i64x2.shl(i64x2.add(ki, i64x2.splat(1023)), 52);
  const result = f64x2.mul(p, scale);
  return v128.bitselect(f64x2.splat(0), result, f64x2.lt(u, f64x2.splat(EXP_UNDERFLOW)));
}

/** (e^u − 1)/u for u ≤ 0, equal to 1 at u = 0; `expU` is e^u, already computed by the caller. */
// @ts-ignore: decorator
@inline export function expm1OverXX2(u: v128, expU: v128): v128 {
  // |u| < 0.5: series Σ uⁿ/(n+1)!, truncation 0.5^14/15! < 5e-17.
  let p = f64x2.splat(1.0 / 87178291200.0);
  p = f64x2.add(f64x2.mul(p, u), f64x2.splat(1.0 / 6227020800.0));
  p = f64x2.add(f64x2.mul(p, u), f64x2.splat(1.0 / 479001600.0));
  p = f64x2.add(f64x2.mul(p, u), f64x2.splat(1.0 / 39916800.0));
  p = f64x2.add(f64x2.mul(p, u), f64x2.splat(1.0 / 3628800.0));
  p = f64x2.add(f64x2.mul(p, u), f64x2.splat(1.0 / 362880.0));
  p = f64x2.add(f64x2.mul(p, u), f64x2.splat(1.0 / 40320.0));
  p = f64x2.add(f64x2.mul(p, u), f64x2.splat(1.0 / 5040.0));
  p = f64x2.add(f64x2.mul(p, u), f64x2.splat(1.0 / 720.0));
  p = f64x2.add(f64x2.mul(p, u), f64x2.splat(1.0 / 120.0));
  p = f64x2.add(f64x2.mul(p, u), f64x2.splat(1.0 / 24.0));
  p = f64x2.add(f64x2.mul(p, u), f64x2.splat(1.0 / 6.0));
  p = f64x2.add(f64x2.mul(p, u), f64x2.splat(0.5));
  p = f64x2.add(f64x2.mul(p, u), f64x2.splat(1.0));
  // |u| ≥ 0.5: (e^u − 1)/u loses at most a factor 1/(1 − e^−0.5) ≈ 2.5 in relative precision.
  const direct = f64x2.div(f64x2.sub(expU, f64x2.splat(1.0)), u);
  const small = f64x2.lt(f64x2.abs(u), f64x2.splat(0.5));
  return v128.bitselect(p, direct, small);
}

// π/2 split in three 33-bit parts (fdlibm's pio2_1, pio2_2, pio2_3): k·part is exact for k < 2^20.
const PIO2_1: f64 = 1.57079632673412561417e+00;
const PIO2_2: f64 = 6.07710050630396597660e-11;
const PIO2_3: f64 = 2.02226624871116645580e-21;
const TWO_OVER_PI: f64 = 6.36619772367581382433e-01;

/** cos(θ) of the last sinCosX2 call. */
// @ts-ignore: decorator
@lazy export let cosOut: v128 = f64x2.splat(0);

/**
 * sin(θ), and cos(θ) in `cosOut`, for 0 ≤ θ < 2^20·π/2 (about 1.6e6 rad).
 * Cody–Waite reduction to r in [−π/4, π/4], then Taylor series of degree 13 (sin) and 14 (cos):
 * truncation (π/4)^15/15! < 3e-14.
 */
function sinCosX2(theta: v128): v128 {
  const k = f64x2.nearest(f64x2.mul(theta, f64x2.splat(TWO_OVER_PI)));
  let r = f64x2.sub(theta, f64x2.mul(k, f64x2.splat(PIO2_1)));
  r = f64x2.sub(r, f64x2.mul(k, f64x2.splat(PIO2_2)));
  r = f64x2.sub(r, f64x2.mul(k, f64x2.splat(PIO2_3)));
  const r2 = f64x2.mul(r, r);
  // sin r = r·(1 − r²/3! + r⁴/5! − … − r¹²/13!)
  let s = f64x2.splat(1.0 / 6227020800.0);
  s = f64x2.sub(f64x2.splat(1.0 / 39916800.0), f64x2.mul(s, r2));
  s = f64x2.sub(f64x2.splat(1.0 / 362880.0), f64x2.mul(s, r2));
  s = f64x2.sub(f64x2.splat(1.0 / 5040.0), f64x2.mul(s, r2));
  s = f64x2.sub(f64x2.splat(1.0 / 120.0), f64x2.mul(s, r2));
  s = f64x2.sub(f64x2.splat(1.0 / 6.0), f64x2.mul(s, r2));
  s = f64x2.sub(f64x2.splat(1.0), f64x2.mul(s, r2));
  s = f64x2.mul(s, r);
  // cos r = 1 − r²/2! + r⁴/4! − … + r¹⁴/14! (alternating)
  let c = f64x2.splat(1.0 / 87178291200.0);
  c = f64x2.sub(f64x2.splat(1.0 / 479001600.0), f64x2.mul(c, r2));
  c = f64x2.sub(f64x2.splat(1.0 / 3628800.0), f64x2.mul(c, r2));
  c = f64x2.sub(f64x2.splat(1.0 / 40320.0), f64x2.mul(c, r2));
  c = f64x2.sub(f64x2.splat(1.0 / 720.0), f64x2.mul(c, r2));
  c = f64x2.sub(f64x2.splat(1.0 / 24.0), f64x2.mul(c, r2));
  c = f64x2.sub(f64x2.splat(0.5), f64x2.mul(c, r2));
  c = f64x2.sub(f64x2.splat(1.0), f64x2.mul(c, r2));
  // Quadrant k mod 4: sin θ = (s, c, −s, −c), cos θ = (c, −s, −c, s).
  const quadrant = i64x2.extend_low_i32x4_s(i32x4.trunc_sat_f64x2_s_zero(k));
  const one = i64x2.splat(1);
  const two = i64x2.splat(2);
  const swap = i64x2.eq(v128.and(quadrant, one), one);
  const sinNegative = i64x2.eq(v128.and(quadrant, two), two);
  const cosNegative = i64x2.eq(v128.and(i64x2.add(quadrant, one), two), two);
  const signBit = f64x2.splat(-0.0);
  const sinAbs = v128.bitselect(c, s, swap);
  const cosAbs = v128.bitselect(s, c, swap);
  cosOut = v128.xor(cosAbs, v128.and(cosNegative, signBit));
  return v128.xor(sinAbs, v128.and(sinNegative, signBit));
}

// Exported by a list, not `export function`: asc reports AS112 (v128 exchange) for every function
// declared `export` with v128 in its signature, as if it were a wasm export; this one is only
// called from other assembly files (docs/DECISIONS.md, Quiet build).
export { sinCosX2 };
