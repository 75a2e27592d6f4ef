/**
 * Inertialization (Holden, "Motion-Matching": inertialize_pose_transition / _update) of what
 * three.js AnimationMixers animate: every position, quaternion and scale they write. A drop-in for
 * `mixer.update(dt)`: switch or jump animations in any way (play/stop, crossFadeTo,
 * `action.time = t`), call `transition()`, and call `update(dt)` every frame instead of
 * `mixer.update(dt)`.
 *
 * Per frame: `mixer.update(dt)` for each mixer, the mixer's own pose read from its bindings
 * (./mixer-bindings.ts), then ONE Inertializer update for every bone of every mixer of the
 * group (and one vector update for the scales, if any are animated), and the output written to
 * the objects. At a transition of one mixer: the source is its pose before the switch with the
 * velocity of its last frame (backward difference over the last update's dt), the destination is
 * the new pose at t with its velocity from the animation itself, (pose(t + ε) − pose(t)) / ε,
 * sampled by mixer.update(0), mixer.update(ε), mixer.update(−ε) (see docs/DECISIONS.md).
 */
import type { AnimationMixer, Object3D, Vector3 } from 'three';
import { Inertializer, type Pose } from '../stateful/inertializer.js';
import type { Solver, SolverBase } from '../api/solver.js';
import { describe } from '../core/validate.js';
import { checkDt } from '../core/dt.js';
import {
  animated,
  checkArgumentCount,
  checkFree,
  checkHalflife,
  checkOptions,
  checkSolver,
  hold,
  objectName,
  release,
  withArticle,
} from './checks.js';
import { inv, mul, toScaledAngleAxis } from '../reference/quat.js';
import { setRotation } from './object-writes.js';
import { MixerBatch } from './mixer-batch.js';
import { BatchGather } from './batch-gather.js';
import { POSE_SOURCE, sameSolver, type PoseReader, type PoseRequest, type PoseSource } from './pose-source.js';
import {
  internals,
  noopSetter,
  originalRegion,
  transformTarget,
  type MixerInternals,
  type PropertyMixerLike,
  type TransformProperty,
} from './mixer-bindings.js';

/**
 * @group Inertialization
 */
export interface InertializedMixerOptions {
  /**
   * Seconds for an offset to halve: a number, or a function giving it for each animated object
   * (a halflife per bone). In a group, objects at the same place in each mixer's bindings must
   * get the same value.
   */
  halflife: number | ((object: Object3D) => number);
  /**
   * Name of the object that carries the clip's root motion (e.g. `'hip'`), or undefined. That
   * object is re-anchored at every transition as {@link spring-solver!InertializerOptions.rootBone | InertializerOptions.rootBone} describes:
   * the new clip's root trajectory continues from where the character is (heading about +Y and
   * ground position x, z), instead of the character being pulled to where the clip happens to be.
   */
  root?: string;
  /**
   * For tests only: zero the source's or the destination's velocity at transitions (what a
   * model without velocities would do), to show that the continuity measure can fail.
   * @internal
   */
  zeroVelocity?: 'source' | 'destination';
}

/** Sampling step (s) of the destination's velocity: well inside a 120 Hz keyframe interval, and float32 rounding of the pose over it stays below 1e-3 of typical speeds. */
const EPSILON = 1e-4;

/** Where one PropertyMixer's value goes: a property kind and the first float of its slot. */
interface Destination {
  kind: TransformProperty | null;
  at: number;
  /** Whether the binding has been active in an update (its original value is then saved), while it is not in the gather plan. */
  seen: boolean;
  /** Over a MixerBatch: its element in the gather plan (./batch-gather.ts, which then keeps `seen`), or −1. */
  g: number;
}

/** How a group's messages name it and its mixers: itself, or the InertializedMixer it is the whole of. */
interface Names {
  /** The class the user called. */
  cls: 'InertializedMixerGroup' | 'InertializedMixer';
  mixer(m: number): string;
}
const GROUP_NAMES: Names = { cls: 'InertializedMixerGroup', mixer: (m) => `mixers[${m}]` };
const SINGLE_NAMES: Names = { cls: 'InertializedMixer', mixer: () => 'mixer' };
/** Set by InertializedMixer around the construction of its group, which then names itself InertializedMixer. */
let buildingSingle = false;

/** The setter put on the bindings the group writes instead of the mixer. */

/** One animated object: its slot (bone index) and the properties the mixer writes. */
interface Slot {
  object: Object3D;
  position: boolean;
  quaternion: boolean;
  scale: boolean;
}

const KIND_SIZE = { position: 3, quaternion: 4, scale: 3 } as const;

/**
 * Many mixers (a crowd) inertialized together: one Inertializer for all of them, so that a
 * frame costs one kernel call whatever the number of characters. The set of mixers and the
 * objects they animate are fixed at construction: create every action (`mixer.clipAction`)
 * before. Bone b of character m is the b-th object the mixer animates (the root first, if given).
 * @example
 * ```ts
 * import type { AnimationMixer } from 'three';
 * import { createSolver } from 'spring-solver';
 * import { InertializedMixerGroup } from 'spring-solver/three';
 * declare const mixers: AnimationMixer[]; // one per character, their actions created
 * const solver = await createSolver();
 * const group = new InertializedMixerGroup(solver, mixers, { halflife: 0.1 }); // halflife in s
 * group.transition(mixers[3]); // character 3 switched clips
 * group.update(1 / 60); // dt 1/60 s; every character, one kernel call
 * ```
 * @group Inertialization
 */
export class InertializedMixerGroup implements PoseSource {
  readonly mixers: readonly AnimationMixer[];
  /** Objects per character (the largest count over the mixers; the others are padded). */
  readonly bones: number;
  private readonly solver: SolverBase;
  private readonly inertializer: Inertializer;
  private readonly internals: MixerInternals[];
  private readonly slots: Slot[][];
  /** Where each PropertyMixer's value goes (a Map: a property added to three's objects would change their shape). */
  private readonly destinations = new Map<PropertyMixerLike, Destination>();
  /** Per mixer, the bindings as last read and their destinations, index for index (a cache of the map). */
  private readonly seenBindings: (PropertyMixerLike | undefined)[][];
  private readonly bindingDestinations: Destination[][];
  /** The MixerBatch whose mixers the group reads (it samples them), or null: the group runs each mixer's update. */
  private readonly batch: MixerBatch | null = null;
  /** The setters replaced by a no-op (restored by dispose): the mixer no longer writes what the group writes. */
  private readonly setters: { binding: { setValue?: unknown }; setValue: unknown }[] = [];
  /** The mixers' own poses (positions, rotations; zero velocities), the output, and the transition poses. */
  private readonly input: Pose;
  private readonly output: Pose;
  private readonly src: Pose;
  private readonly dst: Pose;
  /** The mixers' own poses of the previous frame. */
  private readonly prevX: Float32Array;
  private readonly prevQ: Float32Array;
  /** Scales: their own inertialization (vector), allocated when some mixer animates a scale. */
  private readonly scales: ScaleState | null;
  private readonly owned: Float32Array[] = [];
  /** Per mixer: true after its transition until the next update (its velocity is then dst's). */
  private readonly fresh: boolean[];
  private lastDt = 0;
  /** Over a MixerBatch: the plan of its gather kernel (for the batch's layout it was made for), or null. */
  private plan: BatchGather | null = null;
  /** Over a MixerBatch: its `structure` when the bindings were last checked. */
  private checkedStructure = -1;
  /** Where a transition reads the pose at t + ε (allocated at the first transition). */
  private probe: { x: Float32Array; q: Float32Array; s: Float32Array | null } | null = null;
  private disposed = false;
  private readonly zeroVelocity: 'source' | 'destination' | undefined;
  private readonly names: Names;

  /**
   * Takes over what `mixers` animate (create it after `mixer.clipAction(…)` for every clip): call
   * {@link InertializedMixerGroup.update} instead of `mixer.update` for each of them. `mixers` may be
   * a {@link MixerBatch}: its kernel then samples every mixer in one call (`batch.update` is run by
   * the group's update; the batch cannot be disposed before the group).
   * @example
   * ```ts
   * import type { AnimationMixer, Object3D } from 'three';
   * import { createSolver } from 'spring-solver';
   * import { InertializedMixerGroup } from 'spring-solver/three';
   * declare const mixers: AnimationMixer[];
   * const solver = await createSolver();
   * // a halflife per object: 0.2 s for the hips, 0.1 s for the others
   * const halflife = (object: Object3D) => (object.name === 'hips' ? 0.2 : 0.1);
   * const group = new InertializedMixerGroup(solver, mixers, { halflife });
   * ```
   */
  constructor(solver: Solver, mixers: readonly AnimationMixer[] | MixerBatch, options: InertializedMixerOptions) {
    const names = buildingSingle ? SINGLE_NAMES : GROUP_NAMES;
    buildingSingle = false;
    this.names = names;
    const method = names.cls;
    // biome-ignore lint/complexity/noArguments: the count given, to refuse extra arguments (a rest parameter would widen the signature)
    if (names === GROUP_NAMES) checkArgumentCount(method, arguments.length, ['solver', 'mixers', 'options']);
    this.solver = checkSolver(method, solver);
    if (mixers instanceof MixerBatch) {
      mixers.checkLive(`${method}: mixers (a MixerBatch)`);
      mixers.checkUnread(method);
      if (!mixers.belongsTo(solver))
        throw new RangeError(`${method}: mixers is a MixerBatch of another solver; build it on the solver given to ${method}`);
      this.batch = mixers;
      mixers = mixers.mixers;
    }
    if (!Array.isArray(mixers) || mixers.length === 0)
      throw new TypeError(`${method}: mixers must be a non-empty array of AnimationMixers, got ${describe(mixers)}`);
    const { halflife, root, zeroVelocity } = checkOptions(method, options, ['halflife', 'root', 'zeroVelocity']);
    if (typeof halflife !== 'function') checkHalflife(method, 'options.halflife', halflife);
    if (root !== undefined && typeof root !== 'string')
      throw new TypeError(`${method}: options.root must be an object name (a string), got ${describe(root)}`);
    if (zeroVelocity !== undefined && zeroVelocity !== 'source' && zeroVelocity !== 'destination')
      throw new TypeError(`${method}: options.zeroVelocity must be 'source' or 'destination', got ${describe(zeroVelocity)}`);
    this.mixers = [...mixers];
    this.zeroVelocity = zeroVelocity;
    this.internals = this.mixers.map((mixer, m) => {
      const name = names.mixer(m);
      const mi = internals(method, name, mixer);
      const first = this.mixers.indexOf(mixer);
      if (first !== m) throw new RangeError(`${method}: ${name} is also ${names.mixer(first)}`);
      if (this.batch === null) checkFree(method, name, mixer);
      return mi;
    });
    this.slots = this.internals.map((mi, m) => collectSlots(method, names.mixer(m), mi, root));
    checkAnimated(method, names, this.mixers, this.slots);
    this.bones = Math.max(...this.slots.map((s) => s.length));
    if (this.bones === 0) {
      const which = names.cls === 'InertializedMixer' ? 'mixer animates' : 'mixers animate';
      throw new RangeError(`${method}: the ${which} no position, quaternion or scale; create the actions (mixer.clipAction) first`);
    }
    const perBone = halflives(method, names, this.mixers, this.slots, this.bones, halflife);
    const count = this.mixers.length;
    const n = count * this.bones;
    this.inertializer = new Inertializer(this.solver, {
      count,
      bones: this.bones,
      halflife: perBone,
      ...(root !== undefined ? { rootBone: 0 } : {}),
    });
    try {
      const pose = (): Pose => ({
        positions: this.alloc(3 * n),
        rotations: this.alloc(4 * n),
        velocities: this.alloc(3 * n),
        angularVelocities: this.alloc(3 * n),
      });
      this.input = pose();
      this.output = pose();
      this.src = pose();
      this.dst = pose();
      const anyScale = this.slots.some((s) => s.some((slot) => slot.scale));
      this.scales = anyScale ? new ScaleState(this.solver, this, n, perBone) : null;
    } catch (error) {
      this.dispose();
      throw error;
    }
    this.prevX = new Float32Array(3 * n);
    this.prevQ = new Float32Array(4 * n);
    this.fresh = this.mixers.map(() => false);
    this.seenBindings = this.mixers.map(() => []);
    this.bindingDestinations = this.mixers.map(() => []);
    this.internals.forEach((mi, m) => {
      for (const pm of mi._bindings) this.destinationOf(method, m, pm);
    });
    for (let k = 3; k < 4 * n; k += 4) this.input.rotations[k] = 1;
    // the objects' values now are the mixers' own poses and the output
    for (let m = 0; m < count; m++) this.readObjects(m, this.input.positions, this.input.rotations, this.scales?.input ?? null);
    this.output.positions.set(this.input.positions);
    this.output.rotations.set(this.input.rotations);
    this.prevX.set(this.input.positions);
    this.prevQ.set(this.input.rotations);
    if (this.scales) this.scales.output.set(this.scales.input);
    // the batch's mixers stay held by the batch; the batch leaves its pose in their buffers and writes through the no-op setters
    if (this.batch !== null) this.batch.readBy(method, this);
    else hold(this.mixers, `attached to ${withArticle(method)}`);
    animated.hold(
      this.slots.flatMap((list) => list.map((slot) => slot.object)),
      `animated through ${withArticle(method)}`,
    );
  }

  /**
   * False while a SkeletonBatch reads the output from solver memory: update() and transition()
   * then leave the objects alone.
   * @internal
   */
  objectWrites = true;

  /**
   * A SkeletonBatch's reader of the output pose in solver memory (object j of mixer m at element
   * m·bones + j; mixer m animates mesh m): while it is open, the group writes no object.
   * @internal
   */
  [POSE_SOURCE](request: PoseRequest): PoseReader {
    const { method, name } = request;
    this.checkUsable(`${method}: ${name}`);
    sameSolver(request, this.solver, 'InertializedMixerGroup');
    checkFree(method, name, this);
    const objects = this.slots.map((s) => s.map((slot) => slot.object));
    const slots = readerSlots(request, objects);
    this.objectWrites = false;
    hold([this], 'read by a SkeletonBatch');
    let open = true;
    return {
      positions: this.output.positions,
      rotations: this.output.rotations,
      scales: this.scales?.output ?? null,
      stride: this.bones,
      slots,
      read: (method) => this.checkUsable(`${method}: ${name}`),
      close: () => {
        if (!open) return;
        open = false;
        release([this]);
        if (this.solver.isDisposed()) return;
        this.objectWrites = true;
        // the objects get the output they would hold had the group written them all along (three reads them from now on)
        if (!this.disposed) for (let m = 0; m < this.mixers.length; m++) this.writeObjects(m);
      },
    };
  }

  /** Allocates a solver array owned by this group (freed by dispose). @internal */
  alloc(length: number): Float32Array {
    const array = this.solver.alloc(length);
    this.owned.push(array);
    return array;
  }

  /**
   * After switching or jumping the animations of `which` (one mixer, several, or by default all of
   * them): the offsets absorb the difference between what was on screen and the new pose, with
   * their velocities, so that the output continues smoothly. Runs mixer.update(0), update(ε) and
   * update(−ε) on each of these mixers (their events fire), which leaves their time unchanged.
   * @example
   * ```ts
   * import type { AnimationMixer } from 'three';
   * import type { InertializedMixerGroup } from 'spring-solver/three';
   * declare const group: InertializedMixerGroup;
   * declare const mixer: AnimationMixer;
   * group.transition(mixer); // this mixer's actions changed
   * group.transition(); // or every mixer's
   * ```
   */
  transition(which?: AnimationMixer | readonly AnimationMixer[]): void {
    const method = `${this.names.cls}.transition`;
    // biome-ignore lint/complexity/noArguments: the count given, to refuse extra arguments (a rest parameter would widen the signature)
    checkArgumentCount(method, arguments.length, this.names === SINGLE_NAMES ? [] : ['which']);
    this.checkUsable(method);
    this.solver.checkLive(method);
    const list = which === undefined ? this.mixers : Array.isArray(which) ? which : [which as AnimationMixer];
    const indices = list.map((mixer, k) => {
      const name = Array.isArray(which) ? `which[${k}]` : 'which';
      const m = this.mixers.indexOf(mixer);
      if (m >= 0) return m;
      if (typeof (mixer as Partial<AnimationMixer> | null)?.clipAction !== 'function')
        throw new TypeError(`${method}: ${name} must be an AnimationMixer of this group (or an array of them), got ${describe(mixer)}`);
      throw new RangeError(`${method}: ${name} is not one of this group's mixers`);
    });
    this.checkBindings(method);
    this.batch?.layOutIfChanged(method);
    for (const m of indices) this.transitionOne(method, m);
  }

  /**
   * Advances every mixer by dt (s, ≥ 0) and writes the inertialized pose to the objects they animate.
   * @example
   * ```ts
   * import type { InertializedMixerGroup } from 'spring-solver/three';
   * declare const group: InertializedMixerGroup;
   * group.update(1 / 60); // dt 1/60 s; instead of every mixer.update(dt)
   * ```
   */
  update(dt: number): void {
    const method = `${this.names.cls}.update`;
    // biome-ignore lint/complexity/noArguments: the count given, to refuse extra arguments (a rest parameter would widen the signature)
    checkArgumentCount(method, arguments.length, ['dt']);
    this.checkUsable(method);
    this.solver.checkLive(method);
    checkDt(this.solver, method, dt);
    // (over a batch, only after its mixers' actions or bindings changed: bindings appear only then)
    const batch = this.batch;
    if (batch === null || batch.structure !== this.checkedStructure) {
      this.checkBindings(method);
      if (batch !== null) this.checkedStructure = batch.structure;
    }
    // a track the batch refuses (an action played since its layout) throws here, before the group changes anything
    batch?.layOutIfChanged(method);
    const { input, output } = this;
    this.prevX.set(input.positions);
    this.prevQ.set(input.rotations);
    this.lastDt = dt;
    this.scales?.prev.set(this.scales.input);
    const scaleInput = this.scales?.input ?? null;
    if (batch !== null) {
      batch.update(dt);
      this.fresh.fill(false);
      this.readMixers(method, 0, this.mixers.length, input.positions, input.rotations, scaleInput);
    } else {
      for (let m = 0; m < this.mixers.length; m++) {
        this.fresh[m] = false;
        this.mixers[m]!.update(dt);
        this.readBindings(method, m, input.positions, input.rotations, scaleInput, false);
      }
    }
    this.inertializer.update(input, undefined, dt, output);
    this.scales?.update(dt);
    for (let m = 0; m < this.mixers.length; m++) this.writeObjects(m);
  }

  /**
   * Returns the solver memory; the group must not be used afterwards. Idempotent.
   * @example
   * ```ts
   * import type { InertializedMixerGroup } from 'spring-solver/three';
   * declare const group: InertializedMixerGroup;
   * group.dispose(); // the mixers animate their objects again
   * ```
   */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.batch === null) release(this.mixers ?? []);
    animated.release((this.slots ?? []).flatMap((list) => list.map((slot) => slot.object)));
    for (const { binding, setValue } of this.setters) binding.setValue = setValue;
    this.setters.length = 0;
    this.plan?.dispose();
    this.plan = null;
    this.batch?.readBy(`${this.names.cls}.dispose`, null);
    this.inertializer?.dispose();
    if (this.solver.isDisposed()) return;
    for (const array of this.owned) this.solver.free(array);
    this.owned.length = 0;
  }

  /** Throws a TypeError naming `method` once the group is disposed (its memory is then gone). @internal */
  checkUsable(method: string): void {
    if (this.disposed) throw new TypeError(`${method}: this ${this.names.cls} has been disposed`);
  }

  /**
   * The destination of every binding of every mixer, before any mixer is advanced: a binding to an
   * object unknown at construction (an action created since) throws here, with nothing written.
   */
  private checkBindings(method: string): void {
    for (let m = 0; m < this.mixers.length; m++) this.syncBindings(method, m);
  }

  /** The destinations of mixer m's bindings in their current order (which changes when actions start or stop). */
  private syncBindings(method: string, m: number): Destination[] {
    const bindings = this.internals[m]!._bindings;
    const seen = this.seenBindings[m]!,
      dests = this.bindingDestinations[m]!;
    if (seen.length !== bindings.length) seen.length = dests.length = bindings.length;
    for (let k = 0; k < bindings.length; k++) {
      const pm = bindings[k]!;
      if (seen[k] !== pm) {
        dests[k] = this.destinationOf(method, m, pm);
        seen[k] = pm;
      }
    }
    return dests;
  }

  private transitionOne(method: string, m: number): void {
    const { input, src, dst } = this;
    const mixer = this.mixers[m]!;
    const b = this.bones;
    const x0 = 3 * b * m,
      x1 = x0 + 3 * b,
      q0 = 4 * b * m,
      q1 = q0 + 4 * b;
    // source: the mixer's pose before the switch; its velocity is the last frame's (or the last transition's)
    src.positions.set(input.positions.subarray(x0, x1), x0);
    src.rotations.set(input.rotations.subarray(q0, q1), q0);
    if (this.fresh[m]) {
      src.velocities.set(dst.velocities.subarray(x0, x1), x0);
      src.angularVelocities.set(dst.angularVelocities.subarray(x0, x1), x0);
    } else {
      velocities(this.prevX, this.prevQ, input.positions, input.rotations, this.lastDt, src.velocities, src.angularVelocities, b * m, b);
    }
    // destination: the new pose at t and at t + ε
    // the pose at t + ε, written where mixer m's pose goes (arrays of the whole group, allocated once)
    // (in solver memory: the batch's gather kernel writes them)
    this.probe ??= { x: this.alloc(3 * b * this.mixers.length), q: this.alloc(4 * b * this.mixers.length), s: null };
    const { x: probeX, q: probeQ } = this.probe;
    dst.positions.set(input.positions.subarray(x0, x1), x0);
    dst.rotations.set(input.rotations.subarray(q0, q1), q0);
    const scales = this.scales;
    scales?.beginTransition(m, b);
    mixer.update(0);
    this.readMixers(method, m, 1, dst.positions, dst.rotations, scales?.dst ?? null);
    probeX.set(dst.positions.subarray(x0, x1), x0);
    probeQ.set(dst.rotations.subarray(q0, q1), q0);
    let probeS: Float32Array | null = null;
    if (scales) {
      probeS = this.probe.s ??= this.alloc(scales.dst.length);
      probeS.set(scales.dst.subarray(x0, x1), x0);
    }
    mixer.update(EPSILON);
    this.readMixers(method, m, 1, probeX, probeQ, probeS);
    mixer.update(-EPSILON);
    velocities(dst.positions, dst.rotations, probeX, probeQ, EPSILON, dst.velocities, dst.angularVelocities, b * m, b);
    const zeroed = this.zeroVelocity === 'source' ? src : this.zeroVelocity === 'destination' ? dst : null;
    if (zeroed) {
      zeroed.velocities.fill(0, x0, x1);
      zeroed.angularVelocities.fill(0, x0, x1);
    }
    this.inertializer.transition(src, dst, m);
    scales?.transition(m, b, probeS!, this.lastDt, this.fresh[m]!);
    // the mixer's own pose is now the destination's; the objects keep showing the output
    input.positions.set(dst.positions.subarray(x0, x1), x0);
    input.rotations.set(dst.rotations.subarray(q0, q1), q0);
    this.fresh[m] = true;
    this.writeObjects(m);
  }

  /** Reads the current value of every animated object of mixer m (at construction). */
  private readObjects(m: number, x: Float32Array, q: Float32Array, s: Float32Array | null): void {
    const slots = this.slots[m]!;
    const base = this.bones * m;
    for (let j = 0; j < slots.length; j++) {
      const { object } = slots[j]!;
      const i = base + j;
      object.position.toArray(x, 3 * i);
      object.quaternion.toArray(q, 4 * i);
      if (s) object.scale.toArray(s, 3 * i);
    }
  }

  /**
   * Reads mixers first … first + count − 1's own pose of their last update into x, q, s (`readBindings`):
   * over a MixerBatch, what its gather plan holds in one kernel call (./batch-gather.ts), the rest
   * binding by binding.
   */
  private readMixers(method: string, first: number, count: number, x: Float32Array, q: Float32Array, s: Float32Array | null): void {
    const batch = this.batch;
    if (batch === null) {
      for (let m = first; m < first + count; m++) this.readBindings(method, m, x, q, s, false);
      return;
    }
    const st = batch.poseState();
    let plan = this.plan;
    if (plan === null || plan.version !== st.version) {
      plan?.dispose();
      this.plan = null;
      const mixers = this.mixers.map((_, m) => ({ bindings: this.internals[m]!._bindings, dests: this.syncBindings(method, m) }));
      const input = { positions: this.input.positions, rotations: this.input.rotations, scales: this.scales?.input ?? null };
      plan = this.plan = new BatchGather(this.solver, st, mixers, batch, input);
    }
    // (the input: the batch's sampler copies the values there at its update)
    const targets = x === plan.output.positions ? plan.output : { positions: x, rotations: q, scales: s };
    const end = first + count;
    if (!st.anyDetached) {
      plan.run(targets, first, count);
      const residual = plan.residual;
      for (let i = 0; i < residual.length; i++) {
        const m = residual[i]!;
        if (m >= first && m < end) this.readBindings(method, m, x, q, s, true);
      }
      return;
    }
    // a mixer the batch ran through three's code: its values are in three's buffers
    for (let m = first; m < end; m++) {
      const detached = st.entries[m]!.detached;
      if (!detached) plan.run(targets, m, 1);
      if (detached || plan.residual.includes(m)) this.readBindings(method, m, x, q, s, !detached);
    }
  }

  /**
   * Reads mixer m's own pose of its last update from its bindings' buffers: an active binding's
   * blended result, and, for one that was active and no longer is, the original value the mixer
   * restores (PropertyMixer.restoreOriginalState, which the no-op setter keeps off the object).
   * `skipPlanned`: leaves out the bindings the gather plan read.
   */
  private readBindings(method: string, m: number, x: Float32Array, q: Float32Array, s: Float32Array | null, skipPlanned: boolean): void {
    const mi = this.internals[m]!;
    const bindings = mi._bindings;
    const active = mi._nActiveBindings;
    const accu = mi._accuIndex + 1;
    const dests = this.syncBindings(method, m);
    const batch = this.batch;
    const plan = this.plan;
    for (let k = 0; k < bindings.length; k++) {
      const pm = bindings[k]!;
      const d = dests[k]!;
      if (d.kind === null) continue;
      if (d.g >= 0) {
        if (skipPlanned) continue;
        if (k < active) plan!.markSeen(d);
        else if (!plan!.seen(d)) continue;
      } else if (k < active) d.seen = true;
      else if (!d.seen) continue; // never active: the value at construction stands
      let buffer: ArrayLike<number> = pm.buffer;
      let o = (k < active ? accu : originalRegion(pm)) * pm.valueSize;
      if (batch !== null) {
        // the batch keeps the buffers of the properties it samples in solver memory
        const view = batch.bufferOf(m, pm);
        buffer = view.buffer;
        o += view.base;
      }
      const a = d.at;
      if (d.kind === 'quaternion') {
        q[a] = buffer[o]!;
        q[a + 1] = buffer[o + 1]!;
        q[a + 2] = buffer[o + 2]!;
        q[a + 3] = buffer[o + 3]!;
      } else {
        const target = d.kind === 'position' ? x : s!;
        target[a] = buffer[o]!;
        target[a + 1] = buffer[o + 1]!;
        target[a + 2] = buffer[o + 2]!;
      }
    }
  }

  /** Where a PropertyMixer's value goes (looked up once, then from the map). */
  private destinationOf(method: string, m: number, pm: PropertyMixerLike): Destination {
    const stored = this.destinations.get(pm);
    if (stored !== undefined) return stored;
    const d = this.destination(method, m, pm);
    this.destinations.set(pm, d);
    if (d.kind !== null) {
      // the group writes this property: the mixer's own write (and its Euler update) would be overwritten anyway
      this.setters.push({ binding: pm.binding, setValue: pm.binding.setValue });
      pm.binding.setValue = noopSetter;
    }
    return d;
  }

  /** Where a PropertyMixer seen for the first time goes (an error if it animates an object unknown at construction). */
  private destination(method: string, m: number, pm: PropertyMixerLike): Destination {
    const name = this.names.mixer(m);
    const target = transformTarget(method, name, pm);
    if (target === null) return { kind: null, at: 0, seen: false, g: -1 };
    const slots = this.slots[m]!;
    const j = slots.findIndex((slot) => slot.object === target.object && slot[target.property]);
    if (j < 0) {
      const object = animatedName(name, this.mixers[m]!, target.object);
      throw new RangeError(
        `${method}: ${name} animates the ${target.property} of ${object}, which it did not animate when the ${this.names.cls} was built; create every action (mixer.clipAction) before building it`,
      );
    }
    return {
      kind: target.property,
      at: KIND_SIZE[target.property] * (this.bones * m + j),
      seen: false,
      g: -1,
    };
  }

  /** Writes mixer m's output to its objects (only the properties the mixer animates). */
  private writeObjects(m: number): void {
    if (!this.objectWrites) return;
    const slots = this.slots[m]!;
    const x = this.output.positions,
      q = this.output.rotations;
    const s = this.scales?.output;
    const base = this.bones * m;
    for (let j = 0; j < slots.length; j++) {
      const slot = slots[j]!;
      const i = base + j;
      if (slot.position) setVector(slot.object.position, x, 3 * i);
      if (slot.quaternion) setRotation(slot.object, q, 4 * i);
      if (slot.scale && s) setVector(slot.object.scale, s, 3 * i);
    }
  }
}

/**
 * One mixer: an {@link InertializedMixerGroup} of one.
 * @example
 * ```ts
 * import { AnimationClip, AnimationMixer, Object3D, VectorKeyframeTrack } from 'three';
 * import { createSolver } from 'spring-solver';
 * import { InertializedMixer } from 'spring-solver/three';
 * const solver = await createSolver();
 * const box = new Object3D();
 * const mixer = new AnimationMixer(box);
 * const action = mixer.clipAction(new AnimationClip('walk', 2, [new VectorKeyframeTrack('.position', [0, 2], [0, 0, 0, 4, 0, 0])])).play();
 * const im = new InertializedMixer(solver, mixer, { halflife: 0.1 }); // halflife in s
 * action.time = 1.3; // a jump (or a switch of clips)
 * im.transition(); // what was on screen carries on, with its velocity
 * im.update(1 / 60); // dt 1/60 s; instead of mixer.update
 * ```
 * @group Inertialization
 */
export class InertializedMixer {
  readonly mixer: AnimationMixer;
  private readonly group: InertializedMixerGroup;

  /**
   * Takes over what `mixer` animates (create it after `mixer.clipAction(…)` for every clip).
   * @example
   * ```ts
   * import { AnimationMixer, Object3D } from 'three';
   * import { createSolver } from 'spring-solver';
   * import { InertializedMixer } from 'spring-solver/three';
   * declare const character: Object3D; // with its clips' actions created: mixer.clipAction(clip)
   * const solver = await createSolver();
   * const im = new InertializedMixer(solver, new AnimationMixer(character), { halflife: 0.15 }); // halflife in s
   * ```
   */
  constructor(solver: Solver, mixer: AnimationMixer, options: InertializedMixerOptions) {
    // biome-ignore lint/complexity/noArguments: the count given, to refuse extra arguments (a rest parameter would widen the signature)
    checkArgumentCount('InertializedMixer', arguments.length, ['solver', 'mixer', 'options']);
    this.mixer = mixer;
    buildingSingle = true;
    try {
      this.group = new InertializedMixerGroup(solver, [mixer], options);
    } finally {
      buildingSingle = false;
    }
  }

  /**
   * After switching or jumping animations: see {@link InertializedMixerGroup.transition}.
   * @example
   * ```ts
   * import type { InertializedMixer } from 'spring-solver/three';
   * declare const im: InertializedMixer;
   * im.transition(); // right after changing the mixer's actions (play, stop, time, crossFade…)
   * ```
   */
  transition(): void {
    // biome-ignore lint/complexity/noArguments: the count given, to refuse extra arguments (a rest parameter would widen the signature)
    checkArgumentCount('InertializedMixer.transition', arguments.length, []);
    this.group.transition();
  }

  /**
   * Instead of mixer.update(dt): advances the mixer and writes the inertialized pose.
   * @example
   * ```ts
   * import type { InertializedMixer } from 'spring-solver/three';
   * declare const im: InertializedMixer;
   * im.update(1 / 60); // dt 1/60 s; every frame, instead of im.mixer.update(dt)
   * ```
   */
  update(dt: number): void {
    // biome-ignore lint/complexity/noArguments: the count given, to refuse extra arguments (a rest parameter would widen the signature)
    checkArgumentCount('InertializedMixer.update', arguments.length, ['dt']);
    this.group.update(dt);
  }

  /**
   * Returns the solver memory. Idempotent.
   * @example
   * ```ts
   * import type { InertializedMixer } from 'spring-solver/three';
   * declare const im: InertializedMixer;
   * im.dispose(); // the mixer animates its objects again
   * ```
   */
  dispose(): void {
    this.group.dispose();
  }
}

/**
 * Scales: a vector inertialization (solver.inertializeTransition/Update, one float per element)
 * beside the Inertializer, which only knows positions and rotations.
 */
class ScaleState {
  readonly input: Float32Array;
  readonly output: Float32Array;
  readonly prev: Float32Array;
  readonly dst: Float32Array;
  private readonly offX: Float32Array;
  private readonly offV: Float32Array;
  private readonly zero: Float32Array;
  private readonly outV: Float32Array;
  private readonly srcX: Float32Array;
  private readonly srcV: Float32Array;
  private readonly dstV: Float32Array;
  private readonly halflife: number | Float32Array;

  constructor(
    private readonly solver: Solver,
    group: InertializedMixerGroup,
    n: number,
    perBone: number | Float32Array,
  ) {
    const a = (length: number) => group.alloc(length);
    this.input = a(3 * n);
    this.output = a(3 * n);
    this.dst = a(3 * n);
    this.offX = a(3 * n);
    this.offV = a(3 * n);
    this.zero = a(3 * n);
    this.outV = a(3 * n);
    this.srcX = a(3 * n);
    this.srcV = a(3 * n);
    this.dstV = a(3 * n);
    this.prev = new Float32Array(3 * n);
    this.input.fill(1);
    if (typeof perBone === 'number') {
      this.halflife = perBone;
    } else {
      const h = a(3 * n);
      const b = perBone.length;
      for (let k = 0; k < 3 * n; k++) h[k] = perBone[Math.floor(k / 3) % b]!;
      this.halflife = h;
    }
  }

  beginTransition(m: number, b: number): void {
    const x0 = 3 * b * m,
      x1 = x0 + 3 * b;
    this.srcX.set(this.input.subarray(x0, x1), x0);
    this.dst.set(this.input.subarray(x0, x1), x0);
  }

  transition(m: number, b: number, probe: Float32Array, lastDt: number, fresh: boolean): void {
    const x0 = 3 * b * m,
      x1 = x0 + 3 * b;
    for (let k = x0; k < x1; k++) {
      if (!fresh) this.srcV[k] = lastDt > 0 ? (this.input[k]! - this.prev[k]!) / lastDt : 0;
      else this.srcV[k] = this.dstV[k]!;
      this.dstV[k] = (probe[k]! - this.dst[k]!) / EPSILON;
    }
    const part = (a: Float32Array) => a.subarray(x0, x1);
    this.solver.inertializeTransition(part(this.offX), part(this.offV), part(this.srcX), part(this.srcV), part(this.dst), part(this.dstV));
    this.input.set(part(this.dst), x0);
  }

  update(dt: number): void {
    this.solver.inertializeUpdate(this.output, this.outV, this.offX, this.offV, this.input, this.zero, this.halflife, dt);
  }
}

/** How a message names an object `mixer` (the argument `name`) animates: its name, or its path from the mixer's root. */
function animatedName(name: string, mixer: AnimationMixer, object: Object3D): string {
  const root = mixer.getRoot() as Object3D;
  return root?.isObject3D ? objectName(`${name}'s root`, root, object) : JSON.stringify(object.name);
}

/** The objects mixer mi (the argument `name`) animates, in binding order, the root (by name) first. */
function collectSlots(method: string, name: string, mi: MixerInternals, root: string | undefined): Slot[] {
  const slots: Slot[] = [];
  for (const pm of mi._bindings) {
    const target = transformTarget(method, name, pm);
    if (target === null) continue;
    let slot = slots.find((s) => s.object === target.object);
    if (!slot) {
      slot = { object: target.object, position: false, quaternion: false, scale: false };
      slots.push(slot);
    }
    slot[target.property] = true;
  }
  if (root !== undefined) {
    const r = slots.findIndex((s) => s.object.name === root);
    if (r < 0) throw new RangeError(`${method}: options.root is ${JSON.stringify(root)}, but ${name} animates no object of that name`);
    slots.unshift(...slots.splice(r, 1));
  }
  return slots;
}

/**
 * Each object animated by one mixer of the group only, and by no other group: two mixers writing one
 * bone would each overwrite the other's inertialized pose (and a bone in two groups be advanced twice).
 */
function checkAnimated(method: string, names: Names, mixers: readonly AnimationMixer[], slots: Slot[][]): void {
  const first = new Map<Object3D, number>();
  slots.forEach((list, m) => {
    for (const { object } of list) {
      const other = first.get(object);
      const name = () => `${names.mixer(m)}'s animated object ${animatedName(names.mixer(m), mixers[m]!, object)}`;
      if (other !== undefined)
        throw new RangeError(
          `${method}: ${name()} is also animated by ${names.mixer(other)}; each object can be animated by one mixer of a group`,
        );
      first.set(object, m);
      animated.check(method, name, object);
    }
  });
}

/** The halflife as the Inertializer takes it: a number, or one value per bone (agreeing across mixers). */
function halflives(
  method: string,
  names: Names,
  mixers: readonly AnimationMixer[],
  slots: Slot[][],
  bones: number,
  halflife: InertializedMixerOptions['halflife'],
): number | Float32Array {
  if (typeof halflife === 'number') return halflife;
  const perBone = new Float32Array(bones);
  const set = new Uint8Array(bones);
  slots.forEach((list, m) =>
    list.forEach((slot, j) => {
      const h = halflife(slot.object);
      const object = () => animatedName(names.mixer(m), mixers[m]!, slot.object);
      try {
        checkHalflife(method, 'options.halflife', h);
      } catch {
        checkHalflife(method, `options.halflife(${object()})`, h); // the same error, naming the object (named only on error: a path costs a walk)
      }
      if (set[j] && perBone[j] !== Math.fround(h)) {
        throw new RangeError(
          `${method}: options.halflife gives ${h} for ${object()} of ${names.mixer(m)} but ${perBone[j]} for object ${j} of another mixer; objects at the same place must share a halflife`,
        );
      }
      perBone[j] = h;
      set[j] = 1;
    }),
  );
  return perBone;
}

/**
 * Velocities of bones [first, first + count) from two poses dt apart: v = (x1 − x0)/dt and
 * ω = log(q1 ⊗ q0⁻¹)/dt (shortest arc; the parent frame, dq/dt = ½ ω ⊗ q). dt = 0 gives zero.
 */
function velocities(
  x0: Float32Array,
  q0: Float32Array,
  x1: Float32Array,
  q1: Float32Array,
  dt: number,
  v: Float32Array,
  w: Float32Array,
  first: number,
  count: number,
): void {
  for (let i = first; i < first + count; i++) {
    if (!(dt > 0)) {
      v.fill(0, 3 * i, 3 * i + 3);
      w.fill(0, 3 * i, 3 * i + 3);
      continue;
    }
    for (let k = 3 * i; k < 3 * i + 3; k++) v[k] = (x1[k]! - x0[k]!) / dt;
    const a = q0.subarray(4 * i, 4 * i + 4),
      b = q1.subarray(4 * i, 4 * i + 4);
    const r = toScaledAngleAxis(mul(b, inv(a)));
    w[3 * i] = r[0] / dt;
    w[3 * i + 1] = r[1] / dt;
    w[3 * i + 2] = r[2] / dt;
  }
}

function setVector(target: Vector3, a: Float32Array, o: number): void {
  target.set(a[o]!, a[o + 1]!, a[o + 2]!);
}

/**
 * Where a SkeletonBatch finds bone k of each mesh in a source that animates, per mixer m (mesh m),
 * `objects[m]` at elements m·stride + j: the same j for every mesh, or −1 for a bone no mixer
 * animates; a RangeError naming the mixer when the mixers and the meshes do not match.
 */
function readerSlots(request: PoseRequest, objects: readonly (readonly Object3D[])[]): number[] {
  const { method, name, bones } = request;
  if (objects.length !== bones.length)
    throw new RangeError(`${method}: ${name} has ${objects.length} mixers for ${bones.length} meshes; mixer m must animate mesh m`);
  // each mixer animates bones of its own mesh (or none), else the mixers are in another order than the meshes
  const owner = new Map<Object3D, number>();
  bones.forEach((list, m) => {
    for (const bone of list) owner.set(bone, m);
  });
  objects.forEach((list, m) => {
    const other = list.map((o) => owner.get(o)).find((k) => k !== undefined && k !== m);
    if (other !== undefined)
      throw new RangeError(
        `${method}: ${name}'s mixers[${m}] animates meshes[${other}]'s bones, not meshes[${m}]'s; mixer m must animate mesh m ` +
          '(give the group its mixers in the order of the meshes)',
      );
  });
  return bones[0]!.map((_, k) => {
    const slot = objects[0]!.indexOf(bones[0]![k]!);
    bones.forEach((list, m) => {
      if (objects[m]!.indexOf(list[k]!) !== slot)
        throw new RangeError(
          `${method}: ${name}'s mixers[${m}] animates ${request.boneName(m, list[k]!)} at another place than mixers[0] does ` +
            "meshes[0]'s; the mixers must animate the same bones in the same order (clips of one skeleton)",
        );
    });
    return slot;
  });
}
