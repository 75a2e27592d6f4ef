/**
 * The source of a solver's worker, as text: Node runs it with `new Worker(source, { eval: true })`,
 * browsers from a Blob URL, so no file has to be found next to the module by a bundler or server
 * and the embedded entry needs nothing more (docs/DECISIONS.md, "Threads").
 *
 * The worker instantiates the calling thread's compiled module on the shared memory, says it is
 * ready, then loops: it parks in Atomics.wait on the generation, runs its share of the call (a
 * kernel index and float64 arguments the calling thread wrote), decrements the pending count and
 * wakes the calling thread when it is the last. No message per call.
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
 * numbers of layout.ts are repeated here (GEN 0, PENDING 1, STOP 2, FAILED 3, JOB 8, ARGC 72,
 * RESULT 136, MAX_ARGS 48; test/wasm/threads.node.test.ts checks that they agree).
 */
async function workerBody(start: WorkerStart, post: (message: unknown) => void): Promise<void> {
  const GEN = 0,
    PENDING = 1,
    STOP = 2,
    FAILED = 3,
    JOB = 8,
    ARGC = 72,
    RESULT = 136,
    MAX_ARGS = 48,
    SPINS = 4000;
  let kernels: ((...args: number[]) => number)[];
  try {
    const instance = await WebAssembly.instantiate(start.module, { env: { memory: start.memory } });
    const exports = instance.exports as Record<string, (...args: number[]) => number>;
    kernels = start.names.map((name) => exports[name]!);
  } catch (error) {
    post({ error: String(error) });
    return;
  }
  const control = new Int32Array(start.control);
  const args = new Float64Array(start.args);
  const w = start.index;
  const lists: number[][] = [];
  // The generation before saying ready: the first call may bump it before this worker waits.
  let seen = Atomics.load(control, GEN);
  post({ ready: true });
  for (;;) {
    // A short spin before parking: a call that follows soon (the next method of the same frame)
    // finds this worker awake, without a futex wake.
    for (let spins = 0; spins < SPINS && Atomics.load(control, GEN) === seen; spins++);
    Atomics.wait(control, GEN, seen);
    seen = Atomics.load(control, GEN);
    if (Atomics.load(control, STOP) !== 0) return;
    const job = control[JOB + w]!;
    if (job < 0) continue;
    const argc = control[ARGC + w]!;
    let list = lists[argc];
    if (list === undefined) {
      list = new Array<number>(argc).fill(0);
      lists[argc] = list;
    }
    for (let i = 0; i < argc; i++) list[i] = args[w * MAX_ARGS + i]!;
    let result = 0;
    try {
      result = kernels[job]!.apply(null, list) | 0;
    } catch {
      Atomics.store(control, FAILED, 1);
    }
    control[RESULT + w] = result;
    if (Atomics.sub(control, PENDING, 1) === 1) Atomics.notify(control, PENDING);
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
