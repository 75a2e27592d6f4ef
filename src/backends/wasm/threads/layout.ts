/**
 * The control block shared by the calling thread and its workers (docs/DECISIONS.md, "Threads"):
 * an Int32Array on a SharedArrayBuffer, and the call's arguments and their advances as float64.
 * The worker's source (worker-source.ts) repeats these numbers: it is serialised and cannot import.
 */

/** Bumped once per call: the workers wait on it. */
export const GEN = 0;
/** Chunks of the call not finished yet: the calling thread waits on it. */
export const REMAINING = 1;
/** Set by dispose(): the workers return. */
export const STOP = 2;
/** Set by a worker whose kernel threw (it cannot: an internal error). */
export const FAILED = 3;
/** The next chunk to claim (Atomics.add): whichever thread claims a chunk runs it. */
export const NEXT = 4;
/** The call's chunk count, elements per chunk, kernel index and argument count. */
export const CHUNKS = 5;
export const CHUNK = 6;
export const JOB = 7;
export const ARGC = 8;
/** The sum of the workers' kernel results. */
export const RESULT = 9;
/**
 * Workers registered on the current call (reading its arguments or claiming its chunks): the next
 * call waits for 0, then holds ACTIVE at LOCKED (negative: no worker registers) while it writes.
 */
export const ACTIVE = 10;
export const LOCKED = -(2 ** 30);
export const CONTROL_INTS = 16;
/** Arguments a kernel may take (the widest takes 21): the arguments at 0, their advances at MAX_ARGS. */
export const MAX_ARGS = 32;
/** Workers a pool may start. */
export const MAX_WORKERS = 64;
