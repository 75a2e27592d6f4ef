/**
 * Forward kinematics and skinning matrices (assembly/kernels/skeleton.ts; reference
 * src/reference/skeleton.ts) over arrays in a solver's memory, for ForwardKinematics and
 * SkeletonBatch. The arrays are laid out and checked once by the caller; the returned calls check
 * nothing.
 * @internal
 */
import type { Solver } from './solver.js';
import type { WasmSolver } from '../backends/wasm/wasm-solver.js';
import { N_ARGUMENT, perThread } from '../backends/wasm/threads/split.js';
import { firstNonFinite as firstNonFiniteJs, forwardKinematics, type SkeletonArrays } from '../reference/skeleton.js';

/** Int32 views of `length` whole numbers in solver memory, over a Float32Array from solver.alloc. */
export function int32View(array: Float32Array): Int32Array {
  return new Int32Array(array.buffer, array.byteOffset, array.length);
}

/** A Float64Array of `length` numbers in solver memory: `alloc` is given the length in floats (twice as many). */
export function float64Array(alloc: (length: number) => Float32Array, length: number): Float64Array {
  const array = alloc(2 * length);
  return new Float64Array(array.buffer, array.byteOffset, length);
}

/** Floats of the kernel's scratch for a skeleton of `bones` bones, one thread's. */
function scratchLength(bones: number): number {
  return 48 * (bones + 3);
}

/** The smallest chunk of a split call, in characters: one of 25 bones costs about 0.7 µs (split.ts's MIN_CHUNK is for elements of nanoseconds). */
const MIN_CHUNK = 16;

/**
 * The forward kinematics of the first `count` characters: (count) => void. The root chain
 * (a.chain, a.levels, a.parentless) is read at each call: SkeletonBatch lays it out again when the
 * scene graph above its meshes changes. The kernel's scratch
 * (one per thread: the parents' matrices of the characters a thread computes) comes from `alloc`.
 * On a threaded solver, a call of at least the kernel's split minimum (threads/thresholds.ts) is split by whole characters,
 * in chunks of whole 16-character blocks: each character's matrices are computed by the same
 * operations, so the bits do not depend on the split.
 */
export function forwardKinematicsCall(
  solver: Solver,
  a: SkeletonArrays,
  bones: number,
  alloc: (length: number) => Float32Array,
): (count: number) => void {
  if (solver.backend === 'js') return (count) => forwardKinematics(a, count, bones);
  const scratch = alloc(scratchLength(bones) * solver.threads);
  const at = (array: { byteOffset: number } | null): number => (array === null ? 0 : array.byteOffset);
  const width = a.positions instanceof Float64Array ? 8 : 4; // bytes a source value
  const skin = a.inverseBind === null ? 0 : at(a.skin);
  // (name, value, bytes a character: see threads/split.ts; sourceF64, a boolean, is passed as 0 or 1, as wasm takes it)
  const kernel = (solver as unknown as WasmSolver).bind(
    'forwardKinematics',
    [
      ['parents', at(a.parents), 0],
      ['slots', at(a.slots), 0],
      ['targets', at(a.targets), 0],
      ['positions', at(a.positions), 3 * width * a.sourceStride],
      ['rotations', at(a.rotations), 4 * width * a.sourceStride],
      ['scales', at(a.scales), 3 * width * a.sourceStride],
      ['sourceStride', a.sourceStride, 0],
      ['sourceF64', width === 8 ? 1 : 0, 0],
      ['restPositions', at(a.restPositions), 0],
      ['restRotations', at(a.restRotations), 0],
      ['restScales', at(a.restScales), 0],
      ['roots', at(a.roots), 128],
      ['chain', 0, 0], // the root chain, set at each call (10 f64 a level)
      ['levels', 0, 0],
      ['parentless', 0, 0],
      ['inverseBind', at(a.inverseBind), 0],
      ['world', at(a.world), 4 * a.worldStride],
      ['worldStride', a.worldStride, 0],
      ['skin', skin, 4 * a.skinStride],
      ['skinStride', a.skinStride, 0],
      ['scratch', scratch.byteOffset, perThread(4 * scratchLength(bones))],
      ['count', 0, N_ARGUMENT],
      ['bones', bones, 0],
    ],
    { minChunk: MIN_CHUNK },
  );
  const [chain, levels, parentless] = [kernel.index('chain'), kernel.index('levels'), kernel.index('parentless')];
  return (count) => {
    kernel.args[chain] = at(a.chain);
    kernel.args[levels] = a.levels;
    kernel.args[parentless] = a.parentless ? 1 : 0;
    kernel.advances[chain] = 80 * a.levels;
    kernel.run(count);
  };
}

/** Index of the first NaN or infinite number of `array` (in solver memory), or −1. */
export function firstNonFinite(solver: Solver, array: Float32Array | Float64Array): number {
  if (solver.backend === 'js') return firstNonFiniteJs(array);
  const kernels = (solver as unknown as WasmSolver).exports;
  const scan = array instanceof Float64Array ? kernels.firstNonFinite64 : kernels.firstNonFinite;
  return scan(array.byteOffset, array.length);
}
