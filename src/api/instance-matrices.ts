/**
 * Kernels on the instance-matrix layout of three.js (16 floats a matrix, column-major,
 * translation in floats 12…14), for InstancedSprings: the critical spring of the translations in
 * place, and the rotation·scale columns composed from quaternions and scales. The arrays are
 * checked once by the caller (solver memory, lengths); the returned calls check nothing.
 * Kernels: assembly/kernels/instance-matrix.ts; references: src/reference/strided-spring.ts and
 * src/reference/instance-matrix.ts.
 * @internal
 */
import type { Solver } from './solver.js';
import { SpringMode } from '../core/types.js';
import type { WasmSolver } from '../backends/wasm/wasm-solver.js';
import { springStrided } from '../reference/strided-spring.js';
import { composeInstanceMatrices } from '../reference/instance-matrix.js';
import { N_ARGUMENT as N } from '../backends/wasm/threads/split.js';

type Fn = (...args: number[]) => number;

// Bytes per instance of each argument (threads/split.ts). A threaded solver splits both kernels by
// whole 16-instance blocks: each runs groups of 4 instances from its first and a scalar tail, so
// every instance takes the same path (SIMD lane or tail) as in one call over all of them.
const TRANSLATIONS = [64, 12, 12, N, 0, 0, 0, 0]; // matrices, v, g, n, mode, p0, p1, dt
const COMPOSITION = [64, 16, 12, N]; // matrices, q, s, n

/** Translations of `count` matrices toward packed goals g with packed velocities v: (halflife, dt) => void. */
export function instanceTranslations(
  solver: Solver,
  matrices: Float32Array,
  v: Float32Array,
  g: Float32Array,
  count: number,
): (halflife: number, dt: number) => void {
  if (solver.backend === 'js') {
    const x = { array: matrices, offset: 12, stride: 16 },
      vo = { array: v, offset: 0, stride: 3 },
      go = { array: g, offset: 0, stride: 3 };
    return (halflife, dt) => springStrided(SpringMode.Critical, x, vo, go, null, count, 3, halflife, 0, dt);
  }
  const wasm = solver as unknown as WasmSolver;
  const kernel = wasm.rawKernels.springInstanceTranslations;
  const [pm, pv, pg] = [matrices.byteOffset, v.byteOffset, g.byteOffset];
  // (the count is fixed: a call too small to split calls the export itself, as on one thread)
  if (!wasm.splits('springInstanceTranslations', count))
    return (halflife, dt) => kernel(pm, pv, pg, count, SpringMode.Critical, halflife, 0, dt);
  const args = [pm, pv, pg, count, SpringMode.Critical, 0, 0, 0];
  return (halflife, dt) => {
    args[5] = halflife;
    args[7] = dt;
    wasm.threading!.split('springInstanceTranslations', kernel as unknown as Fn, args, TRANSLATIONS);
  };
}

/** Floats 0…11 of `count` matrices from quaternions q (4 floats each) and scales s (3 each): () => void. */
export function instanceComposition(solver: Solver, matrices: Float32Array, q: Float32Array, s: Float32Array, count: number): () => void {
  if (solver.backend === 'js') return () => composeInstanceMatrices(matrices, q, s, count);
  const wasm = solver as unknown as WasmSolver;
  const kernel = wasm.rawKernels.composeInstanceMatrices;
  const [pm, pq, ps] = [matrices.byteOffset, q.byteOffset, s.byteOffset];
  if (!wasm.splits('composeInstanceMatrices', count)) return () => kernel(pm, pq, ps, count);
  const args = [pm, pq, ps, count];
  return () => wasm.threading!.split('composeInstanceMatrices', kernel as unknown as Fn, args, COMPOSITION);
}
