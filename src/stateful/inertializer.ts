/**
 * Inertialization of whole skeletons (Holden, "Motion-Matching": inertialize_pose_transition /
 * inertialize_pose_update) for `count` characters of `bones` bones, with the offsets in a solver's
 * memory. Positions use the vector inertialization, rotations the quaternion one. A transition is
 * Solver.inertializeTransition (positions, one element per float) and
 * Solver.quatInertializeTransition (rotations); an update is one kernel over all count·bones bones
 * (assembly/kernels/pose-inertialize.ts, both decays sharing each bone's exp; its float64 oracle is the
 * vector and quaternion inertializeUpdate of src/reference), plus one kernel over the roots when a
 * root bone is given (re-anchored as Motion-Matching does; see {@link InertializerOptions.rootBone}).
 */
import { SolverBase, type Solver } from '../api/solver.js';
import { input as read, out as written, type Kernel } from '../core/contract.js';
import type { Param } from '../core/types.js';
import { checkCount, checkNumber, checkOptions, checkOverlap, checkParam, describe, firstInvalidJs } from '../core/validate.js';
import { checkDt } from '../core/dt.js';
import { MAX_ALLOC_LENGTH } from '../core/limits.js';
import { rootAnchorApply, rootAnchorTransition } from '../reference/root-anchor.js';
import { inertializeUpdate } from '../reference/inertialize.js';
import { quatInertializeUpdate } from '../reference/quat-spring.js';
import { OwnedArrays } from './owned-arrays.js';

/**
 * A pose of every bone of every character, character-major (bone b of character c is element
 * c·bones + b): positions and velocities `[x, y, z]`, rotations `[x, y, z, w]`, angular velocities
 * `[x, y, z]` in rad/s (in the frame the rotation maps into, `dq/dt = ½ ω ⊗ q`). Local or world
 * values, as long as the same bone is always given in the same frame. Arrays from the solver's
 * `alloc` are used in place; any other Float32Array is copied in and out in chunks (slower).
 * @group Inertialization
 */
export interface Pose {
  positions: Float32Array;
  rotations: Float32Array;
  velocities: Float32Array;
  angularVelocities: Float32Array;
}

/**
 * @group Inertialization
 */
export interface InertializerOptions {
  /** Characters (a whole number ≥ 1). */
  count: number;
  /** Bones per character (a whole number ≥ 1). */
  bones: number;
  /** Seconds for an offset to halve: a number, or a Float32Array with one value per bone (length `bones`). */
  halflife: Param;
  /**
   * Index of the root bone within a skeleton, or undefined (every bone is inertialized in the
   * frame it is given in). The root is handled as Motion-Matching handles its root: the input root
   * is in the animation's space, and at every transition the destination's root trajectory is
   * re-anchored (per character) so that it continues from where the character is, instead of the
   * character being pulled toward where the destination clip happens to be. The anchor is a
   * rotation about +Y and a ground translation (x, z), so the heading and ground position carry
   * over; what differs besides (tilt, height, velocities) is inertialized like any bone.
   * The output root is in world space: anchor(input + offset). Skeletons of up to 4,096 bones.
   */
  rootBone?: number;
}

/** An array argument, for the overlap check. */
interface NamedArray {
  name: string;
  array: Float32Array;
  output: boolean;
  aliases?: readonly string[];
}

const POSE_UPDATE: Kernel = {
  wasm: 'poseInertializeUpdate',
  js: (a, [h], [dt]) => {
    inertializeUpdate(a[0]!, a[1]!, a[4]!, a[5]!, a[8]!, a[9]!, h, dt); // positions: inertialize_update
    quatInertializeUpdate(a[2]!, a[3]!, a[6]!, a[7]!, a[10]!, a[11]!, h, dt); // rotations: the quaternion version
  },
};

const ROOT_APPLY: Kernel = {
  wasm: 'rootAnchorApply',
  js: (a, _params, [bones, root], n) => rootAnchorApply(a[0]!, a[1]!, a[2]!, a[3]!, a[4]!, a[5]!, n, bones, root),
};

const ROOT_TRANSITION: Kernel = {
  wasm: 'rootAnchorTransition',
  js: (a, _params, [bones, root], n) =>
    rootAnchorTransition(a[0]!, a[1]!, a[2]!, a[3]!, a[4]!, a[5]!, a[6]!, a[7]!, a[8]!, a[9]!, n, bones, root),
};

/** The largest skeleton with a root bone: one skeleton's rotations must fit a copy chunk (16,384 floats). */
const MAX_ROOTED_BONES = 4096;

/**
 * Inertializes the poses of `count` skeletons of `bones` bones: {@link Inertializer.transition} at an
 * animation switch, {@link Inertializer.update} every frame (offsets in the solver's memory).
 * @example
 * ```ts
 * import { createSolver, Inertializer, type Pose } from 'spring-solver';
 * const solver = await createSolver();
 * const count = 2, bones = 3, n = count * bones; // bone b of character c is c·bones + b
 * const pose = (): Pose => ({
 *   positions: solver.alloc(3 * n),
 *   rotations: solver.alloc(4 * n).map((_, i) => (i % 4 === 3 ? 1 : 0)), // identities
 *   velocities: solver.alloc(3 * n),
 *   angularVelocities: solver.alloc(3 * n), // rad/s
 * });
 * const [source, destination, input, output] = [pose(), pose(), pose(), pose()];
 * const inertializer = new Inertializer(solver, { count, bones, halflife: 0.1 }); // halflife in s
 * inertializer.transition(source, destination); // at an animation switch
 * inertializer.update(input, undefined, 1 / 60, output); // dt 1/60 s; every frame
 * ```
 * @group Inertialization
 */
export class Inertializer {
  readonly count: number;
  readonly bones: number;
  /** The root bone, or null. */
  readonly rootBone: number | null;
  private readonly solver: SolverBase;
  private readonly owned: OwnedArrays;
  private readonly offX: Float32Array;
  private readonly offV: Float32Array;
  private readonly offQ: Float32Array;
  private readonly offW: Float32Array;
  /** Per character: the root's anchor rotation (about +Y) and translation (y = 0). */
  private readonly anchorQ: Float32Array | null = null;
  private readonly anchorX: Float32Array | null = null;
  /** The construction halflife as the kernel takes it (see halflifeParam). */
  private readonly halflife: Param;
  /** Where an update's own per-bone halflife is tiled (allocated on first use). */
  private overrideTiles: Float32Array | null = null;
  private disposed = false;

  /**
   * Allocates the offset state (zero: no transition yet) for `options.count` characters ×
   * `options.bones` bones in the solver's memory; see {@link InertializerOptions}.
   * @example
   * ```ts
   * import { createSolver, Inertializer } from 'spring-solver';
   * const solver = await createSolver();
   * // 100 characters of 30 bones, halflife 0.15 s, bone 0 re-anchored as the root
   * const inertializer = new Inertializer(solver, { count: 100, bones: 30, halflife: 0.15, rootBone: 0 });
   * ```
   */
  constructor(solver: Solver, options: InertializerOptions) {
    const method = 'Inertializer';
    if (!(solver instanceof SolverBase))
      throw new TypeError(`${method}: solver must be a Solver from createSolver, got ${describe(solver)}`);
    solver.checkLive(method);
    checkOptions(method, options, ['count', 'bones', 'halflife', 'rootBone']);
    const { count, bones, halflife, rootBone } = options;
    this.count = checkCount(method, 'options.count', count);
    this.bones = checkCount(method, 'options.bones', bones);
    if (4 * count * bones > MAX_ALLOC_LENGTH) {
      throw new RangeError(
        `${method}: options.count × options.bones is ${count} × ${bones}; it must be at most ${MAX_ALLOC_LENGTH / 4} ` +
          '(the rotations, 4 floats a bone, must fit one alloc)',
      );
    }
    checkHalflife(method, 'options.halflife', halflife, bones);
    if (typeof halflife !== 'number') solver.checkUsable(method, 'options.halflife', halflife);
    if (rootBone !== undefined) {
      checkNumber(method, 'options.rootBone', rootBone, 'nonNegative');
      if (!Number.isInteger(rootBone) || rootBone >= bones) {
        throw new RangeError(`${method}: options.rootBone is ${rootBone}; it must be a bone index, a whole number below bones (${bones})`);
      }
      if (bones > MAX_ROOTED_BONES) {
        throw new RangeError(`${method}: bones is ${bones}; with a rootBone it must be at most ${MAX_ROOTED_BONES}`);
      }
    }
    this.rootBone = rootBone ?? null;
    this.solver = solver;
    this.owned = new OwnedArrays(solver);
    const n = count * bones;
    try {
      this.offX = this.alloc(3 * n);
      this.offV = this.alloc(3 * n);
      this.offQ = this.alloc(4 * n);
      this.offW = this.alloc(3 * n);
      if (rootBone !== undefined) {
        this.anchorQ = this.alloc(4 * count);
        this.anchorX = this.alloc(3 * count);
      }
      this.halflife = this.halflifeParam(halflife, null);
    } catch (error) {
      this.release();
      throw error;
    }
    this.reset();
  }

  /**
   * The offsets, live views of the state in solver memory (valid until dispose): what the output
   * adds to the input (positions, velocities) or composes with it (rotations: output = offset ⊗ input;
   * angular velocities: J(r)·offset + rotate(offset rotation, input), where the angular velocity
   * offset is the rate of the offset rotation's rotation vector r and J the SO(3) Jacobian; see
   * Solver.quatInertializeTransition). A root bone's offsets are in the animation's space, before the anchor.
   */
  get offsets(): Pose {
    this.checkUsable('Inertializer.offsets');
    return { positions: this.offX, velocities: this.offV, rotations: this.offQ, angularVelocities: this.offW };
  }

  /**
   * Clears every offset (identity rotations) and anchor: the output equals the input again.
   * @example
   * ```ts
   * import type { Inertializer } from 'spring-solver';
   * declare const inertializer: Inertializer;
   * inertializer.reset(); // offsets back to zero: the next update shows its input as it is
   * ```
   */
  reset(): void {
    this.checkUsable('Inertializer.reset');
    this.offX.fill(0);
    this.offV.fill(0);
    this.offW.fill(0);
    identities(this.offQ);
    this.anchorX?.fill(0);
    if (this.anchorQ) identities(this.anchorQ);
  }

  /**
   * A switch, for every character, from the animation being left (`src`, its pose now) to the one
   * entered (`dst`, its pose now): the offsets absorb the difference, so that the output of the
   * next update with `dst` continues the output of an update with `src` (position, rotation,
   * velocity and angular velocity). Characters that do not switch pass the same pose as src and dst,
   * or `character` (a character index) limits the switch to that one character: only its bones
   * of src and dst are read and only its offsets (and anchor) change.
   * @example
   * ```ts
   * import type { Inertializer, Pose } from 'spring-solver';
   * declare const inertializer: Inertializer;
   * declare const shown: Pose, next: Pose; // the pose on screen and the new animation's pose
   * inertializer.transition(shown, next); // every character
   * inertializer.transition(shown, next, 3); // or character 3 only
   * ```
   */
  transition(src: Pose, dst: Pose, character?: number): void {
    const method = 'Inertializer.transition';
    this.checkUsable(method);
    const arrays = [...this.poseArrays(method, 'src', src, false), ...this.poseArrays(method, 'dst', dst, false)];
    if (character !== undefined) {
      checkNumber(method, 'character', character, 'nonNegative');
      if (!Number.isInteger(character) || character >= this.count) {
        throw new RangeError(`${method}: character is ${character}; it must be a whole number below count (${this.count})`);
      }
    }
    checkOverlap(method, [...arrays, ...this.stateArrays()]);
    const s = this.solver;
    const b = this.bones;
    const c = character ?? 0;
    const count = character === undefined ? this.count : 1;
    // views of the characters that switch (the whole batch, or one character's bones)
    const part = (a: Float32Array, width: number, perCharacter: number): Float32Array =>
      character === undefined ? a : a.subarray(width * perCharacter * c, width * perCharacter * (c + 1));
    const [sx, sv, sq, sw] = [
      part(src.positions, 3, b),
      part(src.velocities, 3, b),
      part(src.rotations, 4, b),
      part(src.angularVelocities, 3, b),
    ];
    const [dx, dv, dq, dw] = [
      part(dst.positions, 3, b),
      part(dst.velocities, 3, b),
      part(dst.rotations, 4, b),
      part(dst.angularVelocities, 3, b),
    ];
    const [ox, ov, oq, ow] = [part(this.offX, 3, b), part(this.offV, 3, b), part(this.offQ, 4, b), part(this.offW, 3, b)];
    s.inertializeTransition(ox, ov, sx, sv, dx, dv);
    s.quatInertializeTransition(oq, ow, sq, sw, dq, dw);
    if (this.rootBone !== null) {
      const operands = [
        written(ox, 3 * b),
        written(ov, 3 * b),
        written(oq, 4 * b),
        written(ow, 3 * b),
        read(dx, 3 * b),
        read(dv, 3 * b),
        read(dq, 4 * b),
        read(dw, 3 * b),
        written(part(this.anchorQ!, 4, 1), 4),
        written(part(this.anchorX!, 3, 1), 3),
      ];
      s.runKernel(ROOT_TRANSITION, count, operands, [], [b, this.rootBone]);
    }
  }

  /**
   * Decays the offsets by dt (s, ≥ 0; 0 only composes) and writes `output` = `input` with the
   * offsets applied (and, for the root bone, the anchor). `halflife`: undefined for the one given
   * at construction, else a number or one value per bone (length `bones`) for this update only.
   * `output`'s arrays may be the very arrays of `input`.
   * @example
   * ```ts
   * import type { Inertializer, Pose } from 'spring-solver';
   * declare const inertializer: Inertializer;
   * declare const input: Pose, output: Pose;
   * inertializer.update(input, undefined, 1 / 60, output); // dt 1/60 s; the options' halflife
   * inertializer.update(input, 0.3, 1 / 60, output); // halflife 0.3 s; or another one
   * ```
   */
  update(input: Pose, halflife: Param | undefined, dt: number, output: Pose): void {
    const method = 'Inertializer.update';
    this.checkUsable(method);
    const arrays = [...this.poseArrays(method, 'input', input, false), ...this.poseArrays(method, 'output', output, true)];
    if (halflife !== undefined) {
      checkHalflife(method, 'halflife', halflife, this.bones);
      if (typeof halflife !== 'number') this.solver.checkUsable(method, 'halflife', halflife);
    }
    checkDt(this.solver, method, dt);
    checkOverlap(method, [...arrays, ...this.stateArrays()]);
    let h = this.halflife;
    if (halflife !== undefined) {
      h = this.halflifeParam(halflife, this.overrideTiles);
      if (typeof h !== 'number') this.overrideTiles = h;
    }
    const s = this.solver;
    const operands = [
      written(output.positions, 3),
      written(output.velocities, 3),
      written(output.rotations, 4),
      written(output.angularVelocities, 3),
      written(this.offX, 3),
      written(this.offV, 3),
      written(this.offQ, 4),
      written(this.offW, 3),
      read(input.positions, 3),
      read(input.velocities, 3),
      read(input.rotations, 4),
      read(input.angularVelocities, 3),
    ];
    s.runKernel(POSE_UPDATE, this.count * this.bones, operands, [h], [dt]);
    if (this.rootBone !== null) {
      const b = this.bones;
      const operands = [
        written(output.positions, 3 * b),
        written(output.velocities, 3 * b),
        written(output.rotations, 4 * b),
        written(output.angularVelocities, 3 * b),
        read(this.anchorQ!, 4),
        read(this.anchorX!, 3),
      ];
      s.runKernel(ROOT_APPLY, this.count, operands, [], [b, this.rootBone]);
    }
  }

  /**
   * Returns the state to the solver; the offsets must not be used afterwards. Idempotent.
   * @example
   * ```ts
   * import type { Inertializer } from 'spring-solver';
   * declare const inertializer: Inertializer;
   * inertializer.dispose(); // frees its solver memory
   * ```
   */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.release();
  }

  private alloc(length: number): Float32Array {
    return this.owned.alloc(length);
  }

  private release(): void {
    this.owned.release();
  }

  private checkUsable(method: string): void {
    if (this.disposed) throw new TypeError(`${method}: this Inertializer has been disposed`);
    this.solver.checkLive(method);
  }

  /**
   * The halflife as the kernel takes it: a float32 number, or one value per bone of every
   * character in solver memory, tiled by doubling copies into `tiles` (allocated when null).
   */
  private halflifeParam(halflife: Param, tiles: Float32Array | null): Param {
    if (typeof halflife === 'number') return Math.fround(halflife);
    const perBone = tiles ?? this.alloc(this.count * this.bones);
    perBone.set(halflife);
    tile(perBone, this.bones);
    return perBone;
  }

  private poseArrays(method: string, name: string, pose: unknown, output: boolean): NamedArray[] {
    if (typeof pose !== 'object' || pose === null) throw new TypeError(`${method}: ${name} must be a pose object, got ${describe(pose)}`);
    const n = this.count * this.bones;
    const p = pose as Record<string, unknown>;
    const fields: [keyof Pose, number][] = [
      ['positions', 3],
      ['rotations', 4],
      ['velocities', 3],
      ['angularVelocities', 3],
    ];
    return fields.map(([field, width]) => {
      const array = p[field];
      const label = `${name}.${field}`;
      if (!(array instanceof Float32Array)) throw new TypeError(`${method}: ${label} must be a Float32Array, got ${describe(array)}`);
      this.solver.checkUsable(method, label, array);
      if (array.length !== width * n) {
        throw new RangeError(
          `${method}: ${label} has length ${array.length}, expected ${width * n} (${this.count} characters × ${this.bones} bones × ${width})`,
        );
      }
      // update's kernel reads a bone's input whole before writing its output: input.f may be output.f.
      return { name: label, array, output, aliases: name === 'input' ? [`output.${field}`] : [] };
    });
  }

  private stateArrays(): NamedArray[] {
    return this.owned.all.map((array, i) => ({ name: `the Inertializer's state array ${i}`, array, output: true }));
  }
}

function checkHalflife(method: string, name: string, halflife: unknown, bones: number): void {
  checkParam(method, name, halflife as Param, bones, 'nonNegative', firstInvalidJs);
}

/** Sets every quaternion of a packed array to the identity [0, 0, 0, 1]. */
function identities(q: Float32Array): void {
  q.fill(0);
  for (let k = 3; k < q.length; k += 4) q[k] = 1;
}

/** Repeats a[0 … period) over the whole of a, doubling the copied span each time. */
function tile(a: Float32Array, period: number): void {
  for (let filled = period; filled < a.length; filled *= 2) a.copyWithin(filled, 0, Math.min(filled, a.length - filled));
}
