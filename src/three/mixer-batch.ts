/**
 * Every AnimationMixer's update(dt) of a crowd in one kernel call: the per-action half of
 * three.js's AnimationMixer.update (times, loops, fades, warps, weights, events) runs three's own
 * action code in JS, action by action, as the mixer would; the per-track half (keyframe search from
 * a cached cursor, interpolation, the weighted accumulation of the actions into each property,
 * PropertyMixer.apply) runs in one call of assembly/kernels/mixer-sampling.ts over every mixer
 * (reference src/reference/mixer-sampling.ts), in float64 as three's PropertyMixer buffers; then
 * each property that changed is written through its own PropertyBinding.setValue, as three's
 * apply does (Object3D transforms: the same fields and Euler, without the Matrix4, as
 * object-writes.ts writes them). Bit for bit three's mixer.update.
 *
 * While attached, each mixer's PropertyMixer buffers and the kernel-taken interpolants' caches live
 * in solver memory (copied from three's at construction and refresh, and back at refresh and
 * dispose); the mixer's own `update` runs its share of the batch (so `mixer.setTime` and code that
 * calls `mixer.update` stay exact), its `_activateAction`/`_deactivateAction` are wrapped to copy an
 * original state three saves (a `play()`) into solver memory and keep the in-use flags, and the
 * methods that add or remove actions and bindings to lay out again. Threaded solvers split the
 * kernel by whole mixers. Tracks the kernel does not take (string and boolean
 * tracks, interpolants other than three's Discrete, Linear, Cubic and QuaternionLinear and
 * GLTFLoader's cubic spline, e.g. custom ones) are left to three's own interpolant and
 * PropertyMixer, per property.
 */
import {
  AdditiveAnimationBlendMode,
  CubicInterpolant,
  DiscreteInterpolant,
  LinearInterpolant,
  AnimationMixer,
  PropertyBinding,
  PropertyMixer,
  QuaternionKeyframeTrack,
  QuaternionLinearInterpolant,
  WrapAroundEnding,
  ZeroSlopeEnding,
  type Euler,
  type Object3D,
  type Quaternion,
  type Vector3,
} from 'three';
import type { Solver, SolverBase } from '../api/solver.js';
import { float64Array, int32View } from '../api/skeleton-kernel.js';
import { sampleMixersCall } from '../api/mixer-kernel.js';
import { checkDt } from '../core/dt.js';
import { describe } from '../core/validate.js';
import {
  ACTION_FLOATS,
  ACTION_INTS,
  APPLY_INTS,
  ENDING_WRAP_AROUND,
  ENDING_ZERO_CURVATURE,
  ENDING_ZERO_SLOPE,
  KIND_CUBIC,
  KIND_DISCRETE,
  KIND_GLTF_CUBIC,
  KIND_GLTF_CUBIC_QUATERNION,
  KIND_LINEAR,
  KIND_QUATERNION,
  MIX_LERP,
  MIX_SLERP,
  RECORD_FLOATS,
  RECORD_INTS,
  ROW_INTS,
  R_BLOCK,
  R_CACHED,
  R_KEYS,
  R_KIND,
  R_MIX,
  R_OFFSET_NEXT,
  R_OFFSET_PREV,
  R_SIZE,
  R_STRIDE,
  R_TIMES,
  R_VALUES,
  type MixerArrays,
  type MixerOutput,
} from '../reference/mixer-sampling.js';
import { OwnedArrays } from '../stateful/owned-arrays.js';
import { ObjectWrites, type Write } from './mixer-writes.js';
import { checkArgumentCount, checkFree, checkSolver, hold, release } from './checks.js';
import { POSE_SOURCE, sameSolver, type PoseReader, type PoseRequest, type PoseSource } from './pose-source.js';
import { MixerPose, boneTarget, type PoseState } from './mixer-pose.js';
import {
  batchInternals,
  controlAction,
  fastTarget,
  noopSetter,
  wrapMixer,
  type ActionInternals,
  type BatchMixerInternals,
  type InterpolantInternals,
  type PropertyMixerInternals,
} from './mixer-bindings.js';

/** One action of a mixer: its kernel records and the tracks left to three. */
interface ActionEntry {
  first: number;
  count: number;
  /** Track indices whose property three's own code accumulates. */
  three: number[];
}

/** One mixer as laid out. */
interface MixerEntry {
  mixer: BatchMixerInternals;
  actions: Map<ActionInternals, ActionEntry>;
  /** Kernel-taken PropertyMixers, in the order of their apply entries, and each one's block. */
  kernel: PropertyMixerInternals[];
  blocks: number[];
  /**
   * How each is written: null by its binding's setValue; else the Object3D whose position or scale
   * (a Vector3) or quaternion (then `euler` is its rotation) three's setter writes.
   */
  /**
   * 1 where the PropertyMixer is in use (three's useCount > 0: applied), kept by the wrapped activation
   * methods: a view of the batch's flags in solver memory (from `firstApply`), which the gather kernel reads.
   */
  active: Uint8Array;
  /** 1 where a SkeletonBatch reads the value from solver memory: the batch does not write it. */
  skip: Uint8Array;
  /**
   * The indices of the PropertyMixers the write loop looks at: not skipped, and not given the group's
   * no-op setter when laid out (kept with `skip`: at layout and when a SkeletonBatch lets go).
   */
  written: Int32Array;
  /**
   * 1 where the write loop sets a bone's quaternion and rotation from the kernel's Euler angles (a
   * written quaternion: kept with `written`), a view of the batch's flags in solver memory (from `firstApply`).
   */
  angles: Uint8Array;
  /** The indices in `written` of the properties written by their binding's setValue (the others: the batch's ObjectWrites). */
  slow: Int32Array;
  /** The value size of each. */
  sizes: Int32Array;
  /** Index in `kernel` of each kernel-taken PropertyMixer. */
  index: Map<PropertyMixerInternals, number>;
  writes: ({ object: Object3D; vector: Vector3 | null; quaternion: Quaternion | null; euler: Euler | null } | null)[];
  /** PropertyMixers left to three. */
  three: PropertyMixerInternals[];
  known: Set<PropertyMixerInternals>;
  firstApply: number;
  /** An action unknown to the layout was activated: its new bindings are applied by three until the next layout. */
  stale: boolean;
  /**
   * Made stale during this update before its turn (an event listener of an earlier mixer played an action
   * this layout does not know): its state went back to three's objects and three's own update ran it.
   */
  detached: boolean;
  unwrap: () => void;
}

/** The kernel's interpolant kind of the interpolant of `track`, or −1 (left to three). */
function interpolantKind(interpolant: InterpolantInternals, track: unknown): number {
  const c = (interpolant as { constructor?: unknown }).constructor;
  if (c === LinearInterpolant) return KIND_LINEAR;
  if (c === QuaternionLinearInterpolant) return interpolant.valueSize % 4 === 0 ? KIND_QUATERNION : -1;
  if (c === DiscreteInterpolant) return KIND_DISCRETE;
  if (c === CubicInterpolant) return KIND_CUBIC;
  if (c !== undefined && c === gltfCubicClass(track)) {
    if (!(track instanceof QuaternionKeyframeTrack)) return KIND_GLTF_CUBIC;
    return interpolant.valueSize === 4 ? KIND_GLTF_CUBIC_QUATERNION : -1;
  }
  return -1;
}

/** Per track, the class of the interpolants its GLTFLoader cubic-spline factory makes. */
const gltfCubicClasses = new WeakMap<object, unknown>();

/**
 * The interpolant class GLTFLoader made `track` create, if its `createInterpolant` is the loader's
 * CUBICSPLINE factory (marked `isInterpolantFactoryMethodGLTFCubicSpline`; three exports neither
 * GLTFCubicSplineInterpolant nor its quaternion variant, so the factory is asked for one, once per
 * track), else undefined.
 */
function gltfCubicClass(track: unknown): unknown {
  if (typeof track !== 'object' || track === null) return undefined;
  const factory = (track as { createInterpolant?: unknown }).createInterpolant as ((this: unknown) => { constructor?: unknown }) & {
    isInterpolantFactoryMethodGLTFCubicSpline?: unknown;
  };
  if (typeof factory !== 'function' || factory.isInterpolantFactoryMethodGLTFCubicSpline !== true) return undefined;
  if (!gltfCubicClasses.has(track)) gltfCubicClasses.set(track, factory.call(track).constructor);
  return gltfCubicClasses.get(track);
}

/** The kernel's mix of a PropertyMixer (three's numeric _lerp or quaternion _slerp), or −1 (left to three). */
function mixKind(pm: PropertyMixerInternals): number {
  const proto = PropertyMixer.prototype as unknown as Record<string, unknown>;
  if (!(pm.buffer instanceof Float64Array)) return -1;
  if (pm._mixBufferRegion === proto._lerp && pm._mixBufferRegionAdditive === proto._lerpAdditive) return MIX_LERP;
  // a quaternion, or a glTF cubic track's three (three's _slerp blends the first, its loops copy and compare all 12)
  const quaternion = pm.valueSize === 4 || pm.valueSize === 12;
  if (pm._mixBufferRegion === proto._slerp && pm._mixBufferRegionAdditive === proto._slerpAdditive && quaternion) return MIX_SLERP;
  return -1;
}

/** The kernel's code of an interpolant ending (three's switch: ZeroSlope, WrapAround, else zero curvature). */
function ending(value: number): number {
  return value === ZeroSlopeEnding ? ENDING_ZERO_SLOPE : value === WrapAroundEnding ? ENDING_WRAP_AROUND : ENDING_ZERO_CURVATURE;
}

/**
 * The PropertyMixers of entry `e` its write loop looks at: those a SkeletonBatch does not read and
 * whose binding does not have the group's no-op setter now (a group gives its setters before the
 * layout it is read from, and gives them back before the next one).
 */
function writtenOf(e: MixerEntry): Int32Array {
  const list: number[] = [];
  e.kernel.forEach((pm, k) => {
    if (e.skip[k] === 1) return;
    if (e.writes[k] === null && pm.binding.setValue === noopSetter) return;
    list.push(k);
  });
  return Int32Array.from(list);
}

/** Sets e.written (writtenOf), e.slow and, unless `memoryGone`, the angle flags of its quaternions. */
function setWritten(e: MixerEntry, memoryGone: boolean): void {
  e.written = writtenOf(e);
  e.slow = e.written.filter((k) => e.writes[k] === null);
  if (memoryGone) return;
  e.angles.fill(0);
  for (const k of e.written) if (e.writes[k]?.quaternion) e.angles[k] = 1;
}

/** The writes of entry e's properties in `written` that its write loop makes itself (not through a binding's setValue). */
function fastWritesOf(e: MixerEntry): Write[] {
  const list: Write[] = [];
  for (const k of e.written) {
    const write = e.writes[k];
    if (!write) continue;
    const size = e.sizes[k]!;
    list.push({ apply: e.firstApply + k, at: e.blocks[k]! + 2 + size, size, ...write });
  }
  return list;
}

/** Whether the write loop has nothing to look at in any of `entries`: no property written, none left to three. */
function nothingWritten(entries: readonly MixerEntry[]): boolean {
  return entries.every((e) => e.written.length === 0 && e.three.length === 0);
}

/** Floats of a block: the two cumulative weights, then the six regions of the buffer. */
function blockLength(valueSize: number): number {
  return 2 + 6 * valueSize;
}

/**
 * Every AnimationMixer's `update(dt)` of a crowd in one call, bit for bit three's: the actions keep
 * three's whole API (`clipAction`, `play`, `crossFadeTo`, loops, weights, time scales, events);
 * the keyframe sampling and blending of every mixer runs in one kernel call.
 * @example
 * ```ts
 * import type { AnimationMixer } from 'three';
 * import { createSolver } from 'spring-solver';
 * import { MixerBatch } from 'spring-solver/three';
 * declare const mixers: AnimationMixer[]; // one per character, actions played as usual
 * const solver = await createSolver();
 * const batch = new MixerBatch(solver, mixers);
 * batch.update(1 / 60); // each frame, instead of: for (const m of mixers) m.update(1 / 60)
 * ```
 * @group Animation
 */
export class MixerBatch implements PoseSource {
  /** The mixers, in order. */
  readonly mixers: readonly AnimationMixer[];
  private readonly solver: SolverBase;
  private owned: OwnedArrays;
  private entries: MixerEntry[] = [];
  private arrays: MixerArrays | null = null;
  private run: (first: number, count: number) => void = () => {};
  private readonly weightOut = new Float64Array(1);
  private relayout = false;
  /**
   * false: update() leaves the kernel-taken properties in solver memory and writes no object (for
   * the benchmark's sampling row: the cost of a pipeline that reads the pose where it is).
   * @internal
   */
  writeObjects = true;
  /**
   * No mixer has a property its write loop looks at (every one read by a SkeletonBatch or given a
   * group's no-op setter, none left to three): the pipeline's case, where the loop is skipped
   * (docs/DECISIONS.md, "Sampling speed"). Kept with each entry's `written`.
   */
  private nothingWritten = false;
  /** The InertializedMixerGroup that reads this batch's buffers (bufferOf), or null. */
  private reader: object | null = null;
  /** The bones a SkeletonBatch reads from this batch's buffers (their position, quaternion and scale not written), or null. */
  private claimed: ReadonlySet<Object3D> | null = null;
  private layoutVersion = 0;
  /** Bumped at each update and activation change: a SkeletonBatch reading the buffers reads them again before a bone's world matrix. */
  private poseChanges = 0;
  /** The in-use flags of every kernel-taken PropertyMixer (one byte each, by apply index), in solver memory. */
  private activeFlags: Uint8Array = new Uint8Array(0);
  /** The write loop's positions, scales and quaternions (kept with the entries' `written`). */
  private objectWrites = new ObjectWrites([]);
  /** Whether a mixer was run through three's own code in the last update (an entry `detached`). */
  private anyDetached = false;
  /** Counts the changes of the mixers' actions and bindings (added or removed) and the layouts. */
  private structureCount = 0;
  /**
   * A reader's output (the arrays each in-use property copies its value to at batch.update), or null;
   * the output the last kernel call wrote (null: none, or a mixer's own update since), and the
   * count of in-use changes (`activations`) then.
   */
  private output: MixerOutput | null = null;
  private wroteTo: MixerOutput | null = null;
  private wroteAt = 0;
  private activations = 0;
  private disposed = false;

  /**
   * Takes over the per-track work of `mixers` (three.js AnimationMixers, one per character, any
   * clips) until dispose(). Their actions are laid out as they are now: call `refresh()` after
   * adding clips or actions (a new action played is also picked up at the next update).
   * @example
   * ```ts
   * import { AnimationMixer, type AnimationClip, type Object3D } from 'three';
   * import { createSolver } from 'spring-solver';
   * import { MixerBatch } from 'spring-solver/three';
   * declare const characters: Object3D[];
   * declare const walk: AnimationClip;
   * const mixers = characters.map((c) => new AnimationMixer(c));
   * for (const m of mixers) m.clipAction(walk).play();
   * const solver = await createSolver();
   * const batch = new MixerBatch(solver, mixers);
   * ```
   */
  constructor(solver: Solver, mixers: readonly AnimationMixer[]) {
    const method = 'MixerBatch';
    // biome-ignore lint/complexity/noArguments: the count given, to refuse extra arguments
    checkArgumentCount(method, arguments.length, ['solver', 'mixers']);
    this.solver = checkSolver(method, solver);
    if (!Array.isArray(mixers) || mixers.length === 0)
      throw new TypeError(`${method}: mixers must be a non-empty array of AnimationMixers, got ${describe(mixers)}`);
    const seen = new Map<AnimationMixer, number>();
    mixers.forEach((mixer, m) => {
      batchInternals(method, `mixers[${m}]`, mixer);
      const before = seen.get(mixer);
      if (before !== undefined) throw new RangeError(`${method}: mixers[${m}] is mixers[${before}]; a mixer can be in a batch once`);
      seen.set(mixer, m);
      checkFree(method, `mixers[${m}]`, mixer);
    });
    this.mixers = [...mixers];
    this.owned = new OwnedArrays(this.solver);
    this.layout(method, false);
    hold(this.mixers, 'attached to a MixerBatch');
  }

  /**
   * How many tracks (one track of one action, every action of every mixer) the kernel samples, and
   * how many are left to three's own interpolants and PropertyMixers (string and boolean tracks,
   * interpolants other than three's Discrete, Linear, Cubic and QuaternionLinear, and every track of
   * a property that one of those animates too).
   * @example
   * ```ts
   * import type { MixerBatch } from 'spring-solver/three';
   * declare const batch: MixerBatch;
   * console.log(batch.tracks); // e.g. { kernel: 75000, three: 0 }
   * ```
   */
  get tracks(): { kernel: number; three: number } {
    let kernel = 0,
      three = 0;
    for (const e of this.entries) {
      for (const entry of e.actions.values()) {
        kernel += entry.count;
        three += entry.three.length;
      }
    }
    return { kernel, three };
  }

  /**
   * Advances every mixer by `dt` seconds (times its `timeScale`), as each `mixer.update(dt)`
   * would, and writes the animated properties that changed.
   * @example
   * ```ts
   * import type { MixerBatch } from 'spring-solver/three';
   * declare const batch: MixerBatch;
   * batch.update(1 / 60); // dt in seconds, before rendering
   * ```
   */
  update(dt: number): void {
    const method = 'MixerBatch.update';
    this.checkUsable(method);
    checkDeltaTime(this, method, dt);
    this.advance(0, this.entries.length, dt, true);
  }

  /**
   * Lays out the mixers' actions and bindings again (after `clipAction` of new clips, or
   * `uncacheClip`/`uncacheAction`); the state of every action, interpolant and property carries over.
   * @example
   * ```ts
   * import type { AnimationClip, AnimationMixer } from 'three';
   * import type { MixerBatch } from 'spring-solver/three';
   * declare const batch: MixerBatch;
   * declare const mixers: AnimationMixer[];
   * declare const jump: AnimationClip;
   * for (const m of mixers) m.clipAction(jump); // a new clip for everyone
   * batch.refresh();
   * ```
   */
  refresh(): void {
    const method = 'MixerBatch.refresh';
    this.checkUsable(method);
    this.layout(method, true);
  }

  /**
   * Gives the mixers back: their state is copied back to three's objects and `mixer.update` runs
   * three's own code again. Idempotent.
   * @example
   * ```ts
   * import type { MixerBatch } from 'spring-solver/three';
   * declare const batch: MixerBatch;
   * batch.dispose(); // the mixers update themselves again
   * ```
   */
  dispose(): void {
    if (this.disposed) return;
    if (this.reader !== null)
      throw new TypeError('MixerBatch.dispose: an InertializedMixerGroup reads this MixerBatch; dispose the group first');
    if (this.claimed !== null)
      throw new TypeError('MixerBatch.dispose: a SkeletonBatch reads this MixerBatch; dispose the SkeletonBatch first');
    this.disposed = true;
    if (!this.solver.isDisposed()) this.writeBack();
    for (const e of this.entries) e.unwrap();
    this.entries = [];
    this.arrays = null;
    this.owned.release();
    release(this.mixers);
  }

  private checkUsable(method: string): void {
    if (this.disposed) throw new TypeError(`${method}: this MixerBatch has been disposed`);
    this.solver.checkLive(method);
  }

  /**
   * Mixers `from` … `to − 1` advanced by dt: three's AnimationMixer.update, the per-track half in the
   * kernel; `output`: the reader's output is written too (batch.update; not a mixer's own update).
   */
  private advance(from: number, to: number, dt: number, output: boolean): void {
    if (this.relayout) this.layout('MixerBatch.update', true);
    this.poseChanges++;
    const a = this.arrays!;
    const ints = a.actionInts;
    const floats = a.actionFloats;
    const out = this.weightOut;
    const rows = a.rows;
    let n = 0;
    for (let m = from; m < to; m++) {
      const e = this.entries[m]!;
      const mixer = e.mixer;
      if (e.stale) {
        // three's own update on three's own state, until the layout that follows this update
        this.writeBack([e]);
        e.detached = true;
        this.anyDetached = true;
        rows[ROW_INTS * m + 1] = 0;
        rows[ROW_INTS * m + 3] = 0;
        (AnimationMixer.prototype.update as (this: unknown, dt: number) => unknown).call(mixer, dt);
        continue;
      }
      // AnimationMixer.update
      const deltaTime = dt * mixer.timeScale;
      mixer.time += deltaTime;
      const time = mixer.time;
      const timeDirection = Math.sign(deltaTime);
      mixer._accuIndex ^= 1;
      const accuIndex = mixer._accuIndex;
      rows[ROW_INTS * m] = n;
      rows[ROW_INTS * m + 4] = accuIndex;
      const actions = mixer._actions;
      const nActions = mixer._nActiveActions;
      for (let i = 0; i !== nActions; ++i) {
        const action = actions[i]!;
        const clipTime = controlAction(action, time, deltaTime, timeDirection, out);
        const weight = out[0]!;
        if (!(weight > 0)) continue;
        const entry = e.actions.get(action)!;
        const additive = action.blendMode === AdditiveAnimationBlendMode;
        if (entry.count > 0) {
          const settings = action._interpolantSettings;
          ints[ACTION_INTS * n] = entry.first;
          ints[ACTION_INTS * n + 1] = entry.count;
          ints[ACTION_INTS * n + 2] = (additive ? 1 : 0) | (ending(settings.endingStart) << 4) | (ending(settings.endingEnd) << 8);
          ints[ACTION_INTS * n + 3] = accuIndex;
          floats[ACTION_FLOATS * n] = clipTime;
          floats[ACTION_FLOATS * n + 1] = weight;
          n++;
        }
        for (const j of entry.three) {
          action._interpolants[j]!.evaluate(clipTime);
          if (additive) action._propertyBindings[j]!.accumulateAdditive(weight);
          else action._propertyBindings[j]!.accumulate(accuIndex, weight);
        }
      }
      rows[ROW_INTS * m + 1] = n - rows[ROW_INTS * m]!;
    }
    a.output = output ? this.output : null;
    a.angles = this.writeObjects && !this.nothingWritten;
    this.run(from, to - from);
    this.wroteTo = a.output;
    this.wroteAt = this.activations;
    // (an action unknown to the layout played during this update flags a new layout: its mixer's bindings are applied below)
    if (!this.writeObjects || (this.nothingWritten && !this.relayout)) return;
    const { blocks, changed, eulers } = a;
    const activeFlags = this.activeFlags;
    for (let m = from; m < to; m++) {
      const e = this.entries[m]!;
      if (e.detached) continue;
      const accuIndex = rows[ROW_INTS * m + 4]!;
      // PropertyMixer.apply's write, for the active bindings (useCount > 0) that changed: positions, scales and
      // quaternions from the flat list, then the other properties through their binding's setValue
      this.objectWrites.write(m, accuIndex, blocks, changed, activeFlags, eulers);
      for (const k of e.slow) {
        if (changed[e.firstApply + k] === 0 || e.active[k] === 0) continue;
        const binding = e.kernel[k]!.binding;
        const size = e.sizes[k]!;
        if (binding.setValue !== noopSetter) binding.setValue(blocks, e.blocks[k]! + 2 + accuIndex * size + size);
      }
      for (const pm of e.three) if (pm.useCount > 0) pm.apply(accuIndex);
      if (e.stale) {
        // bindings of an action activated during this update, new to the layout: three's own apply
        const bindings = e.mixer._bindings;
        for (let i = 0; i < e.mixer._nActiveBindings; i++) if (!e.known.has(bindings[i]!)) bindings[i]!.apply(accuIndex);
      }
    }
  }

  /**
   * Lays out again now if actions or bindings were added or removed since the last layout: a reader
   * (an InertializedMixerGroup) calls it before changing its own state, so that a bad track is a
   * RangeError naming `method` with nothing changed. @internal
   */
  layOutIfChanged(method: string): void {
    this.checkUsable(method);
    if (this.relayout) this.layout(method, true);
  }

  /** The layout's number: a reader's cached {@link MixerBatch.bufferOf} views hold until it changes. @internal */
  get version(): number {
    return this.layoutVersion;
  }

  /**
   * Where mixer m's PropertyMixer `pm` keeps its buffer while attached: the batch's copy in solver
   * memory (`buffer[base …]` laid out as three's `pm.buffer`) for the properties the kernel takes,
   * three's own otherwise. Valid until the layout changes ({@link MixerBatch.version}). @internal
   */
  bufferOf(m: number, pm: object): { buffer: ArrayLike<number>; base: number } {
    const e = this.entries[m];
    const k = e?.index.get(pm as PropertyMixerInternals);
    if (e === undefined || k === undefined || e.detached) return { buffer: (pm as PropertyMixerInternals).buffer, base: 0 };
    return { buffer: this.arrays!.blocks, base: e.blocks[k]! + 2 };
  }

  /**
   * What a reader gathers from (./mixer-pose.ts, the group): the layout's number, the buffers, the
   * in-use flags, the rows (accumulator indices) and the entries, as they are now.
   * @internal
   */
  poseState(): PoseState {
    return {
      version: this.layoutVersion,
      changes: this.poseChanges,
      blocks: this.arrays!.blocks,
      active: this.activeFlags,
      rows: this.arrays!.rows,
      rowInts: ROW_INTS,
      anyDetached: this.anyDetached,
      entries: this.entries,
    };
  }

  /**
   * Makes `output` the reader's output for the current layout (null: none): at each batch.update,
   * each kernel-taken property in use listed in `places` ([apply index, first float, array: 0
   * positions, 1 rotations, 2 scales] triples) copies its value there as it is finished. A layout
   * drops it (the reader makes it again with its plan).
   * @internal
   */
  setOutput(output: MixerOutput | null, places: Int32Array): void {
    const a = this.arrays!;
    for (let p = 0; p < a.changed.length; p++) a.applyInts[APPLY_INTS * p + 3] = -1;
    this.output = output;
    this.wroteTo = null;
    if (output === null) return;
    for (let i = 0; i < places.length; i += 3) a.applyInts[APPLY_INTS * places[i]! + 3] = 4 * places[i + 1]! + places[i + 2]!;
  }

  /**
   * Whether `output` holds the value of every property in use it lists, as of now: the last update
   * was batch.update with it (not a mixer's own update), and no property came into or went out of
   * use since (a reader then gathers them itself).
   * @internal
   */
  wrote(output: MixerOutput): boolean {
    return this.wroteTo === output && this.wroteAt === this.activations;
  }

  /**
   * A number that changes whenever an action or a binding of a mixer was added or removed, or the
   * batch laid out again: a reader that checks the mixers' bindings need not look while it stands.
   * @internal
   */
  get structure(): number {
    return this.structureCount;
  }

  /**
   * Read by an InertializedMixerGroup (`reader`; null: read no longer), which finds each mixer's pose
   * with {@link MixerBatch.bufferOf}: every property is then written through its binding's own setter
   * (the group's no-op for the properties it writes: not called). Lays out again.
   * @internal
   */
  readBy(method: string, reader: object | null): void {
    if (reader === null) {
      // laid out again (its fast writes back) at the next update: the group's dispose does not throw for a bad track
      // played since the last layout, which that update refuses
      this.reader = null;
      this.relayout = true;
      return;
    }
    this.checkUnread(method);
    this.reader = reader;
    this.layout(method, true);
  }

  /**
   * A SkeletonBatch's reader of the bones' pose in this batch's buffers (./mixer-pose.ts): while it
   * is open, the batch does not write the position, quaternion and scale of the meshes' bones.
   * @internal
   */
  [POSE_SOURCE](request: PoseRequest): PoseReader {
    const { method, name } = request;
    this.checkUsable(`${method}: ${name}`);
    sameSolver(request, this.solver, 'MixerBatch');
    if (this.reader !== null)
      throw new RangeError(
        `${method}: ${name} is a MixerBatch read by an InertializedMixerGroup; give the SkeletonBatch the group as its source`,
      );
    if (this.claimed !== null) throw new RangeError(`${method}: ${name} is already read by a SkeletonBatch; dispose it first`);
    if (this.mixers.length !== request.bones.length)
      throw new RangeError(
        `${method}: ${name} has ${this.mixers.length} mixers for ${request.bones.length} meshes; mixer m must animate mesh m`,
      );
    this.claimed = new Set(request.bones.flat());
    const state = (): PoseState => this.poseState();
    const release = (): void => {
      this.claimed = null;
      if (this.arrays !== null && !this.solver.isDisposed()) this.setOutput(null, new Int32Array(0));
      const memoryGone = this.arrays === null || this.solver.isDisposed();
      for (const e of this.entries) {
        e.skip.fill(0);
        setWritten(e, memoryGone);
      }
      this.objectWrites = new ObjectWrites(this.entries.map(fastWritesOf));
      this.nothingWritten = nothingWritten(this.entries);
    };
    try {
      this.layout(method, true);
      return new MixerPose(request, state, release, this);
    } catch (error) {
      release();
      throw error;
    }
  }

  /** A TypeError or RangeError naming `method` unless the batch is live and read by nobody (before a group takes anything). @internal */
  checkUnread(method: string): void {
    this.checkUsable(method);
    if (this.reader !== null)
      throw new RangeError(`${method}: the MixerBatch is already read by an InertializedMixerGroup; dispose it first`);
    if (this.claimed !== null) throw new RangeError(`${method}: the MixerBatch is read by a SkeletonBatch; dispose it first`);
  }

  /** Whether the batch's memory is `solver`'s. @internal */
  belongsTo(solver: Solver): boolean {
    return this.solver === solver;
  }

  /** A TypeError naming `method` when the batch has been disposed or its solver is. @internal */
  checkLive(method: string): void {
    this.checkUsable(method);
  }

  /** Copies the kernel's state (property buffers, interpolant caches) of `entries` back to three's objects. */
  private writeBack(entries: readonly MixerEntry[] = this.entries): void {
    const a = this.arrays;
    if (a === null) return;
    for (const e of entries) {
      if (e.detached) continue;
      e.kernel.forEach((pm, k) => {
        const b = e.blocks[k]!;
        pm.cumulativeWeight = a.blocks[b]!;
        pm.cumulativeWeightAdditive = a.blocks[b + 1]!;
        const buffer = pm.buffer;
        // (element by element: a subarray would be one more object per property of the crowd)
        for (let i = 0; i < buffer.length; i++) buffer[i] = a.blocks[b + 2 + i]!;
      });
      for (const [action, entry] of e.actions) {
        let r = entry.first;
        action._interpolants.forEach((interpolant, j) => {
          if (entry.three.includes(j)) return;
          const R = RECORD_INTS * r;
          interpolant._cachedIndex = a.recordInts[R + R_CACHED]!;
          if (a.recordInts[R + R_KIND] === KIND_CUBIC) {
            interpolant._weightPrev = a.recordFloats[RECORD_FLOATS * r]!;
            interpolant._weightNext = a.recordFloats[RECORD_FLOATS * r + 1]!;
            interpolant._offsetPrev = a.recordInts[R + R_OFFSET_PREV]!;
            interpolant._offsetNext = a.recordInts[R + R_OFFSET_NEXT]!;
          }
          r++;
        });
      }
    }
  }

  /**
   * Lays out every mixer's actions and bindings in solver memory from three's objects (after
   * copying the current state back to them when `again`); checks every track first, so a bad one
   * leaves everything as it was.
   */
  private layout(method: string, again: boolean): void {
    // checks first: nothing is changed by a refused layout
    // (a crowd's mixers share their clips' key arrays: each array checked once a layout)
    const checked = new Set<ArrayLike<number>>();
    const plans = this.mixers.map((mixer, m) => planMixer(method, `mixers[${m}]`, batchInternals(method, `mixers[${m}]`, mixer), checked));
    if (again) {
      this.writeBack();
      for (const e of this.entries) e.unwrap();
      this.owned.release();
      this.owned = new OwnedArrays(this.solver);
    }
    this.relayout = false;
    this.layoutVersion++;
    this.structureCount++;
    this.anyDetached = false;
    const alloc = (length: number): Float32Array => this.owned.alloc(length);
    // sizes
    let nRecords = 0,
      nBlocks = 0,
      nApplies = 0,
      nActions = 0;
    const keyArrays = new Map<ArrayLike<number>, number>();
    // arrays of equal content stored once (a BVH or glTF clip's tracks have equal times): one track's keys in cache serve the next
    const sameKeys = new KeyContents();
    const stored: ArrayLike<number>[] = [];
    let nKeys = 0;
    for (const plan of plans) {
      nActions += plan.mixer._actions.length;
      for (const pm of plan.kernel) {
        nBlocks += blockLength(pm.valueSize);
        nApplies++;
      }
      for (const action of plan.mixer._actions) {
        action._interpolants.forEach((interpolant, j) => {
          if (!plan.kernel.has(action._propertyBindings[j]!)) return;
          nRecords++;
          for (const keys of [interpolant.parameterPositions, interpolant.sampleValues]) {
            if (keyArrays.has(keys)) continue;
            const same = sameKeys.find(keys);
            if (same !== undefined) {
              keyArrays.set(keys, keyArrays.get(same)!);
              continue;
            }
            keyArrays.set(keys, nKeys);
            stored.push(keys);
            nKeys += keys.length;
          }
        });
      }
    }
    const a: MixerArrays = {
      actionInts: int32View(alloc(ACTION_INTS * Math.max(1, nActions))),
      actionFloats: float64Array(alloc, ACTION_FLOATS * Math.max(1, nActions)),
      recordInts: int32View(alloc(RECORD_INTS * Math.max(1, nRecords))),
      recordFloats: float64Array(alloc, RECORD_FLOATS * Math.max(1, nRecords)),
      keys: float64Array(alloc, Math.max(1, nKeys)),
      blocks: float64Array(alloc, Math.max(1, nBlocks)),
      applyInts: int32View(alloc(APPLY_INTS * Math.max(1, nApplies))),
      changed: int32View(alloc(Math.max(1, nApplies))).subarray(0, nApplies),
      rows: int32View(alloc(ROW_INTS * plans.length)),
      active: new Uint8Array(0),
      output: null,
      eulerFlags: new Uint8Array(0),
      eulers: float64Array(alloc, 3 * Math.max(1, nApplies)),
      angles: false,
    };
    // a byte an apply, in solver memory
    const byteFlags = (): Uint8Array => {
      const block = alloc(Math.max(1, Math.ceil(nApplies / 4)));
      return new Uint8Array(block.buffer, block.byteOffset, nApplies);
    };
    const activeFlags = byteFlags();
    a.active = activeFlags;
    const angleFlags = byteFlags();
    a.eulerFlags = angleFlags;
    // a reader's output is made for a layout: it makes it again for this one
    this.output = null;
    this.wroteTo = null;
    for (const keys of stored) a.keys.set(keys, keyArrays.get(keys)!);
    let record = 0,
      block = 0,
      apply = 0;
    const entries: MixerEntry[] = [];
    plans.forEach((plan, m) => {
      const mixer = plan.mixer;
      const blockOf = new Map<PropertyMixerInternals, number>();
      const kernel: PropertyMixerInternals[] = [];
      const blocks: number[] = [];
      const writes: MixerEntry['writes'] = [];
      const setter = (PropertyBinding.prototype as unknown as Record<string, unknown>)._setValue_fromArray_setMatrixWorldNeedsUpdate;
      const firstApply = apply;
      for (const pm of mixer._bindings) {
        if (!plan.kernel.has(pm)) continue;
        const size = pm.valueSize;
        blockOf.set(pm, block);
        kernel.push(pm);
        blocks.push(block);
        // (read by a group: every write through the binding's setter, which the group may have made a no-op)
        const fast = this.reader === null ? fastTarget(pm, setter) : null;
        writes.push(
          fast === null
            ? null
            : fast.property === 'quaternion'
              ? { object: fast.object, vector: null, quaternion: fast.object.quaternion, euler: fast.object.rotation }
              : { object: fast.object, vector: fast.object[fast.property], quaternion: null, euler: null },
        );
        a.blocks[block] = pm.cumulativeWeight;
        a.blocks[block + 1] = pm.cumulativeWeightAdditive;
        a.blocks.set(pm.buffer, block + 2);
        const at = APPLY_INTS * apply;
        a.applyInts[at] = block;
        a.applyInts[at + 1] = size;
        a.applyInts[at + 2] = mixKind(pm);
        a.applyInts[at + 3] = -1;
        block += blockLength(size);
        apply++;
      }
      a.rows[ROW_INTS * m + 2] = firstApply;
      a.rows[ROW_INTS * m + 3] = apply - firstApply;
      // the accumulator of the mixer's last update (what a reader gathers from before the next one)
      a.rows[ROW_INTS * m + 4] = mixer._accuIndex;
      const actions = new Map<ActionInternals, ActionEntry>();
      for (const action of mixer._actions) {
        const entry: ActionEntry = { first: record, count: 0, three: [] };
        action._interpolants.forEach((interpolant, j) => {
          const pm = action._propertyBindings[j]!;
          const at = blockOf.get(pm);
          if (at === undefined) {
            entry.three.push(j);
            return;
          }
          const R = RECORD_INTS * record;
          const kind = interpolantKind(interpolant, action._clip.tracks[j]);
          a.recordInts[R + R_KIND] = kind;
          a.recordInts[R + R_TIMES] = keyArrays.get(interpolant.parameterPositions)!;
          a.recordInts[R + R_KEYS] = interpolant.parameterPositions.length;
          a.recordInts[R + R_VALUES] = keyArrays.get(interpolant.sampleValues)!;
          a.recordInts[R + R_SIZE] = interpolant.valueSize;
          a.recordInts[R + R_BLOCK] = at;
          a.recordInts[R + R_CACHED] = interpolant._cachedIndex;
          a.recordInts[R + R_MIX] = mixKind(pm);
          a.recordInts[R + R_STRIDE] = pm.valueSize;
          if (kind === KIND_CUBIC) {
            a.recordFloats[RECORD_FLOATS * record] = interpolant._weightPrev!;
            a.recordFloats[RECORD_FLOATS * record + 1] = interpolant._weightNext!;
            a.recordInts[R + R_OFFSET_PREV] = interpolant._offsetPrev!;
            a.recordInts[R + R_OFFSET_NEXT] = interpolant._offsetNext!;
          }
          record++;
          entry.count++;
        });
        actions.set(action, entry);
      }
      const e: MixerEntry = {
        mixer,
        actions,
        kernel,
        blocks,
        active: activeFlags.subarray(firstApply, apply),
        skip: Uint8Array.from(kernel, (pm) => {
          const target = this.claimed === null ? null : boneTarget(pm);
          return target !== null && this.claimed!.has(target.object) ? 1 : 0;
        }),
        written: new Int32Array(0),
        slow: new Int32Array(0),
        angles: angleFlags.subarray(firstApply, apply),
        sizes: Int32Array.from(kernel, (pm) => pm.valueSize),
        index: new Map(kernel.map((pm, k) => [pm, k])),
        writes,
        three: mixer._bindings.filter((pm) => !plan.kernel.has(pm)),
        known: new Set(mixer._bindings),
        firstApply,
        stale: false,
        detached: false,
        unwrap: () => {},
      };
      e.active.set(Uint8Array.from(kernel, (pm) => (pm.useCount > 0 ? 1 : 0)));
      setWritten(e, false);
      e.unwrap = wrapMixer(
        mixer,
        (action, before) => {
          this.poseChanges++;
          if (!e.actions.has(action)) {
            // (its bindings the layout knows keep their flags and saved state below: a reader gathers them this frame)
            e.stale = true;
            this.relayout = true;
            this.structureCount++;
          }
          action._propertyBindings.forEach((pm, j) => {
            const k = e.index.get(pm);
            if (k === undefined || this.arrays === null) return;
            e.active[k] = pm.useCount > 0 ? 1 : 0;
            this.activations++;
            // three saved the original state of a binding it activated (PropertyMixer.saveOriginalState)
            if (before[j] !== 0 || pm.useCount === 0) return;
            const b = e.blocks[k]!;
            this.arrays.blocks[b] = pm.cumulativeWeight;
            this.arrays.blocks[b + 1] = pm.cumulativeWeightAdditive;
            this.arrays.blocks.set(pm.buffer, b + 2);
          });
        },
        (deltaTime) => {
          const method = 'AnimationMixer.update (in a MixerBatch)';
          this.checkUsable(method);
          checkDeltaTime(this, method, deltaTime);
          this.advance(m, m + 1, deltaTime, false);
        },
        () => {
          this.relayout = true;
          this.structureCount++;
        },
      );
      entries.push(e);
    });
    this.entries = entries;
    this.objectWrites = new ObjectWrites(entries.map(fastWritesOf));
    this.nothingWritten = nothingWritten(entries);
    this.arrays = a;
    this.activeFlags = activeFlags;
    this.run = sampleMixersCall(this.solver, a);
  }
}

/**
 * Key arrays by content: `find(keys)` returns an array seen before with the same length and the same
 * numbers (bit for bit: Object.is, so −0 and 0 differ), or undefined and remembers `keys`.
 */
class KeyContents {
  private readonly byHead = new Map<string, ArrayLike<number>[]>();

  find(keys: ArrayLike<number>): ArrayLike<number> | undefined {
    const n = keys.length;
    const head = n === 0 ? '0' : `${n} ${keys[0]} ${keys[n - 1]} ${keys[n >> 1]}`;
    const list = this.byHead.get(head);
    if (list === undefined) {
      this.byHead.set(head, [keys]);
      return undefined;
    }
    for (const other of list) {
      let i = 0;
      while (i < n && Object.is(keys[i], other[i])) i++;
      if (i === n) return other;
    }
    list.push(keys);
    return undefined;
  }
}

/** What one mixer's layout takes: its internals and the PropertyMixers the kernel takes. */
interface MixerPlan {
  mixer: BatchMixerInternals;
  kernel: Set<PropertyMixerInternals>;
}

/**
 * The PropertyMixers of `mixer` the kernel takes: numeric or quaternion ones whose every track (in
 * every action of the mixer) has an interpolant the kernel computes, bound to the PropertyMixer's
 * buffer. Every numeric track is checked: finite keys, times in order (arrays in `checked` were,
 * in this layout; those checked here are added).
 */
function planMixer(method: string, name: string, mixer: BatchMixerInternals, checked: Set<ArrayLike<number>>): MixerPlan {
  const kernel = new Set<PropertyMixerInternals>();
  const refused = new Set<PropertyMixerInternals>();
  for (const pm of mixer._bindings) (mixKind(pm) >= 0 ? kernel : refused).add(pm);
  for (const action of mixer._actions) {
    const clip = action._clip;
    action._interpolants.forEach((interpolant, j) => {
      const pm = action._propertyBindings[j];
      const track = clip.tracks[j];
      checkKeys(method, interpolant, checked, () => `${name}'s clip ${JSON.stringify(clip.name)} track ${JSON.stringify(track?.name)}`);
      if (pm === undefined) return;
      const kind = interpolantKind(interpolant, track);
      // three sizes a PropertyMixer by its track's getValueSize(): three values a key for a glTF cubic track
      const keyValues = kind === KIND_GLTF_CUBIC || kind === KIND_GLTF_CUBIC_QUATERNION ? 3 : 1;
      const fits = kind >= 0 && interpolant.resultBuffer === pm.buffer && keyValues * interpolant.valueSize === pm.valueSize;
      if (!fits) refused.add(pm);
    });
  }
  for (const pm of refused) kernel.delete(pm);
  return { mixer, kernel };
}

/**
 * A finite number of seconds, as three's mixer.update takes it (negative: played backwards); a
 * large positive one warns as checkDt does.
 */
function checkDeltaTime(owner: object, method: string, dt: unknown): void {
  if (typeof dt !== 'number') throw new TypeError(`${method}: dt must be a number, got ${describe(dt)}`);
  if (!Number.isFinite(dt)) throw new RangeError(`${method}: dt is ${dt}; it must be finite (seconds)`);
  if (dt > 0) checkDt(owner, method, dt);
}

/**
 * Finite keyframe times in ascending order and finite numeric values, or a RangeError naming the
 * track (`where()`); arrays in `checked` are skipped, those checked are added.
 */
function checkKeys(method: string, interpolant: InterpolantInternals, checked: Set<ArrayLike<number>>, where: () => string): void {
  const times = interpolant.parameterPositions;
  const values = interpolant.sampleValues;
  if (!checked.has(times)) {
    for (let i = 0; i < times.length; i++) {
      const t = times[i]!;
      if (typeof t !== 'number' || !Number.isFinite(t))
        throw new RangeError(`${method}: ${where()}: times[${i}] is ${String(t)}; keyframe times must be finite`);
      if (i > 0 && t < times[i - 1]!)
        throw new RangeError(
          `${method}: ${where()}: times[${i}] is ${t}, before times[${i - 1}] = ${times[i - 1]}; keyframe times must be in ascending order`,
        );
    }
    checked.add(times);
  }
  if (!ArrayBuffer.isView(values) || checked.has(values)) return; // string and boolean tracks: left to three
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (!Number.isFinite(v)) throw new RangeError(`${method}: ${where()}: values[${i}] is ${v}; keyframe values must be finite`);
  }
  checked.add(values);
}
