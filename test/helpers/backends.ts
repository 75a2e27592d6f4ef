/** The three backends, solvers on each, and a uniform way to call every kernel. */
import { afterAll, beforeAll } from 'vitest';
import { createSolver, SpringMode, type Backend, type Param, type Solver, type SolverOptions } from '../../dist/index.js';

export const BACKENDS: readonly Backend[] = ['simd', 'wasm', 'js'];

/** What a test may add to createSolver's options besides the backend and memoryBytes. */
export type ExtraOptions = Omit<SolverOptions, 'backend' | 'memoryBytes'>;

/**
 * The options of a solver whose tests step dt ≥ 1 s on purpose, in seconds (parity sweeps up to 2 s, properties
 * up to 1000 s, dt beyond float32, fuzzing): createSolver's warning for a dt that looks like milliseconds is off,
 * as a user who means such dts would turn it off. The warning itself is tested on default solvers
 * (test/core/large-dt.test.ts); a solver without these options still warns, so an accidental dt in milliseconds
 * in a test shows on stderr. As for a user, the option also silences spring-solver/three's solver-less helpers
 * (for the test file: vitest isolates files).
 */
export const LARGE_DT_ON_PURPOSE: ExtraOptions = { warnLargeDt: false };

/** A solver on `backend` (memoryBytes as given, else the default 64 MiB; `options` added to createSolver's). */
export function makeSolver(backend: Backend, memoryBytes?: number, options: ExtraOptions = {}): Promise<Solver> {
  return createSolver(memoryBytes === undefined ? { backend, ...options } : { backend, memoryBytes, ...options });
}

/**
 * One solver per backend for a test file (memoryBytes as given, else the default 64 MiB; `options` added to
 * createSolver's): created before its tests, disposed after them. Read it inside tests, as `solvers[backend]`.
 */
export function useSolvers(memoryBytes?: number, options: ExtraOptions = {}): Record<Backend, Solver> {
  const solvers = {} as Record<Backend, Solver>;
  beforeAll(async () => {
    for (const backend of BACKENDS) solvers[backend] = await makeSolver(backend, memoryBytes, options);
  });
  afterAll(() => {
    for (const backend of BACKENDS) solvers[backend].dispose();
  });
  return solvers;
}

/** True for the WebAssembly backends, whose alloc() arrays live in a fixed-capacity memory. */
export function isWasm(backend: Backend): boolean {
  return backend !== 'js';
}

export type FnName =
  | 'damper'
  | 'springDamper'
  | 'springDamperStiffness'
  | 'springDamperRatio'
  | 'criticalSpringDamper'
  | 'simpleSpringDamper'
  | 'decaySpringDamper';

/** The solvers and the reference module both have these methods, with the same signatures. */
export type Kernels = Pick<Solver, FnName>;

export interface FnInfo {
  name: FnName;
  /** How the parameters map to stiffness and damping; null for the damper. */
  mode: SpringMode | null;
  /** Which state arrays the method takes (x always). */
  hasV: boolean;
  hasG: boolean;
  hasQ: boolean;
  /** Parameter names, in order. */
  params: string[];
}

export const FUNCTIONS: readonly FnInfo[] = [
  { name: 'damper', mode: null, hasV: false, hasG: true, hasQ: false, params: ['halflife'] },
  { name: 'springDamper', mode: SpringMode.FrequencyHalflife, hasV: true, hasG: true, hasQ: true, params: ['frequency', 'halflife'] },
  {
    name: 'springDamperStiffness',
    mode: SpringMode.StiffnessDamping,
    hasV: true,
    hasG: true,
    hasQ: true,
    params: ['stiffness', 'damping'],
  },
  { name: 'springDamperRatio', mode: SpringMode.RatioHalflife, hasV: true, hasG: true, hasQ: true, params: ['dampingRatio', 'halflife'] },
  { name: 'criticalSpringDamper', mode: SpringMode.Critical, hasV: true, hasG: true, hasQ: true, params: ['halflife'] },
  { name: 'simpleSpringDamper', mode: SpringMode.Critical, hasV: true, hasG: true, hasQ: false, params: ['halflife'] },
  { name: 'decaySpringDamper', mode: SpringMode.Critical, hasV: true, hasG: false, hasQ: false, params: ['halflife'] },
];

export function fnInfo(name: FnName): FnInfo {
  return FUNCTIONS.find((f) => f.name === name)!;
}

/**
 * Calls kernel `name` of `target` (a solver or the reference module) with the arrays it takes:
 * v, g, q are ignored by the methods without them.
 */
export function callKernel(
  target: Kernels,
  name: FnName,
  x: Float32Array,
  v: Float32Array,
  g: Float32Array,
  q: Float32Array,
  p: Param[],
  dt: number,
): void {
  switch (name) {
    case 'damper':
      target.damper(x, g, p[0], dt);
      return;
    case 'springDamper':
      target.springDamper(x, v, g, q, p[0], p[1], dt);
      return;
    case 'springDamperStiffness':
      target.springDamperStiffness(x, v, g, q, p[0], p[1], dt);
      return;
    case 'springDamperRatio':
      target.springDamperRatio(x, v, g, q, p[0], p[1], dt);
      return;
    case 'criticalSpringDamper':
      target.criticalSpringDamper(x, v, g, q, p[0], dt);
      return;
    case 'simpleSpringDamper':
      target.simpleSpringDamper(x, v, g, p[0], dt);
      return;
    case 'decaySpringDamper':
      target.decaySpringDamper(x, v, p[0], dt);
      return;
  }
}

/** The name of the threaded solver of useSolversWithThreads. */
export const THREADS_2 = 'simd, 2 threads';

/**
 * Every backend's solver (useSolvers), and where threads can run (Node; the Chromium project's page is not
 * cross-origin isolated, so test/loading/threads-page.node.test.ts checks split kernels in Chromium) a SIMD solver
 * on 2 threads, named THREADS_2. `names` lists them, for describe.each; read `solvers[name]` inside tests.
 */
export function useSolversWithThreads(): { names: string[]; solvers: Record<string, Solver> } {
  const solvers = useSolvers() as Record<string, Solver>;
  const canThread =
    typeof SharedArrayBuffer !== 'undefined' && (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated !== false;
  beforeAll(async () => {
    if (canThread) solvers[THREADS_2] = await createSolver({ threads: 2, onFallback: 'throw' });
  });
  afterAll(() => solvers[THREADS_2]?.dispose());
  return { names: canThread ? [...BACKENDS, THREADS_2] : [...BACKENDS], solvers };
}
