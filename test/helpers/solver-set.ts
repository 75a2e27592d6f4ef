/** One solver per backend for a test file: created before its tests, disposed after them. */
import { afterAll, beforeAll } from 'vitest';
import type { Backend, Solver } from '../../dist/index.js';
import { BACKENDS, makeSolver } from './backends.js';

export function solverPerBackend(memoryBytes: number): Map<Backend, Solver> {
  const solvers = new Map<Backend, Solver>();
  beforeAll(async () => {
    for (const backend of BACKENDS) solvers.set(backend, await makeSolver(backend, memoryBytes));
  });
  afterAll(() => {
    for (const solver of solvers.values()) solver.dispose();
    solvers.clear();
  });
  return solvers;
}
