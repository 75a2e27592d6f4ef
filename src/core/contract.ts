/**
 * The kernel contract: everything a family of methods (src/methods/) needs to check a call and
 * run a kernel on any backend. A leaf module: it imports only the core types and checks, never
 * the API or a backend, so the families and the solver can import it without an import circle.
 *
 * A method body is: name its arrays (`written`/`read`), its parameters (`ParamSpec`), then
 * `checkAndRun` — the call is checked first (nothing is written when it throws), then the kernel
 * runs with the checked arrays as its operands, in the order given.
 */
import type { Param } from './types.js';
import type { ArrayArg, ParamRule } from './validate.js';
import type { KernelExports } from './kernel-exports.js';

export type { Param } from './types.js';
export type { ArrayArg, ParamRule } from './validate.js';
export { checkNumber, checkOptions, describe } from './validate.js';
export { checkDt } from './dt.js';
export { MAX_SUBSTEPS } from './limits.js';

/** A parameter of a call: its name (for errors), its value, and the rule it must keep. */
export type ParamSpec = [name: string, value: Param, rule: ParamRule];

/** An array argument of a kernel: null for an absent optional array (the kernel sees pointer 0). */
export interface Operand {
  array: Float32Array | null;
  /** Floats per element. */
  width: number;
  output: boolean;
}

/** The name of a wasm kernel: a key of the build's exports, so a typo fails to compile. */
export type KernelName = {
  [K in keyof KernelExports]: KernelExports[K] extends (...args: number[]) => void ? K : never;
}[keyof KernelExports];

/**
 * A kernel run the same way on every backend. The wasm export is called as
 * `(pointer per operand…, n, (pointer, stride) per param…, scalars…)`, where stride 0 means a
 * broadcast value; `js` is the float64 reference taking the same operands, params and scalars.
 */
export interface Kernel {
  wasm: KernelName;
  js: (arrays: (Float32Array | null)[], params: Param[], scalars: number[], n: number) => void;
}

/** What a family's methods see as `this`: the solver's checks and its kernel runner. */
export interface KernelHost {
  /** Throws a TypeError naming `method` once the solver is disposed. */
  checkLive(method: string): void;
  /**
   * Checks a call: not disposed, arrays, parameters, overlaps, dt. Returns the parameters, with
   * numbers rounded to float32 when `roundUniform` is set or another parameter is per-element.
   */
  checkCall(method: string, arrays: ArrayArg[], params: ParamSpec[], dt: unknown, roundUniform?: boolean): Param[];
  /** Runs a kernel on checked arguments over n elements. */
  runKernel(kernel: Kernel, n: number, operands: Operand[], params: Param[], scalars: number[]): void;
}

/** An array the call writes (state updated in place, or an output). */
export function written(name: string, array: Float32Array, width = 1): ArrayArg {
  return { name, array, output: true, width };
}

/**
 * An array the call only reads; `aliases`: the outputs it may be the very same array of (the
 * kernel reads its element i before writing theirs; checked by test/fuzz/solver.test.ts).
 */
export function read(name: string, array: Float32Array, width = 1, aliases: readonly string[] = []): ArrayArg {
  return { name, array, width, aliases };
}

/** A written operand of a kernel run directly (no checks: the caller has checked it). */
export function out(array: Float32Array, width = 1): Operand {
  return { array, width, output: true };
}

/** A read operand of a kernel run directly (null: absent, pointer 0). */
export function input(array: Float32Array | null, width = 1): Operand {
  return { array, width, output: false };
}

/**
 * Checks and runs `kernel` over the elements of `arrays` (their count from the first array).
 * Uniform parameters are rounded to float32 (see checkCall), so every backend sees the same values.
 * `constants` are passed after the checked parameters, unchecked (values the method chose).
 */
export function checkAndRun(
  host: KernelHost,
  method: string,
  kernel: Kernel,
  arrays: ArrayArg[],
  params: ParamSpec[],
  dt: unknown,
  scalars: number[],
  constants: number[] = [],
): void {
  const values = [...host.checkCall(method, arrays, params, dt, true), ...constants];
  const { array, width = 1 } = arrays[0];
  const operands = arrays.map((a) => ({ array: a.array as Float32Array, width: a.width ?? 1, output: a.output ?? false }));
  host.runKernel(kernel, (array as Float32Array).length / width, operands, values, scalars);
}
