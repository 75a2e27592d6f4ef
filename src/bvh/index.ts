/**
 * A small BVH (Biovision Hierarchy) parser plus helpers that turn its channels into local joint
 * rotations/positions and finite-difference velocities. Importable as `spring-solver/bvh`.
 *
 * Conventions:
 * - joints are numbered in file order (depth first), the root(s) have parent -1; "End Site"
 *   blocks are not joints (their parent and offset are kept separately);
 * - rotation channels are Euler angles in degrees, composed in the order they are listed:
 *   `CHANNELS 3 Zrotation Yrotation Xrotation` means the local rotation matrix is `Rz · Ry · Rx`
 *   (column vectors, child-to-parent), i.e. the quaternion `qz ⊗ qy ⊗ qx`; any order works;
 * - quaternions are `[x, y, z, w]` (three.js), Hamilton product;
 * - a joint's local position is its OFFSET, with the components that have an X/Y/Zposition channel
 *   replaced by the channel value of the frame;
 * - angular velocities are in the parent's frame (the frame the local rotation maps into),
 *   i.e. `dq/dt = ½ ω ⊗ q`, in rad/s.
 *
 * @module spring-solver/bvh
 */
import { abs, fromScaledAngleAxis, inv, mul, normalize, toScaledAngleAxis } from '../reference/quat.js';

/**
 * Parsed BVH file. Frame-major layouts: value of frame `f`, joint `j` is at `(f * joints + j) * stride`.
 * @group Parsing
 */
export interface Bvh {
  /** Joint names in file order. */
  names: string[];
  /** Parent joint index per joint, -1 for a root. */
  parents: Int32Array;
  /** OFFSET per joint, 3 floats each. */
  offsets: Float32Array;
  /** Seconds per frame ("Frame Time:"). */
  frameTime: number;
  /** Number of frames ("Frames:"). */
  frameCount: number;
  /** Channels per frame (sum of all joints' CHANNELS counts). */
  channelCount: number;
  /** Raw channel values, frameCount × channelCount, in file order. */
  channels: Float32Array;
  /** Index of each joint's first channel within a frame. */
  channelStart: Int32Array;
  /** Each joint's channel names in file order (e.g. `['Zrotation', 'Yrotation', 'Xrotation']`). */
  channelNames: string[][];
  /** Parent joint of each End Site. */
  endSiteParents: Int32Array;
  /** OFFSET of each End Site, 3 floats each. */
  endSiteOffsets: Float32Array;
}

const CHANNEL_TYPES = ['Xposition', 'Yposition', 'Zposition', 'Xrotation', 'Yrotation', 'Zrotation'];

/**
 * Parses BVH text. Throws an `Error` describing the first problem found (unknown keyword,
 * unbalanced braces, bad channel name, missing or non-numeric motion values).
 * Joint names must be single tokens (no spaces).
 * @example
 * ```ts
 * import { readFileSync } from 'node:fs';
 * import { parseBvh } from 'spring-solver/bvh';
 * const bvh = parseBvh(readFileSync('data/pirouette.bvh', 'utf8'));
 * console.log(bvh.names.length, 'joints,', bvh.frameCount, 'frames of', bvh.frameTime, 's');
 * ```
 * @group Parsing
 */
export function parseBvh(text: string): Bvh {
  const tokens = text.split(/\s+/).filter((t) => t.length > 0);
  let p = 0;
  const next = (what: string): string => {
    const t = tokens[p++];
    if (t === undefined) throw new Error(`BVH: unexpected end of file, expected ${what}`);
    return t;
  };
  const expect = (word: string): void => {
    const t = next(`'${word}'`);
    if (t !== word) throw new Error(`BVH: expected '${word}', got '${t}'`);
  };
  const number = (what: string): number => {
    const t = next(what);
    const x = Number(t);
    if (t.length === 0 || !Number.isFinite(x)) throw new Error(`BVH: expected a number for ${what}, got '${t}'`);
    return x;
  };

  expect('HIERARCHY');
  const names: string[] = [];
  const parents: number[] = [];
  const offsets: number[] = [];
  const channelNames: string[][] = [];
  const endSiteParents: number[] = [];
  const endSiteOffsets: number[] = [];
  // open blocks: a joint index, or -1 - endSiteIndex for an End Site
  const stack: number[] = [];

  for (;;) {
    const t = next("'ROOT', 'JOINT', 'End Site', 'OFFSET', 'CHANNELS', '}' or 'MOTION'");
    if (t === 'MOTION') {
      if (stack.length !== 0) throw new Error('BVH: MOTION inside an open block');
      break;
    }
    const top = stack.length > 0 ? stack[stack.length - 1]! : undefined;
    if (t === 'ROOT' || t === 'JOINT') {
      if (t === 'ROOT' ? top !== undefined : top === undefined) throw new Error(`BVH: ${t} at the wrong nesting level`);
      if (top !== undefined && top < 0) throw new Error('BVH: an End Site cannot have children');
      names.push(next('a joint name'));
      parents.push(top ?? -1);
      offsets.push(0, 0, 0);
      channelNames.push([]);
      expect('{');
      stack.push(names.length - 1);
    } else if (t === 'End') {
      expect('Site');
      if (top === undefined || top < 0) throw new Error('BVH: End Site outside a joint');
      endSiteParents.push(top);
      endSiteOffsets.push(0, 0, 0);
      expect('{');
      stack.push(-endSiteParents.length);
    } else if (t === 'OFFSET') {
      if (top === undefined) throw new Error('BVH: OFFSET outside a joint');
      const dst = top >= 0 ? offsets : endSiteOffsets;
      const o = 3 * (top >= 0 ? top : -top - 1);
      for (let k = 0; k < 3; k++) dst[o + k] = number('an OFFSET component');
    } else if (t === 'CHANNELS') {
      if (top === undefined || top < 0) throw new Error('BVH: CHANNELS outside a joint');
      const count = number('a channel count');
      if (!Number.isInteger(count) || count < 0) throw new Error(`BVH: bad channel count ${count}`);
      const list: string[] = [];
      for (let k = 0; k < count; k++) {
        const name = next('a channel name');
        if (!CHANNEL_TYPES.includes(name)) throw new Error(`BVH: unknown channel '${name}'`);
        if (list.includes(name)) throw new Error(`BVH: channel '${name}' repeated`);
        list.push(name);
      }
      channelNames[top] = list;
    } else if (t === '}') {
      if (top === undefined) throw new Error("BVH: unbalanced '}'");
      stack.pop();
    } else {
      throw new Error(`BVH: unexpected '${t}' in HIERARCHY`);
    }
  }
  if (names.length === 0) throw new Error('BVH: no joints');

  expect('Frames:');
  const frameCount = number('the frame count');
  if (!Number.isInteger(frameCount) || frameCount < 0) throw new Error(`BVH: bad frame count ${frameCount}`);
  expect('Frame');
  expect('Time:');
  const frameTime = number('the frame time');
  if (!(frameTime > 0)) throw new Error(`BVH: bad frame time ${frameTime}`);

  const channelStart = new Int32Array(names.length);
  let channelCount = 0;
  for (let j = 0; j < names.length; j++) {
    channelStart[j] = channelCount;
    channelCount += channelNames[j]!.length;
  }
  const total = frameCount * channelCount;
  if (tokens.length - p !== total) {
    throw new Error(`BVH: expected ${total} motion values (${frameCount} × ${channelCount}), found ${tokens.length - p}`);
  }
  const channels = new Float32Array(total);
  for (let k = 0; k < total; k++) channels[k] = number('a motion value');

  return {
    names,
    parents: Int32Array.from(parents),
    offsets: Float32Array.from(offsets),
    frameTime,
    frameCount,
    channelCount,
    channels,
    channelStart,
    channelNames,
    endSiteParents: Int32Array.from(endSiteParents),
    endSiteOffsets: Float32Array.from(endSiteOffsets),
  };
}

/**
 * Local rotation of every joint at every frame, frameCount × joints × 4 floats `[x, y, z, w]`.
 * Each joint's rotation channels are composed in file order, `q = q1 ⊗ q2 ⊗ q3` (for
 * `Zrotation Yrotation Xrotation`: `qz ⊗ qy ⊗ qx`, matrix `Rz · Ry · Rx`); a joint without rotation
 * channels gets the identity. Computed in float64 and normalized; the sign of each joint's
 * quaternion is chosen so that its dot product with the previous frame's is `>= 0`
 * (the first frame has `w >= 0`), so consecutive frames stay in one hemisphere.
 * @example
 * ```ts
 * import type { Bvh } from 'spring-solver/bvh';
 * import { bvhLocalRotations } from 'spring-solver/bvh';
 * declare const bvh: Bvh;
 * const rotations = bvhLocalRotations(bvh); // [x, y, z, w] of joint j at frame f: 4·(f·joints + j)
 * ```
 * @group Motion
 */
export function bvhLocalRotations(bvh: Bvh): Float32Array {
  const jointCount = bvh.names.length;
  const out = new Float32Array(bvh.frameCount * jointCount * 4);
  const previous = new Float64Array(jointCount * 4);
  for (let f = 0; f < bvh.frameCount; f++) {
    const frame = f * bvh.channelCount;
    for (let j = 0; j < jointCount; j++) {
      let q: [number, number, number, number] = [0, 0, 0, 1];
      const list = bvh.channelNames[j]!;
      for (let c = 0; c < list.length; c++) {
        const axis = 'XYZ'.indexOf(list[c]![0]!);
        if (!list[c]!.endsWith('rotation')) continue;
        const half = (bvh.channels[frame + bvh.channelStart[j]! + c]! * Math.PI) / 360; // degrees → half angle in radians
        const r: [number, number, number, number] = [0, 0, 0, Math.cos(half)];
        r[axis] = Math.sin(half);
        q = mul(q, r); // later channels act first: R = R1 · R2 · R3
      }
      q = normalize(q);
      const o = 4 * j;
      const d = f === 0 ? q[3] : q[0] * previous[o]! + q[1] * previous[o + 1]! + q[2] * previous[o + 2]! + q[3] * previous[o + 3]!;
      const s = d < 0 ? -1 : 1; // keep the hemisphere of the previous frame
      for (let k = 0; k < 4; k++) {
        previous[o + k] = s * q[k]!;
        out[(f * jointCount + j) * 4 + k] = s * q[k]!;
      }
    }
  }
  return out;
}

/**
 * Local position of every joint at every frame, frameCount × joints × 3 floats: the joint's OFFSET,
 * with each component that has an `Xposition`/`Yposition`/`Zposition` channel replaced by that
 * channel's value in the frame.
 * @example
 * ```ts
 * import type { Bvh } from 'spring-solver/bvh';
 * import { bvhLocalPositions } from 'spring-solver/bvh';
 * declare const bvh: Bvh;
 * const positions = bvhLocalPositions(bvh); // [x, y, z] of joint j at frame f: 3·(f·joints + j)
 * ```
 * @group Motion
 */
export function bvhLocalPositions(bvh: Bvh): Float32Array {
  const jointCount = bvh.names.length;
  const out = new Float32Array(bvh.frameCount * jointCount * 3);
  for (let f = 0; f < bvh.frameCount; f++) {
    const frame = f * bvh.channelCount;
    for (let j = 0; j < jointCount; j++) {
      const o = (f * jointCount + j) * 3;
      for (let k = 0; k < 3; k++) out[o + k] = bvh.offsets[3 * j + k]!;
      const list = bvh.channelNames[j]!;
      for (let c = 0; c < list.length; c++) {
        if (list[c]!.endsWith('position')) {
          out[o + 'XYZ'.indexOf(list[c]![0]!)] = bvh.channels[frame + bvh.channelStart[j]! + c]!;
        }
      }
    }
  }
  return out;
}

/**
 * Finite-difference velocities, frameCount × joints × 3 floats each.
 * @group Motion
 */
export interface BvhVelocities {
  /** Linear velocities of the local positions, units per second. */
  velocities: Float32Array;
  /** Angular velocities of the local rotations, rad/s, in the parent's frame (`dq/dt = ½ ω ⊗ q`). */
  angularVelocities: Float32Array;
}

/**
 * Finite-difference velocities of local positions and rotations (frame-major layouts as returned by
 * `bvhLocalPositions` and `bvhLocalRotations`; Float64Array inputs are accepted too).
 *
 * Central differences inside, one-sided at the first and last frame; with a single frame every
 * velocity is 0:
 * - `v[t] = (x[t+1] - x[t-1]) / (2 dt)`, ends `(x[1] - x[0]) / dt` and `(x[T-1] - x[T-2]) / dt`;
 * - `ω[t] = toScaledAngleAxis(abs(q[t+1] ⊗ q[t-1]⁻¹)) / (2 dt)`, ends
 *   `toScaledAngleAxis(abs(q[1] ⊗ q[0]⁻¹)) / dt` and `toScaledAngleAxis(abs(q[T-1] ⊗ q[T-2]⁻¹)) / dt`.
 *   Left-multiplied differences give ω in the parent's frame: if `q(t + h) = exp(ω h / 2) ⊗ q(t)`
 *   (i.e. `dq/dt = ½ ω ⊗ q` with constant ω) then `q[t+1] ⊗ q[t-1]⁻¹ = exp(ω dt)`, whose scaled angle
 *   axis is `2 ω dt`. `abs` takes the shortest arc, so a rotation of more than π per step is aliased.
 *
 * @param positions frameCount × jointCount × 3
 * @param rotations frameCount × jointCount × 4
 * @param jointCount joints per frame
 * @param frameTime seconds per frame (`dt`)
 * @example
 * ```ts
 * import { bvhLocalPositions, bvhLocalRotations, bvhVelocities, type Bvh } from 'spring-solver/bvh';
 * declare const bvh: Bvh;
 * const { velocities, angularVelocities } = bvhVelocities(bvhLocalPositions(bvh), bvhLocalRotations(bvh), bvh.names.length, bvh.frameTime);
 * ```
 * @group Motion
 */
export function bvhVelocities(
  positions: ArrayLike<number>,
  rotations: ArrayLike<number>,
  jointCount: number,
  frameTime: number,
): BvhVelocities {
  const frameCount = rotations.length / (4 * jointCount);
  if (!Number.isInteger(frameCount) || positions.length !== frameCount * jointCount * 3) {
    throw new RangeError('positions/rotations lengths do not match jointCount');
  }
  const velocities = new Float32Array(frameCount * jointCount * 3);
  const angularVelocities = new Float32Array(frameCount * jointCount * 3);
  if (frameCount < 2) return { velocities, angularVelocities };
  for (let f = 0; f < frameCount; f++) {
    const a = f === 0 ? 0 : f - 1; // earlier sample
    const b = f === frameCount - 1 ? f : f + 1; // later sample
    const span = (b - a) * frameTime; // 2 dt inside, dt at the ends
    for (let j = 0; j < jointCount; j++) {
      const ia = a * jointCount + j;
      const ib = b * jointCount + j;
      const o = (f * jointCount + j) * 3;
      for (let k = 0; k < 3; k++) {
        velocities[o + k] = (positions[3 * ib + k]! - positions[3 * ia + k]!) / span; // central / one-sided difference
      }
      const qa = [rotations[4 * ia]!, rotations[4 * ia + 1]!, rotations[4 * ia + 2]!, rotations[4 * ia + 3]!];
      const qb = [rotations[4 * ib]!, rotations[4 * ib + 1]!, rotations[4 * ib + 2]!, rotations[4 * ib + 3]!];
      const d = toScaledAngleAxis(abs(mul(normalize(qb), inv(normalize(qa))))); // = 2 log(q[b] q[a]⁻¹) = ω · span
      for (let k = 0; k < 3; k++) angularVelocities[o + k] = d[k]! / span;
    }
  }
  return { velocities, angularVelocities };
}

/**
 * Advances a rotation by a constant parent-frame angular velocity for `dt` seconds:
 * `exp(ω dt / 2) ⊗ q` (the exact solution of `dq/dt = ½ ω ⊗ q` for constant ω).
 * @example
 * ```ts
 * import { integrateAngularVelocity } from 'spring-solver/bvh';
 * // the identity turned at π rad/s about +Y for 0.5 s: 90° about +Y
 * const q = integrateAngularVelocity([0, 0, 0, 1], [0, Math.PI, 0], 0.5);
 * ```
 * @group Motion
 */
export function integrateAngularVelocity(q: ArrayLike<number>, omega: ArrayLike<number>, dt: number): [number, number, number, number] {
  return mul(fromScaledAngleAxis([omega[0]! * dt, omega[1]! * dt, omega[2]! * dt]), q);
}
