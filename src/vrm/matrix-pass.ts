/**
 * The objects around the spring chains updated as three's `updateWorldMatrix(false, false)`
 * leaves them (three.js r187: updateMatrix when matrixAutoUpdate, pivot included; the world
 * matrix when matrixWorldNeedsUpdate and matrixWorldAutoUpdate; a VRMSpringBoneCollider's
 * colliderMatrix), with the same float64 operations, but from a list made once: each object's
 * parent world matrix comes from this pass's own copy (or the kernel's output for a joint bone),
 * not from the parent's elements (a center's are behind three-vrm's Proxy, slow to read), and
 * each object's arrays are looked up once. three-vrm's manager does this for the ancestors of the
 * chains before its joints, and for the joints' other descendants after each joint.
 */
import type { Object3D, Quaternion, Vector3 } from 'three';
import { EXT, OUT, O_WORLD } from '../reference/spring-bone-layout.js';

/**
 * An object of a pass, with its parent, and what the pass does with it: 'update' it as
 * updateWorldMatrix(false, false) does; 'read' its matrixWorld as it stands; read its
 * 'collider'Matrix (a VRMSpringBoneCollider's) as it stands.
 */
export interface PassEntry {
  object: Object3D;
  parent: ParentRef;
  mode: 'update' | 'read' | 'collider';
}

/** What a pass reads of an object: its transform and flags, and where it writes. */
interface Entry {
  object: Object3D;
  mode: PassEntry['mode'];
  position: Vector3;
  quaternion: Quaternion;
  scale: Vector3;
  matrix: number[];
  matrixWorld: number[];
  /**
   * three-vrm's inverse cache of a center's matrixWorld (Matrix4InverseCache, in userData): its
   * elements are behind a Proxy whose every write marks the inverse stale (a few µs a matrix), so
   * the pass writes the array behind it and marks it once. Null for other objects.
   */
  inverseCache: { _shouldUpdateInverse: boolean } | null;
  /** A VRMSpringBoneCollider's colliderMatrix elements and its shape's offset, or null. */
  collider: { elements: number[]; offset: { x: number; y: number; z: number } | undefined } | null;
}

/** A parent: an earlier object of the pass (≥ 0), a joint of the kernel's output (−2 − joint), or none (−1). */
export type ParentRef = number;
export const NO_PARENT = -1;
export const jointParent = (joint: number): ParentRef => -2 - joint;

export class MatrixPass {
  private readonly entries: Entry[];
  private readonly parents: readonly ParentRef[];
  /** Each object's world matrix (or colliderMatrix) as this pass left it (affine 3×4, EXT floats an object). */
  readonly world: Float64Array;

  constructor(list: readonly PassEntry[]) {
    this.parents = list.map((p) => p.parent);
    this.entries = list.map(({ object, mode }) => {
      const shape = (object as { shape?: { offset?: { x: number; y: number; z: number } } }).shape;
      const colliderMatrix = (object as { colliderMatrix?: { elements: number[] } }).colliderMatrix;
      const cache = (object.userData as { inverseCacheProxy?: InverseCache }).inverseCacheProxy;
      const direct = cache?.matrix === object.matrixWorld && Array.isArray(cache._originalElements) ? cache : null;
      return {
        object,
        mode,
        position: object.position,
        quaternion: object.quaternion,
        scale: object.scale,
        matrix: object.matrix.elements,
        matrixWorld: direct ? direct._originalElements! : object.matrixWorld.elements,
        inverseCache: direct,
        collider: colliderMatrix && shape ? { elements: colliderMatrix.elements, offset: shape.offset } : null,
      };
    });
    this.world = new Float64Array(EXT * list.length);
  }

  get objects(): Object3D[] {
    return this.entries.map((e) => e.object);
  }

  /** Runs the pass over its entries [from, to); `out` is the kernel's output (for parents that are joint bones). */
  run(out: Float64Array, from = 0, to = this.entries.length): void {
    const world = this.world;
    const entries = this.entries;
    for (let i = from; i < to; i++) {
      const e = entries[i]!;
      const object = e.object;
      const m = e.matrix;
      const w = EXT * i;
      if (e.mode !== 'update') {
        // as the app left it: the matrixWorld, or a collider's colliderMatrix
        const source = e.mode === 'read' ? e.matrixWorld : e.collider!.elements;
        for (let k = 0; k < EXT; k++) world[w + k] = source[AFFINE[k]!]!;
        continue;
      }
      if (object.matrixAutoUpdate) {
        compose(e, m);
        object.matrixWorldNeedsUpdate = true;
      }
      if (object.matrixWorldNeedsUpdate) {
        const mw = e.matrixWorld;
        if (object.matrixWorldAutoUpdate === true) {
          const p = this.parents[i]!;
          if (p === NO_PARENT) {
            for (let k = 0; k < 16; k++) mw[k] = m[k]!; // matrixWorld.copy(matrix)
            for (let k = 0; k < EXT; k++) world[w + k] = m[AFFINE[k]!]!;
          } else if (p >= 0) multiply(world, EXT * p, m, mw, world, w);
          else multiply(out, OUT * (-2 - p) + O_WORLD, m, mw, world, w);
          if (e.inverseCache !== null) e.inverseCache._shouldUpdateInverse = true;
        } else {
          for (let k = 0; k < EXT; k++) world[w + k] = mw[AFFINE[k]!]!;
        }
        object.matrixWorldNeedsUpdate = false;
      } else {
        const mw = e.matrixWorld;
        for (let k = 0; k < EXT; k++) world[w + k] = mw[AFFINE[k]!]!;
      }
      if (e.collider !== null) colliderMatrix(e.matrixWorld, e.collider.elements, e.collider.offset);
    }
  }
}

/** three-vrm 3.5's Matrix4InverseCache, as far as the pass uses it. */
interface InverseCache {
  matrix?: unknown;
  _originalElements?: number[];
  _shouldUpdateInverse: boolean;
}

const AFFINE = [0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14] as const;

/** Matrix4.compose(position, quaternion, scale) and Object3D.updateMatrix's pivot, into te. */
function compose(e: Entry, te: number[]): void {
  const q = e.quaternion as unknown as { _x: number; _y: number; _z: number; _w: number };
  const x = q._x,
    y = q._y,
    z = q._z,
    w = q._w;
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
  const s = e.scale,
    p = e.position;
  const sx = s.x,
    sy = s.y,
    sz = s.z;
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
  te[12] = p.x;
  te[13] = p.y;
  te[14] = p.z;
  te[15] = 1;
  const pivot = (e.object as { pivot?: { x: number; y: number; z: number } | null }).pivot;
  if (pivot) {
    const px = pivot.x,
      py = pivot.y,
      pz = pivot.z;
    te[12] += px - te[0] * px - te[4] * py - te[8] * pz;
    te[13] += py - te[1] * px - te[5] * py - te[9] * pz;
    te[14] += pz - te[2] * px - te[6] * py - te[10] * pz;
  }
}

/**
 * matrixWorld = parent · matrix as Matrix4.multiplyMatrices (its products with the parent's
 * fourth row, (0, 0, 0, 1), dropped: they add ±0), into the elements `te` and this pass's copy.
 */
function multiply(a: Float64Array, i: number, m: number[], te: number[], world: Float64Array, w: number): void {
  const a11 = a[i]!,
    a21 = a[i + 1]!,
    a31 = a[i + 2]!,
    a12 = a[i + 3]!,
    a22 = a[i + 4]!,
    a32 = a[i + 5]!,
    a13 = a[i + 6]!,
    a23 = a[i + 7]!,
    a33 = a[i + 8]!,
    a14 = a[i + 9]!,
    a24 = a[i + 10]!,
    a34 = a[i + 11]!;
  for (let c = 0; c < 4; c++) {
    const b1 = m[4 * c]!,
      b2 = m[4 * c + 1]!,
      b3 = m[4 * c + 2]!,
      b4 = m[4 * c + 3]!;
    const x = a11 * b1 + a12 * b2 + a13 * b3 + a14 * b4;
    const y = a21 * b1 + a22 * b2 + a23 * b3 + a24 * b4;
    const z = a31 * b1 + a32 * b2 + a33 * b3 + a34 * b4;
    te[4 * c] = x;
    te[4 * c + 1] = y;
    te[4 * c + 2] = z;
    te[4 * c + 3] = b4;
    world[w + 3 * c] = x;
    world[w + 3 * c + 1] = y;
    world[w + 3 * c + 2] = z;
  }
}

/** three-vrm's updateColliderMatrix: the matrixWorld with its translation moved to the shape's offset. */
function colliderMatrix(me: number[], te: number[], offset: { x: number; y: number; z: number } | undefined): void {
  for (let k = 0; k < 16; k++) te[k] = me[k]!;
  if (offset) {
    te[12] = me[0]! * offset.x + me[4]! * offset.y + me[8]! * offset.z + me[12]!;
    te[13] = me[1]! * offset.x + me[5]! * offset.y + me[9]! * offset.z + me[13]!;
    te[14] = me[2]! * offset.x + me[6]! * offset.y + me[10]! * offset.z + me[14]!;
  }
}
