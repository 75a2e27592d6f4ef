/**
 * The smallest call, in elements, that a threaded solver splits, per kernel export: below it the
 * calling thread runs the call alone, since waking the workers would cost more than their share
 * saves. Measured on 2 cores (bench/suites/threads.js; docs/DECISIONS.md, "Threads").
 */

/** Kernels measured apart. */
const MEASURED: Record<string, number> = {
  springUniform: 65536,
  damperUniform: 65536,
  springPerElement: 16384,
  damperVarying: 16384,
  poseInertializeUpdate: 4096,
};

/** Every other element-wise kernel: each costs at least a per-element spring's work per element. */
const OTHER = 16384;

/** The smallest element count `kernel` is split at. */
export function splitMinimum(kernel: string): number {
  return MEASURED[kernel] ?? OTHER;
}
