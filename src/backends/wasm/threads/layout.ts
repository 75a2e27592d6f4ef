/**
 * The control block shared by the calling thread and its workers (docs/DECISIONS.md, "Threads"):
 * an Int32Array on a SharedArrayBuffer, and the call's arguments and their advances as float64.
 * What the workers spin on (GEN), the call's description, what the threads count down (REMAINING),
 * the chunk counter (NEXT) and the registrations (ACTIVE) sit on 64-byte lines of their own, so
 * that a spinning worker's reads do not contend with the claims and count-downs.
 * The worker's source (worker-source.ts) repeats these numbers: it is serialised and cannot import.
 */

/** Bumped once per call: the workers wait on it. */
export const GEN = 0;
/** Chunks of the call not finished yet: the calling thread waits on it. */
export const REMAINING = 32;
/** Set by dispose(): the workers return. */
export const STOP = 1;
/** Set by a worker whose kernel threw (it cannot: an internal error). */
export const FAILED = 2;
/** The next chunk to claim (Atomics.add): whichever thread claims a chunk runs it. */
export const NEXT = 48;
/** The call's chunk count, elements per chunk, kernel index and argument count. */
export const CHUNKS = 16;
export const CHUNK = 17;
export const JOB = 18;
export const ARGC = 19;
/** The sum of the workers' kernel results. */
export const RESULT = 33;
/**
 * Workers registered on the current call (reading its arguments or claiming its chunks): the next
 * call waits for 0, then holds ACTIVE at LOCKED (negative: no worker registers) while it writes.
 */
export const ACTIVE = 64;
export const LOCKED = -(2 ** 30);
export const CONTROL_INTS = 80;
/**
 * Arguments a kernel may take (every export fits: test/wasm/threads.node.test.ts counts them): the
 * arguments at 0, their advances at MAX_ARGS.
 */
export const MAX_ARGS = 32;
/** Workers a pool may start. */
export const MAX_WORKERS = 64;
