/**
 * Argument checks shared by every backend. Every error names the method and the argument.
 * Checks run before anything is written, so a rejected call changes nothing.
 */
import type { Param } from './types.js';

/** What a parameter may be: ≥ 0 (halflife, frequency, stiffness, damping) or > 0 (damping ratio). */
export type ParamRule = 'nonNegative' | 'positive';

export interface ArrayArg {
  name: string;
  array: unknown;
  /** Written by the call (checked for overlap with every other array). */
  output?: boolean;
  /** Floats per element (3 for a vec3, 4 for a quaternion); 1 by default. */
  width?: number;
  /**
   * For an input: the outputs it may be the very same array of (same buffer, offset and length),
   * because the kernel reads element i of it before writing element i of them. Any other overlap
   * with an output is rejected (docs/DECISIONS.md, "Aliasing").
   */
  aliases?: readonly string[];
}

/** An array argument as checkOverlap sees it. */
export interface OverlapArg {
  name: string;
  array: Float32Array;
  output?: boolean;
  aliases?: readonly string[];
}

export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an Array';
  if (typeof value === 'object') return (value as object).constructor?.name ?? 'an object';
  return typeof value === 'number' ? `the number ${show(value)}` : typeof value;
}

/** A number as a message shows it: −0 as "-0" (template strings print it as "0"). */
export function show(value: number): string {
  return Object.is(value, -0) ? '-0' : String(value);
}

/**
 * True when `array`'s buffer was detached (transferred): its views then have length 0, and
 * creating a view of the buffer throws. Checked only for empty arrays, so the check is free.
 */
export function isDetached(array: Float32Array): boolean {
  if (array.length !== 0) return false;
  try {
    new Uint8Array(array.buffer, 0, 0);
    return false;
  } catch {
    return true;
  }
}

/** A TypeError for a detached array argument. */
function detached(method: string, name: string): TypeError {
  return new TypeError(`${method}: ${name} is a Float32Array whose buffer is detached (transferred); it must be a usable array`);
}

/** Checks types and lengths; returns the element count n (length of the first array / width). */
export function checkArrays(method: string, args: ArrayArg[]): number {
  let n = -1;
  let first = '';
  for (const { name, array, width = 1 } of args) {
    if (!(array instanceof Float32Array)) {
      throw new TypeError(`${method}: ${name} must be a Float32Array, got ${describe(array)}`);
    }
    if (isDetached(array)) throw detached(method, name);
    if (n < 0) {
      if (array.length % width !== 0) {
        throw new RangeError(`${method}: ${name} has length ${array.length}, which is not a multiple of ${width}`);
      }
      n = array.length / width;
      first = name;
    } else if (array.length !== n * width) {
      throw new RangeError(`${method}: ${name} has length ${array.length}, expected ${n * width} (${n} elements × ${width}, as ${first})`);
    }
  }
  return n;
}

/**
 * Outputs may not overlap any other array, except that an input may be the very same array
 * as an output (same buffer, offset and length) when the input lists that output in `aliases`.
 */
export function checkOverlap(method: string, args: OverlapArg[]): void {
  // buffer, byteOffset and byteLength are getters that cost several times a plain property read
  // in V8: read once per array, not once per pair (14 arrays: 91 pairs)
  const k = args.length;
  const buffers: ArrayBufferLike[] = new Array(k);
  const starts: number[] = new Array(k);
  const ends: number[] = new Array(k);
  for (let i = 0; i < k; i++) {
    const array = args[i].array;
    buffers[i] = array.buffer;
    starts[i] = array.byteOffset;
    ends[i] = starts[i] + array.byteLength;
  }
  for (let i = 0; i < k; i++) {
    for (let j = i + 1; j < k; j++) {
      const a = args[i];
      const b = args[j];
      if (!a.output && !b.output) continue;
      if (buffers[i] !== buffers[j]) continue;
      const aStart = starts[i];
      const bStart = starts[j];
      const aEnd = ends[i];
      const bEnd = ends[j];
      if (aEnd <= bStart || bEnd <= aStart || aEnd === aStart || bEnd === bStart) continue;
      const identical = aStart === bStart && aEnd === bEnd;
      const [input, output] = a.output ? [b, a] : [a, b];
      const allowed = input.aliases ?? [];
      if (identical && !input.output && allowed.includes(output.name)) continue;
      throw new RangeError(
        `${method}: ${a.name} and ${b.name} overlap in memory; ` +
          (a.output && b.output
            ? 'outputs must be distinct arrays'
            : allowed.length === 0
              ? `${input.name} must not share memory with an output`
              : `${input.name} may only be the very same array as ${allowed.join(' or ')}`),
      );
    }
  }
}

/** −0 breaks the rule too: 4·ln2/−0 is −∞, so a halflife of −0 would give NaN (docs/DECISIONS.md). */
function isValid(value: number, rule: ParamRule): boolean {
  return (rule === 'positive' ? value > 0 : value > 0 || Object.is(value, 0)) && value < Infinity;
}

function ruleText(rule: ParamRule): string {
  return rule === 'positive' ? 'finite and > 0' : 'finite and ≥ 0 (+0, not −0)';
}

/**
 * A number parameter must keep its rule once rounded to float32, the format of a per-element
 * parameter (and of a uniform one in the per-element and generic kernels): so 1e300 (∞ in
 * float32) and, for a rule > 0, 1e-50 (0 in float32) are rejected on every path (docs/DECISIONS.md,
 * "Accepted ranges").
 */
export function checkFloat32Number(method: string, name: string, value: number, rule: ParamRule): void {
  if (!isValid(value, rule)) throw new RangeError(`${method}: ${name} is ${show(value)}; it must be ${ruleText(rule)}`);
  const rounded = Math.fround(value);
  if (!isValid(rounded, rule)) {
    throw new RangeError(`${method}: ${name} is ${value}, which is ${rounded} as float32; it must be ${ruleText(rule)} in float32`);
  }
}

/**
 * Checks a parameter: a number, or a Float32Array with one value per element.
 * `firstInvalid` finds the first bad element of an array (the wasm backends scan their own memory).
 */
export function checkParam(
  method: string,
  name: string,
  param: Param,
  n: number,
  rule: ParamRule,
  firstInvalid: (array: Float32Array, rule: ParamRule) => number,
): void {
  if (typeof param === 'number') {
    checkFloat32Number(method, name, param, rule);
    return;
  }
  if (!(param instanceof Float32Array)) {
    throw new TypeError(`${method}: ${name} must be a number or a Float32Array, got ${describe(param)}`);
  }
  if (isDetached(param)) throw detached(method, name);
  if (param.length !== n) {
    throw new RangeError(`${method}: ${name} has length ${param.length}, expected ${n} (one value per element)`);
  }
  const bad = firstInvalid(param, rule);
  if (bad >= 0) {
    throw new RangeError(`${method}: ${name}[${bad}] is ${show(param[bad])}; it must be ${ruleText(rule)}`);
  }
}

/** The JS scan used for arrays outside wasm memory and by the JS backend. */
export function firstInvalidJs(array: Float32Array, rule: ParamRule): number {
  for (let i = 0; i < array.length; i++) if (!isValid(array[i], rule)) return i;
  return -1;
}

export function checkNumber(method: string, name: string, value: unknown, rule: ParamRule): number {
  if (typeof value !== 'number') throw new TypeError(`${method}: ${name} must be a number, got ${describe(value)}`);
  if (!isValid(value, rule)) throw new RangeError(`${method}: ${name} is ${show(value)}; it must be ${ruleText(rule)}`);
  return value;
}

/** A count: a whole number ≥ 1. */
export function checkCount(method: string, name: string, value: unknown): number {
  checkNumber(method, name, value, 'positive');
  if (!Number.isInteger(value)) throw new RangeError(`${method}: ${name} is ${value}; it must be a whole number`);
  return value as number;
}

/**
 * `options` as an object of options (a plain object: `{ … }`) whose own keys are all in `known`, or
 * a TypeError naming `method` and, for a key that is not an option (a typo such as `halfLife`), the
 * key and the options there are. `name` is how the message names the object (`options`,
 * `options.wasm`). The keys are walked without allocating (pdSpring and springStrided check theirs per call).
 */
export function checkOptions<T extends object>(method: string, options: T, known: readonly string[], name = 'options'): T {
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw new TypeError(`${method}: ${name} must be an object, got ${describe(options)}`);
  // a plain object's prototype is its realm's Object.prototype (whose own is null), or null
  const proto = Object.getPrototypeOf(options);
  if (proto !== null && Object.getPrototypeOf(proto) !== null)
    throw new TypeError(`${method}: ${name} must be a plain object ({ ${known.join(', ')} }), got ${describe(options)}`);
  for (const key in options) {
    // (a key set to undefined gives nothing, so it loses nothing either: `{ frequency: maybe }` stays allowed)
    if (Object.hasOwn(options, key) && !known.includes(key) && (options as Record<string, unknown>)[key] !== undefined)
      throw new TypeError(`${method}: ${name}.${key} is not an option; the options are ${known.join(', ')}`);
  }
  return options;
}

/**
 * A TypeError naming `method` when it was given more arguments than it takes (`names`, in order):
 * an extra argument is never read, so a call such as `batch.update(dt)` or `im.transition(mixer)`
 * would do something else than it seems to.
 */
export function checkArgumentCount(method: string, given: number, names: readonly string[]): void {
  if (given <= names.length) return;
  const takes =
    names.length === 0
      ? 'takes no arguments'
      : `takes ${names.length === 1 ? 'one argument' : `${names.length} arguments`} (${names.join(', ')})`;
  throw new TypeError(`${method}: ${takes}, got ${given} arguments`);
}
