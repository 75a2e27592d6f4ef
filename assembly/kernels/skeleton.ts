// Forward kinematics of many skeletons sharing one topology, as three.js computes it for a
// SkinnedMesh: Object3D.updateMatrix (Matrix4.compose: T·R·S) and updateMatrixWorld
// (world = parent.matrixWorld · local) of every bone, then Skeleton.update (boneMatrices[i] =
// bone.matrixWorld · boneInverses[i]). Matrices are three's column-major 4×4. Local and world
// matrices are affine (last row 0 0 0 1, written as constants); an inverse bind matrix may have any
// last row (three's Matrix4.invert leaves 1 ± 1 ulp there), which the skinning matrix inherits.
// Reference: src/reference/skeleton.ts.
//
// Bones are processed in the order k = 0 … bones − 1, parents first: parents[k] < k, or −1 for a
// bone whose parent is the character's root matrix (roots: 16 f64 per character). Bone k of
// character c reads its local transform at source element c·sourceStride + slots[k] of positions
// (3 values), rotations (x, y, z, w) and scales (3 values; 0 = the rest scales for every
// character), float64 when sourceF64 else float32, or, when slots[k] < 0, the rest transform of
// bone k (restPositions, restRotations, restScales: f64, one per bone). It writes its world matrix
// at world + (c·worldStride + 16·targets[k]) floats (world 0 = none) and its skinning matrix
// (world · inverseBind[k], 16 f64 a bone) at skin + (c·skinStride + 16·targets[k]) floats
// (skin 0 = none), both float32. scratch holds (bones + 3) · 48 floats: the parents' world
// matrices of the characters being computed.
//
// The root matrix of character c is roots (its top object's matrixWorld, 16 f64 at roots + 128·c
// bytes), then `levels` objects below it (the objects the root bones hang from, as
// Object3D.updateWorldMatrix computes them): level l of character c is 10 f64 at chain +
// 80·(c·levels + l) bytes, position, quaternion (x, y, z, w), scale, level 0 the outermost. When
// `parentless`, there is no top object: the first matrix of the chain (level 0, or the root bones
// when levels is 0) is its own world matrix (three's matrixWorld.copy(matrix), which keeps the
// sign of a −0 that identity · matrix would not).
//
// Float64 arithmetic, as three's: in float32, a centimetre-scale rig lost 1.6e-5 of its skinning
// translations to cancellation (world · inverse bind), see docs/DECISIONS.md. SIMD: two
// characters at a time, one f64x2 lane each, bone by bone (one f64x2 per matrix entry); the last
// odd character, and the scalar build, one at a time.

/** Bytes of one scratch slot: 12 f64x2 (an affine matrix's columns 0…3, rows 0…2, one lane per character), or 12 f64. */
const SLOT: usize = 192;

export function forwardKinematics(
  parents: usize, slots: usize, targets: usize,
  positions: usize, rotations: usize, scales: usize, sourceStride: i32, sourceF64: bool,
  restPositions: usize, restRotations: usize, restScales: usize,
  roots: usize, chain: usize, levels: i32, parentless: bool, inverseBind: usize,
  world: usize, worldStride: i32, skin: usize, skinStride: i32,
  scratch: usize, count: i32, bones: i32,
): void {
  // the parent slot of the root bones: slot 0 (the root matrix), or none (0: copy)
  const rootSlot: usize = parentless && levels == 0 ? 0 : scratch;
  const spare = scratch + <usize>(bones + 2) * SLOT;
  let c = 0;
  if (ASC_FEATURE_SIMD) {
    for (; c + 2 <= count; c += 2) {
      if (!parentless) loadRootsX2(scratch, roots + (<usize>c << 7));
      for (let l = 0; l < levels; l++) {
        const a = chain + (<usize>c * <usize>levels + <usize>l) * 80;
        levelX2(parentless && l == 0 ? 0 : scratch, spare, a, a + <usize>levels * 80);
        memory.copy(scratch, spare, SLOT);
      }
      for (let k = 0; k < bones; k++) {
        const slot = load<i32>(slots + (<usize>k << 2));
        const parent = load<i32>(parents + (<usize>k << 2));
        const P = parent < 0 ? rootSlot : scratch + <usize>(parent + 1) * SLOT;
        const at = scratch + <usize>(k + 1) * SLOT;
        if (slot >= 0) {
          const e = <usize>c * <usize>sourceStride + <usize>slot, s = <usize>sourceStride;
          localX2(P, at, positions, rotations, scales, sourceF64, e, e + s, restScales + <usize>k * 24);
        } else {
          restX2(P, at, restPositions + <usize>k * 24, restRotations + (<usize>k << 5), restScales + <usize>k * 24);
        }
        const target = <usize>load<i32>(targets + (<usize>k << 2)) << 6;
        if (world != 0) storeMatricesX2(at, world + (<usize>c * <usize>worldStride << 2) + target, <usize>worldStride << 2, 0);
        if (skin != 0) {
          const tmp = scratch + <usize>(bones + 1) * SLOT;
          const B = inverseBind + (<usize>k << 7);
          skinX2(at, B, tmp);
          storeMatricesX2(tmp, skin + (<usize>c * <usize>skinStride << 2) + target, <usize>skinStride << 2, B);
        }
      }
    }
  }
  for (; c < count; c++) {
    const local = scratch + <usize>(bones + 1) * SLOT, product = local + SLOT;
    if (!parentless) loadMatrix(scratch, roots + (<usize>c << 7));
    for (let l = 0; l < levels; l++) {
      const a = chain + (<usize>c * <usize>levels + <usize>l) * 80;
      compose(local, a, a + 24, true, a + 56, true);
      worldOf(parentless && l == 0 ? 0 : scratch, local, product);
      memory.copy(scratch, product, 96);
    }
    for (let k = 0; k < bones; k++) {
      const slot = load<i32>(slots + (<usize>k << 2));
      if (slot >= 0) {
        const e = <usize>c * <usize>sourceStride + <usize>slot;
        const s = scales != 0 ? source(scales, e * 3, sourceF64) : restScales + <usize>k * 24;
        compose(local, source(positions, e * 3, sourceF64), source(rotations, e * 4, sourceF64), sourceF64, s, scales != 0 ? sourceF64 : true);
      } else {
        compose(local, restPositions + <usize>k * 24, restRotations + (<usize>k << 5), true, restScales + <usize>k * 24, true);
      }
      const parent = load<i32>(parents + (<usize>k << 2));
      const at = scratch + <usize>(k + 1) * SLOT;
      worldOf(parent < 0 ? rootSlot : scratch + <usize>(parent + 1) * SLOT, local, at);
      const target = <usize>load<i32>(targets + (<usize>k << 2)) << 6;
      if (world != 0) storeMatrix(at, world + (<usize>c * <usize>worldStride << 2) + target, 0);
      if (skin != 0) {
        const B = inverseBind + (<usize>k << 7);
        loadMatrix(local, B);
        mulAffine(at, local, product);
        storeMatrix(product, skin + (<usize>c * <usize>skinStride << 2) + target, B);
      }
    }
  }
}

/** Address of value i of a source array of f64 (sourceF64) or f32. */
// @ts-ignore: decorator
@inline function source(p: usize, i: usize, f64: bool): usize {
  return p + (f64 ? i << 3 : i << 2);
}

// @ts-ignore: decorator
@inline function value(p: usize, i: usize, f64: bool): f64 {
  return f64 ? load<f64>(p + (i << 3)) : <f64>load<f32>(p + (i << 2));
}

// ---- float64, one character ----

/** Slot m (f64: columns 0…3, rows 0…2, then the last row at 12…15) from the column-major 4×4 float64 matrix at p. */
function loadMatrix(m: usize, p: usize): void {
  for (let j: usize = 0; j < 4; j++) {
    for (let r: usize = 0; r < 3; r++) store<f64>(m + ((j * 3 + r) << 3), load<f64>(p + ((j * 4 + r) << 3)));
    store<f64>(m + ((12 + j) << 3), load<f64>(p + ((j * 4 + 3) << 3)));
  }
}

/** Slot m's rows 0…2 as a column-major 4×4 float32 matrix at p, its last row that of the float64 matrix at row3 (0: 0 0 0 1). */
function storeMatrix(m: usize, p: usize, row3: usize): void {
  for (let j: usize = 0; j < 4; j++) {
    for (let r: usize = 0; r < 3; r++) store<f32>(p + ((j * 4 + r) << 2), <f32>load<f64>(m + ((j * 3 + r) << 3)));
    store<f32>(p + ((j * 4 + 3) << 2), row3 != 0 ? lastRow(row3, j) : j == 3 ? 1 : 0);
  }
}

/** Slot m = T·R·S from a position t and a quaternion q (x, y, z, w; f64 when f64, else f32) and a scale s (f64 when sF64), as three's Matrix4.compose. */
function compose(m: usize, t: usize, q: usize, f64: bool, s: usize, sF64: bool): void {
  const x = value(q, 0, f64), y = value(q, 1, f64), z = value(q, 2, f64), w = value(q, 3, f64);
  const sx = value(s, 0, sF64), sy = value(s, 1, sF64), sz = value(s, 2, sF64);
  const x2 = x + x, y2 = y + y, z2 = z + z;
  const xx = x * x2, xy = x * y2, xz = x * z2, yy = y * y2, yz = y * z2, zz = z * z2;
  const wx = w * x2, wy = w * y2, wz = w * z2;
  store<f64>(m, (1 - (yy + zz)) * sx); store<f64>(m, (xy + wz) * sx, 8); store<f64>(m, (xz - wy) * sx, 16);
  store<f64>(m, (xy - wz) * sy, 24); store<f64>(m, (1 - (xx + zz)) * sy, 32); store<f64>(m, (yz + wx) * sy, 40);
  store<f64>(m, (xz + wy) * sz, 48); store<f64>(m, (yz - wx) * sz, 56); store<f64>(m, (1 - (xx + yy)) * sz, 64);
  store<f64>(m, value(t, 0, f64), 72); store<f64>(m, value(t, 1, f64), 80); store<f64>(m, value(t, 2, f64), 88);
  store<f64>(m, 0, 96); store<f64>(m, 0, 104); store<f64>(m, 0, 112); store<f64>(m, 1, 120);
}

/**
 * Row 3, column j of a · B with a affine (last row +0 +0 +0 1, as three's world matrices): three's
 * 0·B[j][0] + 0·B[j][1] + 0·B[j][2] + 1·B[j][3], whose zeros' signs decide a −0 from B's.
 */
function lastRow(B: usize, j: usize): f32 {
  const c = B + (j << 5);
  const zero: f64 = 0;
  return <f32>(zero * load<f64>(c) + zero * load<f64>(c, 8) + zero * load<f64>(c, 16) + load<f64>(c, 24));
}

/** Rows 0…2 of slot out = the world matrix of local matrix b under parent slot P: P · b, or b itself when P is 0 (no parent). */
function worldOf(P: usize, b: usize, out: usize): void {
  if (P == 0) memory.copy(out, b, 96);
  else mulAffine(P, b, out);
}

/**
 * Rows 0…2 of slot out = a · b, a affine (last row 0 0 0 1), b any (its last row at 12…15): as
 * three's multiplyMatrices, column j, row r = a0r·bj0 + a1r·bj1 + a2r·bj2 + a3r·bj3, left to right.
 */
function mulAffine(a: usize, b: usize, out: usize): void {
  for (let j: usize = 0; j < 4; j++) {
    const b0 = load<f64>(b + ((j * 3) << 3)), b1 = load<f64>(b + ((j * 3 + 1) << 3)), b2 = load<f64>(b + ((j * 3 + 2) << 3));
    const b3 = load<f64>(b + ((12 + j) << 3));
    for (let r: usize = 0; r < 3; r++) {
      const v = load<f64>(a + (r << 3)) * b0 + load<f64>(a + ((3 + r) << 3)) * b1 + load<f64>(a + ((6 + r) << 3)) * b2 + load<f64>(a + ((9 + r) << 3)) * b3;
      store<f64>(out + ((j * 3 + r) << 3), v);
    }
  }
}

// ---- f64x2, two characters (one per lane) ----

/** Slot 0 (of the scratch at m) = the root matrices of two consecutive characters (16 f64, 128 bytes apart at p), one lane each. */
function loadRootsX2(m: usize, p: usize): void {
  for (let j: usize = 0; j < 4; j++) {
    for (let r: usize = 0; r < 3; r++) {
      const a = p + ((j * 4 + r) << 3);
      v128.store(m + j * 48 + (r << 4), v128.load64_lane(a + 128, v128.load64_zero(a), 1));
    }
  }
}

/**
 * The scratch slot at m (two characters' matrices, one lane each) written as two column-major 4×4
 * float32 matrices, `stride` bytes apart from p; their last row that of the float64 matrix at row3
 * (0: 0 0 0 1).
 */
function storeMatricesX2(m: usize, p: usize, stride: usize, row3: usize): void {
  const zero = f32x4.splat(0), one = f32x4.splat(1);
  for (let j: usize = 0; j < 4; j++) {
    const last = row3 != 0 ? f32x4.splat(lastRow(row3, j)) : j == 3 ? one : zero;
    const r0 = f32x4.demote_f64x2_zero(v128.load(m + j * 48));
    const r1 = f32x4.demote_f64x2_zero(v128.load(m + j * 48, 16));
    const r2 = f32x4.demote_f64x2_zero(v128.load(m + j * 48, 32));
    const a = i32x4.shuffle(r0, r1, 0, 4, 1, 5); // rows 0, 1 of character 0, then of character 1
    const b = i32x4.shuffle(r2, last, 0, 4, 1, 5); // rows 2, 3 of character 0, then of character 1
    v128.store(p + (j << 4), i32x4.shuffle(a, b, 0, 1, 4, 5));
    v128.store(p + (j << 4) + stride, i32x4.shuffle(a, b, 2, 3, 6, 7));
  }
}

// A gather's results, one f64x2 per component (copied to locals before the next gather).
// @ts-ignore: decorator
@lazy let gx: v128 = f64x2.splat(0);
// @ts-ignore: decorator
@lazy let gy: v128 = f64x2.splat(0);
// @ts-ignore: decorator
@lazy let gz: v128 = f64x2.splat(0);
// @ts-ignore: decorator
@lazy let gw: v128 = f64x2.splat(0);

/** Values 0 … width − 1 (width 3 or 4) of source elements e0 and e1 of p (float64 when f64, else float32) into gx, gy, gz (, gw). */
// @ts-ignore: decorator
@inline function gatherX2(p: usize, e0: usize, e1: usize, width: usize, f64: bool): void {
  const shift: usize = f64 ? 3 : 2;
  loadX2(p + ((e0 * width) << shift), p + ((e1 * width) << shift), width, f64);
}

/** `width` (3 or 4) consecutive values at a (lane 0) and at b (lane 1), float64 when f64, else float32, into gx, gy, gz (, gw). */
// @ts-ignore: decorator
@inline function loadX2(a: usize, b: usize, width: usize, f64: bool): void {
  if (f64) {
    const xy0 = v128.load(a), xy1 = v128.load(b);
    gx = i64x2.shuffle(xy0, xy1, 0, 2);
    gy = i64x2.shuffle(xy0, xy1, 1, 3);
    if (width == 4) {
      const zw0 = v128.load(a, 16), zw1 = v128.load(b, 16);
      gz = i64x2.shuffle(zw0, zw1, 0, 2);
      gw = i64x2.shuffle(zw0, zw1, 1, 3);
    } else {
      gz = v128.load64_lane(b + 16, v128.load64_zero(a + 16), 1);
    }
  } else {
    const v0 = width == 4 ? v128.load(a) : v128.load32_lane(a + 8, v128.load64_zero(a), 2);
    const v1 = width == 4 ? v128.load(b) : v128.load32_lane(b + 8, v128.load64_zero(b), 2);
    const lo = i32x4.shuffle(v0, v1, 0, 4, 1, 5), hi = i32x4.shuffle(v0, v1, 2, 6, 3, 7);
    gx = f64x2.promote_low_f32x4(lo);
    gy = f64x2.promote_low_f32x4(i32x4.shuffle(lo, lo, 2, 3, 0, 1));
    gz = f64x2.promote_low_f32x4(hi);
    gw = f64x2.promote_low_f32x4(i32x4.shuffle(hi, hi, 2, 3, 0, 1));
  }
}

/** Slot at = parent slot P (0: none) · compose(t, q, s) of one level of the root chain of two characters, its 10 f64 (t, q, s) at a and at b. */
function levelX2(P: usize, at: usize, a: usize, b: usize): void {
  loadX2(a + 24, b + 24, 4, true);
  const qx = gx, qy = gy, qz = gz, qw = gw;
  loadX2(a + 56, b + 56, 3, true);
  const sx = gx, sy = gy, sz = gz;
  loadX2(a, b, 3, true);
  composeMulX2(P, at, gx, gy, gz, qx, qy, qz, qw, sx, sy, sz);
}

/** World matrices (slot at) = parent slot P · compose(t, q, s) of the characters whose transforms are source elements e0 and e1. */
function localX2(P: usize, at: usize, positions: usize, rotations: usize, scales: usize, f64: bool, e0: usize, e1: usize, restScale: usize): void {
  gatherX2(rotations, e0, e1, 4, f64);
  const qx = gx, qy = gy, qz = gz, qw = gw;
  let sx: v128, sy: v128, sz: v128;
  if (scales != 0) {
    gatherX2(scales, e0, e1, 3, f64);
    sx = gx; sy = gy; sz = gz;
  } else {
    sx = v128.load64_splat(restScale); sy = v128.load64_splat(restScale + 8); sz = v128.load64_splat(restScale + 16);
  }
  gatherX2(positions, e0, e1, 3, f64);
  composeMulX2(P, at, gx, gy, gz, qx, qy, qz, qw, sx, sy, sz);
}

/** World matrices (slot at) = parent slot P · a rest transform (float64 t, q, s), the same for both characters. */
function restX2(P: usize, at: usize, t: usize, q: usize, s: usize): void {
  composeMulX2(
    P, at,
    v128.load64_splat(t), v128.load64_splat(t + 8), v128.load64_splat(t + 16),
    v128.load64_splat(q), v128.load64_splat(q + 8), v128.load64_splat(q + 16), v128.load64_splat(q + 24),
    v128.load64_splat(s), v128.load64_splat(s + 8), v128.load64_splat(s + 16),
  );
}

/** Slot at = slot P · (T·R·S), as three's Matrix4.compose then multiplyMatrices, per lane; P 0 (no parent): T·R·S itself. */
// @ts-ignore: decorator
@inline function composeMulX2(
  P: usize, at: usize, tx: v128, ty: v128, tz: v128, x: v128, y: v128, z: v128, w: v128, sx: v128, sy: v128, sz: v128,
): void {
  const one = f64x2.splat(1);
  const x2 = f64x2.add(x, x), y2 = f64x2.add(y, y), z2 = f64x2.add(z, z);
  const xx = f64x2.mul(x, x2), xy = f64x2.mul(x, y2), xz = f64x2.mul(x, z2);
  const yy = f64x2.mul(y, y2), yz = f64x2.mul(y, z2), zz = f64x2.mul(z, z2);
  const wx = f64x2.mul(w, x2), wy = f64x2.mul(w, y2), wz = f64x2.mul(w, z2);
  const b00 = f64x2.mul(f64x2.sub(one, f64x2.add(yy, zz)), sx), b01 = f64x2.mul(f64x2.add(xy, wz), sx), b02 = f64x2.mul(f64x2.sub(xz, wy), sx);
  const b10 = f64x2.mul(f64x2.sub(xy, wz), sy), b11 = f64x2.mul(f64x2.sub(one, f64x2.add(xx, zz)), sy), b12 = f64x2.mul(f64x2.add(yz, wx), sy);
  const b20 = f64x2.mul(f64x2.add(xz, wy), sz), b21 = f64x2.mul(f64x2.sub(yz, wx), sz), b22 = f64x2.mul(f64x2.sub(one, f64x2.add(xx, yy)), sz);
  if (P == 0) {
    // column j at j·48 bytes, row r at r·16
    v128.store(at, b00); v128.store(at, b01, 16); v128.store(at, b02, 32);
    v128.store(at, b10, 48); v128.store(at, b11, 64); v128.store(at, b12, 80);
    v128.store(at, b20, 96); v128.store(at, b21, 112); v128.store(at, b22, 128);
    v128.store(at, tx, 144); v128.store(at, ty, 160); v128.store(at, tz, 176);
    return;
  }
  mulAffineX2(
    P, at, b00, b01, b02, b10, b11, b12, b20, b21, b22, tx, ty, tz,
    f64x2.splat(0), f64x2.splat(0), f64x2.splat(0), one, // compose's last row
  );
}

/** Skinning matrices (slot out) = world slot W · the inverse bind matrix at B (column-major float64, the same for both lanes). */
function skinX2(W: usize, B: usize, out: usize): void {
  mulAffineX2(
    W, out,
    v128.load64_splat(B), v128.load64_splat(B + 8), v128.load64_splat(B + 16),
    v128.load64_splat(B + 32), v128.load64_splat(B + 40), v128.load64_splat(B + 48),
    v128.load64_splat(B + 64), v128.load64_splat(B + 72), v128.load64_splat(B + 80),
    v128.load64_splat(B + 96), v128.load64_splat(B + 104), v128.load64_splat(B + 112),
    v128.load64_splat(B + 24), v128.load64_splat(B + 56), v128.load64_splat(B + 88), v128.load64_splat(B + 120),
  );
}

/** Rows 0…2 of slot out = slot a · b, b given by its columns (bJR = column J, row R): per lane, as mulAffine. */
// @ts-ignore: decorator
@inline function mulAffineX2(
  a: usize, out: usize,
  b00: v128, b01: v128, b02: v128, b10: v128, b11: v128, b12: v128, b20: v128, b21: v128, b22: v128, b30: v128, b31: v128, b32: v128,
  b03: v128, b13: v128, b23: v128, b33: v128,
): void {
  for (let r: usize = 0; r < 3; r++) {
    const a0 = v128.load(a + (r << 4)), a1 = v128.load(a + (r << 4), 48), a2 = v128.load(a + (r << 4), 96), a3 = v128.load(a + (r << 4), 144);
    const o = out + (r << 4);
    v128.store(o, column(a0, a1, a2, a3, b00, b01, b02, b03));
    v128.store(o, column(a0, a1, a2, a3, b10, b11, b12, b13), 48);
    v128.store(o, column(a0, a1, a2, a3, b20, b21, b22, b23), 96);
    v128.store(o, column(a0, a1, a2, a3, b30, b31, b32, b33), 144);
  }
}

/** a0·b0 + a1·b1 + a2·b2 + a3·b3, left to right, per lane. */
// @ts-ignore: decorator
@inline function column(a0: v128, a1: v128, a2: v128, a3: v128, b0: v128, b1: v128, b2: v128, b3: v128): v128 {
  return f64x2.add(f64x2.add(f64x2.add(f64x2.mul(a0, b0), f64x2.mul(a1, b1)), f64x2.mul(a2, b2)), f64x2.mul(a3, b3));
}
