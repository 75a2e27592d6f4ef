// InstancedMesh instance matrices (three.js: 16 floats each, column-major, translation in floats
// 12…14, float 15 = 1) in solver memory: the translation spring in place (InstancedSprings), and
// the rotation·scale columns composed from quaternions and scales (T·R·S, as Matrix4.compose).
//
// springInstanceTranslations: the strided spring (strided-spring.ts) for this one layout — x the
// translation column (stride 16, offset 12), v and g packed 3-vectors, no goal velocity. The
// translation and the float after it are the last 16 bytes of each matrix, so every item is one
// 16-byte load inside its own matrix: no group needs the scalar loop except the last n mod 4
// items, and every address is a constant offset from the group's first matrix.
import { springTransition, xx, xv, vx, vv } from '../spring/transition';
import { stiffnessOf, dampingOf } from '../spring/params';
import { loadQuatX4, loadVec3X4, lx, ly, lz, lw } from '../lanes/transpose-x4';

export function springInstanceTranslations(m: usize, v: usize, g: usize, n: i32, mode: i32, p0: f64, p1: f64, dt: f64): void {
  if (dt == 0 || n <= 0) return;
  springTransition(stiffnessOf(mode, p0, p1), dampingOf(mode, p0, p1), dt);
  let i = 0;
  if (ASC_FEATURE_SIMD) {
    const cxx = f32x4.splat(<f32>xx), cxv = f32x4.splat(<f32>xv);
    const cvx = f32x4.splat(<f32>vx), cvv = f32x4.splat(<f32>vv);
    // unrolled twice: more loads in flight (5,000 instances: 4.1 µs against 5.1 µs one group a turn)
    for (; i + 8 <= n; i += 8) {
      group(m, v, g, i, cxx, cxv, cvx, cvv);
      group(m, v, g, i + 4, cxx, cxv, cvx, cvv);
    }
    for (; i + 4 <= n; i += 4) group(m, v, g, i, cxx, cxv, cvx, cvv);
  }
  for (; i < n; i++) {
    for (let c = 0; c < 3; c++) {
      const xp = m + (<usize>i << 6) + 48 + (<usize>c << 2);
      const vp = v + ((<usize>i * 3 + <usize>c) << 2);
      const gi = <f64>load<f32>(g + ((<usize>i * 3 + <usize>c) << 2));
      const y = <f64>load<f32>(xp) - gi;
      const vi = <f64>load<f32>(vp);
      store<f32>(xp, <f32>(gi + xx * y + xv * vi));
      store<f32>(vp, <f32>(vx * y + vv * vi));
    }
  }
}

/** Translations i … i + 3: the packed kernel's f32x4 step on the four gathered into the packed layout. */
// @ts-ignore: decorator
@inline function group(m: usize, v: usize, g: usize, i: i32, cxx: v128, cxv: v128, cvx: v128, cvv: v128): void {
  const a = m + (<usize>i << 6) + 48; // translation of matrix i
  const A = v128.load(a), B = v128.load(a, 64), C = v128.load(a, 128), D = v128.load(a, 192);
  // the four translations as the packed layout [a0 a1 a2 b0] [b1 b2 c0 c1] [c2 d0 d1 d2]
  const x0 = i32x4.shuffle(A, B, 0, 1, 2, 4), x1 = i32x4.shuffle(B, C, 1, 2, 4, 5), x2 = i32x4.shuffle(C, D, 2, 4, 5, 6);
  const p = <usize>i * 12;
  const v0 = v128.load(v + p), v1 = v128.load(v + p, 16), v2 = v128.load(v + p, 32);
  const G0 = v128.load(g + p), G1 = v128.load(g + p, 16), G2 = v128.load(g + p, 32);
  // the packed kernel's f32x4 arithmetic (spring.ts applyX4), in the same order
  const y0 = f32x4.sub(x0, G0), y1 = f32x4.sub(x1, G1), y2 = f32x4.sub(x2, G2);
  const r0 = f32x4.add(G0, f32x4.add(f32x4.mul(cxx, y0), f32x4.mul(cxv, v0)));
  const r1 = f32x4.add(G1, f32x4.add(f32x4.mul(cxx, y1), f32x4.mul(cxv, v1)));
  const r2 = f32x4.add(G2, f32x4.add(f32x4.mul(cxx, y2), f32x4.mul(cxv, v2)));
  v128.store(v + p, f32x4.add(f32x4.mul(cvx, y0), f32x4.mul(cvv, v0)));
  v128.store(v + p, f32x4.add(f32x4.mul(cvx, y1), f32x4.mul(cvv, v1)), 16);
  v128.store(v + p, f32x4.add(f32x4.mul(cvx, y2), f32x4.mul(cvv, v2)), 32);
  const b = a + 64, c = a + 128, d = a + 192;
  v128.store64_lane(a, r0, 0); v128.store32_lane(a, r0, 2, 8);
  v128.store32_lane(b, r0, 3); v128.store64_lane(b, r1, 0, 4);
  v128.store64_lane(c, r1, 1); v128.store32_lane(c, r2, 0, 8);
  v128.store32_lane(d, r2, 1); v128.store64_lane(d, r2, 1, 4);
    }

// composeInstanceMatrices: floats 0…11 of matrix i (the columns R·S, and the zeros under them)
// from quaternion i of q (x, y, z, w) and scale i of s (x, y, z), as three's Matrix4.compose:
//   column 0 = sx·(1 − (yy + zz), xy + wz, xz − wy),  column 1 = sy·(xy − wz, 1 − (xx + zz), yz + wx),
//   column 2 = sz·(xz + wy, yz − wx, 1 − (xx + yy)),  with xx = x·2x, xy = x·2y, wz = w·2z, …
// The translation (floats 12…14) and float 15 are not touched. SIMD: four matrices at a time, the
// quaternions and scales transposed to one f32x4 per component and the columns transposed back.

export function composeInstanceMatrices(m: usize, q: usize, s: usize, n: i32): void {
  let i = 0;
  if (ASC_FEATURE_SIMD) {
    const one = f32x4.splat(1), zero = f32x4.splat(0);
    for (; i + 4 <= n; i += 4) {
  loadQuatX4(q, i);
  const x = lx, y = ly, z = lz, w = lw;
  loadVec3X4(s, i);
  const sx = lx, sy = ly, sz = lz;
  const x2 = f32x4.add(x, x), y2 = f32x4.add(y, y), z2 = f32x4.add(z, z);
  const xx = f32x4.mul(x, x2), xy = f32x4.mul(x, y2), xz = f32x4.mul(x, z2);
  const yy = f32x4.mul(y, y2), yz = f32x4.mul(y, z2), zz = f32x4.mul(z, z2);
  const wx = f32x4.mul(w, x2), wy = f32x4.mul(w, y2), wz = f32x4.mul(w, z2);
  const a = m + (<usize>i << 6);
  storeColumnsX4(a, f32x4.mul(f32x4.sub(one, f32x4.add(yy, zz)), sx), f32x4.mul(f32x4.add(xy, wz), sx), f32x4.mul(f32x4.sub(xz, wy), sx), zero);
  storeColumnsX4(a + 16, f32x4.mul(f32x4.sub(xy, wz), sy), f32x4.mul(f32x4.sub(one, f32x4.add(xx, zz)), sy), f32x4.mul(f32x4.add(yz, wx), sy), zero);
  storeColumnsX4(a + 32, f32x4.mul(f32x4.add(xz, wy), sz), f32x4.mul(f32x4.sub(yz, wx), sz), f32x4.mul(f32x4.sub(one, f32x4.add(xx, yy)), sz), zero);
    }
  }
  for (; i < n; i++) {
    const qp = q + (<usize>i << 4), sp = s + <usize>i * 12, a = m + (<usize>i << 6);
    const x = <f64>load<f32>(qp), y = <f64>load<f32>(qp, 4), z = <f64>load<f32>(qp, 8), w = <f64>load<f32>(qp, 12);
    const sx = <f64>load<f32>(sp), sy = <f64>load<f32>(sp, 4), sz = <f64>load<f32>(sp, 8);
    const x2 = x + x, y2 = y + y, z2 = z + z;
    const xx = x * x2, xy = x * y2, xz = x * z2, yy = y * y2, yz = y * z2, zz = z * z2;
    const wx = w * x2, wy = w * y2, wz = w * z2;
    store<f32>(a, <f32>((1 - (yy + zz)) * sx)); store<f32>(a, <f32>((xy + wz) * sx), 4); store<f32>(a, <f32>((xz - wy) * sx), 8); store<f32>(a, 0, 12);
    store<f32>(a, <f32>((xy - wz) * sy), 16); store<f32>(a, <f32>((1 - (xx + zz)) * sy), 20); store<f32>(a, <f32>((yz + wx) * sy), 24); store<f32>(a, 0, 28);
    store<f32>(a, <f32>((xz + wy) * sz), 32); store<f32>(a, <f32>((yz - wx) * sz), 36); store<f32>(a, <f32>((1 - (xx + yy)) * sz), 40); store<f32>(a, 0, 44);
  }
}

/** Column k of four matrices (a = its first float in matrix 0; matrices 64 bytes apart) from one f32x4 per row. */
// @ts-ignore: decorator
@inline function storeColumnsX4(a: usize, r0: v128, r1: v128, r2: v128, r3: v128): void {
  const t01 = i32x4.shuffle(r0, r1, 0, 4, 1, 5); // r0[0] r1[0] r0[1] r1[1]
  const t23 = i32x4.shuffle(r2, r3, 0, 4, 1, 5);
  const u01 = i32x4.shuffle(r0, r1, 2, 6, 3, 7);
  const u23 = i32x4.shuffle(r2, r3, 2, 6, 3, 7);
  v128.store(a, i32x4.shuffle(t01, t23, 0, 1, 4, 5));
  v128.store(a, i32x4.shuffle(t01, t23, 2, 3, 6, 7), 64);
  v128.store(a, i32x4.shuffle(u01, u23, 0, 1, 4, 5), 128);
  v128.store(a, i32x4.shuffle(u01, u23, 2, 3, 6, 7), 192);
}
