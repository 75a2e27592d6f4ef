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

// (name, value, bytes an instance: see threads/split.ts) A threaded solver splits both kernels by
// whole 16-instance blocks: each runs groups of 4 instances from its first and a scalar tail, so
// every instance takes the same path (SIMD lane or tail) as in one call over all of them.

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
  const kernel = (solver as unknown as WasmSolver).bind('springInstanceTranslations', [
    ['m', matrices.byteOffset, 64],
    ['v', v.byteOffset, 12],
    ['g', g.byteOffset, 12],
    ['n', count, N],
    ['mode', SpringMode.Critical, 0],
    ['p0', 0, 0], // halflife
    ['p1', 0, 0],
    ['dt', 0, 0],
  ]);
  const [halflifeAt, dtAt] = [kernel.index('p0'), kernel.index('dt')];
  return (halflife, dt) => {
    kernel.args[halflifeAt] = halflife;
    kernel.args[dtAt] = dt;
    kernel.run(count);
  };
}

/** Floats 0…11 of `count` matrices from quaternions q (4 floats each) and scales s (3 each): () => void. */
export function instanceComposition(solver: Solver, matrices: Float32Array, q: Float32Array, s: Float32Array, count: number): () => void {
  if (solver.backend === 'js') return () => composeInstanceMatrices(matrices, q, s, count);
  const kernel = (solver as unknown as WasmSolver).bind('composeInstanceMatrices', [
    ['m', matrices.byteOffset, 64],
    ['q', q.byteOffset, 16],
    ['s', s.byteOffset, 12],
    ['n', count, N],
  ]);
  return () => kernel.run(count);
}
