/**
 * Float64 reference (and JS backend) of forward kinematics and skinning matrices over many
 * skeletons sharing one topology, as three.js computes them for a SkinnedMesh, written from three's
 * source (not from the kernel, assembly/kernels/skeleton.ts):
 *   Object3D.updateMatrix:       local = Matrix4.compose(position, quaternion, scale)   (T·R·S)
 *   Object3D.updateMatrixWorld:  world = parent.matrixWorld · local  (Matrix4.multiplyMatrices)
 *   Skeleton.update:             boneMatrices[i] = bones[i].matrixWorld · boneInverses[i]
 * Matrices are column-major 4×4 (element [col·4 + row]), as three's Matrix4.elements.
 */
import type { FloatArray } from './float-array.js';

/**
 * The arrays of one call. Bone k (processing order, parents first) has parent parents[k] < k, or −1
 * for a bone whose parent is the character's root matrix (roots: 16 floats per character). Its local
 * transform for character c is source element c·sourceStride + slots[k] of positions (3), rotations
 * (x, y, z, w: 4) and scales (3; null: restScales[k] for every character), float32 or float64 (all
 * three alike), or, when slots[k] < 0, bone k's rest transform (restPositions, restRotations,
 * restScales). The rest transforms, the roots and the inverse bind matrices are float64. Its world matrix goes to
 * world[c·worldStride + 16·targets[k] …] and its skinning matrix (world · inverseBind[k]) to
 * skin[c·skinStride + 16·targets[k] …]; world or skin null: not written.
 *
 * The root matrix of character c is roots[16·c …] (the matrixWorld of the object above the chain),
 * then each of `levels` objects of the chain below it, as Object3D.updateWorldMatrix computes them:
 * level l of character c is chain[10·(c·levels + l) …], position, quaternion, scale, level 0 the
 * outermost. `parentless`: no object above the chain; the first matrix of the chain (level 0, or
 * the root bones' when levels is 0) is its own world matrix (three's matrixWorld.copy(matrix)).
 */
/** @group Skeletons */
export interface SkeletonArrays {
  parents: Int32Array;
  slots: Int32Array;
  targets: Int32Array;
  positions: FloatArray;
  rotations: FloatArray;
  scales: FloatArray | null;
  sourceStride: number;
  restPositions: Float64Array;
  restRotations: Float64Array;
  restScales: Float64Array;
  roots: Float64Array;
  chain: Float64Array | null;
  levels: number;
  parentless: boolean;
  inverseBind: Float64Array | null;
  world: FloatArray | null;
  worldStride: number;
  skin: FloatArray | null;
  skinStride: number;
}

/** te = compose(t, q, s): three's Matrix4.compose. */
function compose(te: Float64Array, t: FloatArray, ti: number, q: FloatArray, qi: number, s: FloatArray, si: number): void {
  const x = q[qi]!,
    y = q[qi + 1]!,
    z = q[qi + 2]!,
    w = q[qi + 3]!;
  const x2 = x + x,
    y2 = y + y,
    z2 = z + z;
  const xx = x * x2,
    xy = x * y2,
    xz = x * z2;
  const yy = y * y2,
    yz = y * z2,
    zz = z * z2;
  const wx = w * x2,
    wy = w * y2,
    wz = w * z2;
  const sx = s[si]!,
    sy = s[si + 1]!,
    sz = s[si + 2]!;
  te[0] = (1 - (yy + zz)) * sx;
  te[1] = (xy + wz) * sx;
  te[2] = (xz - wy) * sx;
  te[3] = 0;
  te[4] = (xy - wz) * sy;
  te[5] = (1 - (xx + zz)) * sy;
  te[6] = (yz + wx) * sy;
  te[7] = 0;
  te[8] = (xz + wy) * sz;
  te[9] = (yz - wx) * sz;
  te[10] = (1 - (xx + yy)) * sz;
  te[11] = 0;
  te[12] = t[ti]!;
  te[13] = t[ti + 1]!;
  te[14] = t[ti + 2]!;
  te[15] = 1;
}

/** out[o …] = a[ai …] · b[bi …], 4×4 column-major (three's multiplyMatrices: four products, added left to right). */
function multiply(out: Float64Array | FloatArray, o: number, a: ArrayLike<number>, ai: number, b: ArrayLike<number>, bi: number): void {
  for (let col = 0; col < 4; col++) {
    const j = bi + col * 4;
    for (let row = 0; row < 4; row++) {
      const i = ai + row;
      out[o + col * 4 + row] = a[i]! * b[j]! + a[i + 4]! * b[j + 1]! + a[i + 8]! * b[j + 2]! + a[i + 12]! * b[j + 3]!;
    }
  }
}

/**
 * Every bone of `count` characters: world matrices and skinning matrices (see SkeletonArrays).
 * @example
 * ```ts
 * import { forwardKinematics } from 'spring-solver/reference';
 * const identity = Float64Array.of(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1);
 * const world = new Float32Array(16);
 * forwardKinematics(
 *   {
 *     parents: Int32Array.of(-1), slots: Int32Array.of(0), targets: Int32Array.of(0),
 *     positions: Float32Array.of(1, 2, 3), rotations: Float32Array.of(0, 0, 0, 1), scales: null, sourceStride: 1,
 *     restPositions: new Float64Array(3), restRotations: new Float64Array(4), restScales: Float64Array.of(1, 1, 1),
 *     roots: identity, chain: null, levels: 0, parentless: false,
 *     inverseBind: null, world, worldStride: 16, skin: null, skinStride: 16,
 *   },
 *   1, // one character
 *   1, // of one bone
 * );
 * console.log(world[12], world[13], world[14]); // 1 2 3
 * ```
 * @group Skeletons
 */
export function forwardKinematics(a: SkeletonArrays, count: number, bones: number): void {
  const world = new Float64Array(16 * bones);
  const local = new Float64Array(16);
  const root = new Float64Array(16);
  const skin = new Float64Array(16);
  for (let c = 0; c < count; c++) {
    // the root matrix: the top's matrixWorld, then each level of the chain (none: parentless, no chain)
    let hasRoot = !a.parentless;
    if (hasRoot) root.set(a.roots.subarray(16 * c, 16 * c + 16));
    for (let l = 0; l < a.levels; l++) {
      const o = 10 * (c * a.levels + l);
      const chain = a.chain!;
      compose(local, chain, o, chain, o + 3, chain, o + 7);
      if (hasRoot) multiply(skin, 0, root, 0, local, 0); // (skin: a spare matrix here)
      root.set(hasRoot ? skin : local);
      hasRoot = true;
    }
    for (let k = 0; k < bones; k++) {
      const slot = a.slots[k]!;
      const e = c * a.sourceStride + slot;
      const scales = a.scales ?? a.restScales;
      const si = a.scales && slot >= 0 ? 3 * e : 3 * k;
      if (slot >= 0) compose(local, a.positions, 3 * e, a.rotations, 4 * e, scales, si);
      else compose(local, a.restPositions, 3 * k, a.restRotations, 4 * k, a.restScales, 3 * k);
      const parent = a.parents[k]!;
      if (parent >= 0) multiply(world, 16 * k, world, 16 * parent, local, 0);
      else if (hasRoot) multiply(world, 16 * k, root, 0, local, 0);
      else world.set(local, 16 * k);
      const target = 16 * a.targets[k]!;
      if (a.world) a.world.set(world.subarray(16 * k, 16 * k + 16), c * a.worldStride + target);
      if (a.skin && a.inverseBind) {
        multiply(skin, 0, world, 16 * k, a.inverseBind, 16 * k);
        a.skin.set(skin, c * a.skinStride + target);
      }
    }
  }
}

/** Index of the first NaN or infinite element of `array`, or −1. */
export function firstNonFinite(array: FloatArray): number {
  for (let i = 0; i < array.length; i++) if (!Number.isFinite(array[i])) return i;
  return -1;
}
