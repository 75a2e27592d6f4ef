// The damped spring family (spring.ts) on strided data: item i of an operand is `width` floats
// from p + i·stride·4, so the solver can spring data where it already lives: the translation
// column of instance matrices (stride 16, offset 12, width 3), an interleaved vertex attribute,
// or packed arrays (stride = width). Uniform parameters only; the same exact transition
//   x' = g + xx·(x − g) + xv·v + xq·q,   v' = vx·(x − g) + vv·v + vq·q
// (spring-transition.ts). g = 0 / q = 0 pointers mean goal 0 / goal velocity 0.
//
// SIMD build, items of 3 floats (positions, translations): four items at a time, each operand
// as three f32x4 of the packed layout: a packed operand (stride 3) is loaded as is; a strided
// one is gathered with one 16-byte load per item (its 4th float ignored) and three shuffles,
// and scattered back with lane stores of exactly its 3 floats, so nothing outside the items is
// written. Groups whose 16-byte loads could reach past an operand's readable end (xEnd … qEnd:
// the byte after the last float of the operand's items in the whole call; a threaded solver's
// chunk keeps the whole call's ends, so its groups are those of one call), and other widths, run
// the scalar float64 loop (measurements: docs/DECISIONS.md, "Strided springs").
import { springTransition, xx, xv, xq, vx, vv, vq } from '../spring/transition';
import { stiffnessOf, dampingOf } from '../spring/params';

export function springStrided(
  x: usize, xStride: i32, v: usize, vStride: i32, g: usize, gStride: i32, q: usize, qStride: i32,
  n: i32, width: i32, mode: i32, p0: f64, p1: f64, dt: f64,
  xEnd: usize, vEnd: usize, gEnd: usize, qEnd: usize,
): void {
  if (dt == 0 || n <= 0) return;
  springTransition(stiffnessOf(mode, p0, p1), dampingOf(mode, p0, p1), dt);
  let i = 0;
  if (ASC_FEATURE_SIMD) {
    if (width == 3) {
      let m = min(gatherItems(n, x, xStride, xEnd), groupItems(n, v, vStride, vEnd));
      if (g) m = min(m, groupItems(n, g, gStride, gEnd));
      if (q) m = min(m, groupItems(n, q, qStride, qEnd));
      // One loop per layout, so its body has no branch: the zero-copy case (x strided; v and g
      // packed; no q), the same with q, and any layout.
      if (vStride == 3 && g && gStride == 3 && (!q || qStride == 3)) {
        if (q) i = groups(x, xStride, v, vStride, g, gStride, q, qStride, m, true, true, true);
        else i = groups(x, xStride, v, vStride, g, gStride, q, qStride, m, true, true, false);
      } else {
        i = groups(x, xStride, v, vStride, g, gStride, q, qStride, m, false, g != 0, q != 0);
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
 * Springs items 0 … 4·⌊m/4⌋ − 1 of 3 floats in groups of four; returns the next item. x is
 * always gathered; v, g, q are loaded as is when `packed` (stride 3), else gathered (gather3).
 * `packed`, `hasG`, `hasQ` are constants at the call sites, so inlining folds their branches.
 */
// @ts-ignore: decorator
@inline function groups(
  x: usize, xStride: i32, v: usize, vStride: i32, g: usize, gStride: i32, q: usize, qStride: i32,
  m: i32, packed: bool, hasG: bool, hasQ: bool,
): i32 {
  const cxx = f32x4.splat(<f32>xx), cxv = f32x4.splat(<f32>xv), cxq = f32x4.splat(<f32>xq);
  const cvx = f32x4.splat(<f32>vx), cvv = f32x4.splat(<f32>vv), cvq = f32x4.splat(<f32>vq);
  const zero = f32x4.splat(0);
  const step = <usize>xStride << 2;
  let i = 0;
  for (; i + 4 <= m; i += 4) {
    // Every load of the group before any store: interleaved operands cannot disturb each other.
    const a = x + <usize>i * step, b = a + step, c = b + step, d = c + step;
    const A = v128.load(a), B = v128.load(b), C = v128.load(c), D = v128.load(d);
    const x0 = i32x4.shuffle(A, B, 0, 1, 2, 4), x1 = i32x4.shuffle(B, C, 1, 2, 4, 5), x2 = i32x4.shuffle(C, D, 2, 4, 5, 6);
    const p = <usize>i * 12; // packed byte offset of item i
    const v0 = packed ? v128.load(v + p) : gather3(v, vStride, i, 0);
    const v1 = packed ? v128.load(v + p, 16) : gather3(v, vStride, i, 1);
    const v2 = packed ? v128.load(v + p, 32) : gather3(v, vStride, i, 2);
    const G0 = hasG ? (packed ? v128.load(g + p) : gather3(g, gStride, i, 0)) : zero;
    const G1 = hasG ? (packed ? v128.load(g + p, 16) : gather3(g, gStride, i, 1)) : zero;
    const G2 = hasG ? (packed ? v128.load(g + p, 32) : gather3(g, gStride, i, 2)) : zero;
    // The packed kernel's f32x4 arithmetic (spring.ts applyX4), in the same order.
    const y0 = f32x4.sub(x0, G0), y1 = f32x4.sub(x1, G1), y2 = f32x4.sub(x2, G2);
    let xn0 = f32x4.add(f32x4.mul(cxx, y0), f32x4.mul(cxv, v0));
    let xn1 = f32x4.add(f32x4.mul(cxx, y1), f32x4.mul(cxv, v1));
    let xn2 = f32x4.add(f32x4.mul(cxx, y2), f32x4.mul(cxv, v2));
    let vn0 = f32x4.add(f32x4.mul(cvx, y0), f32x4.mul(cvv, v0));
    let vn1 = f32x4.add(f32x4.mul(cvx, y1), f32x4.mul(cvv, v1));
    let vn2 = f32x4.add(f32x4.mul(cvx, y2), f32x4.mul(cvv, v2));
    if (hasQ) {
      const Q0 = packed ? v128.load(q + p) : gather3(q, qStride, i, 0);
      const Q1 = packed ? v128.load(q + p, 16) : gather3(q, qStride, i, 1);
      const Q2 = packed ? v128.load(q + p, 32) : gather3(q, qStride, i, 2);
      xn0 = f32x4.add(xn0, f32x4.mul(cxq, Q0)); xn1 = f32x4.add(xn1, f32x4.mul(cxq, Q1)); xn2 = f32x4.add(xn2, f32x4.mul(cxq, Q2));
      vn0 = f32x4.add(vn0, f32x4.mul(cvq, Q0)); vn1 = f32x4.add(vn1, f32x4.mul(cvq, Q1)); vn2 = f32x4.add(vn2, f32x4.mul(cvq, Q2));
    }
    const r0 = f32x4.add(G0, xn0), r1 = f32x4.add(G1, xn1), r2 = f32x4.add(G2, xn2);
    v128.store64_lane(a, r0, 0); v128.store32_lane(a, r0, 2, 8);
    v128.store32_lane(b, r0, 3); v128.store64_lane(b, r1, 0, 4);
    v128.store64_lane(c, r1, 1); v128.store32_lane(c, r2, 0, 8);
    v128.store32_lane(d, r2, 1); v128.store64_lane(d, r2, 1, 4);
    if (packed) {
      v128.store(v + p, vn0); v128.store(v + p, vn1, 16); v128.store(v + p, vn2, 32);
    } else {
      scatter3(v, vStride, i, vn0, vn1, vn2);
    }
  }
  return i;
}

/**
 * Items 0 … k−1 (at most n) of an operand of 3-float items at p whose 16-byte gather loads end
 * at or before the byte `end`.
 */
// @ts-ignore: decorator
@inline function gatherItems(n: i32, p: usize, stride: i32, end: usize): i32 {
  if (end < p + 16) return 0;
  return <i32>min<i64>(<i64>n, <i64>((end - p - 16) / (<usize>stride << 2)) + 1);
}

/** gatherItems, or all n for a packed operand (stride 3, loaded as is: whole groups of 48 bytes). */
// @ts-ignore: decorator
@inline function groupItems(n: i32, p: usize, stride: i32, end: usize): i32 {
  return stride == 3 ? n : gatherItems(n, p, stride, end);
}

// Items i … i+3 of 3 floats as the packed layout [a0 a1 a2 b0] [b1 b2 c0 c1] [c2 d0 d1 d2]:
// vector k of the gather (k = 0, 1, 2). A strided operand is read with one 16-byte load per item.
// @ts-ignore: decorator
@inline function gather3(p: usize, stride: i32, i: i32, k: i32): v128 {
  if (stride == 3) return v128.load(p + <usize>i * 12 + (<usize>k << 4));
  const step = <usize>stride << 2;
  const a = p + <usize>i * step + <usize>k * step;
  const A = v128.load(a), B = v128.load(a + step);
  if (k == 0) return i32x4.shuffle(A, B, 0, 1, 2, 4);
  if (k == 1) return i32x4.shuffle(A, B, 1, 2, 4, 5);
  return i32x4.shuffle(A, B, 2, 4, 5, 6);
}

/** Stores items i … i+3 from the packed layout of gather3, exactly 3 floats an item. */
// @ts-ignore: decorator
@inline function scatter3(p: usize, stride: i32, i: i32, r0: v128, r1: v128, r2: v128): void {
  if (stride == 3) {
    const a = p + <usize>i * 12;
    v128.store(a, r0); v128.store(a, r1, 16); v128.store(a, r2, 32);
    return;
  }
  const step = <usize>stride << 2;
  const a = p + <usize>i * step, b = a + step, c = b + step, d = c + step;
  v128.store64_lane(a, r0, 0); v128.store32_lane(a, r0, 2, 8);
  v128.store32_lane(b, r0, 3); v128.store64_lane(b, r1, 0, 4);
  v128.store64_lane(c, r1, 1); v128.store32_lane(c, r2, 0, 8);
  v128.store32_lane(d, r2, 1); v128.store64_lane(d, r2, 1, 4);
}
