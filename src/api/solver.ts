/**
 * The `Solver` interface and `SolverBase` live in src/base/solver.ts, below the backends that
 * extend it (CONTRIBUTING.md, "Where things are"); re-exported here for the layers above.
 */
export { SolverBase, type Solver } from '../base/solver.js';
