// Per-element spring coefficients for four elements in f32x4 (the per-element kernels of
// kernels/spring-per-element.ts), with u = a·t, a = d/2, e = e^{−u}:
//   x' = g + xx·(x − g) + xv·v + xq·q,   v' = vx·(x − g) + vv·v + vq·q.
// criticalX4: the critical spring (s = a², Holden's critical_spring_damper_exact).
// generalX4: any s, d with |z| ≤ 1, z = (s − a²)·t², through C = cos √z and S = sin √z / √z
// (cosh and sinh for z < 0), which cover the under-, near- and over-damped regimes without a
// branch (Holden's spring_damper_exact, regime by regime, is the same function of z).
// Each returns false, setting nothing, when a lane lies outside its range; the caller then
// takes the general f64x2 transition. docs/DECISIONS.md has the error budgets.
// Only called from `if (ASC_FEATURE_SIMD)` branches.
import { MODE_STIFFNESS_DAMPING, MODE_FREQUENCY_HALFLIFE } from './params';
import { lowX2, highX2, joinX4 } from '../lanes/x4';

const TWO_LN2: f64 = 1.3862943611198906;
const TWO_PI: f64 = 6.283185307179586;
const INV_LN2: f32 = 1.4426950408889634;
const LOG2E_F32: f32 = 1.4426950408889634;
// ln2 split so that k·LN2_HI_F32 is exact for |k| < 2^8 (LN2_HI_F32 has 16 significant bits).
const LN2_HI_F32: f32 = 0.693145751953125;
const LN2_LO_F32: f32 = 1.428606765330187e-6;
// Past u = a·t = 80 (e^{−u} < 2e-35, near float32's subnormals) a block takes the f64x2 path,
// as does halflife 0 (u = ∞).
const U_MAX: f32 = 80;
// dt, 1/dt and 2·ln2·dt must be normal float32 numbers; other dt take the f64x2 path.
const T_MIN: f64 = 8.673617379884035e-19; // 2^-60
const T_MAX: f64 = 1.152921504606847e18; // 2^60
/** The range of expNegSmallX4 (and of the per-element kernel's fused critical blocks). */
export const U_SMALL: f32 = 0.5;
// Below u = 2, xq by series in u (φ₂ and its relatives); above, 1 − xx ≥ 0.47 and xq follows from it.
const XQ_SERIES_U_MAX: f32 = 2;
// generalX4 covers |z| ≤ 1: C and S to degree 5 in z (truncation below 2.1e-9).
const GENERAL_Z_MAX: f32 = 1;
// vv = e·(C − u·S) is formed in f32 as A + B, A = 1 − u, B = z·(Cr − u·Sr); where they cancel
// (|A + B| < VV_F32_MIN_RATIO·(|A| + |B|), near a zero of vv) the block forms C − u·S in float64.
const VV_F32_MIN_RATIO: f32 = 0.5;

// The coefficients of the last call.
// @ts-ignore: decorator
@lazy export let cxx: v128 = f32x4.splat(0);
// @ts-ignore: decorator
@lazy export let cxv: v128 = f32x4.splat(0);
// @ts-ignore: decorator
@lazy export let cxq: v128 = f32x4.splat(0);
// @ts-ignore: decorator
@lazy export let cvx: v128 = f32x4.splat(0);
// @ts-ignore: decorator
@lazy export let cvv: v128 = f32x4.splat(0);
// @ts-ignore: decorator
@lazy export let cvq: v128 = f32x4.splat(0);

/**
 * e^{−u} for u = uf + ur (uf the float32 rounding of u, ur the rest), 0 ≤ u ≤ U_MAX:
 * 2^{−k}·e^r with r = k·ln2 − u, |r| ≤ ln2/2 (+ rounding), Taylor degree 7 in r.
 */
// @ts-ignore: decorator
@inline function expNegX4(uf: v128, ur: v128): v128 {
  const k = f32x4.nearest(f32x4.mul(uf, f32x4.splat(LOG2E_F32)));
  const r = f32x4.sub(f32x4.add(f32x4.sub(f32x4.mul(k, f32x4.splat(LN2_HI_F32)), uf), f32x4.mul(k, f32x4.splat(LN2_LO_F32))), ur);
  // Estrin's scheme (shorter dependency chains than Horner's; the same terms)
  const r2 = f32x4.mul(r, r);
  const r4 = f32x4.mul(r2, r2);
  const a0 = f32x4.add(f32x4.splat(1.0), r);
  const a1 = f32x4.add(f32x4.splat(0.5), f32x4.mul(r, f32x4.splat(1.0 / 6.0)));
  const a2 = f32x4.add(f32x4.splat(1.0 / 24.0), f32x4.mul(r, f32x4.splat(1.0 / 120.0)));
  const a3 = f32x4.add(f32x4.splat(1.0 / 720.0), f32x4.mul(r, f32x4.splat(1.0 / 5040.0)));
  const p = f32x4.add(f32x4.add(a0, f32x4.mul(r2, a1)), f32x4.mul(r4, f32x4.add(a2, f32x4.mul(r2, a3))));
  // 2^{−k}: k ≤ 116 here, so the exponent 127 − k stays normal
  const scale = i32x4.shl(i32x4.sub(i32x4.splat(127), i32x4.trunc_sat_f32x4_s(k)), 23);
  return f32x4.mul(p, scale);
}

/**
 * The critical spring's coefficients for four halflives h, in f32x4 with one exp per element.
 * u = 2·ln2·t/h is divided in float64 and kept as f32 uf plus the remainder ur = u − uf, so that
 * 1 ± u and the exp's reduced argument are exact to float32 rounding even near u = 1 and for
 * large u (blocks with every u ≤ 0.5 take the per-element kernel's criticalSmallX4 instead). Returns false (nothing set) when a lane has
 * u > U_MAX or h = 0, or when dt is outside [T_MIN, T_MAX].
 *   xx = e·(1 + u), xv = e·t, vx = −a·u·e, vv = e·(1 − u), vq = 2u·e,
 *   xq = d·∫₀ᵗ xv = 2·(1 − e·(1 + u))/a = 2t·u·e·φ₂(u),  φ₂(u) = (eᵘ − 1 − u)/u².
 */
// @ts-ignore: decorator
@inline export function criticalX4(h: v128, t: f64, withQ: bool): bool {
  if (!(t >= T_MIN && t <= T_MAX)) return false;
  const c = f64x2.splat(TWO_LN2 * t);
  const uLo = f64x2.div(c, lowX2(h));
  const uHi = f64x2.div(c, highX2(h));
  const uf = joinX4(uLo, uHi);
  if (!v128.all_true<i32>(f32x4.le(uf, f32x4.splat(U_MAX)))) return false; // NaN too
  const ur = joinX4(f64x2.sub(uLo, lowX2(uf)), f64x2.sub(uHi, highX2(uf)));
  // a·u = u²/t, in float64 then rounded once
  const invT = f64x2.splat(1.0 / t);
  const au = joinX4(f64x2.mul(f64x2.mul(uLo, uLo), invT), f64x2.mul(f64x2.mul(uHi, uHi), invT));
  const e = expNegX4(uf, ur);

  const one = f32x4.splat(1);
  const tf = f32x4.splat(<f32>t);
  cxx = f32x4.mul(e, f32x4.add(f32x4.add(one, uf), ur));
  cxv = f32x4.mul(e, tf);
  cvx = f32x4.neg(f32x4.mul(au, e));
  cvv = f32x4.mul(e, f32x4.sub(f32x4.sub(one, uf), ur));
  cvq = f32x4.mul(f32x4.add(uf, uf), e);
  if (!withQ) {
    cxq = f32x4.splat(0);
    return true;
  }
  const f = phi2X4(uf);
  const small = f32x4.mul(f32x4.mul(f32x4.mul(f32x4.splat(<f32>(2 * t)), uf), e), f);
  // 2/a = h/ln2
  const large = f32x4.mul(f32x4.sub(one, cxx), f32x4.mul(h, f32x4.splat(INV_LN2)));
  cxq = v128.bitselect(small, large, f32x4.lt(uf, f32x4.splat(XQ_SERIES_U_MAX)));
  return true;
}

/**
 * e^{−u} for 0 ≤ u ≤ U_SMALL without range reduction: Σ (−u)ᵏ/k!, k ≤ 8 (Estrin's scheme;
 * truncation 0.5⁹/9! = 5.4e-9, 9e-9 relative).
 */
// @ts-ignore: decorator
@inline export function expNegSmallX4(u: v128): v128 {
  const m = f32x4.neg(u);
  const m2 = f32x4.mul(m, m);
  const m4 = f32x4.mul(m2, m2);
  const a0 = f32x4.add(f32x4.splat(1.0), m);
  const a1 = f32x4.add(f32x4.splat(0.5), f32x4.mul(m, f32x4.splat(1.0 / 6.0)));
  const a2 = f32x4.add(f32x4.splat(1.0 / 24.0), f32x4.mul(m, f32x4.splat(1.0 / 120.0)));
  const a3 = f32x4.add(f32x4.splat(1.0 / 720.0), f32x4.mul(m, f32x4.splat(1.0 / 5040.0)));
  const low = f32x4.add(f32x4.add(a0, f32x4.mul(m2, a1)), f32x4.mul(m4, f32x4.add(a2, f32x4.mul(m2, a3))));
  return f32x4.add(low, f32x4.mul(f32x4.mul(m4, m4), f32x4.splat(1.0 / 40320.0)));
}

/** φ₂(u) = Σ uᵏ/(k + 2)!, minimax degree 7 on [0, 2] (fit error 6.8e-9 relative; positive terms; Estrin's scheme). */
// @ts-ignore: decorator
@inline export function phi2X4(u: v128): v128 {
  const u2 = f32x4.mul(u, u);
  const u4 = f32x4.mul(u2, u2);
  const f0 = f32x4.add(f32x4.splat(0.4999999966241977), f32x4.mul(u, f32x4.splat(0.16666689666698056)));
  const f1 = f32x4.add(f32x4.splat(4.166414116373849e-2), f32x4.mul(u, f32x4.splat(8.34373423348651e-3)));
  const f2 = f32x4.add(f32x4.splat(1.368183616549539e-3), f32x4.mul(u, f32x4.splat(2.2036163104063866e-4)));
  const f3 = f32x4.add(f32x4.splat(1.231229868266237e-5), f32x4.mul(u, f32x4.splat(6.197591165046923e-6)));
  return f32x4.add(f32x4.add(f0, f32x4.mul(u2, f1)), f32x4.mul(u4, f32x4.add(f2, f32x4.mul(u2, f3))));
}

/**
 * The general spring's coefficients for four elements with parameters p0, p1 of `mode` (not
 * MODE_CRITICAL: frequency/halflife, stiffness/damping or ratio/halflife), in f32x4.
 * With z = (s − a²)·t², C = Σ (−z)ᵏ/(2k)!, S = Σ (−z)ᵏ/(2k + 1)! (so e·t·S = e^{−at}·sin ωt / ω):
 *   xx = e·(C + u·S), xv = e·t·S, vx = −s·xv, vv = e·(C − u·S), vq = d·xv,
 *   xq = d·∫₀ᵗ xv = 2u·t·e·Σ (−z)ᵏ·φ_{2k+2}(u)  (u ≤ 2; φₙ(u) = Σ uʲ/(j + n)!),
 *   xq = d·(1 − xx)/s = 2u·t·(1 − xx)/(s·t²)  (u > 2, where 1 − xx ≥ 0.47).
 * u and s·t² are formed in float64 and rounded once. Returns false (nothing set) when a lane has
 * u > U_MAX, |z| > 1 or a non-finite value, or when dt is outside [T_MIN, T_MAX].
 */
function generalX4(mode: i32, p0: v128, p1: v128, t: f64, withQ: bool): bool {
  if (!(t >= T_MIN && t <= T_MAX)) return false;
  // u = a·t and s·t², two lanes at a time in float64
  let uLo: v128, uHi: v128, st2Lo: v128, st2Hi: v128;
  if (mode == MODE_STIFFNESS_DAMPING) {
    const halfT = f64x2.splat(0.5 * t);
    const tt = f64x2.splat(t * t);
    uLo = f64x2.mul(lowX2(p1), halfT);
    uHi = f64x2.mul(highX2(p1), halfT);
    st2Lo = f64x2.mul(lowX2(p0), tt);
    st2Hi = f64x2.mul(highX2(p0), tt);
  } else {
    const c = f64x2.splat(TWO_LN2 * t);
    uLo = f64x2.div(c, lowX2(p1));
    uHi = f64x2.div(c, highX2(p1));
    if (mode == MODE_FREQUENCY_HALFLIFE) {
      // s·t² = (2π·f·t)²
      const twoPiT = f64x2.splat(TWO_PI * t);
      const wtLo = f64x2.mul(lowX2(p0), twoPiT);
      const wtHi = f64x2.mul(highX2(p0), twoPiT);
      st2Lo = f64x2.mul(wtLo, wtLo);
      st2Hi = f64x2.mul(wtHi, wtHi);
    } else {
      // ratio ζ: s = (a/ζ)², so s·t² = (u/ζ)²
      const rLo = f64x2.div(uLo, lowX2(p0));
      const rHi = f64x2.div(uHi, highX2(p0));
      st2Lo = f64x2.mul(rLo, rLo);
      st2Hi = f64x2.mul(rHi, rHi);
    }
  }
  const zLo = f64x2.sub(st2Lo, f64x2.mul(uLo, uLo));
  const zHi = f64x2.sub(st2Hi, f64x2.mul(uHi, uHi));
  const uf = joinX4(uLo, uHi);
  const z = joinX4(zLo, zHi);
  // In range (false for NaN too): 0 ≤ u ≤ U_MAX, |z| ≤ 1
  const inRange = v128.and(f32x4.le(uf, f32x4.splat(U_MAX)), f32x4.le(f32x4.abs(z), f32x4.splat(GENERAL_Z_MAX)));
  if (!v128.all_true<i32>(inRange)) return false;
  const ur = joinX4(f64x2.sub(uLo, lowX2(uf)), f64x2.sub(uHi, highX2(uf)));
  const st2 = joinX4(st2Lo, st2Hi);
  const e = expNegX4(uf, ur);

  // C = 1 + z·Cr, S = 1 + z·Sr (Taylor, degree 5 in z)
  let cr = f32x4.splat(-1.0 / 3628800.0);
  cr = f32x4.add(f32x4.mul(cr, z), f32x4.splat(1.0 / 40320.0));
  cr = f32x4.add(f32x4.mul(cr, z), f32x4.splat(-1.0 / 720.0));
  cr = f32x4.add(f32x4.mul(cr, z), f32x4.splat(1.0 / 24.0));
  cr = f32x4.add(f32x4.mul(cr, z), f32x4.splat(-0.5));
  let sr = f32x4.splat(-1.0 / 39916800.0);
  sr = f32x4.add(f32x4.mul(sr, z), f32x4.splat(1.0 / 362880.0));
  sr = f32x4.add(f32x4.mul(sr, z), f32x4.splat(-1.0 / 5040.0));
  sr = f32x4.add(f32x4.mul(sr, z), f32x4.splat(1.0 / 120.0));
  sr = f32x4.add(f32x4.mul(sr, z), f32x4.splat(-1.0 / 6.0));
  const one = f32x4.splat(1);
  const S = f32x4.add(one, f32x4.mul(z, sr));
  const usr = f32x4.mul(uf, sr);
  // C + u·S = (1 + u) + z·(Cr + u·Sr), C − u·S = (1 − u) + z·(Cr − u·Sr), 1 ± u exact to rounding
  const plus = f32x4.add(f32x4.add(f32x4.add(one, uf), ur), f32x4.mul(z, f32x4.add(cr, usr)));
  const A = f32x4.sub(f32x4.sub(one, uf), ur);
  const B = f32x4.mul(z, f32x4.sub(cr, usr));
  let minus = f32x4.add(A, B);
  const cancels = f32x4.lt(f32x4.abs(minus), f32x4.mul(f32x4.splat(VV_F32_MIN_RATIO), f32x4.add(f32x4.abs(A), f32x4.abs(B))));
  if (v128.any_true(cancels)) minus = joinX4(cMinusUSX2(zLo, uLo), cMinusUSX2(zHi, uHi));

  const tf = f32x4.splat(<f32>t);
  const eS = f32x4.mul(e, S);
  cxx = f32x4.mul(e, plus);
  cxv = f32x4.mul(eS, tf);
  cvx = f32x4.neg(f32x4.mul(eS, f32x4.div(st2, tf)));
  cvv = f32x4.mul(e, minus);
  cvq = f32x4.mul(f32x4.add(uf, uf), eS);
  if (!withQ) {
    cxq = f32x4.splat(0);
    return true;
  }
  const twoUT = f32x4.mul(f32x4.add(uf, uf), tf);
  const small = f32x4.mul(f32x4.mul(twoUT, e), xqSeriesX4(uf, z));
  const large = f32x4.div(f32x4.mul(twoUT, f32x4.sub(one, cxx)), st2);
  cxq = v128.bitselect(small, large, f32x4.le(uf, f32x4.splat(XQ_SERIES_U_MAX)));
  return true;
}

/**
 * Σₖ (−z)ᵏ·φ_{2k+2}(u) for k = 0…5, u ≤ 2, |z| ≤ 1 (every term after the first is at most 0.13
 * of the one before, so nothing cancels). φ_{n−1} = 1/(n − 1)! + u·φₙ, run down from
 * φ₁₂ ≈ (1 + u/13 + u²/182)/12! (stable: every step adds positive terms).
 */
// @ts-ignore: decorator
@inline function xqSeriesX4(u: v128, z: v128): v128 {
  const nz = f32x4.neg(z);
  let phi = f32x4.mul(f32x4.add(f32x4.mul(f32x4.add(f32x4.mul(u, f32x4.splat(1.0 / 182.0)), f32x4.splat(1.0 / 13.0)), u), f32x4.splat(1)), f32x4.splat(1.0 / 479001600.0));
  let sum = phi;
  phi = f32x4.add(f32x4.splat(1.0 / 39916800.0), f32x4.mul(u, phi)); // φ₁₁
  phi = f32x4.add(f32x4.splat(1.0 / 3628800.0), f32x4.mul(u, phi)); // φ₁₀
  sum = f32x4.add(phi, f32x4.mul(nz, sum));
  phi = f32x4.add(f32x4.splat(1.0 / 362880.0), f32x4.mul(u, phi)); // φ₉
  phi = f32x4.add(f32x4.splat(1.0 / 40320.0), f32x4.mul(u, phi)); // φ₈
  sum = f32x4.add(phi, f32x4.mul(nz, sum));
  phi = f32x4.add(f32x4.splat(1.0 / 5040.0), f32x4.mul(u, phi)); // φ₇
  phi = f32x4.add(f32x4.splat(1.0 / 720.0), f32x4.mul(u, phi)); // φ₆
  sum = f32x4.add(phi, f32x4.mul(nz, sum));
  phi = f32x4.add(f32x4.splat(1.0 / 120.0), f32x4.mul(u, phi)); // φ₅
  phi = f32x4.add(f32x4.splat(1.0 / 24.0), f32x4.mul(u, phi)); // φ₄
  sum = f32x4.add(phi, f32x4.mul(nz, sum));
  phi = f32x4.add(f32x4.splat(1.0 / 6.0), f32x4.mul(u, phi)); // φ₃
  phi = f32x4.add(f32x4.splat(0.5), f32x4.mul(u, phi)); // φ₂
  return f32x4.add(phi, f32x4.mul(nz, sum));
}

// C − u·S = (1 − u) + z·(Cr − u·Sr) for two lanes in float64, Taylor to degree 8 in z: near a
// zero of C − u·S the truncation counts against C − u·S itself (z⁹/18! < 1.6e-16).
// @ts-ignore: decorator
@inline function cMinusUSX2(z: v128, u: v128): v128 {
  let cr = f64x2.splat(1.0 / 6402373705728000.0);
  cr = f64x2.add(f64x2.mul(cr, z), f64x2.splat(-1.0 / 20922789888000.0));
  cr = f64x2.add(f64x2.mul(cr, z), f64x2.splat(1.0 / 87178291200.0));
  cr = f64x2.add(f64x2.mul(cr, z), f64x2.splat(-1.0 / 479001600.0));
  cr = f64x2.add(f64x2.mul(cr, z), f64x2.splat(1.0 / 3628800.0));
  cr = f64x2.add(f64x2.mul(cr, z), f64x2.splat(-1.0 / 40320.0));
  cr = f64x2.add(f64x2.mul(cr, z), f64x2.splat(1.0 / 720.0));
  cr = f64x2.add(f64x2.mul(cr, z), f64x2.splat(-1.0 / 24.0));
  cr = f64x2.add(f64x2.mul(cr, z), f64x2.splat(0.5));
  let sr = f64x2.splat(1.0 / 121645100408832000.0);
  sr = f64x2.add(f64x2.mul(sr, z), f64x2.splat(-1.0 / 355687428096000.0));
  sr = f64x2.add(f64x2.mul(sr, z), f64x2.splat(1.0 / 1307674368000.0));
  sr = f64x2.add(f64x2.mul(sr, z), f64x2.splat(-1.0 / 6227020800.0));
  sr = f64x2.add(f64x2.mul(sr, z), f64x2.splat(1.0 / 39916800.0));
  sr = f64x2.add(f64x2.mul(sr, z), f64x2.splat(-1.0 / 362880.0));
  sr = f64x2.add(f64x2.mul(sr, z), f64x2.splat(1.0 / 5040.0));
  sr = f64x2.add(f64x2.mul(sr, z), f64x2.splat(-1.0 / 120.0));
  sr = f64x2.add(f64x2.mul(sr, z), f64x2.splat(1.0 / 6.0));
  // here cr = −Cr and sr = −Sr
  return f64x2.sub(f64x2.sub(f64x2.splat(1), u), f64x2.mul(z, f64x2.sub(cr, f64x2.mul(u, sr))));
}

// Exported by a list, not `export function`: asc reports AS112 for a function declared `export`
// with v128 in its signature (docs/DECISIONS.md, Quiet build).
export { generalX4 };
