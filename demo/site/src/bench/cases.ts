/** The kernels the Benchmark page times, each set up on arrays from the solver (passed in place). */
import type { Solver } from 'spring-solver';

export interface BenchCase {
  id: string;
  label: string;
  /** Allocates and fills n elements; returns one call and the clean-up. */
  setup(solver: Solver, n: number): { run: () => void; dispose: () => void };
}

const DT = 1 / 60;

function allocFilled(solver: Solver, n: number, count: number, fill: (array: number, i: number) => number): Float32Array[] {
  return Array.from({ length: count }, (_, a) => {
    const array = solver.alloc(n);
    for (let i = 0; i < n; i++) array[i] = fill(a, i);
    return array;
  });
}

export const BENCH_CASES: readonly BenchCase[] = [
  {
    id: 'critical',
    label: 'criticalSpringDamper, one halflife for all',
    setup(solver, n) {
      const arrays = allocFilled(solver, n, 4, (a, i) => (a === 2 ? Math.sin(i) : 0)); // x, v, g, q
      const [x, v, g, q] = arrays as [Float32Array, Float32Array, Float32Array, Float32Array];
      return { run: () => solver.criticalSpringDamper(x, v, g, q, 0.2, DT), dispose: () => arrays.forEach((a) => solver.free(a)) };
    },
  },
  {
    id: 'springDamper',
    label: 'springDamper, a frequency and halflife per element',
    setup(solver, n) {
      // x, v, g, q, then frequencies 0.5–3 Hz and halflives 0.05–0.5 s: under- and over-damped mixed.
      const arrays = allocFilled(solver, n, 6, (a, i) =>
        a === 2 ? Math.sin(i) : a === 4 ? 0.5 + (2.5 * ((i * 7) % 13)) / 13 : a === 5 ? 0.05 + (0.45 * ((i * 5) % 11)) / 11 : 0,
      );
      const [x, v, g, q, f, h] = arrays as [Float32Array, Float32Array, Float32Array, Float32Array, Float32Array, Float32Array];
      return { run: () => solver.springDamper(x, v, g, q, f, h, DT), dispose: () => arrays.forEach((a) => solver.free(a)) };
    },
  },
];
