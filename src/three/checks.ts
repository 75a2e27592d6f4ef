/**
 * What every class of spring-solver/three checks before it takes anything over: the solver, the
 * options (no unknown key), and that a three.js object is attached to one of them at a time; and how
 * their messages name an object (its name, or its path when it has none).
 * @internal
 */
import type { Object3D } from 'three';
import { SolverBase, type Solver } from '../api/solver.js';
import { checkFloat32Number, checkNumber, describe } from '../core/validate.js';

/** `solver` as a live SolverBase, or a TypeError naming `method`. */
export function checkSolver(method: string, solver: Solver): SolverBase {
  if (!(solver instanceof SolverBase)) throw new TypeError(`${method}: solver must be a Solver from createSolver, got ${describe(solver)}`);
  solver.checkLive(method);
  return solver;
}

/** `options` as an object whose keys are all in `known`, or a TypeError naming the first other one. */
export function checkOptions<T extends object>(method: string, options: T, known: readonly string[]): T {
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw new TypeError(`${method}: options must be an object, got ${describe(options)}`);
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) throw new TypeError(`${method}: options.${key} is not an option (${known.join(', ')})`);
  }
  return options;
}

/** Which object of this module each three.js object (mixer, skeleton, bone, mesh, attribute, group) is held by. */
const holders = new WeakMap<object, string>();

/** A RangeError naming `method` and `name` when `object` is already held (e.g. "attached to a SkeletonBatch"). */
export function checkFree(method: string, name: string, object: object): void {
  const holder = holders.get(object);
  if (holder !== undefined) throw new RangeError(`${method}: ${name} is already ${holder}; dispose it first`);
}

/** Marks `objects` held, as `holder` says ("attached to an InertializedMixer"), until release. */
export function hold(objects: Iterable<object>, holder: string): void {
  for (const object of objects) holders.set(object, holder);
}

export function release(objects: Iterable<object>): void {
  for (const object of objects) holders.delete(object);
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

/** A halflife (s): a number, finite and ≥ 0 in float32 (as the kernels take it), or a TypeError/RangeError naming `name`. */
export function checkHalflife(method: string, name: string, value: unknown): number {
  checkFloat32Number(method, name, checkNumber(method, name, value, 'nonNegative'), 'nonNegative');
  return value as number;
}
