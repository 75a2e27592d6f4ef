// How a spring's two parameters map to stiffness s and damping d (Holden, "Spring-It-On").
// The numbers match SpringMode in src/core/types.ts; test/wasm/build.node.test.ts checks they agree.

export const MODE_FREQUENCY_HALFLIFE: i32 = 0; // s = (2π·f)², d = 4·ln2/halflife
export const MODE_STIFFNESS_DAMPING: i32 = 1;  // s and d given
export const MODE_RATIO_HALFLIFE: i32 = 2;     // d = 4·ln2/halflife, s = (d/2ζ)²
export const MODE_CRITICAL: i32 = 3;           // d = 4·ln2/halflife, s = d²/4

const TWO_PI: f64 = 6.283185307179586;
const FOUR_LN2: f64 = 2.772588722239781;

/** Stiffness from the mode's parameters p0, p1 (scalar). */
// @ts-ignore: decorator
@inline export function stiffnessOf(mode: i32, p0: f64, p1: f64): f64 {
  if (mode == MODE_FREQUENCY_HALFLIFE) { const w = TWO_PI * p0; return w * w; }
  if (mode == MODE_STIFFNESS_DAMPING) return p0;
  if (mode == MODE_RATIO_HALFLIFE) { const sqrtS = FOUR_LN2 / p1 / (2.0 * p0); return sqrtS * sqrtS; }
  const a = 0.5 * (FOUR_LN2 / p0); // critical: s = a² exactly, so s − a² = 0
  return a * a;
}

/** Damping from the mode's parameters p0, p1 (scalar); halflife 0 gives +∞. */
// @ts-ignore: decorator
@inline export function dampingOf(mode: i32, p0: f64, p1: f64): f64 {
  if (mode == MODE_STIFFNESS_DAMPING) return p1;
  if (mode == MODE_CRITICAL) return FOUR_LN2 / p0;
  return FOUR_LN2 / p1;
}

/** Stiffness for two lanes. */
// @ts-ignore: decorator
@inline export function stiffnessOfX2(mode: i32, p0: v128, p1: v128): v128 {
  if (mode == MODE_FREQUENCY_HALFLIFE) { const w = f64x2.mul(f64x2.splat(TWO_PI), p0); return f64x2.mul(w, w); }
  if (mode == MODE_STIFFNESS_DAMPING) return p0;
  if (mode == MODE_RATIO_HALFLIFE) {
    const sqrtS = f64x2.div(f64x2.div(f64x2.splat(FOUR_LN2), p1), f64x2.mul(f64x2.splat(2.0), p0));
    return f64x2.mul(sqrtS, sqrtS);
  }
  const a = f64x2.mul(f64x2.splat(0.5), f64x2.div(f64x2.splat(FOUR_LN2), p0));
  return f64x2.mul(a, a);
}

/** Damping for two lanes. */
// @ts-ignore: decorator
@inline export function dampingOfX2(mode: i32, p0: v128, p1: v128): v128 {
  if (mode == MODE_STIFFNESS_DAMPING) return p1;
  if (mode == MODE_CRITICAL) return f64x2.div(f64x2.splat(FOUR_LN2), p0);
  return f64x2.div(f64x2.splat(FOUR_LN2), p1);
}
