/**
 * The common body of the methods in this folder: check the call (SolverBase.checkCall, nothing
 * is written when it throws), then run the kernel with the checked arrays as its operands, in
 * the order given.
 */
import type { Kernel, ParamSpec, SolverBase } from '../solver.js';
import type { ArrayArg } from '../validate.js';

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

/**
 * Checks and runs `kernel` over the elements of `arrays` (their count from the first array).
 * Uniform parameters are rounded to float32 (see checkCall), so every backend sees the same values.
 * `constants` are passed after the checked parameters, unchecked (values the method chose).
 */
export function checkAndRun(
  solver: SolverBase, method: string, kernel: Kernel, arrays: ArrayArg[], params: ParamSpec[], dt: unknown, scalars: number[],
  constants: number[] = [],
): void {
  const values = [...solver.checkCall(method, arrays, params, dt, true), ...constants];
  const { array, width = 1 } = arrays[0];
  const operands = arrays.map((a) => ({ array: a.array as Float32Array, width: a.width ?? 1, output: a.output ?? false }));
  solver.runKernel(kernel, (array as Float32Array).length / width, operands, values, scalars);
}
