// Applying a spring transition to elements in place (Holden's "Spring-It-On", one matrix per step):
//   x' = g + xx·(x − g) + xv·v + xq·q,   v' = vx·(x − g) + vv·v + vq·q
// g = 0 / q = 0 pointers mean goal 0 / goal velocity 0. Shared by the uniform and the per-element
// kernels, so that every path (and the kept coefficients of prepared calls) runs the same
// operations in the same order.

/**
 * Four elements from offset i with f32x4 coefficients. hasG / hasQ are constants where the caller
 * can make them so (the uniform loops), so inlining folds the branches away there.
 */
// @ts-ignore: decorator
@inline function applyX4(
  x: usize, v: usize, g: usize, q: usize, i: i32,
  cxx: v128, cxv: v128, cxq: v128, cvx: v128, cvv: v128, cvq: v128, hasG: bool, hasQ: bool,
): void {
  const off = <usize>i << 2;
  const xNow = v128.load(x + off);
  const vNow = v128.load(v + off);
  const gi = hasG ? v128.load(g + off) : f32x4.splat(0);
  const dx = f32x4.sub(xNow, gi); // x − g
  let xn = f32x4.add(f32x4.mul(cxx, dx), f32x4.mul(cxv, vNow));
  let vn = f32x4.add(f32x4.mul(cvx, dx), f32x4.mul(cvv, vNow));
  if (hasQ) {
    const qi = v128.load(q + off);
    xn = f32x4.add(xn, f32x4.mul(cxq, qi));
    vn = f32x4.add(vn, f32x4.mul(cvq, qi));
  }
  v128.store(x + off, f32x4.add(gi, xn));
  v128.store(v + off, vn);
}

/** One element with float64 coefficients, rounded once to float32. */
// @ts-ignore: decorator
@inline export function applyScalar(
  x: usize, v: usize, g: usize, q: usize, i: i32, xx: f64, xv: f64, xq: f64, vx: f64, vv: f64, vq: f64,
): void {
  const off = <usize>i << 2;
  const gi: f64 = g ? <f64>load<f32>(g + off) : 0;
  const qi: f64 = q ? <f64>load<f32>(q + off) : 0;
  const dx = <f64>load<f32>(x + off) - gi; // x − g
  const vNow = <f64>load<f32>(v + off);
  store<f32>(x + off, <f32>(gi + xx * dx + xv * vNow + xq * qi));
  store<f32>(v + off, <f32>(vx * dx + vv * vNow + vq * qi));
}

// Exported by a list, not `export function`: asc reports AS112 for a function declared `export`
// with v128 in its signature (docs/DECISIONS.md, Quiet build).
export { applyX4 };
