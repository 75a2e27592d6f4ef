/**
 * The workers of a threaded solver and one call's dispatch (docs/DECISIONS.md, "Threads"): the
 * calling thread writes each worker's share (a kernel index and its arguments), bumps the
 * generation and wakes the workers with Atomics.notify, runs its own share, then waits for the
 * pending count to reach 0 (Atomics.wait where the thread may block, a spin on Atomics.load on a
 * browser's main thread). One round trip per call, no message.
 */
import { ARGC, CONTROL_INTS, FAILED, GEN, JOB, MAX_ARGS, MAX_WORKERS, PENDING, RESULT, STOP } from './layout.js';
import { startWorker, type StartedWorker } from './spawn.js';
import { shareOf, shiftedArguments, N_ARGUMENT } from './split.js';

/** How long the calling thread waits for a worker's share before it gives up with an error. */
const WAIT_MS = 60_000;
/** Reads of the pending count before the calling thread blocks (about 10–20 µs). */
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
    const args = new SharedArrayBuffer(MAX_WORKERS * MAX_ARGS * 8);
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
   * Runs kernel `job` (the calling thread's own export `fn`) over the elements of `args`, split
   * into shares of whole blocks (split.ts): `advances[i]` is argument i's bytes per element (0
   * for a number, N_ARGUMENT for the element count). Returns the sum of the shares' results.
   */
  run(job: number, fn: (...args: number[]) => unknown, args: number[], advances: readonly number[]): number {
    this.splitCalls++;
    const nIndex = advances.indexOf(N_ARGUMENT);
    const n = args[nIndex]!;
    const share = shareOf(n, this.threads);
    const control = this.control;
    let active = 0;
    for (let w = 0; w < this.workers.length; w++) {
      const start = (w + 1) * share;
      if (start >= n) {
        control[JOB + w] = -1;
        continue;
      }
      shiftedArguments(args, advances, start, Math.min(share, n - start), this.args, w * MAX_ARGS);
      control[JOB + w] = job;
      control[ARGC + w] = args.length;
      control[RESULT + w] = 0;
      active++;
    }
    Atomics.store(control, PENDING, active);
    Atomics.add(control, GEN, 1);
    Atomics.notify(control, GEN);
    const own = this.own;
    own.length = args.length;
    for (let i = 0; i < args.length; i++) own[i] = args[i]!;
    own[nIndex] = Math.min(share, n);
    let result = Number(fn.apply(null, own)) | 0;
    this.wait();
    if (Atomics.load(control, FAILED) !== 0) throw new Error('internal: a worker failed to run its share of a kernel');
    for (let w = 0; w < this.workers.length; w++) if (control[JOB + w]! >= 0) result += control[RESULT + w]!;
    return result;
  }

  /**
   * Until every worker has run its share: a short spin first (the workers usually finish about
   * when the calling thread does, and a futex sleep and wake costs more than the wait), then
   * Atomics.wait where this thread may block, or more spinning on a browser's main thread.
   */
  private wait(): void {
    const control = this.control;
    for (let spins = 0; spins < SPINS; spins++) if (Atomics.load(control, PENDING) === 0) return;
    const started = performance.now();
    for (let rounds = 1; ; rounds++) {
      const pending = Atomics.load(control, PENDING);
      if (pending === 0) return;
      if (this.canBlock) Atomics.wait(control, PENDING, pending, WAIT_MS);
      else if (rounds % 4096 !== 0) continue;
      // A worker that never finishes (terminated by the host, out of memory) must not hang the caller.
      if (performance.now() - started >= WAIT_MS) throw new Error(`internal: a worker did not finish its share within ${WAIT_MS} ms`);
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
