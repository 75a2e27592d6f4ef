/** The JS backend: the float64 reference implementation behind the Solver API. */
import { SolverBase } from '../base/solver.js';
import type { Kernel, Operand } from '../core/contract.js';
import { firstInvalidJs, checkNumber, describe, type ParamRule } from '../core/validate.js';
import type { Param, SpringMode } from '../core/types.js';
import * as reference from '../reference/spring.js';
import { MAX_ALLOC_LENGTH } from '../core/limits.js';

export class JsSolver extends SolverBase {
  readonly backend = 'js' as const;
  private live = new WeakSet<Float32Array>();
  /** Buffers of freed arrays (each alloc has its own buffer), so views of them are refused too. */
  private freed = new WeakSet<ArrayBufferLike>();

  alloc(length: number): Float32Array {
    this.checkLive('alloc');
    checkLength(length);
    let array: Float32Array;
    try {
      array = new Float32Array(length);
    } catch (error) {
      throw new RangeError(`alloc: length ${length} (${4 * length} bytes) could not be allocated: ${(error as Error).message}`);
    }
    this.live.add(array);
    return array;
  }

  free(array: Float32Array): void {
    this.checkLive('free');
    if (!this.live.has(array)) {
      throw new TypeError(`free: array (${describe(array)}) was not allocated by this solver, or was already freed`);
    }
    this.live.delete(array);
    this.freed.add(array.buffer);
    this.frees++;
  }

  isUsable(array: Float32Array): boolean {
    return !this.freed.has(array.buffer);
  }

  checkUsable(method: string, name: string, array: Float32Array): void {
    if (this.freed.has(array.buffer)) throw new TypeError(`${method}: ${name} was freed (solver.free); it must not be used afterwards`);
  }

  protected firstInvalid(array: Float32Array, rule: ParamRule): number {
    return firstInvalidJs(array, rule);
  }

  protected runDamper(x: Float32Array, g: Float32Array, halflife: Param, dt: number): void {
    reference.damper(x, g, halflife, dt);
  }

  runKernel(kernel: Kernel, n: number, operands: Operand[], params: Param[], scalars: number[]): void {
    kernel.js(
      operands.map((o) => o.array),
      params,
      scalars,
      n,
    );
  }

  protected runSpring(
    mode: SpringMode,
    x: Float32Array,
    v: Float32Array,
    g: Float32Array | null,
    q: Float32Array | null,
    p0: Param,
    p1: Param,
    dt: number,
  ): void {
    reference.spring(mode, x, v, g, q, p0, p1, dt);
  }
}

export function checkLength(length: unknown): number {
  checkNumber('alloc', 'length', length, 'nonNegative');
  if (!Number.isInteger(length)) throw new RangeError(`alloc: length is ${length}; it must be a whole number`);
  if ((length as number) > MAX_ALLOC_LENGTH) {
    throw new RangeError(`alloc: length is ${length}; it must be at most ${MAX_ALLOC_LENGTH} (2^29 floats, 2 GiB)`);
  }
  return length as number;
}
