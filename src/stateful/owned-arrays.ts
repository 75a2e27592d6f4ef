/**
 * Arrays that an object (Inertializer, FixedStepper, SecondOrderDynamics) allocates from a solver and returns
 * all together when it is disposed.
 */
import type { SolverBase } from '../api/solver.js';

export class OwnedArrays {
  private readonly arrays: Float32Array[] = [];

  constructor(private readonly solver: SolverBase) {}

  /** A zeroed array of `length` floats in the solver's memory (see Solver.alloc). */
  alloc(length: number): Float32Array {
    const array = this.solver.alloc(length);
    this.arrays.push(array);
    return array;
  }

  /** Frees one of the arrays before the others (an array laid out again). */
  free(array: Float32Array): void {
    const i = this.arrays.indexOf(array);
    if (i < 0) throw new Error('internal: freeing an array not owned');
    this.arrays.splice(i, 1);
    this.solver.free(array);
  }

  /** The arrays allocated so far, in order. */
  get all(): readonly Float32Array[] {
    return this.arrays;
  }

  /** Frees every array; nothing to free once the solver is disposed (its memory is gone). */
  release(): void {
    if (!this.solver.isDisposed()) for (const array of this.arrays) this.solver.free(array);
    this.arrays.length = 0;
  }
}
