/**
 * SpringBones: every joint of every attached three-vrm spring-bone manager in one kernel call a
 * frame, with the results three-vrm's own VRMSpringBoneManager.update would give (see
 * src/reference/spring-bones.ts for the algorithm and src/vrm/layout.ts for how managers are read).
 */
import type { Euler, Object3D, Quaternion, Vector3 } from 'three';
import type { SpringBoneJoint as VRMSpringBoneJoint, SpringBoneManager as VRMSpringBoneManager } from './types.js';
import type { Solver, SolverBase } from '../api/solver.js';
import { springBoneKernel, springBoneScratchLength, type SpringBoneKernel, type SpringBoneStep } from '../api/spring-bone-kernel.js';
import { describe, show } from '../core/validate.js';
import { MAX_SUBSTEPS } from '../core/limits.js';
import { warnLargeDt } from '../core/dt.js';
import { MatrixPass } from './matrix-pass.js';
import type { EulerFields, QuaternionFields } from '../three/object-writes.js';
import { checkArgumentCount, checkOptions, checkSolver, objectName } from '../three/checks.js';
import {
  AVATAR,
  COLLIDER,
  COLLIDER_WORLD,
  EXT,
  INV,
  M_T,
  OUT,
  O_EULER,
  O_LOCAL,
  O_WORLD,
  POSE,
  P_HAS_PIVOT,
  P_PIVOT,
  P_POSITION,
  P_QUATERNION,
  P_SCALE,
  SETUP,
  STATE,
  T_CHILD_WORLD,
  T_PREV,
  T_TAIL,
} from '../reference/spring-bone-layout.js';
import type { SpringBoneArrays } from '../reference/spring-bones.js';
import { AFFINE, jointName, layOut, type JointInternals, type Layout, type ManagerName } from './layout.js';
import { spanJoints, spansOf, type Span } from './spans.js';

/**
 * @group Spring bones
 */
export interface SpringBonesOptions {
  /**
   * Seconds per simulation step, or undefined (the default): one step per update with the
   * frame's dt, exactly as three-vrm. three-vrm applies its drag once per frame, so hair moves
   * differently at 30, 60 and 144 Hz; with a fixed step (e.g. 1/60) every update runs as many
   * whole steps as the time allows, each with the animated parents, centers and colliders
   * interpolated (element-wise, between the previous and this update's matrices) to the step's
   * time, and the motion is the same at any display rate. The cost: the bones show the last
   * whole step's rotations, placed on this frame's parents, so they lag by up to one step.
   */
  fixedStep?: number;
  /**
   * With `fixedStep`: the most steps one update runs (default 8). Time beyond them (a frame
   * after the tab was hidden, say) is dropped, so an update's time stays bounded.
   * Given without `fixedStep`, it throws (it would do nothing).
   */
  maxSteps?: number;
  /**
   * With `fixedStep`: a parent, center or collider whose matrixWorld moves farther than this
   * (scene units, default 1) in one update teleported: every step of that update sees it where it
   * landed, instead of interpolating through the jump. Infinity interpolates always.
   * Given without `fixedStep`, it throws (it would do nothing).
   */
  teleportDistance?: number;
}

/** Which SpringBones each manager is attached to (a manager may be attached to one at a time). */
const attachedTo = new WeakMap<VRMSpringBoneManager, SpringBones>();

/** Which SpringBones runs each joint (a joint shared by two managers would run twice a frame). */
const jointOwner = new WeakMap<VRMSpringBoneJoint, SpringBones>();

/** The sum of readPoses' pass of loads alone, stored so that the engine keeps those loads (see readPoses). */
// biome-ignore lint/correctness/noUnusedVariables: written, never read: the store is what keeps the loads
let preloaded = 0;

/** How messages name the managers of a SpringBones: `managers[m]`, as the constructor and `bones.managers` list them. */
const LISTED: ManagerName = (m) => `managers[${m}]`;

/** The methods SpringBones replaces on an attached manager, and how to give them back. */
interface Takeover {
  update: VRMSpringBoneManager['update'];
  reset: VRMSpringBoneManager['reset'];
  setInitState: VRMSpringBoneManager['setInitState'];
  /** Which of them were the manager's own properties (restored as such; the others are deleted). */
  own: { update: boolean; reset: boolean; setInitState: boolean };
}

const ARRAY_NAMES = [
  'setup',
  'pose',
  'state',
  'out',
  'ext',
  'extPrev',
  'extStep',
  'extInv',
  'colliders',
  'colliderWorld',
  'colliderList',
  'centers',
  'avatars',
] as const;

/** The float64 arrays of the kernel (src/reference/spring-bones.ts), views of solver memory. */
type Arrays = SpringBoneArrays & Record<(typeof ARRAY_NAMES)[number], Float64Array>;

/**
 * Runs the spring bones (hair, skirts, tails: VRMC_springBone) of many three-vrm avatars in one
 * call. While a manager is attached, its own `update` does nothing (so `vrm.update(dt)` still runs
 * the humanoid, look-at, expressions and constraints) and {@link SpringBones.update} runs every
 * attached manager's joints at once; its `reset` and `setInitState` keep working (they go through
 * the SpringBones). `dispose()` gives the managers back, with their state.
 *
 * Each update reads what three-vrm's manager reads, when it reads it: the joint bones' local
 * transforms and the joints' children's matrixWorld as they stand, the chains' ancestors as
 * three-vrm's own pass updates them, anything else a joint reads as it stands, and what lies below
 * a joint that has run as three-vrm's walk leaves it; so app code that updates world matrices,
 * renders, queries world positions or reparents between frames gets three-vrm's results. Joint
 * settings, collider shapes, a joint's center, child and collider groups are read at attach and
 * {@link SpringBones.refresh}; a change of parent is seen by itself (three's added/removed events).
 *
 * @example
 * ```ts
 * import { createSolver } from 'spring-solver';
 * import { SpringBones, type SpringBoneManager } from 'spring-solver/vrm';
 * declare const vrms: { springBoneManager: SpringBoneManager; update(dt: number): void }[]; // three-vrm's VRMs
 * const solver = await createSolver();
 * const bones = new SpringBones(solver, vrms.map((vrm) => vrm.springBoneManager));
 * function frame(dt: number) {
 *   for (const vrm of vrms) vrm.update(dt); // humanoid, look-at, expressions…: spring bones skipped
 *   bones.update(dt); // every avatar's spring bones, batched (dt in s)
 * }
 * ```
 * @group Spring bones
 */
export class SpringBones {
  private readonly solver: SolverBase;
  private readonly managerList: VRMSpringBoneManager[] = [];
  private readonly takeovers = new Map<VRMSpringBoneManager, Takeover>();
  private readonly fixedStep: number | null;
  private readonly maxSteps: number;
  private readonly teleportDistance: number;
  private layout!: Layout;
  private arrays!: Arrays;
  /** The solver arrays behind `arrays` (two floats per float64), for free(). */
  private blocks: Float32Array[] = [];
  private step!: SpringBoneStep;
  /** On a threaded solver, the step begun on the workers while this thread writes the span before and reads the next (overlapSpans). */
  private background: SpringBoneKernel['background'] = null;
  /** The avatars in spans, each read, stepped and written in turn (see spans.ts). */
  private spans: Span[] = [];
  /** The index in the `before` pass of each entry of the layout's (the pass runs span by span). */
  private beforeIndex!: Int32Array;
  /** With fixedStep, the alphas of an update's steps. */
  private readonly alphas: number[] = [];
  /** With fixedStep: the time since the last step; and whether extPrev holds a previous update's matrices. */
  private accumulator = 0;
  private primed = false;
  /** With fixedStep: the output of the last step, kept while the bones are placed on the update's parents. */
  private simulated: Float64Array | null = null;
  /** three-vrm's pass before the joints (the chains' ancestors; what is read as it stood) and after them (the joints' other descendants). */
  private before!: MatrixPass;
  private after!: MatrixPass;
  /** Each joint bone, its quaternion, rotation, matrix and matrixWorld elements, looked up once (kernel order). */
  private targets!: {
    bones: Object3D[];
    positions: Vector3[];
    scales: Vector3[];
    quaternions: Quaternion[];
    rotations: Euler[];
    matrices: number[][];
    worlds: number[][];
  };
  /** The objects whose parents the layout depends on; true once one of them has moved (the next update lays out again). */
  private readonly watched = new Set<Object3D>();
  private moved = false;
  /** With fixedStep, during an update: each jumped slot's offset in ext and its landed matrix (see holdJumps). */
  private readonly jumped: number[] = [];
  private disposed = false;

  /**
   * Attaches `managers` (each a three-vrm `VRMSpringBoneManager`, built by its loader or in
   * code, after its `setInitState()`): their joints' state carries on from where three-vrm left it.
   * @example
   * ```ts
   * import { createSolver } from 'spring-solver';
   * import { SpringBones, type SpringBoneManager } from 'spring-solver/vrm';
   * declare const managers: SpringBoneManager[]; // each loaded VRM's vrm.springBoneManager
   * const solver = await createSolver();
   * const bones = new SpringBones(solver, managers, { fixedStep: 1 / 60 }); // fixed steps of 1/60 s
   * ```
   */
  constructor(solver: Solver, managers: readonly VRMSpringBoneManager[], options: SpringBonesOptions = {}) {
    const method = 'SpringBones';
    // biome-ignore lint/complexity/noArguments: the count given, to refuse extra arguments (a rest parameter would widen the signature)
    checkArgumentCount(method, arguments.length, ['solver', 'managers', 'options']);
    const base = checkSolver(method, solver);
    checkOptions(method, options, ['fixedStep', 'maxSteps', 'teleportDistance']);
    const { fixedStep, maxSteps = 8, teleportDistance = 1 } = options;
    if (fixedStep !== undefined) {
      if (typeof fixedStep !== 'number') throw new TypeError(`${method}: options.fixedStep must be a number, got ${describe(fixedStep)}`);
      if (!(fixedStep > 0 && fixedStep < Number.POSITIVE_INFINITY)) {
        throw new RangeError(`${method}: options.fixedStep is ${show(fixedStep)}; it must be finite and > 0 (seconds)`);
      }
    }
    if (typeof teleportDistance !== 'number') {
      throw new TypeError(`${method}: options.teleportDistance must be a number, got ${describe(teleportDistance)}`);
    }
    if (!(teleportDistance > 0)) {
      throw new RangeError(`${method}: options.teleportDistance is ${show(teleportDistance)}; it must be > 0 (∞ allowed)`);
    }
    if (typeof maxSteps !== 'number') throw new TypeError(`${method}: options.maxSteps must be a number, got ${describe(maxSteps)}`);
    if (!Number.isInteger(maxSteps) || maxSteps < 1 || maxSteps > MAX_SUBSTEPS) {
      throw new RangeError(`${method}: options.maxSteps is ${show(maxSteps)}; it must be a whole number in [1, ${MAX_SUBSTEPS}]`);
    }
    // without fixed steps these are never read: an app that sets them believes it has fixed steps
    for (const name of ['maxSteps', 'teleportDistance'] as const) {
      if (fixedStep === undefined && options[name] !== undefined)
        throw new RangeError(
          `${method}: options.${name} is given without options.fixedStep; it only applies to fixed steps (set fixedStep too)`,
        );
    }
    this.solver = base;
    this.fixedStep = fixedStep ?? null;
    this.maxSteps = maxSteps;
    this.teleportDistance = teleportDistance;
    const list = checkManagers(method, managers, this);
    this.build(list, this.lay(method, list, LISTED));
    for (const manager of list) this.attach(manager);
  }

  /** The attached managers, in order. */
  get managers(): readonly VRMSpringBoneManager[] {
    return this.managerList;
  }

  /** Joints of every attached manager. */
  get jointCount(): number {
    return this.layout.joints.length;
  }

  /**
   * Runs every attached manager's spring bones for a frame of `dt` seconds (dt = 0 only places
   * the bones on their parents, as three-vrm does), and writes each joint's `bone.quaternion`
   * (and `rotation`), `bone.matrix` and `bone.matrixWorld`, then the matrixWorld of the joint
   * bones' other descendants, as three-vrm's manager does. Call it after every `vrm.update(dt)`.
   * @example
   * ```ts
   * import type { SpringBones } from 'spring-solver/vrm';
   * declare const bones: SpringBones;
   * bones.update(1 / 60); // dt 1/60 s; after every vrm.update(dt)
   * ```
   */
  update(dt: number): void {
    const method = 'SpringBones.update';
    // biome-ignore lint/complexity/noArguments: the count given, to refuse extra arguments (a rest parameter would widen the signature)
    checkArgumentCount(method, arguments.length, ['dt']);
    this.checkLive(method);
    if (typeof dt !== 'number') throw new TypeError(`${method}: dt must be a number, got ${describe(dt)}`);
    if (!(dt >= 0 && dt < Number.POSITIVE_INFINITY))
      throw new RangeError(`${method}: dt is ${show(dt)}; it must be finite and ≥ 0 (seconds)`);
    warnLargeDt(this.solver, method, dt);
    // the hierarchy as it stands (the watched objects' 'added' and 'removed' events say when it changed)
    if (this.moved) this.rebuild(method, this.managerList);
    // what three-vrm reads as it stands: checked first (an error writes nothing), then read span by span
    this.checkLinks(method);
    this.checkBones(method);
    const everyQuaternion = this.fixedStep !== null || dt <= 0;
    if (this.fixedStep === null) {
      if (this.background !== null && this.spans.length > 1) {
        this.overlapSpans(dt, everyQuaternion, this.background);
        return;
      }
      for (const span of this.spans) {
        this.readSpan(span, everyQuaternion);
        this.step(dt, 1, span.avatar, span.avatars);
        this.writeBones(span, dt > 0);
      }
      return;
    }
    const alphas = this.fixedSteps(dt, this.fixedStep);
    const { ext, extPrev, out } = this.arrays;
    this.simulated ??= new Float64Array(out.length);
    const simulated = this.simulated;
    for (const span of this.spans) {
      const [s0, s1] = [EXT * span.slots[0], EXT * span.slots[1]];
      if (this.primed) extPrev.set(ext.subarray(s0, s1), s0);
      this.readSpan(span, everyQuaternion);
      if (!this.primed) extPrev.set(ext.subarray(s0, s1), s0);
      else this.holdJumps(ext, extPrev, s0, s1);
      for (const alpha of alphas) {
        if (alpha === 1) this.landJumps(ext);
        this.step(this.fixedStep, alpha, span.avatar, span.avatars);
      }
      this.landJumps(ext);
      // the bones shown: the last step's rotations on this update's parents; the steps go on from the step's own matrices
      const [o0, o1] = [OUT * span.joints[0], OUT * span.joints[1]];
      simulated.set(out.subarray(o0, o1), o0);
      this.step(0, 1, span.avatar, span.avatars);
      this.writeBones(span, true);
      out.set(simulated.subarray(o0, o1), o0);
    }
    this.primed = true;
  }

  /**
   * The spans of update(dt) on a threaded solver: while the workers step a span, this thread
   * writes the span before it and reads the span after it, when that span is `apart` (its reads
   * need not see this span's writes: spans.ts). Each span is read before its step and written
   * after it, and the spans' reads and writes keep their order except where `apart` allows: the
   * same bits as one span after the other.
   */
  private overlapSpans(dt: number, everyQuaternion: boolean, background: NonNullable<SpringBoneKernel['background']>): void {
    const spans = this.spans;
    const rotations = dt > 0;
    this.readSpan(spans[0]!, everyQuaternion);
    let unwritten: Span | null = null;
    for (let s = 0; s < spans.length; s++) {
      const span = spans[s]!,
        next = spans[s + 1];
      background.begin(dt, 1, span.avatar, span.avatars);
      try {
        if (unwritten !== null) this.writeBones(unwritten, rotations);
        if (next?.apart) this.readSpan(next, everyQuaternion);
      } finally {
        background.finish();
      }
      unwritten = span;
      if (next && !next.apart) {
        this.writeBones(span, rotations);
        unwritten = null;
        this.readSpan(next, everyQuaternion);
      }
    }
    if (unwritten !== null) this.writeBones(unwritten, rotations);
  }

  /**
   * What a span's step reads: its joint bones' poses, its part of the `before` pass, its joints'
   * children as they stand (with fixed steps, a child of the joint's bone is where the steps put
   * it: the bones shown are placed apart from them) and its ext slots.
   */
  private readSpan(span: Span, everyQuaternion: boolean): void {
    const { state, ext, out } = this.arrays;
    this.readPoses(span, everyQuaternion);
    this.before.run(out, span.before[0], span.before[1]);
    const bones = this.targets.bones;
    const live = this.layout.liveChildren;
    for (let i = span.live[0]; i < span.live[1]; i++) {
      const { index, child, elements: m } = live[i]!;
      if (this.fixedStep !== null && child.parent === bones[index]) continue;
      const t = STATE * index + T_CHILD_WORLD;
      state[t] = m[12]!;
      state[t + 1] = m[13]!;
      state[t + 2] = m[14]!;
    }
    this.readSlots(span, ext);
  }

  /**
   * Attaches one more manager (an avatar joining the crowd); its state carries on from three-vrm's.
   * @example
   * ```ts
   * import type { SpringBones, SpringBoneManager } from 'spring-solver/vrm';
   * declare const bones: SpringBones;
   * declare const manager: SpringBoneManager; // a VRM that joins the scene
   * bones.add(manager);
   * ```
   */
  add(manager: VRMSpringBoneManager): void {
    const method = 'SpringBones.add';
    // biome-ignore lint/complexity/noArguments: the count given, to refuse extra arguments (a rest parameter would widen the signature)
    checkArgumentCount(method, arguments.length, ['manager']);
    this.checkLive(method);
    checkManagers(method, [manager], this, this.managerList, 'manager');
    const count = this.managerList.length;
    this.rebuild(method, [...this.managerList, manager], true, (m) => (m < count ? `managers[${m}]` : 'manager'));
    this.attach(manager);
  }

  /**
   * Gives one manager back (its `update` runs three-vrm's own again), with its joints' state.
   * @example
   * ```ts
   * import type { SpringBones, SpringBoneManager } from 'spring-solver/vrm';
   * declare const bones: SpringBones;
   * declare const manager: SpringBoneManager; // a VRM that leaves the scene
   * bones.remove(manager); // the manager gets its own update back
   * ```
   */
  remove(manager: VRMSpringBoneManager): void {
    const method = 'SpringBones.remove';
    // biome-ignore lint/complexity/noArguments: the count given, to refuse extra arguments (a rest parameter would widen the signature)
    checkArgumentCount(method, arguments.length, ['manager']);
    this.checkLive(method);
    if (attachedTo.get(manager) !== this) throw new RangeError(`${method}: manager is not attached to this SpringBones`);
    this.rebuild(
      method,
      this.managerList.filter((m) => m !== manager),
    );
    this.detach(manager);
  }

  /**
   * As each manager's `reset()`: every joint back to its initial rotation, its tail at rest.
   * @example
   * ```ts
   * import type { SpringBones } from 'spring-solver/vrm';
   * declare const bones: SpringBones;
   * bones.reset(); // every joint back to its initial state, as manager.reset() does
   * ```
   */
  reset(): void {
    // biome-ignore lint/complexity/noArguments: the count given, to refuse extra arguments (a rest parameter would widen the signature)
    checkArgumentCount('SpringBones.reset', arguments.length, []);
    this.checkLive('SpringBones.reset');
    this.throughThreeVrm('SpringBones.reset', this.managerList, 'reset');
  }

  /**
   * As each manager's `setInitState()`: the bones' current local transforms become their rest state.
   * @example
   * ```ts
   * import type { SpringBones } from 'spring-solver/vrm';
   * declare const bones: SpringBones;
   * bones.setInitState(); // the current pose becomes the initial state
   * ```
   */
  setInitState(): void {
    // biome-ignore lint/complexity/noArguments: the count given, to refuse extra arguments (a rest parameter would widen the signature)
    checkArgumentCount('SpringBones.setInitState', arguments.length, []);
    this.checkLive('SpringBones.setInitState');
    this.throughThreeVrm('SpringBones.setInitState', this.managerList, 'setInitState');
  }

  /**
   * Reads the joints' settings, the collider shapes, each joint's center, child and collider groups,
   * and each manager's joints again (after changing any of them); the joints' state carries on.
   * @example
   * ```ts
   * import type { SpringBones } from 'spring-solver/vrm';
   * declare const bones: SpringBones;
   * bones.refresh(); // after changing joint settings, collider shapes or a joint's center
   * ```
   */
  refresh(): void {
    // biome-ignore lint/complexity/noArguments: the count given, to refuse extra arguments (a rest parameter would widen the signature)
    checkArgumentCount('SpringBones.refresh', arguments.length, []);
    this.checkLive('SpringBones.refresh');
    this.rebuild('SpringBones.refresh', this.managerList);
  }

  /**
   * Gives every manager back, with its joints' state, and frees the solver memory. Later calls throw.
   * @example
   * ```ts
   * import type { SpringBones } from 'spring-solver/vrm';
   * declare const bones: SpringBones;
   * bones.dispose(); // the managers get their own update back, with their state
   * ```
   */
  dispose(): void {
    if (this.disposed) return;
    if (!this.solver.isDisposed()) this.writeBack();
    for (const manager of [...this.managerList]) this.detach(manager);
    for (const { joint } of this.layout?.joints ?? []) if (jointOwner.get(joint) === this) jointOwner.delete(joint);
    this.unwatch();
    this.free(this.blocks);
    this.disposed = true;
  }

  private checkLive(method: string): void {
    if (this.disposed) throw new TypeError(`${method}: this SpringBones was disposed`);
    this.solver.checkLive(method);
  }

  /** How messages name joint j's bone (kernel order): `"hair" (managers[0]'s joint 3)`, or unnamed `managers[0]'s joint 3's bone`. */
  private jointBone(j: number): string {
    const { joint, manager } = this.layout.joints[j]!;
    const m = this.managerList.indexOf(manager);
    const k = [...manager.joints].indexOf(joint);
    const bone = joint.bone as Object3D;
    return bone.name !== '' ? `${JSON.stringify(bone.name)} (${LISTED(m)}'s joint ${k})` : `${LISTED(m)}'s joint ${k}'s bone`;
  }

  /** How messages name an object below a joint's bone: its name, or its path from the nearest joint bone above it. */
  private belowJoint(object: Object3D): string {
    const bones = this.targets.bones;
    let j = -1;
    for (let o = object.parent; o !== null && j < 0; o = o.parent) j = bones.lastIndexOf(o);
    if (j < 0) return objectName('an object', object, object);
    const bone = bones[j]!;
    const label = bone.name !== '' ? `the joint bone ${JSON.stringify(bone.name)}` : this.jointBone(j);
    return objectName(label, bone, object);
  }

  /** Runs three-vrm's own `reset` or `setInitState` on `managers`, then reads their joints again. */
  private throughThreeVrm(method: string, managers: readonly VRMSpringBoneManager[], name: 'reset' | 'setInitState'): void {
    this.writeBack();
    for (const manager of managers) this.takeovers.get(manager)![name].call(manager);
    this.rebuild(method, this.managerList, false);
  }

  /**
   * The slots whose translation moved more than teleportDistance since the previous update
   * (a teleport) jumped at this update's time: the steps before it see them where they were, the
   * steps at it and after see them where they landed (as at any other frame rate). Until then,
   * ext holds their previous matrices and `landed` the new ones.
   */
  private holdJumps(ext: Float64Array, extPrev: Float64Array, from: number, to: number): void {
    const limit = this.teleportDistance * this.teleportDistance;
    this.jumped.length = 0;
    for (let o = from; o < to; o += EXT) {
      const dx = ext[o + M_T]! - extPrev[o + M_T]!,
        dy = ext[o + M_T + 1]! - extPrev[o + M_T + 1]!,
        dz = ext[o + M_T + 2]! - extPrev[o + M_T + 2]!;
      if (dx * dx + dy * dy + dz * dz > limit) {
        this.jumped.push(o, ...ext.subarray(o, o + EXT));
        ext.set(extPrev.subarray(o, o + EXT), o);
      }
    }
  }

  /** The jumped slots where they landed (see holdJumps). */
  private landJumps(ext: Float64Array): void {
    const jumped = this.jumped;
    for (let i = 0; i < jumped.length; i += EXT + 1) ext.set(jumped.slice(i + 1, i + 1 + EXT), jumped[i]!);
    jumped.length = 0;
  }

  /**
   * As many fixed steps as the time allows: each step's alpha (the slots interpolated to its time;
   * 1 at this update's time), with the time left for the next update.
   */
  private fixedSteps(dt: number, h: number): number[] {
    const start = this.accumulator;
    const total = start + dt;
    let steps = Math.floor(total / h + 1e-6); // a step due within a millionth of h runs now, not a frame late
    let left = total - steps * h;
    if (steps > this.maxSteps) {
      steps = this.maxSteps;
      left = 0;
    }
    const alphas = this.alphas;
    alphas.length = 0;
    for (let k = 1; k <= steps; k++) {
      const time = k * h - start; // since the previous update
      // a step due within a millionth of h of this update's time is at it (the same rounding as the count)
      alphas.push(time >= dt - 1e-6 * h ? 1 : Math.max(0, time / dt));
    }
    this.accumulator = Math.max(0, left);
    return alphas;
  }

  /** The ext slots' matrices: a matrix of the `before` pass, or a link object's local matrix (updateMatrix first, as three-vrm's walk). */
  private readSlots(span: Span, into: Float64Array): void {
    const slots = this.layout.slots;
    const world = this.before.world;
    const beforeIndex = this.beforeIndex;
    for (let s = span.slots[0]; s < span.slots[1]; s++) {
      const slot = slots[s]!;
      const o = EXT * s;
      if (slot.kind === 'pass') {
        const w = EXT * beforeIndex[slot.entry]!;
        for (let i = 0; i < EXT; i++) into[o + i] = world[w + i]!;
      } else {
        const object = slot.object;
        if (object.matrixAutoUpdate) object.updateMatrix();
        const m = object.matrix.elements;
        for (let i = 0; i < EXT; i++) into[o + i] = m[AFFINE[i]!]!;
      }
    }
  }

  /**
   * The objects between joint bones (and down to colliders below them) whose matrixWorld three-vrm
   * would not recompute after the joint above them (a hand-set matrix not flagged with
   * matrixWorldNeedsUpdate, or matrixWorldAutoUpdate false): refused, before anything is written.
   */
  private checkLinks(method: string): void {
    for (const o of this.layout.links) {
      if (o.matrixWorldAutoUpdate !== true || (!o.matrixAutoUpdate && !o.matrixWorldNeedsUpdate)) {
        throw new RangeError(
          `${method}: ${this.belowJoint(o)} (below a spring joint's bone) has matrixAutoUpdate false without matrixWorldNeedsUpdate, ` +
            'or matrixWorldAutoUpdate false: three-vrm would keep its stale matrixWorld, SpringBones does not follow that; ' +
            'set matrixWorldNeedsUpdate = true with each new matrix',
        );
      }
    }
  }

  /** Refuses, before anything is written, a joint bone whose matrixWorld three-vrm would leave stale. */
  private checkBones(method: string): void {
    const bones = this.targets.bones;
    for (let j = 0; j < bones.length; j++) {
      if (bones[j]!.matrixWorldAutoUpdate !== true) {
        throw new RangeError(
          `${method}: the joint bone ${this.jointBone(j)} has matrixWorldAutoUpdate false; three-vrm then reads its stale ` +
            'matrixWorld before each step, which SpringBones does not follow: leave it true while the bone is a spring joint',
        );
      }
    }
  }

  /**
   * Each joint bone's position, scale and pivot as they stand (three-vrm's updateMatrix reads them
   * before each step), and its quaternion where the step reads it (`everyQuaternion`, or a joint
   * without a child or with a pivot; a joint with a child computes its rotation afresh).
   */
  private readPoses(span: Span, everyQuaternion: boolean): void {
    const pose = this.arrays.pose;
    const { bones, positions, scales, quaternions } = this.targets;
    const childless = this.layout.childless;
    // first a pass of loads alone: its loop is small enough that the CPU has the cache misses of many
    // joints in flight at once (a crowd's bones are out of cache by the next frame), where the loop
    // below has those of one or two: 0.91–0.94× an update's time at 100 avatars (docs/DECISIONS.md)
    let sum = 0;
    for (let j = span.joints[0]; j < span.joints[1]; j++) {
      const p = positions[j]!,
        s = scales[j]!;
      sum += p.x + p.y + p.z + s.x + s.y + s.z + (bones[j]!.pivot ? 1 : 0);
    }
    preloaded = sum;
    for (let j = span.joints[0]; j < span.joints[1]; j++) {
      const o = POSE * j;
      // position, scale and quaternion from their own arrays (three defines them read-only): loads
      // that do not wait for the bone's, so that the cache misses of a joint overlap
      const p = positions[j]!,
        s = scales[j]!,
        pivot = bones[j]!.pivot;
      pose[o + P_POSITION] = p.x;
      pose[o + P_POSITION + 1] = p.y;
      pose[o + P_POSITION + 2] = p.z;
      pose[o + P_SCALE] = s.x;
      pose[o + P_SCALE + 1] = s.y;
      pose[o + P_SCALE + 2] = s.z;
      if (pivot) {
        pose[o + P_PIVOT] = pivot.x;
        pose[o + P_PIVOT + 1] = pivot.y;
        pose[o + P_PIVOT + 2] = pivot.z;
      }
      pose[o + P_HAS_PIVOT] = pivot ? 1 : 0;
      if (everyQuaternion || childless[j] === 1 || pivot) {
        const q = quaternions[j]! as unknown as QuaternionFields;
        pose[o + P_QUATERNION] = q._x;
        pose[o + P_QUATERNION + 1] = q._y;
        pose[o + P_QUATERNION + 2] = q._z;
        pose[o + P_QUATERNION + 3] = q._w;
      }
    }
  }

  /** Each joint's quaternion (with `rotations`), matrix and matrixWorld into three.js, then the joint bones' other descendants. */
  private writeBones(span: Span, rotations: boolean): void {
    const out = this.arrays.out;
    const { bones, quaternions, rotations: eulers, matrices, worlds } = this.targets;
    for (let j = span.joints[0]; j < span.joints[1]; j++) {
      const o = OUT * j;
      if (rotations) {
        const q = quaternions[j]! as unknown as QuaternionFields,
          r = eulers[j]! as unknown as EulerFields;
        if (r._order === 'XYZ') {
          // the fields behind quaternion.set and its onChange (rotation.setFromQuaternion), computed by the kernel
          q._x = out[o]!;
          q._y = out[o + 1]!;
          q._z = out[o + 2]!;
          q._w = out[o + 3]!;
          r._x = out[o + O_EULER]!;
          r._y = out[o + O_EULER + 1]!;
          r._z = out[o + O_EULER + 2]!;
        } else {
          quaternions[j]!.set(out[o]!, out[o + 1]!, out[o + 2]!, out[o + 3]!);
        }
      }
      writeAffine(matrices[j]!, out, o + O_LOCAL);
      writeAffine(worlds[j]!, out, o + O_WORLD);
      // three-vrm leaves the flag of its last updateMatrix: set by a step, cleared by the placement alone (dt 0)
      bones[j]!.matrixWorldNeedsUpdate = rotations;
    }
    this.after.run(out, span.after[0], span.after[1]);
  }

  /** Our tails into the joints' own (three-vrm's) state, so that three-vrm carries on from them. */
  private writeBack(): void {
    const { joints } = this.layout;
    const state = this.arrays.state;
    for (let j = 0; j < joints.length; j++) {
      const internals = joints[j]!.joint as unknown as JointInternals;
      const t = STATE * j;
      setVector(internals._currentTail, state, t + T_TAIL);
      setVector(internals._prevTail, state, t + T_PREV);
    }
  }

  /**
   * Lays out `managers` (checked first: nothing changes when it throws) and replaces the arrays;
   * errors start with `method` and name manager m as `managerName` says.
   */
  private rebuild(method: string, managers: VRMSpringBoneManager[], writeBack = true, managerName: ManagerName = LISTED): void {
    const layout = this.lay(method, managers, managerName);
    if (writeBack) this.writeBack();
    const old = this.blocks;
    this.build(managers, layout);
    this.free(old);
  }

  /** The layout of `managers`, their joints checked to be run by this SpringBones alone and once. */
  private lay(method: string, managers: readonly VRMSpringBoneManager[], managerName: ManagerName): Layout {
    const seen = new Map<VRMSpringBoneJoint, [number, number]>();
    managers.forEach((manager, m) => {
      let k = 0;
      for (const joint of manager.joints) {
        const where = () => jointName(managerName, m, k, joint);
        const other = seen.get(joint);
        if (other !== undefined)
          throw new RangeError(
            `${method}: ${where()} is also ${jointName(managerName, other[0], other[1], joint)}; a joint must belong to one manager (it would run twice a frame)`,
          );
        const owner = typeof joint === 'object' && joint !== null ? jointOwner.get(joint) : undefined;
        if (owner !== undefined && owner !== this)
          throw new RangeError(
            `${method}: ${where()} is already run by another SpringBones (a manager attached there has it); remove that manager there first`,
          );
        seen.set(joint, [m, k]);
        k++;
      }
    });
    return layOut(method, managers, managerName);
  }

  /** Allocates and fills the arrays of `managers`' layout, and the kernel call on them. */
  private build(managers: VRMSpringBoneManager[], layout: Layout): void {
    const counts = {
      joints: layout.joints.length,
      slots: layout.slots.length,
      colliders: layout.colliders.length,
      centers: layout.centers.length,
      avatars: layout.avatars.length / AVATAR,
    };
    const lengths = {
      setup: SETUP * counts.joints,
      pose: POSE * counts.joints,
      state: STATE * counts.joints,
      out: OUT * counts.joints,
      ext: EXT * counts.slots,
      extPrev: EXT * counts.slots,
      extStep: EXT * counts.slots,
      extInv: INV * counts.slots,
      colliders: COLLIDER * counts.colliders,
      colliderWorld: COLLIDER_WORLD * counts.colliders,
      colliderList: layout.colliderList.length,
      centers: counts.centers,
      avatars: layout.avatars.length,
    };
    const arrays = {} as Arrays;
    const blocks: Float32Array[] = [];
    try {
      for (const name of ARRAY_NAMES) {
        const block = this.solver.alloc(2 * Math.max(1, lengths[name])); // 16-byte aligned: a Float64Array view fits
        blocks.push(block);
        arrays[name] = new Float64Array(block.buffer, block.byteOffset, block.length / 2);
      }
      blocks.push(this.solver.alloc(springBoneScratchLength(this.solver))); // the kernel's scratch
    } catch (error) {
      this.free(blocks);
      throw error;
    }
    arrays.setup.set(layout.setup);
    arrays.colliders.set(layout.colliderSetup);
    arrays.colliderList.set(layout.colliderList);
    arrays.centers.set(layout.centers);
    arrays.avatars.set(layout.avatars);
    layout.joints.forEach(({ joint }, j) => {
      const internals = joint as unknown as JointInternals;
      const t = STATE * j;
      const tail = internals._currentTail,
        prev = internals._prevTail;
      arrays.state.set([tail.x, tail.y, tail.z, prev.x, prev.y, prev.z], t + T_TAIL);
      if (joint.child) {
        const m = joint.child.matrixWorld.elements;
        arrays.state.set([m[12]!, m[13]!, m[14]!], t + T_CHILD_WORLD);
      }
      const q = joint.bone.quaternion;
      const o = OUT * j;
      arrays.out.set([q.x, q.y, q.z, q.w], o);
      readAffine(joint.bone.matrix.elements, arrays.out, o + O_LOCAL);
      readAffine(joint.bone.matrixWorld.elements, arrays.out, o + O_WORLD);
    });
    this.unwatch();
    for (const { joint } of this.layout?.joints ?? []) if (jointOwner.get(joint) === this) jointOwner.delete(joint);
    for (const { joint } of layout.joints) jointOwner.set(joint, this);
    this.layout = layout;
    this.arrays = arrays;
    this.blocks = blocks;
    const { spans, before, beforeIndex } = spansOf(layout, spanJoints.min);
    this.spans = spans;
    this.beforeIndex = beforeIndex;
    this.before = new MatrixPass(before);
    this.after = new MatrixPass(layout.after);
    const bones = layout.joints.map(({ joint }) => joint.bone);
    this.targets = {
      bones,
      positions: bones.map((bone) => bone.position),
      scales: bones.map((bone) => bone.scale),
      quaternions: bones.map((bone) => bone.quaternion),
      rotations: bones.map((bone) => bone.rotation),
      matrices: bones.map((bone) => bone.matrix.elements),
      worlds: bones.map((bone) => bone.matrixWorld.elements),
    };
    this.watch(layout.hierarchy);
    this.moved = false;
    this.managerList.splice(0, this.managerList.length, ...managers);
    ({ step: this.step, background: this.background } = springBoneKernel(this.solver, arrays, counts, blocks[blocks.length - 1]!));
    this.primed = false;
    this.simulated = null;
  }

  /**
   * Listens to `objects` leaving or joining a parent (three's 'removed' and 'added' events): the next
   * update lays the managers out again, at no cost in the frames between.
   */
  private watch(objects: Iterable<Object3D>): void {
    for (const object of objects) {
      this.watched.add(object);
      object.addEventListener('removed', this.onMoved);
      object.addEventListener('added', this.onMoved);
    }
  }

  private unwatch(): void {
    for (const object of this.watched) {
      object.removeEventListener('removed', this.onMoved);
      object.removeEventListener('added', this.onMoved);
    }
    this.watched.clear();
  }

  private readonly onMoved = (): void => {
    this.moved = true;
  };

  private free(blocks: readonly Float32Array[]): void {
    if (this.solver.isDisposed()) return;
    for (const block of blocks) this.solver.free(block);
  }

  /** Replaces the manager's update (a no-op), reset and setInitState (through this SpringBones). */
  private attach(manager: VRMSpringBoneManager): void {
    const own = (name: string) => Object.hasOwn(manager, name);
    this.takeovers.set(manager, {
      update: manager.update,
      reset: manager.reset,
      setInitState: manager.setInitState,
      own: { update: own('update'), reset: own('reset'), setInitState: own('setInitState') },
    });
    attachedTo.set(manager, this);
    manager.update = () => {};
    manager.reset = () => this.throughThreeVrm('SpringBones.reset (called as manager.reset)', [manager], 'reset');
    manager.setInitState = () =>
      this.throughThreeVrm('SpringBones.setInitState (called as manager.setInitState)', [manager], 'setInitState');
  }

  private detach(manager: VRMSpringBoneManager): void {
    const takeover = this.takeovers.get(manager)!;
    for (const name of ['update', 'reset', 'setInitState'] as const) {
      if (takeover.own[name]) (manager as unknown as Record<string, unknown>)[name] = takeover[name];
      else delete (manager as unknown as Record<string, unknown>)[name];
    }
    this.takeovers.delete(manager);
    attachedTo.delete(manager);
    const i = this.managerList.indexOf(manager);
    if (i >= 0) this.managerList.splice(i, 1);
  }
}

/** `managers` checked: an Array of managers, none attached elsewhere or listed twice. */
function checkManagers(
  method: string,
  managers: readonly VRMSpringBoneManager[],
  owner: SpringBones,
  existing: readonly VRMSpringBoneManager[] = [],
  label?: string,
): VRMSpringBoneManager[] {
  if (!Array.isArray(managers))
    throw new TypeError(`${method}: managers must be an Array of VRMSpringBoneManager, got ${describe(managers)}`);
  const seen = new Set(existing);
  managers.forEach((manager, i) => {
    const name = label ?? `managers[${i}]`;
    const m = manager as unknown as { joints?: unknown; update?: unknown } | null;
    if (typeof m !== 'object' || m === null || !(m.joints instanceof Set) || typeof m.update !== 'function') {
      throw new TypeError(`${method}: ${name} must be a VRMSpringBoneManager, got ${describe(manager)}`);
    }
    const other = attachedTo.get(manager);
    if (other === owner || seen.has(manager)) throw new RangeError(`${method}: ${name} is already attached to this SpringBones`);
    if (other !== undefined) throw new RangeError(`${method}: ${name} is attached to another SpringBones; remove it there first`);
    seen.add(manager);
  });
  return [...managers];
}

/** three's 16 elements from the affine 3×4 at out[o…] (the fourth row 0, 0, 0, 1). */
function writeAffine(e: number[], out: Float64Array, o: number): void {
  e[0] = out[o]!;
  e[1] = out[o + 1]!;
  e[2] = out[o + 2]!;
  e[3] = 0;
  e[4] = out[o + 3]!;
  e[5] = out[o + 4]!;
  e[6] = out[o + 5]!;
  e[7] = 0;
  e[8] = out[o + 6]!;
  e[9] = out[o + 7]!;
  e[10] = out[o + 8]!;
  e[11] = 0;
  e[12] = out[o + 9]!;
  e[13] = out[o + 10]!;
  e[14] = out[o + 11]!;
  e[15] = 1;
}

function readAffine(e: number[], out: Float64Array, o: number): void {
  for (let i = 0; i < EXT; i++) out[o + i] = e[AFFINE[i]!]!;
}

function setVector(v: { x: number; y: number; z: number }, a: Float64Array, o: number): void {
  v.x = a[o]!;
  v.y = a[o + 1]!;
  v.z = a[o + 2]!;
}
