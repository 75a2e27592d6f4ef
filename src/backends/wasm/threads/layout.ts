/**
 * The control block shared by the calling thread and its workers (docs/DECISIONS.md, "Threads"):
 * an Int32Array on a SharedArrayBuffer, and the arguments of each worker's share as float64.
 * The worker's source (worker-source.ts) repeats these numbers: it is serialised and cannot import.
 */

/** Bumped once per call: the workers wait on it. */
export const GEN = 0;
/** Workers still running their share: the calling thread waits on it. */
export const PENDING = 1;
/** Set by dispose(): the workers return. */
export const STOP = 2;
/** Set by a worker whose kernel threw (it cannot: an internal error). */
export const FAILED = 3;
/** Per worker w: the kernel's index (−1: no share this call) at JOB + w, its argument count at ARGC + w, its result at RESULT + w. */
export const JOB = 8;
export const MAX_WORKERS = 64;
export const ARGC = JOB + MAX_WORKERS;
export const RESULT = ARGC + MAX_WORKERS;
export const CONTROL_INTS = RESULT + MAX_WORKERS;
/** Arguments a kernel may take (the widest takes 28). */
export const MAX_ARGS = 48;
