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
const SPRING_PER_ELEMENT = [4, 4, 4, 4, N, 0, P, 0, P, 0, 0, 0]; // x, v, g, q, n, mode, p0, stride, p1, stride, dt, coef
const DAMPER_UNIFORM = [4, 4, N, 0, 0]; // x, g, n, halflife, dt
const DAMPER_VARYING = [4, 4, N, P, 0, 0]; // x, g, n, halflife, stride, dt

export class Threading {
  /** Overrides every kernel's minimum (the tests' 0). @internal */
  minimumOverride: number | null = null;

  constructor(readonly pool: ThreadPool) {}

  /** Whether a call of `kernel` over n elements is split. */
  splits(kernel: string, n: number): boolean {
    return n >= (this.minimumOverride ?? splitMinimum(kernel)) && n > 0;
  }

  /**
   * Runs `fn`, the calling thread's export `kernel`, over `args` (layout `advances`, see split.ts):
   * split when it is worth it, else on this thread alone. Returns the kernel's result (the sum of the shares').
   */
  run(kernel: string, fn: Fn, args: number[], advances: readonly number[]): number {
    const n = args[advances.indexOf(N)]!;
    const job = this.pool.job(kernel);
    if (job < 0 || !this.splits(kernel, n)) return fn.apply(null, args);
    return this.pool.run(job, fn, args, advances);
  }

  /**
   * The exports with the core springs and dampers split: the quick path and prepared calls call
   * them directly. springPerElement splits only without kept coefficients (their layout depends
   * on n); springApplyKept is not split.
   */
  wrap(raw: KernelExports): KernelExports {
    const wrapped = { ...raw } as KernelExports;
    const springUniform = raw.springUniform as Fn;
    const springPerElement = raw.springPerElement as Fn;
    const damperUniform = raw.damperUniform as Fn;
    const damperVarying = raw.damperVarying as Fn;
    wrapped.springUniform = (x, v, g, q, n, mode, p0, p1, dt) => {
      if (!this.splits('springUniform', n)) return springUniform(x, v, g, q, n, mode, p0, p1, dt);
      this.run('springUniform', springUniform, [x, v, g, q, n, mode, p0, p1, dt], SPRING_UNIFORM);
    };
    wrapped.springPerElement = (x, v, g, q, n, mode, p0, s0, p1, s1, dt, coef) => {
      if (coef !== 0 || !this.splits('springPerElement', n)) return springPerElement(x, v, g, q, n, mode, p0, s0, p1, s1, dt, coef);
      return this.run('springPerElement', springPerElement, [x, v, g, q, n, mode, p0, s0, p1, s1, dt, coef], SPRING_PER_ELEMENT);
    };
    wrapped.damperUniform = (x, g, n, halflife, dt) => {
      if (!this.splits('damperUniform', n)) return damperUniform(x, g, n, halflife, dt);
      this.run('damperUniform', damperUniform, [x, g, n, halflife, dt], DAMPER_UNIFORM);
    };
    wrapped.damperVarying = (x, g, n, h, stride, dt) => {
      if (!this.splits('damperVarying', n)) return damperVarying(x, g, n, h, stride, dt);
      this.run('damperVarying', damperVarying, [x, g, n, h, stride, dt], DAMPER_VARYING);
    };
    return wrapped;
  }

  dispose(): void {
    this.pool.dispose();
  }
}
