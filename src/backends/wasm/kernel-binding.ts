/**
 * Named arguments for the kernels bound outside the kernel contract (skeletons, spring bones,
 * instance matrices, the mixer sampler): each binding lists its export's arguments as
 * [parameter name, value, advance], in the export's order, typed from the signatures asc declares
 * (KernelParameterNames, generated into src/core/kernels.generated.ts), so a list that misses,
 * adds or misorders a parameter does not compile, and a binding sets an argument by its name.
 */
import type { KernelParameterNames } from '../../core/kernels.generated.js';

/** An export whose parameters are named. */
export type BoundKernel = keyof KernelParameterNames;

/** A parameter name of export K. */
export type ParameterOf<K extends BoundKernel> = KernelParameterNames[K][number];

/**
 * The arguments of export K in its parameters' order: [the parameter's name, its value, its
 * advance]. The advance says how a split call moves it (threads/split.ts): bytes an element for a
 * pointer into per-element data, 0 for what every chunk shares, N_ARGUMENT for the element count,
 * perThread(bytes) for a scratch of each thread's own.
 */
export type ArgumentList<K extends BoundKernel> = Arguments<KernelParameterNames[K]>;

/** One [name, value, advance] per name of `Names` (a mapped tuple: as many, in the same order). */
type Arguments<Names extends readonly string[]> = {
  readonly [I in keyof Names]: readonly [name: Names[I], value: number, advance: number];
};

/** A bound export: its arguments (set by name through `index`), and a call over n elements. */
export interface KernelCall<K extends BoundKernel> {
  /** The argument values, in the export's order: a binding changes them between calls. */
  readonly args: number[];
  /** The advances, in the same order. */
  readonly advances: number[];
  /** The position of parameter `name` in args and advances. */
  index(name: ParameterOf<K>): number;
  /** Calls the export with args over n elements (the N_ARGUMENT one), split over the threads when the solver splits such a call. */
  run(n: number): void;
  /**
   * On a threaded solver: `begin(n)` starts the call over n elements on the workers alone and
   * returns at once, `finish()` waits for it (the calling thread calls no kernel in between);
   * null on one thread.
   */
  readonly background: { begin(n: number): void; finish(): void } | null;
}

/** The values and advances of a list, and the lookup of a parameter's position. */
export function argumentsOf<K extends BoundKernel>(
  name: K,
  list: ArgumentList<K>,
): { args: number[]; advances: number[]; index(parameter: ParameterOf<K>): number } {
  const entries = list as unknown as readonly (readonly [string, number, number])[];
  const names = entries.map(([parameter]) => parameter);
  return {
    args: entries.map(([, value]) => value),
    advances: entries.map(([, , advance]) => advance),
    index(parameter) {
      const i = names.indexOf(parameter);
      if (i < 0) throw new Error(`internal: ${name} has no parameter ${String(parameter)}`);
      return i;
    },
  };
}
