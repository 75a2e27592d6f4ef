/**
 * The source of a solver's worker, as text: Node runs it with `new Worker(source, { eval: true })`,
 * browsers from a Blob URL, so no file has to be found next to the module by a bundler or server
 * and the embedded entry needs nothing more (docs/DECISIONS.md, "Threads").
 *
 * The worker instantiates the calling thread's compiled module on the shared memory, says it is
 * ready, then loops: it parks in Atomics.wait on the generation, then claims chunks of the call
 * (a kernel index and float64 arguments the calling thread wrote) until none is left, as the
 * calling thread does, and wakes the calling thread when the last chunk is done. No message per call.
 */

/** What a worker receives once, at start. */
export interface WorkerStart {
  module: WebAssembly.Module;
  memory: WebAssembly.Memory;
  control: SharedArrayBuffer;
  args: SharedArrayBuffer;
  /** This worker's number, from 0. */
  index: number;
  /** The kernel exports a call may name, by index. */
  names: string[];
}

/**
 * The worker's body. Serialised with toString(): it uses nothing from outside, so the layout
 * numbers of layout.ts and the argument shifting of split.ts are repeated here
 * (test/wasm/threads.node.test.ts checks that they agree).
 */
async function workerBody(start: WorkerStart, post: (message: unknown) => void): Promise<void> {
  const GEN = 0,
    REMAINING = 32,
    STOP = 1,
    FAILED = 2,
    NEXT = 48,
    CHUNKS = 16,
    CHUNK = 17,
    JOB = 18,
    ARGC = 19,
    RESULT = 33,
    ACTIVE = 64,
    MAX_ARGS = 32,
    N_ARGUMENT = -1,
    PARAM_POINTER = -2,
    PER_THREAD_BELOW = -16,
    SPINS = 4000;
  // This thread's scratch (split.ts's perThread): the calling thread is 0.
  const thread = start.index + 1;
  let kernels: ((...args: number[]) => number)[];
  try {
    const instance = await WebAssembly.instantiate(start.module, {
      env: { memory: start.memory },
      Math: { acos: Math.acos, sin: Math.sin, asin: Math.asin, atan2: Math.atan2 },
    });
    const exports = instance.exports as Record<string, (...args: number[]) => number>;
    kernels = start.names.map((name) => exports[name]!);
  } catch (error) {
    post({ error: String(error) });
    return;
  }
  const control = new Int32Array(start.control);
  const shared = new Float64Array(start.args);
  const args: number[] = [];
  const advances: number[] = [];
  const lists: number[][] = [];
  // The generation before saying ready: the first call may bump it before this worker waits.
  let seen = Atomics.load(control, GEN);
  post({ ready: true });
  for (;;) {
    // A short spin before parking: a call that follows soon (the next method of the same frame)
    // finds this worker awake, without a futex wake.
    for (let spins = 0; spins < SPINS && Atomics.load(control, GEN) === seen; spins++);
    Atomics.wait(control, GEN, seen);
    if (Atomics.load(control, STOP) !== 0) return;
    // Registered before reading the call: the calling thread writes the next call only once no
    // worker is registered, and locks registration (ACTIVE negative) while it writes.
    if (Atomics.add(control, ACTIVE, 1) < 0) {
      Atomics.sub(control, ACTIVE, 1);
      continue;
    }
    seen = Atomics.load(control, GEN);
    const kernel = kernels[control[JOB]!]!;
    const argc = control[ARGC]!;
    const chunks = control[CHUNKS]!;
    const chunk = control[CHUNK]!;
    let n = 0;
    for (let i = 0; i < argc; i++) {
      args[i] = shared[i]!;
      advances[i] = shared[MAX_ARGS + i]!;
      if (advances[i] === N_ARGUMENT) n = args[i]!;
    }
    let list = lists[argc];
    if (list === undefined) {
      list = new Array<number>(argc).fill(0);
      lists[argc] = list;
    }
    let sum = 0;
    let done = 0;
    for (let c = Atomics.add(control, NEXT, 1); c < chunks; c = Atomics.add(control, NEXT, 1)) {
      const first = c * chunk;
      for (let i = 0; i < argc; i++) {
        const a = args[i]!;
        const advance = advances[i]!;
        if (advance === N_ARGUMENT) list[i] = Math.min(chunk, n - first);
        else if (advance === PARAM_POINTER) list[i] = a + first * 4 * args[i + 1]!;
        else if (advance <= PER_THREAD_BELOW) list[i] = a - thread * advance;
        else list[i] = advance === 0 || a === 0 ? a : a + first * advance;
      }
      try {
        sum += kernel.apply(null, list) | 0;
      } catch {
        Atomics.store(control, FAILED, 1);
      }
      done++;
    }
    Atomics.sub(control, ACTIVE, 1);
    if (done > 0) {
      if (sum !== 0) Atomics.add(control, RESULT, sum);
      if (Atomics.sub(control, REMAINING, done) === done) Atomics.notify(control, REMAINING);
    }
  }
}

/**
 * The worker's script: the body, started by the first message (Node's parentPort, imported
 * dynamically since an eval'd worker is a CommonJS script or, under --input-type=module, a module;
 * or a browser's self).
 */
export const WORKER_SOURCE = `"use strict";
const workerBody = ${workerBody.toString()};
if (typeof process === 'object' && process !== null && process.versions && process.versions.node) {
  import('node:worker_threads').then(({ parentPort }) => {
    parentPort.once('message', (start) => workerBody(start, (message) => parentPort.postMessage(message)));
  });
} else {
  self.onmessage = (event) => { self.onmessage = null; workerBody(event.data, (message) => self.postMessage(message)); };
}
`;
