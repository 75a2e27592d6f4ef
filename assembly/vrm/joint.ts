// The spring-bone step of one joint in float64 (scalar), and the per-step work on the colliders and
// centers: the operations of src/reference/spring-bones.ts (its header has the formulas), in its order.
import { S_OWNED_START, S_OWNED_COUNT, S_CHILD_JOINT, SETUP, S_PARENT_JOINT, S_PARENT_SLOT, S_CENTER, S_HAS_CHILD, S_POSITION, S_SCALE, S_CHILD, S_AXIS, S_Q0, S_L0, S_HIT_RADIUS, S_STIFFNESS, S_GRAVITY_POWER, S_GRAVITY_DIR, S_DRAG, S_COLLIDER_START, S_COLLIDER_COUNT, STATE, T_TAIL, T_PREV, T_CHILD_WORLD, OUT, O_LOCAL, O_WORLD, O_EULER, EXT, INV, COLLIDER, C_KIND, C_INSIDE, C_SLOT, C_RADIUS, C_OFFSET, C_VECTOR, KIND_CAPSULE, KIND_PLANE, COLLIDER_WORLD, f, put, d, setD } from './layout';

// float64 scratch, the kernel's (one per thread), 392 bytes: P the parent's world matrix, A = P·L0 then its
// inverse, L a local matrix (affine 3×4 each; A 13 floats), then M a collider's matrixWorld (ownedColliders)
export const SCRATCH_A: usize = 96;
const SCRATCH_L: usize = 200;
const SCRATCH_M: usize = 296;
// V and Q: module globals, per instance, so per thread
let vx: f64 = 0, vy: f64 = 0, vz: f64 = 0; // the vector V of the reference
let qx: f64 = 0, qy: f64 = 0, qz: f64 = 0, qw: f64 = 1; // the quaternion Q of the reference

export function jointStep(
  setup: usize, state: usize, out: usize, e: usize, extInv: usize,
  colliders: usize, colliderWorld: usize, colliderList: usize, j: i32, dt: f64, scratch: usize,
): void {
  const P = scratch, A = scratch + SCRATCH_A, L = scratch + SCRATCH_L;
  const s = setup + (<usize>(SETUP * j) << 3);
  const t = state + (<usize>(STATE * j) << 3);
  const o = out + (<usize>(OUT * j) << 3);
  parentMatrix(s, out, e, P);
  const px = f(s, S_POSITION), py = f(s, S_POSITION + 1), pz = f(s, S_POSITION + 2);
  const x = d(P, 0) * px + d(P, 3) * py + d(P, 6) * pz + d(P, 9);
  const y = d(P, 1) * px + d(P, 4) * py + d(P, 7) * pz + d(P, 10);
  const z = d(P, 2) * px + d(P, 5) * py + d(P, 8) * pz + d(P, 11);
  if (dt <= 0) {
    compose(s, f(o, 0), f(o, 1), f(o, 2), f(o, 3), A);
    storeProduct(P, A, o + (<usize>O_LOCAL << 3), o + (<usize>O_WORLD << 3));
    return;
  }
  // _calcWorldSpaceBoneLength
  let length: f64;
  if (f(s, S_HAS_CHILD) != 0) {
    // a child that is a joint bone: its matrixWorld as its joint last wrote it (this step if it ran before, else the last)
    const k = <i32>f(s, S_CHILD_JOINT);
    const c = k >= 0 ? out + (<usize>(OUT * k + O_WORLD + 9) << 3) : t + (<usize>T_CHILD_WORLD << 3);
    length = hypot3(x - f(c, 0), y - f(c, 1), z - f(c, 2));
  } else {
    // the 7 cm rule: initialLocalChildPosition through bone.matrixWorld = P·compose(p, q, s), q the last step's
    compose(s, f(o, 0), f(o, 1), f(o, 2), f(o, 3), L);
    multiply(P, L, A);
    const cx = f(s, S_CHILD), cy = f(s, S_CHILD + 1), cz = f(s, S_CHILD + 2);
    length = hypot3(
      x - (d(A, 0) * cx + d(A, 3) * cy + d(A, 6) * cz + d(A, 9)),
      y - (d(A, 1) * cx + d(A, 4) * cy + d(A, 7) * cz + d(A, 10)),
      z - (d(A, 2) * cx + d(A, 5) * cy + d(A, 8) * cz + d(A, 11)),
    );
  }
  // worldSpaceBoneAxis: boneAxis.transformDirection(L0).transformDirection(P)
  directionF(s, S_L0, f(s, S_AXIS), f(s, S_AXIS + 1), f(s, S_AXIS + 2));
  directionD(P, vx, vy, vz);
  const ax = vx, ay = vy, az = vz;
  // Verlet with drag, in center space, then to world space; stiffness and gravity in world space
  const drag = 1 - f(s, S_DRAG);
  const cx = f(t, T_TAIL) + (f(t, T_TAIL) - f(t, T_PREV)) * drag;
  const cy = f(t, T_TAIL + 1) + (f(t, T_TAIL + 1) - f(t, T_PREV + 1)) * drag;
  const cz = f(t, T_TAIL + 2) + (f(t, T_TAIL + 2) - f(t, T_PREV + 2)) * drag;
  const center = <i32>f(s, S_CENTER);
  let nx = cx, ny = cy, nz = cz;
  if (center >= 0) {
    const c = EXT * center;
    nx = f(e, c) * cx + f(e, c + 3) * cy + f(e, c + 6) * cz + f(e, c + 9);
    ny = f(e, c + 1) * cx + f(e, c + 4) * cy + f(e, c + 7) * cz + f(e, c + 10);
    nz = f(e, c + 2) * cx + f(e, c + 5) * cy + f(e, c + 8) * cz + f(e, c + 11);
  }
  const stiffness = f(s, S_STIFFNESS) * dt, gravity = f(s, S_GRAVITY_POWER) * dt;
  vx = nx + ax * stiffness + f(s, S_GRAVITY_DIR) * gravity;
  vy = ny + ay * stiffness + f(s, S_GRAVITY_DIR + 1) * gravity;
  vz = nz + az * stiffness + f(s, S_GRAVITY_DIR + 2) * gravity;
  // the bone-length constraint, then the colliders
  toLength(x, y, z, length);
  const hit = f(s, S_HIT_RADIUS);
  const start = <i32>f(s, S_COLLIDER_START), end = start + <i32>f(s, S_COLLIDER_COUNT);
  for (let k = start; k < end; k++) {
    const c = <i32>f(colliderList, k);
    collide(colliders + (<usize>(COLLIDER * c) << 3), colliderWorld + (<usize>(COLLIDER_WORLD * c) << 3), hit, x, y, z, length);
  }
  nx = vx; ny = vy; nz = vz;
  // prevTail = currentTail; currentTail = C⁻¹·nextTail
  put(t, T_PREV, f(t, T_TAIL));
  put(t, T_PREV + 1, f(t, T_TAIL + 1));
  put(t, T_PREV + 2, f(t, T_TAIL + 2));
  if (center >= 0) {
    const c = INV * center, i = extInv, w = f(i, c + 12);
    put(t, T_TAIL, (f(i, c) * nx + f(i, c + 3) * ny + f(i, c + 6) * nz + f(i, c + 9)) * w);
    put(t, T_TAIL + 1, (f(i, c + 1) * nx + f(i, c + 4) * ny + f(i, c + 7) * nz + f(i, c + 10)) * w);
    put(t, T_TAIL + 2, (f(i, c + 2) * nx + f(i, c + 5) * ny + f(i, c + 8) * nz + f(i, c + 11)) * w);
  } else {
    put(t, T_TAIL, nx);
    put(t, T_TAIL + 1, ny);
    put(t, T_TAIL + 2, nz);
  }
  // q = q0 · fromUnitVectors(axis, dir((P·L0)⁻¹·tail))
  for (let i = 0; i < EXT; i++) setD(L, i, f(s, S_L0 + i));
  multiply(P, L, A);
  invert(A);
  const w = d(A, 12);
  let dx = (d(A, 0) * nx + d(A, 3) * ny + d(A, 6) * nz + d(A, 9)) * w;
  let dy = (d(A, 1) * nx + d(A, 4) * ny + d(A, 7) * nz + d(A, 10)) * w;
  let dz = (d(A, 2) * nx + d(A, 5) * ny + d(A, 8) * nz + d(A, 11)) * w;
  const dl = reciprocal(hypot3(dx, dy, dz));
  dx *= dl; dy *= dl; dz *= dl;
  fromUnitVectors(f(s, S_AXIS), f(s, S_AXIS + 1), f(s, S_AXIS + 2), dx, dy, dz);
  const q0x = f(s, S_Q0), q0y = f(s, S_Q0 + 1), q0z = f(s, S_Q0 + 2), q0w = f(s, S_Q0 + 3);
  const rx = q0x * qw + q0w * qx + q0y * qz - q0z * qy;
  const ry = q0y * qw + q0w * qy + q0z * qx - q0x * qz;
  const rz = q0z * qw + q0w * qz + q0x * qy - q0y * qx;
  const rw = q0w * qw - q0x * qx - q0y * qy - q0z * qz;
  put(o, 0, rx); put(o, 1, ry); put(o, 2, rz); put(o, 3, rw);
  eulerXyz(rx, ry, rz, rw, o + (<usize>O_EULER << 3));
  compose(s, rx, ry, rz, rw, A);
  storeProduct(P, A, o + (<usize>O_LOCAL << 3), o + (<usize>O_WORLD << 3));
  if (f(s, S_HAS_CHILD) != 0) {
    const w = o + (<usize>O_WORLD << 3);
    const kx = f(s, S_CHILD), ky = f(s, S_CHILD + 1), kz = f(s, S_CHILD + 2);
    put(t, T_CHILD_WORLD, f(w, 0) * kx + f(w, 3) * ky + f(w, 6) * kz + f(w, 9));
    put(t, T_CHILD_WORLD + 1, f(w, 1) * kx + f(w, 4) * ky + f(w, 7) * kz + f(w, 10));
    put(t, T_CHILD_WORLD + 2, f(w, 2) * kx + f(w, 5) * ky + f(w, 8) * kz + f(w, 11));
  }
}

/** P = W[parent joint] · E[parent slot] (either may be absent: I). */
function parentMatrix(s: usize, out: usize, e: usize, P: usize): void {
  const pj = <i32>f(s, S_PARENT_JOINT), ps = <i32>f(s, S_PARENT_SLOT);
  if (pj >= 0 && ps >= 0) {
    multiply(out + (<usize>(OUT * pj + O_WORLD) << 3), e + (<usize>(EXT * ps) << 3), P);
  } else if (pj >= 0) {
    loadAffine(P, out, OUT * pj + O_WORLD);
  } else if (ps >= 0) {
    loadAffine(P, e, EXT * ps);
  } else {
    for (let i = 0; i < EXT; i++) setD(P, i, i == 0 || i == 4 || i == 8 ? 1 : 0);
  }
}

/**
 * out = a·b (affine 3×4 each; out is neither), as Matrix4.multiplyMatrices with the fourth row's
 * products (±0) kept where three adds them: the reference's multiplyAffine.
 */
function multiply(a: usize, b: usize, out: usize): void {
  for (let col = 0; col < 4; col++) {
    const bx = d(b, 3 * col), by = d(b, 3 * col + 1), bz = d(b, 3 * col + 2);
    const tr: f64 = col == 3 ? 1 : 0;
    setD(out, 3 * col, d(a, 0) * bx + d(a, 3) * by + d(a, 6) * bz + tr * d(a, 9));
    setD(out, 3 * col + 1, d(a, 1) * bx + d(a, 4) * by + d(a, 7) * bz + tr * d(a, 10));
    setD(out, 3 * col + 2, d(a, 2) * bx + d(a, 5) * by + d(a, 8) * bz + tr * d(a, 11));
  }
}

/** local = A, world = P·A. */
function storeProduct(P: usize, A: usize, local: usize, world: usize): void {
  for (let i = 0; i < EXT; i++) put(local, i, d(A, i));
  multiply(P, local, world);
}

export function loadAffine(dst: usize, src: usize, i: i32): void {
  for (let k = 0; k < EXT; k++) setD(dst, k, f(src, i + k));
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

/** V = the float32 affine matrix at s[i…]'s linear part applied to (x, y, z), normalized. */
function directionF(s: usize, i: i32, x: f64, y: f64, z: f64): void {
  const rx = f(s, i) * x + f(s, i + 3) * y + f(s, i + 6) * z;
  const ry = f(s, i + 1) * x + f(s, i + 4) * y + f(s, i + 7) * z;
  const rz = f(s, i + 2) * x + f(s, i + 5) * y + f(s, i + 8) * z;
  const r = reciprocal(hypot3(rx, ry, rz));
  vx = rx * r; vy = ry * r; vz = rz * r;
}

/** V = the float64 affine matrix m's linear part applied to (x, y, z), normalized. */
function directionD(m: usize, x: f64, y: f64, z: f64): void {
  const rx = d(m, 0) * x + d(m, 3) * y + d(m, 6) * z;
  const ry = d(m, 1) * x + d(m, 4) * y + d(m, 7) * z;
  const rz = d(m, 2) * x + d(m, 5) * y + d(m, 8) * z;
  const r = reciprocal(hypot3(rx, ry, rz));
  vx = rx * r; vy = ry * r; vz = rz * r;
}

/** V = x + ℓ·(V − x)/|V − x|. */
function toLength(x: f64, y: f64, z: f64, length: f64): void {
  let dx = vx - x, dy = vy - y, dz = vz - z;
  const r = reciprocal(hypot3(dx, dy, dz));
  dx *= r; dy *= r; dz *= r;
  vx = dx * length + x; vy = dy * length + y; vz = dz * length + z;
}

/** One collider against the tail V: pushed out when it penetrates, then put back at the bone's length. */
function collide(c: usize, w: usize, hit: f64, x: f64, y: f64, z: f64, length: f64): void {
  const kind = <i32>f(c, C_KIND);
  let tx = vx - f(w, 0), ty = vy - f(w, 1), tz = vz - f(w, 2);
  let distance: f64;
  if (kind == KIND_PLANE) {
    const nx = f(w, 3), ny = f(w, 4), nz = f(w, 5);
    distance = tx * nx + ty * ny + tz * nz - hit;
    tx = nx; ty = ny; tz = nz;
  } else {
    if (kind == KIND_CAPSULE) {
      const bx = f(w, 3), by = f(w, 4), bz = f(w, 5), lengthSq = f(w, 6);
      const dot = bx * tx + by * ty + bz * tz;
      if (dot <= 0) {
        // the head's sphere
      } else if (lengthSq <= dot) {
        tx -= bx; ty -= by; tz -= bz;
      } else {
        const k = dot / lengthSq;
        tx -= bx * k; ty -= by * k; tz -= bz * k;
      }
    }
    const l = hypot3(tx, ty, tz);
    const radius = f(c, C_RADIUS);
    const inside = f(c, C_INSIDE) != 0;
    distance = inside ? radius - hit - l : l - hit - radius;
    if (distance < 0) {
      const k = inside ? -1 / l : 1 / l;
      tx *= k; ty *= k; tz *= k;
    }
  }
  if (distance < 0) {
    vx += tx * -distance; vy += ty * -distance; vz += tz * -distance;
    const dx = vx - x, dy = vy - y, dz = vz - z;
    const k = length / hypot3(dx, dy, dz);
    vx = dx * k + x; vy = dy * k + y; vz = dz * k + z;
  }
}

/** A collider's shape in world space for this step, from its matrixWorld at e (see the reference's colliderToWorld); A: scratch. */
export function colliderToWorld(c: usize, e: usize, w: usize, A: usize): void {
  const m = 0; // e: the collider's matrixWorld
  const ox = f(c, C_OFFSET), oy = f(c, C_OFFSET + 1), oz = f(c, C_OFFSET + 2);
  put(w, 0, f(e, m) * ox + f(e, m + 3) * oy + f(e, m + 6) * oz + f(e, m + 9));
  put(w, 1, f(e, m + 1) * ox + f(e, m + 4) * oy + f(e, m + 7) * oz + f(e, m + 10));
  put(w, 2, f(e, m + 2) * ox + f(e, m + 5) * oy + f(e, m + 8) * oz + f(e, m + 11));
  const kind = <i32>f(c, C_KIND);
  const ux = f(c, C_VECTOR), uy = f(c, C_VECTOR + 1), uz = f(c, C_VECTOR + 2);
  let a: f64 = 0, b: f64 = 0, g: f64 = 0, h: f64 = 0;
  if (kind == KIND_CAPSULE) {
    // as three-vrm: (tail − offset) through the collider matrix (whose translation is M·offset), minus M·offset
    const dx = ux - ox, dy = uy - oy, dz = uz - oz;
    a = f(e, m) * dx + f(e, m + 3) * dy + f(e, m + 6) * dz + f(w, 0) - f(w, 0);
    b = f(e, m + 1) * dx + f(e, m + 4) * dy + f(e, m + 7) * dz + f(w, 1) - f(w, 1);
    g = f(e, m + 2) * dx + f(e, m + 5) * dy + f(e, m + 8) * dz + f(w, 2) - f(w, 2);
    h = a * a + b * b + g * g;
  } else if (kind == KIND_PLANE) {
    // the normal matrix is the inverse transpose of the linear part: its rows are the inverse's columns
    loadAffine(A, e, m);
    invert3(A);
    const nx = d(A, 0) * ux + d(A, 1) * uy + d(A, 2) * uz;
    const ny = d(A, 3) * ux + d(A, 4) * uy + d(A, 5) * uz;
    const nz = d(A, 6) * ux + d(A, 7) * uy + d(A, 8) * uz;
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
  const n11 = d(m, 0), n21 = d(m, 1), n31 = d(m, 2), n12 = d(m, 3), n22 = d(m, 4), n32 = d(m, 5);
  const n13 = d(m, 6), n23 = d(m, 7), n33 = d(m, 8), n14 = d(m, 9), n24 = d(m, 10), n34 = d(m, 11);
  const t1 = n11 * n22 - n21 * n12, t2 = n11 * n32 - n31 * n12, t4 = n21 * n32 - n31 * n22;
  const t7 = n13 * n24 - n23 * n14, t8 = n13 * n34 - n33 * n14, t10 = n23 * n34 - n33 * n24;
  const det = t1 * n33 - t2 * n23 + t4 * n13;
  if (det == 0) {
    for (let k = 0; k < 12; k++) setD(m, k, 0);
    setD(m, 12, Infinity);
    return;
  }
  const s = 1 / det;
  setD(m, 0, (n22 * n33 - n32 * n23) * s);
  setD(m, 1, (n31 * n23 - n21 * n33) * s);
  setD(m, 2, t4 * s);
  setD(m, 3, (n32 * n13 - n12 * n33) * s);
  setD(m, 4, (n11 * n33 - n31 * n13) * s);
  setD(m, 5, -t2 * s);
  setD(m, 6, (n12 * n23 - n22 * n13) * s);
  setD(m, 7, (n21 * n13 - n11 * n23) * s);
  setD(m, 8, t1 * s);
  setD(m, 9, (n22 * t8 - n12 * t10 - n32 * t7) * s);
  setD(m, 10, (n11 * t10 - n21 * t8 + n31 * t7) * s);
  setD(m, 11, (n24 * t2 - n14 * t4 - n34 * t1) * s);
  setD(m, 12, 1 / ((n13 * t4 - n23 * t2 + n33 * t1) * s));
}

/** m[0…8] = the inverse of m's linear part as three's Matrix3.invert computes it (zeros when singular). */
function invert3(m: usize): void {
  const n11 = d(m, 0), n21 = d(m, 1), n31 = d(m, 2), n12 = d(m, 3), n22 = d(m, 4), n32 = d(m, 5);
  const n13 = d(m, 6), n23 = d(m, 7), n33 = d(m, 8);
  const t11 = n33 * n22 - n32 * n23, t12 = n32 * n13 - n33 * n12, t13 = n23 * n12 - n22 * n13;
  const det = n11 * t11 + n21 * t12 + n31 * t13;
  const s: f64 = det == 0 ? 0 : 1 / det;
  setD(m, 0, t11 * s);
  setD(m, 1, (n31 * n23 - n33 * n21) * s);
  setD(m, 2, (n32 * n21 - n31 * n22) * s);
  setD(m, 3, t12 * s);
  setD(m, 4, (n33 * n11 - n31 * n13) * s);
  setD(m, 5, (n31 * n12 - n32 * n11) * s);
  setD(m, 6, t13 * s);
  setD(m, 7, (n21 * n13 - n23 * n11) * s);
  setD(m, 8, (n22 * n11 - n21 * n12) * s);
}

/** Q = Quaternion.setFromUnitVectors(from, to) (three.js r187, normalized). */
function fromUnitVectors(fx: f64, fy: f64, fz: f64, tx: f64, ty: f64, tz: f64): void {
  let r = fx * tx + fy * ty + fz * tz + 1;
  let x: f64, y: f64, z: f64;
  if (r < 1e-8) {
    r = 0;
    if (Math.abs(fx) > Math.abs(fz)) {
      x = -fy; y = fx; z = 0;
    } else {
      x = 0; y = -fz; z = fy;
    }
  } else {
    x = fy * tz - fz * ty;
    y = fz * tx - fx * tz;
    z = fx * ty - fy * tx;
  }
  const l = Math.sqrt(x * x + y * y + z * z + r * r);
  if (l == 0) {
    qx = 0; qy = 0; qz = 0; qw = 1;
  } else {
    const k = 1 / l;
    qx = x * k; qy = y * k; qz = z * k; qw = r * k;
  }
}

/**
 * e[0…2] = the XYZ Euler angles of q as three's Euler.setFromQuaternion computes them (see the
 * reference; AssemblyScript's Math.asin and Math.atan2 give V8's results bit for bit).
 */
export function eulerXyz(x: f64, y: f64, z: f64, w: f64, e: usize): void {
  const x2 = x + x, y2 = y + y, z2 = z + z;
  const xx = x * x2, xy = x * y2, xz = x * z2, yy = y * y2, yz = y * z2, zz = z * z2;
  const wx = w * x2, wy = w * y2, wz = w * z2;
  const m11 = 1 - (yy + zz), m12 = xy - wz, m13 = xz + wy;
  setD(e, 1, Math.asin(Math.max(-1, Math.min(1, m13))));
  if (Math.abs(m13) < 0.9999999) {
    setD(e, 0, Math.atan2(-(yz - wx), 1 - (xx + yy)));
    setD(e, 2, Math.atan2(-m12, m11));
  } else {
    setD(e, 0, Math.atan2(yz + wx, 1 - (xx + zz)));
    setD(e, 2, 0);
  }
}

/** m = Matrix4.compose(position, q, scale) of the joint at s, affine 3×4 in float64. */
function compose(s: usize, x: f64, y: f64, z: f64, w: f64, m: usize): void {
  const sx = f(s, S_SCALE), sy = f(s, S_SCALE + 1), sz = f(s, S_SCALE + 2);
  const x2 = x + x, y2 = y + y, z2 = z + z;
  const xx = x * x2, xy = x * y2, xz = x * z2, yy = y * y2, yz = y * z2, zz = z * z2;
  const wx = w * x2, wy = w * y2, wz = w * z2;
  setD(m, 0, (1 - (yy + zz)) * sx);
  setD(m, 1, (xy + wz) * sx);
  setD(m, 2, (xz - wy) * sx);
  setD(m, 3, (xy - wz) * sy);
  setD(m, 4, (1 - (xx + zz)) * sy);
  setD(m, 5, (yz + wx) * sy);
  setD(m, 6, (xz + wy) * sz);
  setD(m, 7, (yz - wx) * sz);
  setD(m, 8, (1 - (xx + yy)) * sz);
  setD(m, 9, f(s, S_POSITION));
  setD(m, 10, f(s, S_POSITION + 1));
  setD(m, 11, f(s, S_POSITION + 2));
}

/** The colliders below joint j's bone in world space from its new matrixWorld: W[j]·E[slot] (the reference's ownedColliders). */
export function ownedColliders(
  setup: usize, out: usize, e: usize, colliders: usize, colliderWorld: usize, colliderList: usize, j: i32, scratch: usize,
): void {
  const A = scratch + SCRATCH_A, M = scratch + SCRATCH_M;
  const s = setup + (<usize>(SETUP * j) << 3);
  const start = <i32>f(s, S_OWNED_START), end = start + <i32>f(s, S_OWNED_COUNT);
  const w = out + (<usize>(OUT * j + O_WORLD) << 3);
  for (let k = start; k < end; k++) {
    const c = colliders + (<usize>(COLLIDER * <i32>f(colliderList, k)) << 3);
    multiply(w, e + (<usize>(EXT * <i32>f(c, C_SLOT)) << 3), M);
    colliderToWorld(c, M, colliderWorld + (<usize>(COLLIDER_WORLD * <i32>f(colliderList, k)) << 3), A);
  }
}
