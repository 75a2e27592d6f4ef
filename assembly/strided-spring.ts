// The damped spring family (spring.ts) on strided data: item i of an operand is `width` floats
// from p + i·stride·4, so the solver can spring data where it already lives: the translation
// column of instance matrices (stride 16, offset 12, width 3), an interleaved vertex attribute,
// or packed arrays (stride = width). Uniform parameters only; the same exact transition
//   x' = g + xx·(x − g) + xv·v + xq·q,   v' = vx·(x − g) + vv·v + vq·q
// (spring-transition.ts). g = 0 / q = 0 pointers mean goal 0 / goal velocity 0.
//
// SIMD build: one item at a time, up to 4 components a vector: a v128 load at the item (lanes
// past `width` hold the next item's floats and are ignored) and lane stores of exactly `width`
// floats, so nothing outside the items is ever written. Items whose 16-byte loads could reach
// past the last item of an operand run the scalar loop (docs/DECISIONS.md, "Strided springs").
import { springTransition, xx, xv, xq, vx, vv, vq } from './spring-transition';
import { stiffnessOf, dampingOf } from './spring-params';

export function springStrided(
  x: usize, xStride: i32, v: usize, vStride: i32, g: usize, gStride: i32, q: usize, qStride: i32,
  n: i32, width: i32, mode: i32, p0: f64, p1: f64, dt: f64,
): void {
  if (dt == 0 || n <= 0) return;
  springTransition(stiffnessOf(mode, p0, p1), dampingOf(mode, p0, p1), dt);
  let i = 0;
  if (ASC_FEATURE_SIMD) {
    if (width >= 3) {
      let m = min(vectorItems(n, width, xStride), vectorItems(n, width, vStride));
      if (g) m = min(m, vectorItems(n, width, gStride));
      if (q) m = min(m, vectorItems(n, width, qStride));
      const cxx = f32x4.splat(<f32>xx), cxv = f32x4.splat(<f32>xv), cxq = f32x4.splat(<f32>xq);
      const cvx = f32x4.splat(<f32>vx), cvv = f32x4.splat(<f32>vv), cvq = f32x4.splat(<f32>vq);
      for (; i < m; i++) {
        const xi = x + (<usize>i * <usize>xStride << 2);
        const vi = v + (<usize>i * <usize>vStride << 2);
        const gi = g ? g + (<usize>i * <usize>gStride << 2) : 0;
        const qi = q ? q + (<usize>i * <usize>qStride << 2) : 0;
        for (let c = 0; c < width; c += 4) {
          const off = <usize>c << 2;
          applyLanes(xi + off, vi + off, gi ? gi + off : 0, qi ? qi + off : 0, width - c, cxx, cxv, cxq, cvx, cvv, cvq);
        }
      }
    }
  }
  for (; i < n; i++) {
    for (let c = 0; c < width; c++) {
      const xp = x + ((<usize>i * <usize>xStride + <usize>c) << 2);
      const vp = v + ((<usize>i * <usize>vStride + <usize>c) << 2);
      const gi: f64 = g ? <f64>load<f32>(g + ((<usize>i * <usize>gStride + <usize>c) << 2)) : 0;
      const qi: f64 = q ? <f64>load<f32>(q + ((<usize>i * <usize>qStride + <usize>c) << 2)) : 0;
      const y = <f64>load<f32>(xp) - gi;
      const vi = <f64>load<f32>(vp);
      store<f32>(xp, <f32>(gi + xx * y + xv * vi + xq * qi));
      store<f32>(vp, <f32>(vx * y + vv * vi + vq * qi));
    }
  }
}

/**
 * Items 0 … k−1 of an operand whose vector loads (whole groups of 4 floats from each item's
 * start) stay inside the operand's span [0, (n − 1)·stride + width).
 */
// @ts-ignore: decorator
@inline function vectorItems(n: i32, width: i32, stride: i32): i32 {
  const loaded = (width + 3) & ~3;
  const room = <i64>(n - 1) * <i64>stride + <i64>(width - loaded);
  if (room < 0) return 0;
  return <i32>min<i64>(<i64>n, room / <i64>stride + 1);
}

// Up to four components of one item: the packed kernel's f32x4 arithmetic (spring.ts applyX4),
// in the same order, stored lane by lane.
// @ts-ignore: decorator
@inline function applyLanes(
  x: usize, v: usize, g: usize, q: usize, lanes: i32,
  cxx: v128, cxv: v128, cxq: v128, cvx: v128, cvv: v128, cvq: v128,
): void {
  const xi = v128.load(x);
  const vi = v128.load(v);
  const gi = g ? v128.load(g) : f32x4.splat(0);
  const y = f32x4.sub(xi, gi);
  let xn = f32x4.add(f32x4.mul(cxx, y), f32x4.mul(cxv, vi));
  let vn = f32x4.add(f32x4.mul(cvx, y), f32x4.mul(cvv, vi));
  if (q) {
    const qi = v128.load(q);
    xn = f32x4.add(xn, f32x4.mul(cxq, qi));
    vn = f32x4.add(vn, f32x4.mul(cvq, qi));
  }
  storeLanes(x, f32x4.add(gi, xn), lanes);
  storeLanes(v, vn, lanes);
}

/** Stores the first min(lanes, 4) floats of a. */
// @ts-ignore: decorator
@inline function storeLanes(p: usize, a: v128, lanes: i32): void {
  if (lanes >= 4) {
    v128.store(p, a);
  } else if (lanes == 3) {
    v128.store64_lane(p, a, 0);
    v128.store32_lane(p, a, 2, 8);
  } else if (lanes == 2) {
    v128.store64_lane(p, a, 0);
  } else {
    v128.store32_lane(p, a, 0);
  }
}
