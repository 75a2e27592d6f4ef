/**
 * Float64 reference (and JS backend) of the spring-bone step: the VRMC_springBone algorithm as
 * @pixiv/three-vrm-springbone 3.5 runs it (VRMSpringBoneJoint.update, its colliders'
 * calculateCollision and VRMSpringBoneManager.update's order), over every joint of every avatar of
 * a SpringBones in one call, on the flat layout below. Written from three-vrm's source, not from
 * the kernel (assembly/kernels/spring-bones.ts).
 *
 * One step, per joint j in order (parents before children), with P its parent's world matrix and
 * M = compose(p, q, s) (and the pivot) its bone's local matrix, q the bone's quaternion as it stands:
 *   x    = (P·M)'s translation                         (the bone's world position)
 *   ℓ    = |childWorld − x|, or |(P·M)·c − x| without a child (the 7 cm rule)
 *   a    = dir(P · dir(L0 · axis))                      (the rest axis in world space)
 *   tail = C·(tail + (tail − prev)·(1 − drag)) + a·stiffness·dt + gravityDir·gravityPower·dt
 *   tail = x + ℓ·(tail − x)/|tail − x|, then pushed out of each collider and put back at length ℓ
 *   prev = tail₀, tail = C⁻¹·tail                       (C: the center's world matrix, or I)
 *   q    = q0 · fromUnitVectors(axis, dir((P·L0)⁻¹·tail)); M = compose(p, q, s); W = P·M
 *
 * Every matrix a joint reads is the one three-vrm reads at that moment (see the references in
 * spring-bone-layout.ts): an object whose matrixWorld this update has not recomputed yet is read
 * as the update starts (P, the child, the center, a collider's colliderMatrix, the bone's pose),
 * and one that three-vrm has recomputed by then (below a joint that ran) is computed here the same
 * way, W[joint]·(each link's local matrix), left to right.
 */
import { eulerXyz } from './euler.js';
import type { FloatArray } from './float-array.js';
import {
  AVATAR,
  A_CENTERS,
  A_COLLIDERS,
  A_JOINTS,
  A_SLOTS,
  COLLIDER,
  COLLIDER_WORLD,
  C_INSIDE,
  C_KIND,
  C_LINK_COUNT,
  C_LINK_SLOT,
  C_LIVE,
  C_OFFSET,
  C_RADIUS,
  C_SLOT,
  C_VECTOR,
  EXT,
  INV,
  INV_W,
  KIND_CAPSULE,
  KIND_PLANE,
  MATRIX,
  M_T,
  OUT,
  O_EULER,
  O_LOCAL,
  O_QUATERNION,
  O_WORLD,
  POSE,
  P_HAS_PIVOT,
  P_PIVOT,
  P_POSITION,
  P_QUATERNION,
  P_SCALE,
  R_COUNT,
  R_JOINT,
  R_SLOT,
  SETUP,
  STATE,
  S_AXIS,
  S_CENTER,
  S_CHILD,
  S_CHILD_REF,
  S_COLLIDER_COUNT,
  S_COLLIDER_START,
  S_DRAG,
  S_GRAVITY_DIR,
  S_GRAVITY_POWER,
  S_HAS_CHILD,
  S_HIT_RADIUS,
  S_L0,
  S_OWNED_COUNT,
  S_OWNED_START,
  S_PARENT,
  S_Q0,
  S_SAME_BONE,
  S_STIFFNESS,
  T_CHILD_WORLD,
  T_PREV,
  T_TAIL,
  W_POSITION,
} from './spring-bone-layout.js';

export * from './spring-bone-layout.js';

/** The arrays of a SpringBones in solver memory (see spring-bone-layout.ts). */
export interface SpringBoneArrays {
  setup: FloatArray;
  /** The joint bones' local transforms as the update starts (POSE floats a joint). */
  pose: FloatArray;
  state: FloatArray;
  out: FloatArray;
  /** The ext slots' matrices at the end of the frame (world matrices and colliderMatrices read as the update starts, local matrices of links). */
  ext: FloatArray;
  /** The same at the start of the frame (read when alpha < 1). */
  extPrev: FloatArray;
  /** The slots interpolated to the step's time (written when alpha < 1). */
  extStep: FloatArray;
  /** Inverses of the center slots (INV floats a slot, written for the slots in `centers`). */
  extInv: FloatArray;
  colliders: FloatArray;
  colliderWorld: FloatArray;
  /** Collider indices: each joint's colliders from S_COLLIDER_START (three-vrm's order), its owned ones from S_OWNED_START. */
  colliderList: FloatArray;
  /** The ext slots that are centers read as the update starts (their inverses are computed once a step). */
  centers: FloatArray;
}

/**
 * One step of the rows [first, first + rows) of the avatar table `avatars` (AVATAR floats a row, a
 * manager each: its ranges of joints, slots, colliders and centers), one row after the other as
 * three-vrm runs its managers. dt ≤ 0 only places the bones (three-vrm returns before its step, but
 * its manager has already updated the bone's matrices). alpha ∈ (0, 1]: the ext matrices at
 * extPrev + alpha·(ext − extPrev) (a fixed step inside a frame), 1: ext as it is.
 */
export function springBonesStep(a: SpringBoneArrays, avatars: FloatArray, first: number, rows: number, dt: number, alpha: number): void {
  for (let row = first; row < first + rows; row++) {
    const r = AVATAR * row;
    const range = (at: number): [number, number] => [avatars[r + at]!, avatars[r + at + 1]!];
    const [s0, s1] = range(A_SLOTS);
    let e = a.ext;
    if (alpha < 1) {
      for (let i = EXT * s0; i < EXT * s1; i++) a.extStep[i] = a.extPrev[i]! + alpha * (a.ext[i]! - a.extPrev[i]!);
      e = a.extStep;
    }
    const [k0, k1] = range(A_CENTERS);
    for (let k = k0; k < k1; k++) invert(e, EXT * a.centers[k]!, a.extInv, INV * a.centers[k]!);
    const [c0, c1] = range(A_COLLIDERS);
    for (let c = c0; c < c1; c++) colliderAtStart(a.colliders, COLLIDER * c, e, a.colliderWorld, COLLIDER_WORLD * c);
    const [j0, j1] = range(A_JOINTS);
    for (let j = j0; j < j1; j++) {
      jointStep(a, e, j, dt);
      ownedColliders(a, e, j);
    }
  }
}

const P = new Float64Array(MATRIX); // the parent's world matrix
const A = new Float64Array(INV); // a product, then an inverse
const L = new Float64Array(MATRIX); // a local matrix
const M = new Float64Array(MATRIX); // a product of a reference
const C = new Float64Array(MATRIX); // the center's world matrix (a center inside a chain)
const CI = new Float64Array(INV); // its inverse
const V = new Float64Array(3);
const Q = new Float64Array(4);

/**
 * out[0…] = the world matrix the reference at setup[r…] names (see spring-bone-layout.ts), false
 * when it names none. `t` is scratch for a chain of links.
 */
function resolve(a: SpringBoneArrays, e: FloatArray, r: number, out: Float64Array, t: Float64Array): boolean {
  const joint = a.setup[r + R_JOINT]!,
    slot = a.setup[r + R_SLOT]!,
    count = a.setup[r + R_COUNT]!;
  if (joint >= 0) {
    if (count === 0) {
      for (let i = 0; i < MATRIX; i++) out[i] = a.out[OUT * joint + O_WORLD + i]!;
      return true;
    }
    // three-vrm's walk after that joint: each link's matrixWorld = its parent's · its matrix
    multiplyAffine(a.out, OUT * joint + O_WORLD, e, EXT * slot, out, 0);
    for (let k = 1; k < count; k++) {
      multiplyAffine(out, 0, e, EXT * (slot + k), t, 0);
      out.set(t);
    }
    return true;
  }
  if (slot < 0) return false;
  for (let i = 0; i < MATRIX; i++) out[i] = e[EXT * slot + i]!;
  return true;
}

function jointStep(a: SpringBoneArrays, e: FloatArray, j: number, dt: number): void {
  const s = a.setup,
    t = a.state,
    o = a.out,
    p = a.pose;
  const sj = SETUP * j,
    tj = STATE * j,
    oj = OUT * j,
    pj = POSE * j;
  if (!resolve(a, e, sj + S_PARENT, P, L)) P.set(IDENTITY);
  // bone.updateMatrix() with the bone's quaternion as it stands (the last joint on it, or the pose), then its matrixWorld
  const same = s[sj + S_SAME_BONE]!;
  const qs = same >= 0 ? o : p,
    qi = same >= 0 ? OUT * same + O_QUATERNION : pj + P_QUATERNION;
  const q0 = qs[qi]!,
    q1 = qs[qi + 1]!,
    q2 = qs[qi + 2]!,
    q3 = qs[qi + 3]!;
  compose(p, pj, q0, q1, q2, q3, L, 0);
  const x = P[0]! * L[M_T]! + P[3]! * L[M_T + 1]! + P[6]! * L[M_T + 2]! + P[M_T]!;
  const y = P[1]! * L[M_T]! + P[4]! * L[M_T + 1]! + P[7]! * L[M_T + 2]! + P[M_T + 1]!;
  const z = P[2]! * L[M_T]! + P[5]! * L[M_T + 1]! + P[8]! * L[M_T + 2]! + P[M_T + 2]!;
  if (dt <= 0) {
    o[oj] = q0;
    o[oj + 1] = q1;
    o[oj + 2] = q2;
    o[oj + 3] = q3;
    eulerXyz(q0, q1, q2, q3, o, oj + O_EULER);
    for (let i = 0; i < MATRIX; i++) o[oj + O_LOCAL + i] = L[i]!;
    multiplyAffine(P, 0, o, oj + O_LOCAL, o, oj + O_WORLD);
    return;
  }
  // _calcWorldSpaceBoneLength: to the child's matrixWorld as it stands, or (the 7 cm rule) initialLocalChildPosition through the bone's
  let length: number;
  if (s[sj + S_HAS_CHILD]! !== 0) {
    if (resolve(a, e, sj + S_CHILD_REF, M, A)) length = norm(x - M[M_T]!, y - M[M_T + 1]!, z - M[M_T + 2]!);
    else length = norm(x - t[tj + T_CHILD_WORLD]!, y - t[tj + T_CHILD_WORLD + 1]!, z - t[tj + T_CHILD_WORLD + 2]!);
  } else {
    multiplyAffine(P, 0, L, 0, A, 0);
    const cx = s[sj + S_CHILD]!,
      cy = s[sj + S_CHILD + 1]!,
      cz = s[sj + S_CHILD + 2]!;
    length = norm(
      x - (A[0]! * cx + A[3]! * cy + A[6]! * cz + A[9]!),
      y - (A[1]! * cx + A[4]! * cy + A[7]! * cz + A[10]!),
      z - (A[2]! * cx + A[5]! * cy + A[8]! * cz + A[11]!),
    );
  }
  // worldSpaceBoneAxis: boneAxis.transformDirection(L0).transformDirection(P)
  direction(s, sj + S_L0, s[sj + S_AXIS]!, s[sj + S_AXIS + 1]!, s[sj + S_AXIS + 2]!);
  const l0x = V[0]!,
    l0y = V[1]!,
    l0z = V[2]!;
  direction(P, 0, l0x, l0y, l0z);
  const ax = V[0]!,
    ay = V[1]!,
    az = V[2]!;
  // the center's matrixWorld as it stands (a slot read as the update starts, inverted once a step; or computed this step) and its inverse
  let center: FloatArray | null = null,
    ci = 0;
  let inverse: FloatArray = CI,
    ii = 0;
  const cs = s[sj + S_CENTER + R_SLOT]!;
  if (s[sj + S_CENTER + R_JOINT]! >= 0) {
    resolve(a, e, sj + S_CENTER, C, M);
    invert(C, 0, CI, 0);
    center = C;
  } else if (cs >= 0) {
    center = e;
    ci = EXT * cs;
    inverse = a.extInv;
    ii = INV * cs;
  }
  // Verlet with drag, in center space, then to world space; stiffness and gravity in world space
  const drag = 1 - s[sj + S_DRAG]!;
  const cx = t[tj + T_TAIL]! + (t[tj + T_TAIL]! - t[tj + T_PREV]!) * drag;
  const cy = t[tj + T_TAIL + 1]! + (t[tj + T_TAIL + 1]! - t[tj + T_PREV + 1]!) * drag;
  const cz = t[tj + T_TAIL + 2]! + (t[tj + T_TAIL + 2]! - t[tj + T_PREV + 2]!) * drag;
  let nx = cx,
    ny = cy,
    nz = cz;
  if (center !== null) {
    const m = center;
    nx = m[ci]! * cx + m[ci + 3]! * cy + m[ci + 6]! * cz + m[ci + 9]!;
    ny = m[ci + 1]! * cx + m[ci + 4]! * cy + m[ci + 7]! * cz + m[ci + 10]!;
    nz = m[ci + 2]! * cx + m[ci + 5]! * cy + m[ci + 8]! * cz + m[ci + 11]!;
  }
  const stiffness = s[sj + S_STIFFNESS]! * dt,
    gravity = s[sj + S_GRAVITY_POWER]! * dt;
  nx = nx + ax * stiffness + s[sj + S_GRAVITY_DIR]! * gravity;
  ny = ny + ay * stiffness + s[sj + S_GRAVITY_DIR + 1]! * gravity;
  nz = nz + az * stiffness + s[sj + S_GRAVITY_DIR + 2]! * gravity;
  // the bone-length constraint, then the colliders (each pushes the tail out and restores the length)
  V[0] = nx;
  V[1] = ny;
  V[2] = nz;
  toLength(x, y, z, length);
  const hit = s[sj + S_HIT_RADIUS]!;
  const start = s[sj + S_COLLIDER_START]!,
    end = start + s[sj + S_COLLIDER_COUNT]!;
  for (let k = start; k < end; k++) {
    const c = a.colliderList[k]!;
    collide(a.colliders, COLLIDER * c, a.colliderWorld, COLLIDER_WORLD * c, hit, x, y, z, length);
  }
  nx = V[0]!;
  ny = V[1]!;
  nz = V[2]!;
  // prevTail = currentTail; currentTail = C⁻¹·nextTail
  t[tj + T_PREV] = t[tj + T_TAIL]!;
  t[tj + T_PREV + 1] = t[tj + T_TAIL + 1]!;
  t[tj + T_PREV + 2] = t[tj + T_TAIL + 2]!;
  if (center !== null) {
    // Vector3.applyMatrix4 with the inverse: (M·x)·w, w = 1/(its fourth row·x) = 1/element 15
    const i = inverse,
      c = ii,
      w = i[c + INV_W]!;
    t[tj + T_TAIL] = (i[c]! * nx + i[c + 3]! * ny + i[c + 6]! * nz + i[c + 9]!) * w;
    t[tj + T_TAIL + 1] = (i[c + 1]! * nx + i[c + 4]! * ny + i[c + 7]! * nz + i[c + 10]!) * w;
    t[tj + T_TAIL + 2] = (i[c + 2]! * nx + i[c + 5]! * ny + i[c + 8]! * nz + i[c + 11]!) * w;
  } else {
    t[tj + T_TAIL] = nx;
    t[tj + T_TAIL + 1] = ny;
    t[tj + T_TAIL + 2] = nz;
  }
  // q = q0 · fromUnitVectors(axis, dir((P·L0)⁻¹·tail))
  multiplyAffine(P, 0, s, sj + S_L0, A, 0);
  invert(A, 0, A, 0);
  const w = A[INV_W]!;
  let dx = (A[0]! * nx + A[3]! * ny + A[6]! * nz + A[9]!) * w;
  let dy = (A[1]! * nx + A[4]! * ny + A[7]! * nz + A[10]!) * w;
  let dz = (A[2]! * nx + A[5]! * ny + A[8]! * nz + A[11]!) * w;
  const dl = 1 / (norm(dx, dy, dz) || 1);
  dx *= dl;
  dy *= dl;
  dz *= dl;
  fromUnitVectors(s[sj + S_AXIS]!, s[sj + S_AXIS + 1]!, s[sj + S_AXIS + 2]!, dx, dy, dz);
  const r0x = s[sj + S_Q0]!,
    r0y = s[sj + S_Q0 + 1]!,
    r0z = s[sj + S_Q0 + 2]!,
    r0w = s[sj + S_Q0 + 3]!;
  const bx = Q[0]!,
    by = Q[1]!,
    bz = Q[2]!,
    bw = Q[3]!;
  const qx = r0x * bw + r0w * bx + r0y * bz - r0z * by;
  const qy = r0y * bw + r0w * by + r0z * bx - r0x * bz;
  const qz = r0z * bw + r0w * bz + r0x * by - r0y * bx;
  const qw = r0w * bw - r0x * bx - r0y * by - r0z * bz;
  o[oj] = qx;
  o[oj + 1] = qy;
  o[oj + 2] = qz;
  o[oj + 3] = qw;
  // the bone's quaternion is now this step's (a later fixed step of the same update starts from it)
  p[pj + P_QUATERNION] = qx;
  p[pj + P_QUATERNION + 1] = qy;
  p[pj + P_QUATERNION + 2] = qz;
  p[pj + P_QUATERNION + 3] = qw;
  eulerXyz(qx, qy, qz, qw, o, oj + O_EULER);
  compose(p, pj, qx, qy, qz, qw, o, oj + O_LOCAL);
  multiplyAffine(P, 0, o, oj + O_LOCAL, o, oj + O_WORLD);
  if (s[sj + S_HAS_CHILD]! !== 0) {
    // the child's position after this step, W·c (read live again at the next update; used by a later fixed step of this one)
    const w = oj + O_WORLD,
      cx2 = s[sj + S_CHILD]!,
      cy2 = s[sj + S_CHILD + 1]!,
      cz2 = s[sj + S_CHILD + 2]!;
    t[tj + T_CHILD_WORLD] = o[w]! * cx2 + o[w + 3]! * cy2 + o[w + 6]! * cz2 + o[w + 9]!;
    t[tj + T_CHILD_WORLD + 1] = o[w + 1]! * cx2 + o[w + 4]! * cy2 + o[w + 7]! * cz2 + o[w + 10]!;
    t[tj + T_CHILD_WORLD + 2] = o[w + 2]! * cx2 + o[w + 5]! * cy2 + o[w + 8]! * cz2 + o[w + 11]!;
  }
}

const IDENTITY = Float64Array.of(1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0);

/** V = (vx, vy, vz).transformDirection(m): the linear part applied, normalized (length || 1). */
function direction(m: FloatArray, i: number, vx: number, vy: number, vz: number): void {
  const x = m[i]! * vx + m[i + 3]! * vy + m[i + 6]! * vz;
  const y = m[i + 1]! * vx + m[i + 4]! * vy + m[i + 7]! * vz;
  const z = m[i + 2]! * vx + m[i + 5]! * vy + m[i + 8]! * vz;
  const r = 1 / (norm(x, y, z) || 1); // Vector3.normalize multiplies by 1/length
  V[0] = x * r;
  V[1] = y * r;
  V[2] = z * r;
}

/** V = x + ℓ·(V − x)/|V − x| (Vector3 sub, normalize, multiplyScalar, add). */
function toLength(x: number, y: number, z: number, length: number): void {
  let dx = V[0]! - x,
    dy = V[1]! - y,
    dz = V[2]! - z;
  const r = 1 / (norm(dx, dy, dz) || 1);
  dx *= r;
  dy *= r;
  dz *= r;
  V[0] = dx * length + x;
  V[1] = dy * length + y;
  V[2] = dz * length + z;
}

/**
 * One collider against the tail V (VRMSpringBoneJoint._collision with the shapes'
 * calculateCollision): when it penetrates, the tail is pushed out along the collider's direction
 * and put back at the bone's length. A tail exactly at a sphere's or capsule's centre divides by
 * zero, as three-vrm does.
 */
function collide(cs: FloatArray, c: number, cw: FloatArray, w: number, hit: number, x: number, y: number, z: number, length: number): void {
  const kind = cs[c + C_KIND]!;
  let tx = V[0]! - cw[w]!,
    ty = V[1]! - cw[w + 1]!,
    tz = V[2]! - cw[w + 2]!;
  let distance: number;
  if (kind === KIND_PLANE) {
    const nx = cw[w + 3]!,
      ny = cw[w + 4]!,
      nz = cw[w + 5]!;
    distance = tx * nx + ty * ny + tz * nz - hit;
    tx = nx;
    ty = ny;
    tz = nz;
  } else {
    if (kind === KIND_CAPSULE) {
      const bx = cw[w + 3]!,
        by = cw[w + 4]!,
        bz = cw[w + 5]!,
        lengthSq = cw[w + 6]!;
      const dot = bx * tx + by * ty + bz * tz;
      if (dot <= 0) {
        // the head's sphere
      } else if (lengthSq <= dot) {
        tx -= bx;
        ty -= by;
        tz -= bz;
      } else {
        const f = dot / lengthSq;
        tx -= bx * f;
        ty -= by * f;
        tz -= bz * f;
      }
    }
    const l = norm(tx, ty, tz);
    const radius = cs[c + C_RADIUS]!;
    const inside = cs[c + C_INSIDE]! !== 0;
    distance = inside ? radius - hit - l : l - hit - radius;
    if (distance < 0) {
      const f = inside ? -1 / l : 1 / l;
      tx *= f;
      ty *= f;
      tz *= f;
    }
  }
  if (distance < 0) {
    V[0] = V[0]! + tx * -distance;
    V[1] = V[1]! + ty * -distance;
    V[2] = V[2]! + tz * -distance;
    const dx = V[0]! - x,
      dy = V[1]! - y,
      dz = V[2]! - z;
    const f = length / norm(dx, dy, dz);
    V[0] = dx * f + x;
    V[1] = dy * f + y;
    V[2] = dz * f + z;
  }
}

/**
 * The colliders three-vrm moves after joint j (below its bone: their link slots from it, the
 * collider's own local matrix last) in world space from its new matrixWorld.
 */
function ownedColliders(a: SpringBoneArrays, e: FloatArray, j: number): void {
  const start = a.setup[SETUP * j + S_OWNED_START]!,
    end = start + a.setup[SETUP * j + S_OWNED_COUNT]!;
  for (let k = start; k < end; k++) {
    const c = COLLIDER * a.colliderList[k]!;
    const slot = a.colliders[c + C_LINK_SLOT]!,
      count = a.colliders[c + C_LINK_COUNT]!;
    multiplyAffine(a.out, OUT * j + O_WORLD, e, EXT * slot, M, 0);
    for (let i = 1; i < count; i++) {
      multiplyAffine(M, 0, e, EXT * (slot + i), L, 0);
      M.set(L);
    }
    colliderToWorld(a.colliders, c, M, 0, a.colliderWorld, COLLIDER_WORLD * a.colliderList[k]!);
  }
}

/**
 * A collider in world space as the step starts: from its matrixWorld (a collider of three-vrm's
 * ancestor pass), or from its colliderMatrix as it stood (C_LIVE: below a joint bone, until a joint
 * on that bone moves it), whose translation is already the shape's offset.
 */
function colliderAtStart(cs: FloatArray, c: number, e: FloatArray, cw: FloatArray, w: number): void {
  const m = EXT * cs[c + C_SLOT]!;
  if (cs[c + C_LIVE]! === 0) {
    colliderToWorld(cs, c, e, m, cw, w);
    return;
  }
  cw[w + W_POSITION] = e[m + M_T]!;
  cw[w + W_POSITION + 1] = e[m + M_T + 1]!;
  cw[w + W_POSITION + 2] = e[m + M_T + 2]!;
  shapeToWorld(cs, c, e, m, cw, w);
}

/**
 * A collider's shape in world space for this step, from its object's matrixWorld M (at e[m…]):
 * position M·offset; capsule axis M·tail − M·offset; plane normal dir(normalMatrix(M)·n).
 */
export function colliderToWorld(cs: FloatArray, c: number, e: FloatArray, m: number, cw: FloatArray, w: number): void {
  const ox = cs[c + C_OFFSET]!,
    oy = cs[c + C_OFFSET + 1]!,
    oz = cs[c + C_OFFSET + 2]!;
  cw[w + W_POSITION] = e[m]! * ox + e[m + 3]! * oy + e[m + 6]! * oz + e[m + 9]!;
  cw[w + W_POSITION + 1] = e[m + 1]! * ox + e[m + 4]! * oy + e[m + 7]! * oz + e[m + 10]!;
  cw[w + W_POSITION + 2] = e[m + 2]! * ox + e[m + 5]! * oy + e[m + 8]! * oz + e[m + 11]!;
  shapeToWorld(cs, c, e, m, cw, w);
}

/**
 * The capsule axis or plane normal (and the axis's squared length) of collider c in world space,
 * from its matrix's linear part at e[m…] and its world position, already at cw[w…].
 */
export function shapeToWorld(cs: FloatArray, c: number, e: FloatArray, m: number, cw: FloatArray, w: number): void {
  const ox = cs[c + C_OFFSET]!,
    oy = cs[c + C_OFFSET + 1]!,
    oz = cs[c + C_OFFSET + 2]!;
  const kind = cs[c + C_KIND]!;
  const vx = cs[c + C_VECTOR]!,
    vy = cs[c + C_VECTOR + 1]!,
    vz = cs[c + C_VECTOR + 2]!;
  if (kind === KIND_CAPSULE) {
    // as three-vrm: (tail − offset) through the collider matrix (whose translation is M·offset), minus M·offset
    const dx = vx - ox,
      dy = vy - oy,
      dz = vz - oz;
    const bx = e[m]! * dx + e[m + 3]! * dy + e[m + 6]! * dz + cw[w]! - cw[w]!;
    const by = e[m + 1]! * dx + e[m + 4]! * dy + e[m + 7]! * dz + cw[w + 1]! - cw[w + 1]!;
    const bz = e[m + 2]! * dx + e[m + 5]! * dy + e[m + 8]! * dz + cw[w + 2]! - cw[w + 2]!;
    cw[w + 3] = bx;
    cw[w + 4] = by;
    cw[w + 5] = bz;
    cw[w + 6] = bx * bx + by * by + bz * bz;
  } else if (kind === KIND_PLANE) {
    // the normal matrix is the inverse transpose of the linear part: its rows are the inverse's columns
    invert3(e, m, A);
    const nx = A[0]! * vx + A[1]! * vy + A[2]! * vz;
    const ny = A[3]! * vx + A[4]! * vy + A[5]! * vz;
    const nz = A[6]! * vx + A[7]! * vy + A[8]! * vz;
    // applyNormalMatrix normalizes, and three-vrm normalizes again
    const r = 1 / (norm(nx, ny, nz) || 1);
    const ux = nx * r,
      uy = ny * r,
      uz = nz * r;
    const r2 = 1 / (norm(ux, uy, uz) || 1);
    cw[w + 3] = ux * r2;
    cw[w + 4] = uy * r2;
    cw[w + 5] = uz * r2;
    cw[w + 6] = 0;
  } else {
    cw[w + 3] = 0;
    cw[w + 4] = 0;
    cw[w + 5] = 0;
    cw[w + 6] = 0;
  }
  cw[w + 7] = 0;
}

/** out[o…] = a[i…]·b[k…] (affine 3×4 each; out may not be a or b). */
function multiplyAffine(a: FloatArray, i: number, b: FloatArray, k: number, out: FloatArray, o: number): void {
  const a0 = a[i]!,
    a1 = a[i + 1]!,
    a2 = a[i + 2]!,
    a3 = a[i + 3]!,
    a4 = a[i + 4]!,
    a5 = a[i + 5]!,
    a6 = a[i + 6]!,
    a7 = a[i + 7]!,
    a8 = a[i + 8]!;
  for (let col = 0; col < 4; col++) {
    const bx = b[k + 3 * col]!,
      by = b[k + 3 * col + 1]!,
      bz = b[k + 3 * col + 2]!;
    const t = col === 3 ? 1 : 0;
    out[o + 3 * col] = a0 * bx + a3 * by + a6 * bz + t * a[i + 9]!;
    out[o + 3 * col + 1] = a1 * bx + a4 * by + a7 * bz + t * a[i + 10]!;
    out[o + 3 * col + 2] = a2 * bx + a5 * by + a8 * bz + t * a[i + 11]!;
  }
}

/**
 * out[o…] = m[i…]⁻¹ as three's Matrix4.invert computes it for an affine matrix (its products with
 * the fourth row's zeros dropped: they add ±0), and out[o + 12] = 1/element 15 of that inverse,
 * the w of Vector3.applyMatrix4 (element 15 need not round to 1). out may be m. A singular matrix
 * gives zeros and w = ∞, as three's does.
 */
function invert(m: FloatArray, i: number, out: FloatArray, o: number): void {
  const n11 = m[i]!,
    n21 = m[i + 1]!,
    n31 = m[i + 2]!,
    n12 = m[i + 3]!,
    n22 = m[i + 4]!,
    n32 = m[i + 5]!,
    n13 = m[i + 6]!,
    n23 = m[i + 7]!,
    n33 = m[i + 8]!,
    n14 = m[i + 9]!,
    n24 = m[i + 10]!,
    n34 = m[i + 11]!;
  const t1 = n11 * n22 - n21 * n12,
    t2 = n11 * n32 - n31 * n12,
    t4 = n21 * n32 - n31 * n22,
    t7 = n13 * n24 - n23 * n14,
    t8 = n13 * n34 - n33 * n14,
    t10 = n23 * n34 - n33 * n24;
  const det = t1 * n33 - t2 * n23 + t4 * n13;
  if (det === 0) {
    for (let k = 0; k < 12; k++) out[o + k] = 0;
    out[o + 12] = Number.POSITIVE_INFINITY;
    return;
  }
  const s = 1 / det;
  out[o] = (n22 * n33 - n32 * n23) * s;
  out[o + 1] = (n31 * n23 - n21 * n33) * s;
  out[o + 2] = t4 * s;
  out[o + 3] = (n32 * n13 - n12 * n33) * s;
  out[o + 4] = (n11 * n33 - n31 * n13) * s;
  out[o + 5] = -t2 * s;
  out[o + 6] = (n12 * n23 - n22 * n13) * s;
  out[o + 7] = (n21 * n13 - n11 * n23) * s;
  out[o + 8] = t1 * s;
  out[o + 9] = (n22 * t8 - n12 * t10 - n32 * t7) * s;
  out[o + 10] = (n11 * t10 - n21 * t8 + n31 * t7) * s;
  out[o + 11] = (n24 * t2 - n14 * t4 - n34 * t1) * s;
  out[o + 12] = 1 / ((n13 * t4 - n23 * t2 + n33 * t1) * s);
}

/** out[0…8] = the inverse of m[i…]'s linear part as three's Matrix3.invert computes it (zeros when singular). */
function invert3(m: FloatArray, i: number, out: FloatArray): void {
  const n11 = m[i]!,
    n21 = m[i + 1]!,
    n31 = m[i + 2]!,
    n12 = m[i + 3]!,
    n22 = m[i + 4]!,
    n32 = m[i + 5]!,
    n13 = m[i + 6]!,
    n23 = m[i + 7]!,
    n33 = m[i + 8]!;
  const t11 = n33 * n22 - n32 * n23,
    t12 = n32 * n13 - n33 * n12,
    t13 = n23 * n12 - n22 * n13;
  const det = n11 * t11 + n21 * t12 + n31 * t13;
  const s = det === 0 ? 0 : 1 / det;
  out[0] = t11 * s;
  out[1] = (n31 * n23 - n33 * n21) * s;
  out[2] = (n32 * n21 - n31 * n22) * s;
  out[3] = t12 * s;
  out[4] = (n33 * n11 - n31 * n13) * s;
  out[5] = (n31 * n12 - n32 * n11) * s;
  out[6] = t13 * s;
  out[7] = (n21 * n13 - n23 * n11) * s;
  out[8] = (n22 * n11 - n21 * n12) * s;
}

/** Q = Quaternion.setFromUnitVectors(from, to) (three.js r187, normalized). */
function fromUnitVectors(fx: number, fy: number, fz: number, tx: number, ty: number, tz: number): void {
  let r = fx * tx + fy * ty + fz * tz + 1;
  let x: number, y: number, z: number;
  if (r < 1e-8) {
    r = 0;
    if (Math.abs(fx) > Math.abs(fz)) {
      x = -fy;
      y = fx;
      z = 0;
    } else {
      x = 0;
      y = -fz;
      z = fy;
    }
  } else {
    x = fy * tz - fz * ty;
    y = fz * tx - fx * tz;
    z = fx * ty - fy * tx;
  }
  const l = Math.sqrt(x * x + y * y + z * z + r * r);
  if (l === 0) {
    Q[0] = 0;
    Q[1] = 0;
    Q[2] = 0;
    Q[3] = 1;
  } else {
    const k = 1 / l;
    Q[0] = x * k;
    Q[1] = y * k;
    Q[2] = z * k;
    Q[3] = r * k;
  }
}

/** out[o…] = Object3D.updateMatrix of the joint bone whose pose is at p[pj…], with quaternion q: compose(position, q, scale), then the pivot. */
function compose(p: FloatArray, pj: number, x: number, y: number, z: number, w: number, out: FloatArray, o: number): void {
  const sx = p[pj + P_SCALE]!,
    sy = p[pj + P_SCALE + 1]!,
    sz = p[pj + P_SCALE + 2]!;
  const x2 = x + x,
    y2 = y + y,
    z2 = z + z;
  const xx = x * x2,
    xy = x * y2,
    xz = x * z2,
    yy = y * y2,
    yz = y * z2,
    zz = z * z2,
    wx = w * x2,
    wy = w * y2,
    wz = w * z2;
  out[o] = (1 - (yy + zz)) * sx;
  out[o + 1] = (xy + wz) * sx;
  out[o + 2] = (xz - wy) * sx;
  out[o + 3] = (xy - wz) * sy;
  out[o + 4] = (1 - (xx + zz)) * sy;
  out[o + 5] = (yz + wx) * sy;
  out[o + 6] = (xz + wy) * sz;
  out[o + 7] = (yz - wx) * sz;
  out[o + 8] = (1 - (xx + yy)) * sz;
  out[o + 9] = p[pj + P_POSITION]!;
  out[o + 10] = p[pj + P_POSITION + 1]!;
  out[o + 11] = p[pj + P_POSITION + 2]!;
  if (p[pj + P_HAS_PIVOT]! !== 0) {
    // te[12] += px − te[0]·px − te[4]·py − te[8]·pz, and likewise (three's order)
    const px = p[pj + P_PIVOT]!,
      py = p[pj + P_PIVOT + 1]!,
      pz = p[pj + P_PIVOT + 2]!;
    out[o + 9] = out[o + 9]! + (px - out[o]! * px - out[o + 3]! * py - out[o + 6]! * pz);
    out[o + 10] = out[o + 10]! + (py - out[o + 1]! * px - out[o + 4]! * py - out[o + 7]! * pz);
    out[o + 11] = out[o + 11]! + (pz - out[o + 2]! * px - out[o + 5]! * py - out[o + 8]! * pz);
  }
}

/** |(x, y, z)| as three's Vector3.length (Math.hypot rounds differently). */
function norm(x: number, y: number, z: number): number {
  return Math.sqrt(x * x + y * y + z * z);
}
