/** The solvers the threads tests compare, and how many calls a threaded solver has split. */
import { afterAll, beforeAll } from 'vitest';
import { createSolver, type Solver } from '../../dist/index.js';

export interface ThreadSolvers {
  /** The single-thread SIMD solver: the bits to match. */
  single: Solver;
  /** 2 threads, every call split, the calling thread taking chunks too. */
  threaded: Solver;
  /** 3 threads, every call split, every chunk run by the two workers: their path, whatever the timing. */
  workersOnly: Solver;
}

/** The three solvers of a test file, created before its tests and disposed after; read them inside tests. */
export function useThreadSolvers(): ThreadSolvers {
  const solvers = {} as ThreadSolvers;
  beforeAll(async () => {
    solvers.single = await createSolver({ backend: 'simd' });
    solvers.threaded = await createSolver({ threads: 2, splitEverything: true });
    solvers.workersOnly = await createSolver({ threads: 3, splitEverything: 'workers' });
  });
  afterAll(() => {
    for (const solver of Object.values(solvers)) solver.dispose();
  });
  return solvers;
}

/** Calls a threaded solver has split so far (0 on one thread). */
export function splitCalls(solver: Solver): number {
  return (solver as unknown as { threading: { pool: { splitCalls: number } } | null }).threading?.pool.splitCalls ?? 0;
}

/** Calls a threaded solver has begun in the background (its workers running a kernel while the calling thread works on). */
export function backgroundCalls(solver: Solver): number {
  return (solver as unknown as { threading: { pool: { backgroundCalls: number } } | null }).threading?.pool.backgroundCalls ?? 0;
}
