/**
 * A threaded solver's side of splitting: which calls are split (the kernel has a layout, and the
 * call has at least the kernel's minimum of elements) and the kernel exports wrapped so that every
 * path calling a core spring or damper (ordinary calls, the quick path, prepared calls) splits.
 */
import type { KernelExports } from '../../../core/kernel-exports.js';
import type { ThreadPool } from './pool.js';
import { N_ARGUMENT as N, PARAM_POINTER as P } from './split.js';
import { splitMinimum } from './thresholds.js';

type Fn = (...args: number[]) => number;

/** The core kernels' argument layouts (see split.ts): their pointers' bytes per element. */
const SPRING_UNIFORM = [4, 4, 4, 4, N, 0, 0, 0, 0]; // x, v, g, q, n, mode, p0, p1, dt
/**
 * Kept coefficients (springPerElement's `coef`, springApplyKept's): 36 bytes an element, 144 a
 * block of 4 (the SIMD build's compact and full slots). The kernel lays both regions out from n,
 * so a chunk's coefficients are a layout of its own, at coef + 36 · its start: the keeping call
 * and the calls applying it are split alike (same n, same minimum), so each chunk reads what it
 * kept. The chunks' regions fit in keptCoefficientBytes(n): chunks start on whole blocks.
 */
const KEPT = 36;
const SPRING_PER_ELEMENT = [4, 4, 4, 4, N, 0, P, 0, P, 0, 0, KEPT]; // x, v, g, q, n, mode, p0, stride, p1, stride, dt, coef
const DAMPER_UNIFORM = [4, 4, N, 0, 0]; // x, g, n, halflife, dt
const DAMPER_VARYING = [4, 4, N, P, 0, 0]; // x, g, n, halflife, stride, dt

export class Threading {
  /**
   * `minimumOverride`: every kernel's smallest split call, instead of its measured one (the
   * tests' 0: every call split).
   */
  /** The smallest split call of any core spring (the quick path uses the exports themselves below it). */
  readonly smallestSplit: number;

  constructor(
    readonly pool: ThreadPool,
    private readonly minimumOverride: number | null = null,
  ) {
    this.smallestSplit = Math.min(this.minimum('springUniform'), this.minimum('springPerElement'));
  }

  /** The smallest call of `kernel`, in elements, that is split (at least 1). */
  minimum(kernel: string): number {
    return Math.max(1, this.minimumOverride ?? splitMinimum(kernel));
  }

  /** Whether a call of `kernel` over n elements is split. */
  splits(kernel: string, n: number): boolean {
    return n >= this.minimum(kernel);
  }

  /**
   * Runs `fn`, the calling thread's export `kernel`, over `args` (layout `advances`, see split.ts)
   * split over the threads (the caller checked `splits`), in chunks of at least `minChunk`
   * elements (split.ts's MIN_CHUNK unless given), whole blocks of `align` (split.ts's ALIGN unless
   * given). Returns the sum of the chunks' results.
   */
  split(kernel: string, fn: Fn, args: number[], advances: readonly number[], minChunk?: number, align?: number): number {
    const job = this.pool.job(kernel);
    if (job < 0) return fn.apply(null, args);
    return this.pool.run(job, fn, args, advances, minChunk, align);
  }

  /** Starts export `kernel` over `args` on the workers alone (pool.begin); the calling thread goes on until finish(). */
  begin(kernel: string, args: number[], advances: readonly number[], minChunk?: number, align?: number): void {
    const job = this.pool.job(kernel);
    if (job < 0) throw new Error(`internal: the workers have no kernel ${kernel}`);
    this.pool.begin(job, args, advances, minChunk, align);
  }

  /** Waits for the call begun. */
  finish(): void {
    this.pool.finish();
  }

  /**
   * The exports with the core springs and dampers split: the quick path and prepared calls call
   * them directly. A keeping springPerElement splits by springApplyKept's minimum, so that the
   * calls keeping and applying coefficients split alike (KEPT).
   */
  wrap(raw: KernelExports): KernelExports {
    const springUniform = raw.springUniform as Fn;
    const springPerElement = raw.springPerElement as Fn;
    const damperUniform = raw.damperUniform as Fn;
    const damperVarying = raw.damperVarying as Fn;
    const springApplyKept = raw.springApplyKept as Fn;
    const pool = this.pool;
    // The minimums and jobs looked up once: a call below its minimum costs one comparison more than on one thread.
    const [springUniformMin, springPerElementMin, keptMin, damperUniformMin, damperVaryingMin] = [
      'springUniform',
      'springPerElement',
      'springApplyKept',
      'damperUniform',
      'damperVarying',
    ].map((name) => (pool.job(name) < 0 ? Infinity : this.minimum(name))) as [number, number, number, number, number];
    const split: Pick<KernelExports, 'springUniform' | 'springPerElement' | 'springApplyKept' | 'damperUniform' | 'damperVarying'> = {
      springUniform: (x, v, g, q, n, mode, p0, p1, dt) => {
        if (n < springUniformMin) return springUniform(x, v, g, q, n, mode, p0, p1, dt);
        pool.run(pool.job('springUniform'), springUniform, [x, v, g, q, n, mode, p0, p1, dt], SPRING_UNIFORM);
      },
      springPerElement: (x, v, g, q, n, mode, p0, s0, p1, s1, dt, coef) => {
        if (n < (coef === 0 ? springPerElementMin : keptMin)) return springPerElement(x, v, g, q, n, mode, p0, s0, p1, s1, dt, coef);
        return pool.run(
          pool.job('springPerElement'),
          springPerElement,
          [x, v, g, q, n, mode, p0, s0, p1, s1, dt, coef],
          SPRING_PER_ELEMENT,
        );
      },
      springApplyKept: (x, v, g, q, n, mode, p0, s0, p1, s1, dt, coef) => {
        if (n < keptMin) return springApplyKept(x, v, g, q, n, mode, p0, s0, p1, s1, dt, coef);
        pool.run(pool.job('springApplyKept'), springApplyKept, [x, v, g, q, n, mode, p0, s0, p1, s1, dt, coef], SPRING_PER_ELEMENT);
      },
      damperUniform: (x, g, n, halflife, dt) => {
        if (n < damperUniformMin) return damperUniform(x, g, n, halflife, dt);
        pool.run(pool.job('damperUniform'), damperUniform, [x, g, n, halflife, dt], DAMPER_UNIFORM);
      },
      damperVarying: (x, g, n, h, stride, dt) => {
        if (n < damperVaryingMin) return damperVarying(x, g, n, h, stride, dt);
        pool.run(pool.job('damperVarying'), damperVarying, [x, g, n, h, stride, dt], DAMPER_VARYING);
      },
    };
    // A small object over the exports (its prototype), not a copy of their 150 names: a copy that
    // large is a dictionary, whose lookups cost the quick path about 25 ns a call.
    const wrapped = Object.create(raw) as KernelExports;
    for (const [name, fn] of Object.entries(split)) Object.defineProperty(wrapped, name, { value: fn, enumerable: true });
    return wrapped;
  }

  dispose(): void {
    this.pool.dispose();
  }
}
