// The spring-bone step of one joint in float64 (scalar), and the per-step work on the colliders and
// centers: the operations of src/reference/spring-bones.ts (its header has the formulas), in its order.
import { MATRIX, M_T, R_JOINT, R_SLOT, R_COUNT, SETUP, S_PARENT, S_CHILD_REF, S_CENTER, S_SAME_BONE, S_HAS_CHILD, S_CHILD, S_AXIS, S_Q0, S_L0, S_HIT_RADIUS, S_STIFFNESS, S_GRAVITY_POWER, S_GRAVITY_DIR, S_DRAG, S_COLLIDER_START, S_COLLIDER_COUNT, S_OWNED_START, S_OWNED_COUNT, POSE, P_POSITION, P_QUATERNION, P_SCALE, P_PIVOT, P_HAS_PIVOT, STATE, T_TAIL, T_PREV, T_CHILD_WORLD, OUT, O_QUATERNION, O_LOCAL, O_WORLD, EXT, INV, INV_W, COLLIDER, C_KIND, C_INSIDE, C_SLOT, C_RADIUS, C_OFFSET, C_VECTOR, C_LIVE, C_LINK_SLOT, C_LINK_COUNT, KIND_CAPSULE, KIND_PLANE, COLLIDER_WORLD, W_POSITION, f, int, put } from './layout';

// float64 scratch, the kernel's (one per thread), 592 bytes: P the parent's world matrix, A a product then an
// inverse (13 floats), L a local matrix, M a reference's product, C a center's world matrix, CI its inverse (13)
const SCRATCH_P: usize = 0;
export const SCRATCH_A: usize = 96;
const SCRATCH_L: usize = 200;
const SCRATCH_M: usize = 296;
const SCRATCH_C: usize = 392;
const SCRATCH_CI: usize = 488;

/**
 * A tail at a squared distance ≥ CLEAR·(hit + radius)² from an outside shape does not touch it, whatever the
 * roundings: then l = √(distance²), rounded, is ≥ hit + radius (the margin, 5e-10 relative, is far above the few
 * ulps of error), so l − hit − radius rounds to ≥ 0 (rounding is monotone), as the exact test finds.
 */
const CLEAR: f64 = 1 + 1e-9;

/** Where a joint's arrays are, for the functions below. */
// @ts-ignore: decorator
@inline function at(base: usize, floats: i32, j: i32): usize {
  return base + (<usize>(floats * j) << 3);
}

/**
 * dst = the world matrix of the reference at s[r…] (see spring-bone-layout.ts), false when it names
 * none; t: scratch for a chain of links.
 */
function resolve(s: usize, r: i32, out: usize, e: usize, dst: usize, t: usize): bool {
  const joint = int(s, r + R_JOINT), slot = int(s, r + R_SLOT), count = int(s, r + R_COUNT);
  if (joint >= 0) {
    const w = out + (<usize>(OUT * joint + O_WORLD) << 3);
    if (count == 0) {
      copy(dst, w);
      return true;
    }
    // three-vrm's walk after that joint: each link's matrixWorld = its parent's · its matrix
    multiply(w, e + (<usize>(EXT * slot) << 3), dst);
    for (let k = 1; k < count; k++) {
      multiply(dst, e + (<usize>(EXT * (slot + k)) << 3), t);
      copy(dst, t);
    }
    return true;
  }
  if (slot < 0) return false;
  copy(dst, e + (<usize>(EXT * slot) << 3));
  return true;
}

function copy(dst: usize, src: usize): void {
  for (let i = 0; i < MATRIX; i++) put(dst, i, f(src, i));
}

export function jointStep(
  setup: usize, pose: usize, state: usize, out: usize, e: usize, extInv: usize,
  colliders: usize, colliderWorld: usize, colliderList: usize, j: i32, dt: f64, scratch: usize,
): void {
  const P = scratch + SCRATCH_P, A = scratch + SCRATCH_A, L = scratch + SCRATCH_L, M = scratch + SCRATCH_M;
  const s = at(setup, SETUP, j), t = at(state, STATE, j), o = at(out, OUT, j), p = at(pose, POSE, j);
  if (!resolve(s, S_PARENT, out, e, P, L)) {
    for (let i = 0; i < MATRIX; i++) put(P, i, i == 0 || i == 4 || i == 8 ? 1 : 0);
  }
  // bone.updateMatrix() with the bone's quaternion as it stands (the last joint on it, or the pose), then its matrixWorld
  const same = int(s, S_SAME_BONE);
  const q = same >= 0 ? at(out, OUT, same) + (<usize>O_QUATERNION << 3) : p + (<usize>P_QUATERNION << 3);
  const q0 = f(q, 0), q1 = f(q, 1), q2 = f(q, 2), q3 = f(q, 3);
  compose(p, q0, q1, q2, q3, L);
  const x = f(P, 0) * f(L, M_T) + f(P, 3) * f(L, M_T + 1) + f(P, 6) * f(L, M_T + 2) + f(P, M_T);
  const y = f(P, 1) * f(L, M_T) + f(P, 4) * f(L, M_T + 1) + f(P, 7) * f(L, M_T + 2) + f(P, M_T + 1);
  const z = f(P, 2) * f(L, M_T) + f(P, 5) * f(L, M_T + 1) + f(P, 8) * f(L, M_T + 2) + f(P, M_T + 2);
  if (dt <= 0) {
    put(o, 0, q0); put(o, 1, q1); put(o, 2, q2); put(o, 3, q3);
    copy(o + (<usize>O_LOCAL << 3), L);
    multiply(P, L, o + (<usize>O_WORLD << 3));
    return;
  }
  // _calcWorldSpaceBoneLength: to the child's matrixWorld as it stands, or (the 7 cm rule) initialLocalChildPosition through the bone's
  let length: f64;
  if (f(s, S_HAS_CHILD) != 0) {
    if (resolve(s, S_CHILD_REF, out, e, M, A)) length = hypot3(x - f(M, M_T), y - f(M, M_T + 1), z - f(M, M_T + 2));
    else length = hypot3(x - f(t, T_CHILD_WORLD), y - f(t, T_CHILD_WORLD + 1), z - f(t, T_CHILD_WORLD + 2));
  } else {
    multiply(P, L, A);
    const cx = f(s, S_CHILD), cy = f(s, S_CHILD + 1), cz = f(s, S_CHILD + 2);
    length = hypot3(
      x - (f(A, 0) * cx + f(A, 3) * cy + f(A, 6) * cz + f(A, 9)),
      y - (f(A, 1) * cx + f(A, 4) * cy + f(A, 7) * cz + f(A, 10)),
      z - (f(A, 2) * cx + f(A, 5) * cy + f(A, 8) * cz + f(A, 11)),
    );
  }
  // worldSpaceBoneAxis: boneAxis.transformDirection(L0).transformDirection(P), each Vector3.transformDirection (normalized)
  const l0 = s + (<usize>S_L0 << 3);
  const bx0 = f(s, S_AXIS), by0 = f(s, S_AXIS + 1), bz0 = f(s, S_AXIS + 2);
  let bx = f(l0, 0) * bx0 + f(l0, 3) * by0 + f(l0, 6) * bz0;
  let by = f(l0, 1) * bx0 + f(l0, 4) * by0 + f(l0, 7) * bz0;
  let bz = f(l0, 2) * bx0 + f(l0, 5) * by0 + f(l0, 8) * bz0;
  const bl = reciprocal(hypot3(bx, by, bz));
  bx *= bl; by *= bl; bz *= bl;
  let ax = f(P, 0) * bx + f(P, 3) * by + f(P, 6) * bz;
  let ay = f(P, 1) * bx + f(P, 4) * by + f(P, 7) * bz;
  let az = f(P, 2) * bx + f(P, 5) * by + f(P, 8) * bz;
  const al = reciprocal(hypot3(ax, ay, az));
  ax *= al; ay *= al; az *= al;
  // the center's matrixWorld as it stands (a slot read as the update starts, inverted once a step; or computed here) and its inverse
  let center: usize = 0, inverse: usize = 0;
  const centerSlot = int(s, S_CENTER + R_SLOT);
  if (int(s, S_CENTER + R_JOINT) >= 0) {
    center = scratch + SCRATCH_C;
    inverse = scratch + SCRATCH_CI;
    resolve(s, S_CENTER, out, e, center, M);
    copy(inverse, center);
    invert(inverse);
  } else if (centerSlot >= 0) {
    center = e + (<usize>(EXT * centerSlot) << 3);
    inverse = extInv + (<usize>(INV * centerSlot) << 3);
  }
  // Verlet with drag, in center space, then to world space; stiffness and gravity in world space
  const drag = 1 - f(s, S_DRAG);
  const cx = f(t, T_TAIL) + (f(t, T_TAIL) - f(t, T_PREV)) * drag;
  const cy = f(t, T_TAIL + 1) + (f(t, T_TAIL + 1) - f(t, T_PREV + 1)) * drag;
  const cz = f(t, T_TAIL + 2) + (f(t, T_TAIL + 2) - f(t, T_PREV + 2)) * drag;
  let nx = cx, ny = cy, nz = cz;
  if (center != 0) {
    const c = center;
    nx = f(c, 0) * cx + f(c, 3) * cy + f(c, 6) * cz + f(c, 9);
    ny = f(c, 1) * cx + f(c, 4) * cy + f(c, 7) * cz + f(c, 10);
    nz = f(c, 2) * cx + f(c, 5) * cy + f(c, 8) * cz + f(c, 11);
  }
  const stiffness = f(s, S_STIFFNESS) * dt, gravity = f(s, S_GRAVITY_POWER) * dt;
  let vx = nx + ax * stiffness + f(s, S_GRAVITY_DIR) * gravity;
  let vy = ny + ay * stiffness + f(s, S_GRAVITY_DIR + 1) * gravity;
  let vz = nz + az * stiffness + f(s, S_GRAVITY_DIR + 2) * gravity;
  // the bone-length constraint: V = x + ℓ·(V − x)/|V − x|
  {
    let dx = vx - x, dy = vy - y, dz = vz - z;
    const r = reciprocal(hypot3(dx, dy, dz));
    dx *= r; dy *= r; dz *= r;
    vx = dx * length + x; vy = dy * length + y; vz = dz * length + z;
  }
  // the colliders, each pushing the tail V out when it penetrates, then back to the bone's length (inlined, with V in
  // locals: 0.93× the step against a call per collider with V in globals, docs/DECISIONS.md)
  const hit = f(s, S_HIT_RADIUS);
  const start = int(s, S_COLLIDER_START), end = start + int(s, S_COLLIDER_COUNT);
  for (let k = start; k < end; k++) {
    const ci = int(colliderList, k);
    const c = at(colliders, COLLIDER, ci), w = at(colliderWorld, COLLIDER_WORLD, ci);
    const kind = int(c, C_KIND);
    let tx = vx - f(w, 0), ty = vy - f(w, 1), tz = vz - f(w, 2);
    let distance: f64;
    if (kind == KIND_PLANE) {
      const pnx = f(w, 3), pny = f(w, 4), pnz = f(w, 5);
      distance = tx * pnx + ty * pny + tz * pnz - hit;
      tx = pnx; ty = pny; tz = pnz;
    } else {
      if (kind == KIND_CAPSULE) {
        const hx = f(w, 3), hy = f(w, 4), hz = f(w, 5), lengthSq = f(w, 6);
        const dot = hx * tx + hy * ty + hz * tz;
        if (dot <= 0) {
          // the head's sphere
        } else if (lengthSq <= dot) {
          tx -= hx; ty -= hy; tz -= hz;
        } else {
          const kk = dot / lengthSq;
          tx -= hx * kk; ty -= hy * kk; tz -= hz * kk;
        }
      }
      const radius = f(c, C_RADIUS);
      const inside = f(c, C_INSIDE) != 0;
      const ll = tx * tx + ty * ty + tz * tz;
      // clear of an outside shape by far: no push, and no square root (0.95× the kernel's time, docs/DECISIONS.md)
      if (!inside && ll >= CLEAR * ((hit + radius) * (hit + radius))) continue;
      const l = Math.sqrt(ll);
      distance = inside ? radius - hit - l : l - hit - radius;
      if (distance < 0) {
        const kk = inside ? -1 / l : 1 / l;
        tx *= kk; ty *= kk; tz *= kk;
      }
    }
    if (distance < 0) {
      vx += tx * -distance; vy += ty * -distance; vz += tz * -distance;
      const dx = vx - x, dy = vy - y, dz = vz - z;
      const kk = length / hypot3(dx, dy, dz);
      vx = dx * kk + x; vy = dy * kk + y; vz = dz * kk + z;
    }
  }
  nx = vx; ny = vy; nz = vz;
  // prevTail = currentTail; currentTail = C⁻¹·nextTail
  put(t, T_PREV, f(t, T_TAIL));
  put(t, T_PREV + 1, f(t, T_TAIL + 1));
  put(t, T_PREV + 2, f(t, T_TAIL + 2));
  if (center != 0) {
    const i = inverse, w = f(i, INV_W);
    put(t, T_TAIL, (f(i, 0) * nx + f(i, 3) * ny + f(i, 6) * nz + f(i, 9)) * w);
    put(t, T_TAIL + 1, (f(i, 1) * nx + f(i, 4) * ny + f(i, 7) * nz + f(i, 10)) * w);
    put(t, T_TAIL + 2, (f(i, 2) * nx + f(i, 5) * ny + f(i, 8) * nz + f(i, 11)) * w);
  } else {
    put(t, T_TAIL, nx);
    put(t, T_TAIL + 1, ny);
    put(t, T_TAIL + 2, nz);
  }
  // q = q0 · fromUnitVectors(axis, dir((P·L0)⁻¹·tail))
  multiply(P, l0, A);
  invert(A);
  const w = f(A, INV_W);
  let dx = (f(A, 0) * nx + f(A, 3) * ny + f(A, 6) * nz + f(A, 9)) * w;
  let dy = (f(A, 1) * nx + f(A, 4) * ny + f(A, 7) * nz + f(A, 10)) * w;
  let dz = (f(A, 2) * nx + f(A, 5) * ny + f(A, 8) * nz + f(A, 11)) * w;
  const dl = reciprocal(hypot3(dx, dy, dz));
  dx *= dl; dy *= dl; dz *= dl;
  // Quaternion.setFromUnitVectors(axis, d) (three.js r187, normalized)
  let fr = bx0 * dx + by0 * dy + bz0 * dz + 1;
  let fx: f64, fy: f64, fz: f64;
  if (fr < 1e-8) {
    fr = 0;
    if (Math.abs(bx0) > Math.abs(bz0)) {
      fx = -by0; fy = bx0; fz = 0;
    } else {
      fx = 0; fy = -bz0; fz = by0;
    }
  } else {
    fx = by0 * dz - bz0 * dy;
    fy = bz0 * dx - bx0 * dz;
    fz = bx0 * dy - by0 * dx;
  }
  const fl = Math.sqrt(fx * fx + fy * fy + fz * fz + fr * fr);
  let qx: f64 = 0, qy: f64 = 0, qz: f64 = 0, qw: f64 = 1;
  if (fl != 0) {
    const k = 1 / fl;
    qx = fx * k; qy = fy * k; qz = fz * k; qw = fr * k;
  }
  const r0x = f(s, S_Q0), r0y = f(s, S_Q0 + 1), r0z = f(s, S_Q0 + 2), r0w = f(s, S_Q0 + 3);
  const rx = r0x * qw + r0w * qx + r0y * qz - r0z * qy;
  const ry = r0y * qw + r0w * qy + r0z * qx - r0x * qz;
  const rz = r0z * qw + r0w * qz + r0x * qy - r0y * qx;
  const rw = r0w * qw - r0x * qx - r0y * qy - r0z * qz;
  put(o, 0, rx); put(o, 1, ry); put(o, 2, rz); put(o, 3, rw);
  // the bone's quaternion is now this step's (a later fixed step of the same update starts from it)
  put(p, P_QUATERNION, rx); put(p, P_QUATERNION + 1, ry); put(p, P_QUATERNION + 2, rz); put(p, P_QUATERNION + 3, rw);
  const local = o + (<usize>O_LOCAL << 3);
  compose(p, rx, ry, rz, rw, local);
  multiply(P, local, o + (<usize>O_WORLD << 3));
  if (f(s, S_HAS_CHILD) != 0) {
    // the child's position after this step, W·c (read live again at the next update; used by a later fixed step of this one)
    const w = o + (<usize>O_WORLD << 3);
    const kx = f(s, S_CHILD), ky = f(s, S_CHILD + 1), kz = f(s, S_CHILD + 2);
    put(t, T_CHILD_WORLD, f(w, 0) * kx + f(w, 3) * ky + f(w, 6) * kz + f(w, 9));
    put(t, T_CHILD_WORLD + 1, f(w, 1) * kx + f(w, 4) * ky + f(w, 7) * kz + f(w, 10));
    put(t, T_CHILD_WORLD + 2, f(w, 2) * kx + f(w, 5) * ky + f(w, 8) * kz + f(w, 11));
  }
}

/**
 * out = a·b (affine 3×4 each; out is neither), as Matrix4.multiplyMatrices with the fourth row's
 * products (±0) kept where three adds them: the reference's multiplyAffine.
 */
function multiply(a: usize, b: usize, out: usize): void {
  if (ASC_FEATURE_SIMD) {
    // rows x and y in the lanes of f64x2, each lane the scalar operations below in their order: the same bits,
    // in fewer instructions (0.92–0.95× the kernel's time, docs/DECISIONS.md)
    const a0 = v128.load(a), a3 = v128.load(a, 24), a6 = v128.load(a, 48), a9 = v128.load(a, 72);
    for (let col = 0; col < 4; col++) {
      const bx = f(b, 3 * col), by = f(b, 3 * col + 1), bz = f(b, 3 * col + 2);
      const tr: f64 = col == 3 ? 1 : 0;
      const xy = f64x2.add(
        f64x2.add(f64x2.add(f64x2.mul(a0, f64x2.splat(bx)), f64x2.mul(a3, f64x2.splat(by))), f64x2.mul(a6, f64x2.splat(bz))),
        f64x2.mul(f64x2.splat(tr), a9),
      );
      v128.store(out + (<usize>(3 * col) << 3), xy);
      put(out, 3 * col + 2, f(a, 2) * bx + f(a, 5) * by + f(a, 8) * bz + tr * f(a, 11));
    }
    return;
  }
  for (let col = 0; col < 4; col++) {
    const bx = f(b, 3 * col), by = f(b, 3 * col + 1), bz = f(b, 3 * col + 2);
    const tr: f64 = col == 3 ? 1 : 0;
    put(out, 3 * col, f(a, 0) * bx + f(a, 3) * by + f(a, 6) * bz + tr * f(a, 9));
    put(out, 3 * col + 1, f(a, 1) * bx + f(a, 4) * by + f(a, 7) * bz + tr * f(a, 10));
    put(out, 3 * col + 2, f(a, 2) * bx + f(a, 5) * by + f(a, 8) * bz + tr * f(a, 11));
  }
}

/** 1/length, as Vector3.normalize multiplies (1 for a zero length). */
// @ts-ignore: decorator
@inline function reciprocal(length: f64): f64 {
  return 1 / (length == 0 ? 1 : length);
}

// @ts-ignore: decorator
@inline function hypot3(x: f64, y: f64, z: f64): f64 {
  return Math.sqrt(x * x + y * y + z * z);
}

/** A collider's shape in world space for this step, from its matrixWorld at e (see the reference's colliderToWorld); A: scratch. */
export function colliderToWorld(c: usize, e: usize, w: usize, A: usize): void {
  const ox = f(c, C_OFFSET), oy = f(c, C_OFFSET + 1), oz = f(c, C_OFFSET + 2);
  put(w, W_POSITION, f(e, 0) * ox + f(e, 3) * oy + f(e, 6) * oz + f(e, 9));
  put(w, W_POSITION + 1, f(e, 1) * ox + f(e, 4) * oy + f(e, 7) * oz + f(e, 10));
  put(w, W_POSITION + 2, f(e, 2) * ox + f(e, 5) * oy + f(e, 8) * oz + f(e, 11));
  shapeToWorld(c, e, w, A);
}

/** The capsule axis or plane normal of collider c in world space from the linear part of e, its position already at w (the reference's shapeToWorld). */
function shapeToWorld(c: usize, e: usize, w: usize, A: usize): void {
  const m = 0; // e: the collider's matrix
  const ox = f(c, C_OFFSET), oy = f(c, C_OFFSET + 1), oz = f(c, C_OFFSET + 2);
  const kind = int(c, C_KIND);
  const vx = f(c, C_VECTOR), vy = f(c, C_VECTOR + 1), vz = f(c, C_VECTOR + 2);
  let a: f64 = 0, b: f64 = 0, g: f64 = 0, h: f64 = 0;
  if (kind == KIND_CAPSULE) {
    // as three-vrm: (tail − offset) through the collider matrix (whose translation is M·offset), minus M·offset
    const dx = vx - ox, dy = vy - oy, dz = vz - oz;
    a = f(e, m) * dx + f(e, m + 3) * dy + f(e, m + 6) * dz + f(w, 0) - f(w, 0);
    b = f(e, m + 1) * dx + f(e, m + 4) * dy + f(e, m + 7) * dz + f(w, 1) - f(w, 1);
    g = f(e, m + 2) * dx + f(e, m + 5) * dy + f(e, m + 8) * dz + f(w, 2) - f(w, 2);
    h = a * a + b * b + g * g;
  } else if (kind == KIND_PLANE) {
    // the normal matrix is the inverse transpose of the linear part: its rows are the inverse's columns
    copy(A, e);
    invert3(A);
    const nx = f(A, 0) * vx + f(A, 1) * vy + f(A, 2) * vz;
    const ny = f(A, 3) * vx + f(A, 4) * vy + f(A, 5) * vz;
    const nz = f(A, 6) * vx + f(A, 7) * vy + f(A, 8) * vz;
    // applyNormalMatrix normalizes, and three-vrm normalizes again
    const r = reciprocal(hypot3(nx, ny, nz));
    const mx = nx * r, my = ny * r, mz = nz * r;
    const r2 = reciprocal(hypot3(mx, my, mz));
    a = mx * r2; b = my * r2; g = mz * r2;
  }
  put(w, 3, a); put(w, 4, b); put(w, 5, g); put(w, 6, h); put(w, 7, 0);
}

/**
 * m = m⁻¹ as three's Matrix4.invert computes it for an affine matrix, and m[12] = 1/element 15 of
 * that inverse (the w of Vector3.applyMatrix4); see the reference's invert.
 */
export function invert(m: usize): void {
  const n11 = f(m, 0), n21 = f(m, 1), n31 = f(m, 2), n12 = f(m, 3), n22 = f(m, 4), n32 = f(m, 5);
  const n13 = f(m, 6), n23 = f(m, 7), n33 = f(m, 8), n14 = f(m, 9), n24 = f(m, 10), n34 = f(m, 11);
  const t1 = n11 * n22 - n21 * n12, t2 = n11 * n32 - n31 * n12, t4 = n21 * n32 - n31 * n22;
  const t7 = n13 * n24 - n23 * n14, t8 = n13 * n34 - n33 * n14, t10 = n23 * n34 - n33 * n24;
  const det = t1 * n33 - t2 * n23 + t4 * n13;
  if (det == 0) {
    for (let k = 0; k < 12; k++) put(m, k, 0);
    put(m, 12, Infinity);
    return;
  }
  const s = 1 / det;
  put(m, 0, (n22 * n33 - n32 * n23) * s);
  put(m, 1, (n31 * n23 - n21 * n33) * s);
  put(m, 2, t4 * s);
  put(m, 3, (n32 * n13 - n12 * n33) * s);
  put(m, 4, (n11 * n33 - n31 * n13) * s);
  put(m, 5, -t2 * s);
  put(m, 6, (n12 * n23 - n22 * n13) * s);
  put(m, 7, (n21 * n13 - n11 * n23) * s);
  put(m, 8, t1 * s);
  put(m, 9, (n22 * t8 - n12 * t10 - n32 * t7) * s);
  put(m, 10, (n11 * t10 - n21 * t8 + n31 * t7) * s);
  put(m, 11, (n24 * t2 - n14 * t4 - n34 * t1) * s);
  put(m, 12, 1 / ((n13 * t4 - n23 * t2 + n33 * t1) * s));
}

/** m[0…8] = the inverse of m's linear part as three's Matrix3.invert computes it (zeros when singular). */
function invert3(m: usize): void {
  const n11 = f(m, 0), n21 = f(m, 1), n31 = f(m, 2), n12 = f(m, 3), n22 = f(m, 4), n32 = f(m, 5);
  const n13 = f(m, 6), n23 = f(m, 7), n33 = f(m, 8);
  const t11 = n33 * n22 - n32 * n23, t12 = n32 * n13 - n33 * n12, t13 = n23 * n12 - n22 * n13;
  const det = n11 * t11 + n21 * t12 + n31 * t13;
  const s: f64 = det == 0 ? 0 : 1 / det;
  put(m, 0, t11 * s);
  put(m, 1, (n31 * n23 - n33 * n21) * s);
  put(m, 2, (n32 * n21 - n31 * n22) * s);
  put(m, 3, t12 * s);
  put(m, 4, (n33 * n11 - n31 * n13) * s);
  put(m, 5, (n31 * n12 - n32 * n11) * s);
  put(m, 6, t13 * s);
  put(m, 7, (n21 * n13 - n23 * n11) * s);
  put(m, 8, (n22 * n11 - n21 * n12) * s);
}

/** m = Object3D.updateMatrix of the joint bone whose pose is at p, with quaternion (x, y, z, w): compose, then the pivot (the reference's compose). */
function compose(p: usize, x: f64, y: f64, z: f64, w: f64, m: usize): void {
  const sx = f(p, P_SCALE), sy = f(p, P_SCALE + 1), sz = f(p, P_SCALE + 2);
  const x2 = x + x, y2 = y + y, z2 = z + z;
  const xx = x * x2, xy = x * y2, xz = x * z2, yy = y * y2, yz = y * z2, zz = z * z2;
  const wx = w * x2, wy = w * y2, wz = w * z2;
  put(m, 0, (1 - (yy + zz)) * sx);
  put(m, 1, (xy + wz) * sx);
  put(m, 2, (xz - wy) * sx);
  put(m, 3, (xy - wz) * sy);
  put(m, 4, (1 - (xx + zz)) * sy);
  put(m, 5, (yz + wx) * sy);
  put(m, 6, (xz + wy) * sz);
  put(m, 7, (yz - wx) * sz);
  put(m, 8, (1 - (xx + yy)) * sz);
  put(m, 9, f(p, P_POSITION));
  put(m, 10, f(p, P_POSITION + 1));
  put(m, 11, f(p, P_POSITION + 2));
  if (f(p, P_HAS_PIVOT) != 0) {
    const px = f(p, P_PIVOT), py = f(p, P_PIVOT + 1), pz = f(p, P_PIVOT + 2);
    put(m, 9, f(m, 9) + (px - f(m, 0) * px - f(m, 3) * py - f(m, 6) * pz));
    put(m, 10, f(m, 10) + (py - f(m, 1) * px - f(m, 4) * py - f(m, 7) * pz));
    put(m, 11, f(m, 11) + (pz - f(m, 2) * px - f(m, 5) * py - f(m, 8) * pz));
  }
}

/** The colliders three-vrm moves after joint j (below its bone), in world space from its new matrixWorld (the reference's ownedColliders). */
export function ownedColliders(
  setup: usize, out: usize, e: usize, colliders: usize, colliderWorld: usize, colliderList: usize, j: i32, scratch: usize,
): void {
  const A = scratch + SCRATCH_A, L = scratch + SCRATCH_L, M = scratch + SCRATCH_M;
  const s = at(setup, SETUP, j);
  const start = int(s, S_OWNED_START), end = start + int(s, S_OWNED_COUNT);
  const w = at(out, OUT, j) + (<usize>O_WORLD << 3);
  for (let k = start; k < end; k++) {
    const index = int(colliderList, k);
    const c = at(colliders, COLLIDER, index);
    const slot = int(c, C_LINK_SLOT), count = int(c, C_LINK_COUNT);
    multiply(w, at(e, EXT, slot), M);
    for (let i = 1; i < count; i++) {
      multiply(M, at(e, EXT, slot + i), L);
      copy(M, L);
    }
    colliderToWorld(c, M, at(colliderWorld, COLLIDER_WORLD, index), A);
  }
}

/** A collider in world space as the step starts: from its matrixWorld, or (C_LIVE) its colliderMatrix as it stood (the reference's colliderAtStart). */
export function colliderAtStart(c: usize, e: usize, w: usize, A: usize): void {
  const m = at(e, EXT, int(c, C_SLOT));
  if (f(c, C_LIVE) == 0) {
    colliderToWorld(c, m, w, A);
    return;
  }
  put(w, W_POSITION, f(m, M_T));
  put(w, W_POSITION + 1, f(m, M_T + 1));
  put(w, W_POSITION + 2, f(m, M_T + 2));
  shapeToWorld(c, m, w, A);
}
