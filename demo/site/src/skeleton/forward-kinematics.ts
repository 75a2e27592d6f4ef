/**
 * Forward kinematics of one character: world positions of its bones and End Sites from local
 * rotations `[x, y, z, w]` and local positions, child-to-parent (world = parent ⊗ local).
 */
import type { Clip } from './clip.js';

export interface WorldPose {
  /** 3 floats per bone */
  bones: Float32Array;
  /** 3 floats per End Site */
  endSites: Float32Array;
}

export function createWorldPose(clip: Clip): WorldPose {
  return { bones: new Float32Array(3 * clip.bones), endSites: new Float32Array(clip.endSiteOffsets.length) };
}

/**
 * Fills `out` for the character whose local pose starts at bone `first` of `rotations` (4 floats a
 * bone) and `positions` (3 floats a bone), placed at `origin` (x, z on the ground).
 */
export function forwardKinematics(
  clip: Clip,
  rotations: Float32Array,
  positions: Float32Array,
  first: number,
  originX: number,
  originZ: number,
  out: WorldPose,
): void {
  const worldRotations = scratchRotations(clip.bones);
  for (let b = 0; b < clip.bones; b++) {
    const p = clip.parents[b]!;
    const r = 4 * (first + b);
    const l = 3 * (first + b);
    if (p < 0) {
      worldRotations.set(rotations.subarray(r, r + 4), 4 * b);
      out.bones[3 * b] = positions[l]! + originX;
      out.bones[3 * b + 1] = positions[l + 1]!;
      out.bones[3 * b + 2] = positions[l + 2]! + originZ;
      continue;
    }
    multiply(worldRotations, 4 * p, rotations, r, worldRotations, 4 * b);
    rotateInto(worldRotations, 4 * p, positions[l]!, positions[l + 1]!, positions[l + 2]!, out.bones, 3 * p, out.bones, 3 * b);
  }
  for (let e = 0; e < clip.endSiteParents.length; e++) {
    const p = clip.endSiteParents[e]!;
    const o = clip.endSiteOffsets;
    rotateInto(worldRotations, 4 * p, o[3 * e]!, o[3 * e + 1]!, o[3 * e + 2]!, out.bones, 3 * p, out.endSites, 3 * e);
  }
}

let scratch = new Float32Array(0);
function scratchRotations(bones: number): Float32Array {
  if (scratch.length < 4 * bones) scratch = new Float32Array(4 * bones);
  return scratch;
}

/** out[o…] = a[i…] ⊗ b[j…] (Hamilton product, [x, y, z, w]); out may be a. */
function multiply(a: Float32Array, i: number, b: Float32Array, j: number, out: Float32Array, o: number): void {
  const [ax, ay, az, aw] = [a[i]!, a[i + 1]!, a[i + 2]!, a[i + 3]!];
  const [bx, by, bz, bw] = [b[j]!, b[j + 1]!, b[j + 2]!, b[j + 3]!];
  out[o] = aw * bx + ax * bw + ay * bz - az * by;
  out[o + 1] = aw * by - ax * bz + ay * bw + az * bx;
  out[o + 2] = aw * bz + ax * by - ay * bx + az * bw;
  out[o + 3] = aw * bw - ax * bx - ay * by - az * bz;
}

/** out[o…] = base[k…] + rotate(q[i…], (x, y, z)). */
function rotateInto(
  q: Float32Array,
  i: number,
  x: number,
  y: number,
  z: number,
  base: Float32Array,
  k: number,
  out: Float32Array,
  o: number,
): void {
  const [qx, qy, qz, qw] = [q[i]!, q[i + 1]!, q[i + 2]!, q[i + 3]!];
  // v + 2w(u × v) + 2u × (u × v), u = (qx, qy, qz)
  const tx = 2 * (qy * z - qz * y);
  const ty = 2 * (qz * x - qx * z);
  const tz = 2 * (qx * y - qy * x);
  out[o] = base[k]! + x + qw * tx + (qy * tz - qz * ty);
  out[o + 1] = base[k + 1]! + y + qw * ty + (qz * tx - qx * tz);
  out[o + 2] = base[k + 2]! + z + qw * tz + (qx * ty - qy * tx);
}
