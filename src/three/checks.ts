/**
 * What every class of spring-solver/three and spring-solver/vrm checks before it takes anything
 * over: the solver, the options (no unknown key: core/validate.ts), the count of arguments, that a
 * three.js object is attached to one of them at a time and that a float is sprung by one of them at
 * a time; and how their messages name an object (its name, or its path when it has none).
 * @internal
 */
import type { Object3D } from 'three';
import { SolverBase, type Solver } from '../api/solver.js';
import { checkFloat32Number, checkNumber, checkOptions, describe } from '../core/validate.js';

export { checkOptions, checkArgumentCount } from '../core/validate.js';

/** `solver` as a live SolverBase, or a TypeError naming `method`. */
export function checkSolver(method: string, solver: Solver): SolverBase {
  if (!(solver instanceof SolverBase)) throw new TypeError(`${method}: solver must be a Solver from createSolver, got ${describe(solver)}`);
  solver.checkLive(method);
  return solver;
}

/** The objects a class of this module holds in one way, and by what (e.g. "attached to a SkeletonBatch"). */
export class Holds {
  private readonly holders = new WeakMap<object, string>();

  /** A RangeError naming `method` and `name` (or what it returns: a path is found only on error) when `object` is already held. */
  check(method: string, name: string | (() => string), object: object): void {
    const holder = this.holders.get(object);
    if (holder !== undefined)
      throw new RangeError(`${method}: ${typeof name === 'string' ? name : name()} is already ${holder}; dispose it first`);
  }

  /** Marks `objects` held, as `holder` says ("attached to an InertializedMixer"), until release. */
  hold(objects: Iterable<object>, holder: string): void {
    for (const object of objects) this.holders.set(object, holder);
  }

  release(objects: Iterable<object>): void {
    for (const object of objects) this.holders.delete(object);
  }
}

/**
 * What is attached to one object of this module at a time: mixers, skeletons, bones, meshes,
 * attributes, groups read by a batch, spring-bone joints.
 */
const attachments = new Holds();
export const checkFree = attachments.check.bind(attachments);
export const hold = attachments.hold.bind(attachments);
export const release = attachments.release.bind(attachments);

/**
 * The objects the mixers of InertializedMixerGroups (and InertializedMixers) animate: one group at a
 * time (a bone of a SkeletonBatch may be one of them, so these are held apart from the attachments).
 */
export const animated = new Holds();

/**
 * The floats of one buffer that an AttributeSprings or InstancedSprings writes: items of `width`
 * floats, every `stride` floats, from float `first` of the buffer to `end`.
 */
export interface Span {
  first: number;
  end: number;
  stride: number;
  width: number;
}

const spans = new WeakMap<ArrayBufferLike, { span: Span; holder: string }[]>();

/** Whether two spans of one buffer share a float (spans of different strides that meet are said to). */
function overlap(a: Span, b: Span): boolean {
  if (a.end <= b.first || b.end <= a.first || a.end === a.first || b.end === b.first) return false;
  if (a.stride !== b.stride) return true;
  const s = a.stride;
  const d = (((b.first - a.first) % s) + s) % s; // where b's items start within a's period
  return d < a.width || d + b.width > s;
}

/** A RangeError naming `method` and `name` when `span` of `buffer` shares floats with one already sprung. */
export function checkSpan(method: string, name: string, buffer: ArrayBufferLike, span: Span): void {
  const other = spans.get(buffer)?.find((held) => overlap(held.span, span));
  if (other !== undefined)
    throw new RangeError(
      `${method}: ${name} share floats with ${other.holder}; a float can be sprung by one object at a time (dispose it first)`,
    );
}

export function holdSpan(buffer: ArrayBufferLike, span: Span, holder: string): void {
  const list = spans.get(buffer);
  if (list) list.push({ span, holder });
  else spans.set(buffer, [{ span, holder }]);
}

export function releaseSpan(buffer: ArrayBufferLike, span: Span): void {
  const list = spans.get(buffer);
  const i = list?.findIndex((held) => held.span === span) ?? -1;
  if (i >= 0) list!.splice(i, 1);
}

/** "a SkeletonBatch", "an InstancedSprings". */
export function withArticle(name: string): string {
  return `${/^[AEIOU]/.test(name) ? 'an' : 'a'} ${name}`;
}

/**
 * How a message names `object`, reached from the argument `label` (the object `from`): its name in
 * quotes, or, unnamed, its path: from `label` up to the ancestor it shares with `object`
 * (`meshes[2].parent`), then the nearest named object on the way down, then `leaf` (e.g. `bone 7`),
 * or without one the child indices (`meshes[3] > "Armature" > children[0]`).
 */
export function objectName(label: string, from: Object3D, object: Object3D, leaf?: string): string {
  if (object.name !== '' && leaf === undefined) return JSON.stringify(object.name);
  const above = new Map<Object3D, number>();
  let depth = 0;
  for (let o: Object3D | null = from; o !== null; o = o.parent) above.set(o, depth++);
  const down: string[] = [];
  let o: Object3D | null = object;
  let named = false;
  if (leaf !== undefined) {
    down.push(leaf);
    o = object.parent;
  }
  while (o !== null && !above.has(o)) {
    const parent: Object3D | null = o.parent;
    if (!named) {
      if (o.name !== '' && o !== object) {
        down.unshift(JSON.stringify(o.name));
        named = true;
      } else if (leaf === undefined) {
        down.unshift(parent === null ? 'a parentless object' : `children[${parent.children.indexOf(o)}]`);
      }
    }
    o = parent;
  }
  const start = o === null ? label : label + '.parent'.repeat(above.get(o)!);
  return [start, ...down].join(' > ');
}

/**
 * The options of springing an InstancedMesh's instances (InstancedSprings, GpuInstancedSprings):
 * halflife in s (default 0.25), rotation and scale booleans (default false); a TypeError or
 * RangeError naming `method` and the option.
 */
export function checkInstanceOptions(method: string, options: object): { halflife: number; rotation: boolean; scale: boolean } {
  const {
    rotation = false,
    scale = false,
    halflife = 0.25,
  } = checkOptions(method, options as Record<string, unknown>, ['halflife', 'rotation', 'scale']);
  if (typeof rotation !== 'boolean') throw new TypeError(`${method}: options.rotation must be a boolean, got ${describe(rotation)}`);
  if (typeof scale !== 'boolean') throw new TypeError(`${method}: options.scale must be a boolean, got ${describe(scale)}`);
  return { halflife: checkHalflife(method, 'options.halflife', halflife), rotation, scale };
}

/** A halflife (s): a number, finite and ≥ 0 in float32 (as the kernels take it), or a TypeError/RangeError naming `name`. */
export function checkHalflife(method: string, name: string, value: unknown): number {
  checkFloat32Number(method, name, checkNumber(method, name, value, 'nonNegative'), 'nonNegative');
  return value as number;
}
