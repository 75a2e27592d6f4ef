/**
 * The workers of a threaded solver and one call's dispatch (docs/DECISIONS.md, "Threads"): the
 * calling thread writes the call (a kernel index, its arguments, the chunk size), bumps the
 * generation and wakes the workers with Atomics.notify, then claims chunks as they do until none
 * is left, and waits for the chunks the workers claimed (Atomics.wait where the thread may block,
 * a spin on Atomics.load on a browser's main thread). A worker that wakes late finds the chunks
 * taken: a busy machine costs the call its wake-ups, not a worker's share. One round trip per
 * call, no message. Which thread runs a chunk never changes its bits: the chunks are fixed.
 */
import {
  ACTIVE,
  ARGC,
  CHUNK,
  CHUNKS,
  CONTROL_INTS,
  FAILED,
  GEN,
  JOB,
  LOCKED,
  MAX_ARGS,
  MAX_WORKERS,
  NEXT,
  REMAINING,
  RESULT,
  STOP,
} from './layout.js';
import { startWorker, type StartedWorker } from './spawn.js';
import { chunkOf, shiftedArguments, N_ARGUMENT } from './split.js';

/** How long the calling thread waits for a worker's chunk before it gives up with an error. */
const WAIT_MS = 60_000;
/** Reads of the remaining count before the calling thread blocks (about 10–20 µs). */
const SPINS = 2000;

export class ThreadPool {
  /** Threads a split call runs on: the workers and the calling thread. */
  readonly threads: number;
  private readonly control: Int32Array;
  private readonly args: Float64Array;
  private readonly jobs: Map<string, number>;
  /** Whether this thread may block in Atomics.wait (a browser's main thread may not). */
  private readonly canBlock: boolean;
  private own: number[] = [];
  private disposed = false;
  /** Calls split so far (the tests check that a method is split). @internal */
  splitCalls = 0;
  /** When the last call started writing (the wait for a worker that never finishes reading one gives up WAIT_MS after it). */
  private lastCall = 0;
  /** False: the calling thread leaves every chunk to the workers (the tests' check of the workers' path). @internal */
  callerClaims = true;
  /** Whether a call begun (begin) runs on the workers until finish(). */
  private begun = false;
  /** Calls begun in the background so far (the tests check that a caller overlaps its work with them). @internal */
  backgroundCalls = 0;

  private constructor(
    private readonly workers: StartedWorker[],
    control: SharedArrayBuffer,
    args: SharedArrayBuffer,
    names: string[],
  ) {
    this.threads = workers.length + 1;
    this.control = new Int32Array(control);
    this.args = new Float64Array(args);
    this.jobs = new Map(names.map((name, index) => [name, index]));
    this.canBlock = mayBlock(this.control);
  }

  /**
   * Starts `workers` workers, each instantiating `module` on `memory` (shared). Rejects with the
   * first failure, after terminating the workers that did start.
   */
  static async start(module: WebAssembly.Module, memory: WebAssembly.Memory, workers: number, timeoutMs: number): Promise<ThreadPool> {
    if (workers < 1 || workers > MAX_WORKERS) throw new RangeError(`internal: ${workers} workers`);
    const control = new SharedArrayBuffer(CONTROL_INTS * 4);
    const args = new SharedArrayBuffer(2 * MAX_ARGS * 8);
    const names = WebAssembly.Module.exports(module)
      .filter((e) => e.kind === 'function')
      .map((e) => e.name);
    const started = await Promise.allSettled(
      Array.from({ length: workers }, (_, index) => startWorker({ module, memory, control, args, index, names }, timeoutMs)),
    );
    const failure = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    const running = started.filter((s): s is PromiseFulfilledResult<StartedWorker> => s.status === 'fulfilled').map((s) => s.value);
    if (failure) {
      for (const worker of running) worker.terminate();
      throw failure.reason;
    }
    return new ThreadPool(running, control, args, names);
  }

  /** The index of a kernel export in the workers' table, or −1. */
  job(name: string): number {
    return this.jobs.get(name) ?? -1;
  }

  /**
   * Runs kernel `job` (the calling thread's own export `fn`) over the elements of `args`, in
   * chunks of whole blocks (split.ts) that the threads claim: `advances[i]` is argument i's bytes
   * per element (0 for a number, N_ARGUMENT for the element count, PARAM_POINTER for a parameter's
   * pointer, perThread(bytes) for a scratch of each thread; see split.ts), in chunks of at least
   * `minChunk` elements, whole blocks of `align`. Returns the sum of the chunks' results.
   */
  run(
    job: number,
    fn: (...args: number[]) => unknown,
    args: number[],
    advances: readonly number[],
    minChunk?: number,
    align?: number,
  ): number {
    // a call from code the caller ran while its call runs in the background: that call finishes first
    if (this.begun) this.finish();
    this.splitCalls++;
    const control = this.control;
    const n = args[advances.indexOf(N_ARGUMENT)]!;
    const chunk = chunkOf(n, this.threads, minChunk, align);
    const chunks = Math.ceil(n / chunk);
    this.post(job, args, advances, chunk, chunks);
    const own = this.own;
    own.length = args.length;
    let result = 0;
    let done = 0;
    for (let c = this.callerClaims ? Atomics.add(control, NEXT, 1) : chunks; c < chunks; c = Atomics.add(control, NEXT, 1)) {
      shiftedArguments(args, advances, c * chunk, Math.min(chunk, n - c * chunk), own, 0);
      result += Number(fn.apply(null, own)) | 0;
      done++;
    }
    if (done > 0) Atomics.sub(control, REMAINING, done);
    return result + this.join();
  }

  /**
   * Starts kernel `job` over `args` (as run's) on the workers alone, in chunks for the workers,
   * and returns at once: the calling thread does other work until finish() (a run() meanwhile
   * waits for this call first). The chunks are run's own rule over the workers' count, so a
   * kernel whose bits do not depend on its split gives the same bits.
   */
  begin(job: number, args: number[], advances: readonly number[], minChunk?: number, align?: number): void {
    if (this.begun) throw new Error('internal: a call begun while another runs in the background');
    this.splitCalls++;
    this.backgroundCalls++;
    const n = args[advances.indexOf(N_ARGUMENT)]!;
    const chunk = chunkOf(n, this.threads - 1, minChunk, align);
    this.post(job, args, advances, chunk, Math.ceil(n / chunk));
    this.begun = true;
  }

  /** Waits for the call begun (begin) and returns the sum of its chunks' results (0 if a run() waited for it already). */
  finish(): number {
    if (!this.begun) return 0;
    this.begun = false;
    return this.join();
  }

  /** Writes a call for the workers and wakes them (the calling thread may then claim chunks too). */
  private post(job: number, args: number[], advances: readonly number[], chunk: number, chunks: number): void {
    const control = this.control;
    // No worker may still be reading the previous call while this one is written.
    for (let spins = 1; Atomics.compareExchange(control, ACTIVE, 0, LOCKED) !== 0; spins++) {
      // A worker finishing its look at the previous call: a few instructions, unless the host killed it.
      if (spins % 65536 === 0 && performance.now() - this.lastCall > WAIT_MS)
        throw new Error('internal: a worker never finished reading a call');
    }
    this.lastCall = performance.now();
    const shared = this.args;
    for (let i = 0; i < args.length; i++) {
      shared[i] = args[i]!;
      shared[MAX_ARGS + i] = advances[i]!;
    }
    control[JOB] = job;
    control[ARGC] = args.length;
    control[CHUNK] = chunk;
    control[CHUNKS] = chunks;
    Atomics.store(control, RESULT, 0);
    Atomics.store(control, NEXT, 0);
    Atomics.store(control, REMAINING, chunks);
    Atomics.add(control, GEN, 1);
    Atomics.sub(control, ACTIVE, LOCKED);
    Atomics.notify(control, GEN);
  }

  /** Waits for the workers' chunks of the call posted; the sum of their results. */
  private join(): number {
    this.wait();
    if (Atomics.load(this.control, FAILED) !== 0) throw new Error('internal: a worker failed to run its chunk of a kernel');
    return Atomics.load(this.control, RESULT);
  }

  /**
   * Until every chunk the workers claimed is done: a short spin first (they usually finish about
   * when the calling thread does, and a futex sleep and wake costs more than the wait), then
   * Atomics.wait where this thread may block, or more spinning on a browser's main thread.
   */
  private wait(): void {
    const control = this.control;
    for (let spins = 0; spins < SPINS; spins++) if (Atomics.load(control, REMAINING) === 0) return;
    const started = performance.now();
    for (let rounds = 1; ; rounds++) {
      const remaining = Atomics.load(control, REMAINING);
      if (remaining === 0) return;
      if (this.canBlock) Atomics.wait(control, REMAINING, remaining, WAIT_MS);
      else if (rounds % 4096 !== 0) continue;
      // A worker that never finishes (terminated by the host, out of memory) must not hang the caller.
      if (performance.now() - started >= WAIT_MS) throw new Error(`internal: a worker did not finish its chunk within ${WAIT_MS} ms`);
    }
  }

  /** Stops and terminates the workers. Idempotent. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    Atomics.store(this.control, STOP, 1);
    Atomics.add(this.control, GEN, 1);
    Atomics.notify(this.control, GEN);
    for (const worker of this.workers) worker.terminate();
  }
}

/** True when this thread may call Atomics.wait (false on a browser's main thread, which throws). */
function mayBlock(control: Int32Array): boolean {
  try {
    Atomics.wait(control, STOP, 1, 0); // STOP is 0: returns 'not-equal' at once where waiting is allowed
    return true;
  } catch {
    return false;
  }
}
