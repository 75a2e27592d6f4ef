/**
 * Forward kinematics and skinning matrices (assembly/kernels/skeleton.ts; reference
 * src/reference/skeleton.ts) over arrays in a solver's memory, for ForwardKinematics and
 * SkeletonBatch. The arrays are laid out and checked once by the caller; the returned calls check
 * nothing.
 * @internal
 */
import type { Solver } from './solver.js';
import type { WasmSolver } from '../backends/wasm/wasm-solver.js';
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

/** Floats of the kernel's scratch for a skeleton of `bones` bones. */
export function scratchLength(bones: number): number {
  return 48 * (bones + 3);
}

/** The forward kinematics of the first `count` characters: (count) => void. */
export function forwardKinematicsCall(solver: Solver, a: SkeletonArrays, bones: number, scratch: Float32Array): (count: number) => void {
  if (solver.backend === 'js') return (count) => forwardKinematics(a, count, bones);
  const kernel = (solver as unknown as WasmSolver).rawKernels.forwardKinematics;
  const at = (array: { byteOffset: number } | null): number => (array === null ? 0 : array.byteOffset);
  const [parents, slots, targets, positions, rotations, scales] = [a.parents, a.slots, a.targets, a.positions, a.rotations, a.scales].map(
    at,
  ) as [number, number, number, number, number, number];
  const [restPositions, restRotations, restScales, roots, inverseBind, world, skin] = [
    a.restPositions,
    a.restRotations,
    a.restScales,
    a.roots,
    a.inverseBind,
    a.world,
    a.skin,
  ].map(at) as [number, number, number, number, number, number, number];
  const s = scratch.byteOffset;
  return (count) =>
    kernel(
      parents,
      slots,
      targets,
      positions,
      rotations,
      scales,
      a.sourceStride,
      a.positions instanceof Float64Array,
      restPositions,
      restRotations,
      restScales,
      roots,
      inverseBind,
      world,
      a.worldStride,
      a.inverseBind === null ? 0 : skin,
      a.skinStride,
      s,
      count,
      bones,
    );
}

/** Index of the first NaN or infinite number of `array` (in solver memory), or −1. */
export function firstNonFinite(solver: Solver, array: Float32Array | Float64Array): number {
  if (solver.backend === 'js') return firstNonFiniteJs(array);
  const kernels = (solver as unknown as WasmSolver).rawKernels;
  const scan = array instanceof Float64Array ? kernels.firstNonFinite64 : kernels.firstNonFinite;
  return scan(array.byteOffset, array.length);
}
