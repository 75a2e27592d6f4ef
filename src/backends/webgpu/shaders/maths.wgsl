// Float32 elementary functions for the spring kernels, written here rather than taken from WGSL's
// builtins: the WGSL specification lets exp be off by 3 + 2·|x| ulp and sin/cos by 2^-11 absolute
// (docs/DECISIONS.md, "WebGPU: what runs in float32"). Each is a range reduction that is exact in
// float32 followed by a short Taylor polynomial whose truncation is below float32 rounding.

const LOG2E: f32 = 1.4426950408889634;
// ln 2 split so that k·LN2_HI is exact for k < 2^8 (LN2_HI has 16 significant bits)
const LN2_HI: f32 = 0.693145751953125;
const LN2_LO: f32 = 1.428606765330187e-6;
// π/2 split: PIO2_1 has 8 significant bits, PIO2_2 9, so k·PIO2_1 and k·PIO2_2 are exact for k < 2^15
const PIO2_1: f32 = 1.5703125;
const PIO2_2: f32 = 0.00048351287841796875;
const PIO2_3: f32 = 3.1391647326017846e-7;
const TWO_OVER_PI: f32 = 0.6366197723675814;
// e^{-u} below 2^-125 (u > 86.6) is returned as 0 (float32 subnormals may be flushed anyway)
const EXP_NEG_MAX: f32 = 86.5;

// e^{-u} for u ≥ 0: 2^{-k}·e^r with k = round(u/ln2), r = k·ln2 − u (|r| ≤ ln2/2, exact in
// float32), e^r by Taylor to degree 7 (truncation 0.35^8/8! = 5.6e-9).
fn expNeg(u: f32) -> f32 {
  if (!(u <= EXP_NEG_MAX)) {
    return 0.0;
  }
  let k = round(u * LOG2E);
  let r = (k * LN2_HI - u) + k * LN2_LO;
  var p = 1.0 + r / 7.0;
  p = 1.0 + r / 6.0 * p;
  p = 1.0 + r / 5.0 * p;
  p = 1.0 + r / 4.0 * p;
  p = 1.0 + r / 3.0 * p;
  p = 1.0 + r / 2.0 * p;
  p = 1.0 + r * p;
  return ldexp(p, -i32(k));
}

// 1 − e^{-u} for u ≥ 0 without cancellation: u·(1 − u/2·(1 − u/3·(…))) to degree 10 below 0.5
// (truncation 0.5^11/11! = 1.2e-11), else 1 − e^{-u} (≥ 0.39: no cancellation).
fn oneMinusExpNeg(u: f32) -> f32 {
  if (u < 0.5) {
    var p = 1.0 - u / 10.0;
    p = 1.0 - u / 9.0 * p;
    p = 1.0 - u / 8.0 * p;
    p = 1.0 - u / 7.0 * p;
    p = 1.0 - u / 6.0 * p;
    p = 1.0 - u / 5.0 * p;
    p = 1.0 - u / 4.0 * p;
    p = 1.0 - u / 3.0 * p;
    p = 1.0 - u / 2.0 * p;
    return u * p;
  }
  return 1.0 - expNeg(u);
}

// φ₁(−m) = (1 − e^{−m})/m for m ≥ 0, 1 at m = 0 (the reference's expm1OverX at −m).
fn phi1Neg(m: f32) -> f32 {
  if (m < 0.5) {
    var p = 1.0 - m / 11.0;
    p = 1.0 - m / 10.0 * p;
    p = 1.0 - m / 9.0 * p;
    p = 1.0 - m / 8.0 * p;
    p = 1.0 - m / 7.0 * p;
    p = 1.0 - m / 6.0 * p;
    p = 1.0 - m / 5.0 * p;
    p = 1.0 - m / 4.0 * p;
    p = 1.0 - m / 3.0 * p;
    return 1.0 - m / 2.0 * p;
  }
  return oneMinusExpNeg(m) / m;
}

// φ₂(u) = (e^u − 1 − u)/u² = Σ u^k/(k + 2)! for 0 ≤ u < 2, to degree 13 (truncation 2^14/16! = 7.8e-10).
fn phi2(u: f32) -> f32 {
  var p = 1.0 + u / 15.0;
  p = 1.0 + u / 14.0 * p;
  p = 1.0 + u / 13.0 * p;
  p = 1.0 + u / 12.0 * p;
  p = 1.0 + u / 11.0 * p;
  p = 1.0 + u / 10.0 * p;
  p = 1.0 + u / 9.0 * p;
  p = 1.0 + u / 8.0 * p;
  p = 1.0 + u / 7.0 * p;
  p = 1.0 + u / 6.0 * p;
  p = 1.0 + u / 5.0 * p;
  p = 1.0 + u / 4.0 * p;
  p = 1.0 + u / 3.0 * p;
  return 0.5 * p;
}

// (sin p, cos p) for p ≥ 0: r = p − k·π/2 in three exact steps (k < 2^15), then Taylor on
// |r| ≤ π/4 (sin to degree 11, cos to degree 12: truncation below 1.2e-10).
fn sinCos(p: f32) -> vec2<f32> {
  let k = round(p * TWO_OVER_PI);
  // past k = 2^15 the reduction is no longer exact (nor is p, past 2^24): r is kept in range, so
  // sin and cos stay within [−1, 1]
  let r = clamp(((p - k * PIO2_1) - k * PIO2_2) - k * PIO2_3, -0.7853982, 0.7853982);
  let r2 = r * r;
  var s = 1.0 - r2 / 110.0;
  s = 1.0 - r2 / 72.0 * s;
  s = 1.0 - r2 / 42.0 * s;
  s = 1.0 - r2 / 20.0 * s;
  s = 1.0 - r2 / 6.0 * s;
  s = r * s;
  var c = 1.0 - r2 / 132.0;
  c = 1.0 - r2 / 90.0 * c;
  c = 1.0 - r2 / 56.0 * c;
  c = 1.0 - r2 / 30.0 * c;
  c = 1.0 - r2 / 12.0 * c;
  c = 1.0 - r2 / 2.0 * c;
  switch (u32(k) & 3u) {
    case 0u: { return vec2<f32>(s, c); }
    case 1u: { return vec2<f32>(c, -s); }
    case 2u: { return vec2<f32>(-s, -c); }
    default: { return vec2<f32>(-c, s); }
  }
}
