/**
 * What an AnimationMixer animates, read from its bindings: each of its PropertyMixers (the
 * mixer's `_bindings`, one per animated property, created by `clipAction`) holds a
 * PropertyBinding resolved against the mixer's root, and, after every `mixer.update`, the blended
 * result of that frame in its `buffer` at `(accuIndex + 1) · valueSize` (three.js
 * PropertyMixer.apply). Reading that buffer gives the mixer's own pose even where an object holds
 * something else (the inertialized output written over it) and even on frames where the mixer
 * does not write the object because the value did not change.
 * These are three.js internals (r187); they are read here, in one place, and checked.
 */
import type { AnimationMixer, Object3D } from 'three';
import { describe } from '../core/validate.js';

/** The transform properties that are inertialized. */
export type TransformProperty = 'position' | 'quaternion' | 'scale';

/** The parts of a PropertyMixer that are read. */
export interface PropertyMixerLike {
  binding: {
    bind?: () => void;
    setValue?: unknown;
    targetObject?: unknown;
    parsedPath?: { propertyName?: string; propertyIndex?: string | undefined; nodeName?: string };
    _bindings?: unknown;
  };
  buffer: ArrayLike<number>;
  valueSize: number;
}

/** The parts of an AnimationMixer that are read. */
export interface MixerInternals {
  _bindings: PropertyMixerLike[];
  _nActiveBindings: number;
  _accuIndex: number;
}

/**
 * The internals of `mixer` (the argument `name`), checked to be an AnimationMixer whose bindings
 * can be read; the messages name no private field of three.js.
 */
export function internals(method: string, name: string, mixer: AnimationMixer): MixerInternals {
  const m = mixer as unknown as Partial<MixerInternals> & Partial<AnimationMixer>;
  if (typeof m?.clipAction !== 'function' || typeof m.update !== 'function' || typeof m.getRoot !== 'function')
    throw new TypeError(`${method}: ${name} must be an AnimationMixer, got ${describe(mixer)}`);
  if (!Array.isArray(m._bindings) || typeof m._nActiveBindings !== 'number' || typeof m._accuIndex !== 'number') {
    throw new TypeError(
      `${method}: ${name} is an AnimationMixer whose animated values this package cannot read; it needs three.js r150 or later`,
    );
  }
  return m as MixerInternals;
}

/** The Object3D and transform property a PropertyMixer animates, or null for any other property. */
export function transformTarget(
  method: string,
  name: string,
  pm: PropertyMixerLike,
): { object: Object3D; property: TransformProperty } | null {
  const binding = pm.binding;
  if (binding._bindings !== undefined) {
    throw new TypeError(
      `${method}: ${name} animates an AnimationObjectGroup (a composite binding); animate each object with its own mixer`,
    );
  }
  const path = binding.parsedPath;
  const property = path?.propertyName;
  if (property !== 'position' && property !== 'quaternion' && property !== 'scale') return null;
  if (path?.propertyIndex !== undefined) return null; // one component (e.g. position[x]) is not a whole transform
  if (binding.targetObject === undefined && typeof binding.bind === 'function') binding.bind();
  const object = binding.targetObject as Object3D | undefined;
  if (object === undefined || object === null || (object as { isObject3D?: boolean }).isObject3D !== true) return null;
  const size = property === 'quaternion' ? 4 : 3;
  if (pm.valueSize !== size) return null;
  return { object, property };
}

/*
 * What MixerBatch reads and runs of three's animation internals (r187): the actions' per-frame
 * control (AnimationAction._update without its per-track loop), the interpolants' caches, the
 * PropertyMixers' buffers and mix functions, and the mixer's activation methods it wraps.
 */

/** The parts of an AnimationAction that MixerBatch reads and runs. */
export interface ActionInternals {
  enabled: boolean;
  blendMode: number;
  _clip: { name: string; tracks: { name: string; times: ArrayLike<number>; values: ArrayLike<number> }[] };
  _startTime: number | null;
  _interpolants: InterpolantInternals[];
  _propertyBindings: PropertyMixerInternals[];
  _interpolantSettings: { endingStart: number; endingEnd: number };
  _updateWeight(time: number): number;
  _updateTimeScale(time: number): number;
  _updateTime(deltaTime: number): number;
}

/** The parts of an Interpolant that are read: its keys, its result buffer and its cache. */
export interface InterpolantInternals {
  parameterPositions: ArrayLike<number>;
  sampleValues: ArrayLike<number>;
  valueSize: number;
  resultBuffer: unknown;
  _cachedIndex: number;
  // CubicInterpolant's cached interval
  _weightPrev?: number;
  _weightNext?: number;
  _offsetPrev?: number;
  _offsetNext?: number;
  evaluate(t: number): unknown;
}

/** A PropertyMixer's state, its mix functions and its methods. */
export interface PropertyMixerInternals extends PropertyMixerLike {
  binding: PropertyMixerLike['binding'] & { setValue: (buffer: ArrayLike<number>, offset: number) => void; path?: string };
  buffer: Float64Array;
  cumulativeWeight: number;
  cumulativeWeightAdditive: number;
  useCount: number;
  _mixBufferRegion: unknown;
  _mixBufferRegionAdditive: unknown;
  accumulate(accuIndex: number, weight: number): void;
  accumulateAdditive(weight: number): void;
  apply(accuIndex: number): void;
}

/** The parts of an AnimationMixer that MixerBatch reads, runs and wraps. */
export interface BatchMixerInternals {
  time: number;
  timeScale: number;
  _accuIndex: number;
  _actions: ActionInternals[];
  _nActiveActions: number;
  _bindings: PropertyMixerInternals[];
  _nActiveBindings: number;
  _activateAction(action: ActionInternals): void;
  _deactivateAction(action: ActionInternals): void;
  update(deltaTime: number): unknown;
}

/** The mixer internals MixerBatch needs, or a TypeError naming `name` (after {@link internals}'s checks). */
export function batchInternals(method: string, name: string, mixer: AnimationMixer): BatchMixerInternals {
  const m = internals(method, name, mixer) as unknown as BatchMixerInternals;
  if (!Array.isArray(m._actions) || typeof m._nActiveActions !== 'number' || typeof m._activateAction !== 'function')
    throw new TypeError(`${method}: ${name} is an AnimationMixer whose actions this package cannot read; it needs three.js r150 or later`);
  return m;
}

/**
 * AnimationAction._update(time, deltaTime, timeDirection) without its per-track loop: the
 * scheduled start, the time scale (warps), the time (loops, ping-pong, clamping, the 'loop' and
 * 'finished' events) and the weight (fades), each by three's own method. Returns the clip time and
 * writes the weight to `out[0]` (0: the action contributes nothing this frame).
 */
export function controlAction(action: ActionInternals, time: number, deltaTime: number, timeDirection: number, out: Float64Array): number {
  if (!action.enabled) {
    action._updateWeight(time);
    out[0] = 0;
    return 0;
  }
  const startTime = action._startTime;
  if (startTime !== null) {
    const timeRunning = (time - startTime) * timeDirection;
    if (timeRunning < 0 || timeDirection === 0) {
      deltaTime = 0;
    } else {
      action._startTime = null;
      deltaTime = timeDirection * timeRunning;
    }
  }
  deltaTime *= action._updateTimeScale(time);
  const clipTime = action._updateTime(deltaTime);
  out[0] = action._updateWeight(time);
  return clipTime;
}

/**
 * Replaces `mixer._activateAction` and `_deactivateAction` with ones that call three's and then
 * `after(action, before)`, `before` the use counts of the action's bindings before the call (0 → 1
 * in an activation: three saved the binding's original state; → 0: the binding is no longer
 * applied), `mixer.update` with `update`, and the methods that add or remove an action or a
 * binding with ones that call `changed()` after three's. Returns the undo.
 */
export function wrapMixer(
  mixer: BatchMixerInternals,
  after: (action: ActionInternals, before: number[]) => void,
  update: (deltaTime: number) => void,
  changed: () => void,
): () => void {
  const own = mixer as unknown as Record<string, unknown>;
  // an action or binding added or removed (clipAction, uncacheAction, uncacheClip, uncacheRoot): `changed()` after three's
  const structural = ['_addInactiveAction', '_removeInactiveAction', '_addInactiveBinding', '_removeInactiveBinding'] as const;
  for (const name of structural) {
    const three = (mixer as unknown as Record<string, (...args: unknown[]) => unknown>)[name]!;
    own[name] = function (this: BatchMixerInternals, ...args: unknown[]) {
      const result = three.apply(this, args);
      changed();
      return result;
    };
  }
  for (const name of ['_activateAction', '_deactivateAction'] as const) {
    const three = mixer[name];
    own[name] = function (this: BatchMixerInternals, action: ActionInternals) {
      const before = (action._propertyBindings ?? []).map((b) => b?.useCount ?? 0);
      three.call(this, action);
      after(action, before);
    };
  }
  own.update = function (this: BatchMixerInternals, deltaTime: number) {
    update(deltaTime);
    return this;
  };
  return () => {
    delete own._activateAction;
    delete own._deactivateAction;
    delete own.update;
    for (const name of structural) delete own[name];
  };
}

/**
 * Where the value of a PropertyMixer goes when three's write is exactly
 * `resolvedProperty.fromArray(buffer, offset)` then `targetObject.matrixWorldNeedsUpdate = true`
 * (PropertyBinding's setter for an Object3D's position, scale or quaternion), or null (any other
 * binding: written by its own setValue).
 */
export function fastTarget(pm: PropertyMixerInternals, setter: unknown): { object: Object3D; property: TransformProperty } | null {
  const binding = pm.binding as PropertyMixerInternals['binding'] & { resolvedProperty?: unknown };
  if (binding._bindings !== undefined || binding.setValue !== setter) return null;
  const object = binding.targetObject as Object3D | undefined;
  if (object === undefined || object === null || (object as { isObject3D?: boolean }).isObject3D !== true) return null;
  const property = binding.parsedPath?.propertyName;
  if (property !== 'position' && property !== 'quaternion' && property !== 'scale') return null;
  if (binding.resolvedProperty !== object[property]) return null;
  return { object, property };
}

/**
 * The region of `pm`'s buffer that holds the original value three restores when the property is no
 * longer in use (PropertyMixer's `_origIndex`, 3 in r187).
 */
export function originalRegion(pm: PropertyMixerLike): number {
  return (pm as { _origIndex?: number })._origIndex ?? 3;
}

/** The setter an InertializedMixerGroup gives the bindings it writes itself (MixerBatch skips calling it). */
export function noopSetter(): void {}
