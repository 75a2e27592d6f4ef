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
export { SpringMode } from './types.js';
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
export interface Kernel extends KernelSpec {
  wasm: KernelName;
}

/**
 * What every backend knows of a kernel: `js`, the float64 reference (operands, params, scalars,
 * n), and `gpu`, its WebGPU version when it has one. The core springs (src/methods/method-kernels.ts)
 * are KernelSpecs without `wasm`: the wasm backend runs them through its own spring exports.
 */
export interface KernelSpec {
  js: (arrays: (Float32Array | null)[], params: Param[], scalars: number[], n: number) => void;
  /** The kernel's GPU version (spring-solver/webgpu); absent: the kernel is CPU-only. */
  gpu?: GpuKernel;
}

/** An array argument of a method, in argument order: its name, floats per element, written or read. */
export interface ArraySignature {
  name: string;
  /** Floats per element (4 for a quaternion); 1 by default. */
  width?: number;
  output?: boolean;
  /** The outputs this input may be the very same array of (see read()). */
  aliases?: readonly string[];
}

/** The WGSL kernel bodies a GpuKernel can run (src/backends/webgpu/shaders/<body>.wgsl). */
export type GpuBody = 'damper' | 'spring' | 'quat';

/** How WGSL computes the coefficients per element from per-element parameters (shaders/coefficients.wgsl). */
export type GpuPerElement = 'critical' | 'frequencyHalflife' | 'stiffnessDamping' | 'ratioHalflife';

/**
 * A kernel's GPU version, declared once beside `wasm` and `js`: the GPU solver's method of the
 * same name is built from it (src/backends/webgpu/gpu-solver.ts) and the GPU parity test runs
 * every one (test/webgpu/contract-parity.webgpu.test.ts). The method's arguments are
 * `(arrays…, params…, dt)`, checked as the CPU solver checks them (same names, rules, messages).
 */
export interface GpuKernel {
  /** The array arguments, in order. */
  arrays: readonly ArraySignature[];
  /** The parameters after them (a number, or a GPU array with one value per element), in order. */
  params: readonly [name: string, rule: ParamRule][];
  body: GpuBody;
  /**
   * The shader operand slot of each array, then of each parameter: 0 x, 1 v, 2 g, 3 q (the
   * body's state, goal, goal velocity), 4 and 5 the parameters (src/backends/webgpu/shader-source.ts).
   */
  slots: readonly number[];
  /** With a per-element parameter: WGSL computes the coefficients per element, in float32. */
  perElement: GpuPerElement;
  /**
   * With every parameter a number: the coefficients the host computes in float64, once per call
   * (at most 6; rounded to float32 on upload), from the parameters and dt.
   */
  uniform(params: readonly number[], dt: number): number[];
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
