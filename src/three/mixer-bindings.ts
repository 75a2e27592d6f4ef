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
