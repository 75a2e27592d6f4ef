/**
 * Starting a worker from WORKER_SOURCE on this platform: Node's worker_threads (eval'd, unref'd so
 * that a process with a threaded solver exits on its own) or a browser's Worker from a Blob URL.
 * Each is given its start message and resolves when the worker has instantiated the module.
 */
import { WORKER_SOURCE, type WorkerStart } from './worker-source.js';

/** What the pool needs of a worker, on either platform. */
export interface StartedWorker {
  terminate(): void;
}

/** True in Node (and engines with its worker_threads). */
function isNode(): boolean {
  const p = (globalThis as { process?: { versions?: { node?: string } } }).process;
  return typeof p?.versions?.node === 'string';
}

/** The logical cores the platform reports: os.availableParallelism() in Node, navigator.hardwareConcurrency in browsers. */
export async function reportedCores(): Promise<number> {
  if (isNode()) {
    const osModule = 'node:os';
    const os = (await import(/* @vite-ignore */ /* webpackIgnore: true */ osModule)) as typeof import('node:os');
    return typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
  }
  const cores = (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator?.hardwareConcurrency;
  return typeof cores === 'number' && cores >= 1 ? cores : 1;
}

/** Starts one worker; rejects with the reason when it cannot start or fails to instantiate within `timeoutMs`. */
export async function startWorker(start: WorkerStart, timeoutMs: number): Promise<StartedWorker> {
  return isNode() ? startNodeWorker(start, timeoutMs) : startBrowserWorker(start, timeoutMs);
}

async function startNodeWorker(start: WorkerStart, timeoutMs: number): Promise<StartedWorker> {
  const threadsModule = 'node:worker_threads';
  const { Worker } = (await import(/* @vite-ignore */ /* webpackIgnore: true */ threadsModule)) as typeof import('node:worker_threads');
  const worker = new Worker(WORKER_SOURCE, { eval: true });
  worker.unref();
  const ready = new Promise<void>((resolve, reject) => {
    worker.once('message', (message: { ready?: boolean; error?: string }) =>
      message.ready ? resolve() : reject(new Error(`a worker failed to instantiate the module: ${message.error}`)),
    );
    worker.once('error', (error) => reject(new Error(`a worker failed to start: ${String(error)}`)));
  });
  worker.postMessage(start);
  await settle(ready, timeoutMs, () => void worker.terminate());
  return { terminate: () => void worker.terminate() };
}

async function startBrowserWorker(start: WorkerStart, timeoutMs: number): Promise<StartedWorker> {
  if (typeof Worker === 'undefined') throw new Error('this engine has no Worker');
  const url = URL.createObjectURL(new Blob([WORKER_SOURCE], { type: 'text/javascript' }));
  let worker: Worker;
  try {
    worker = new Worker(url); // a CSP without worker-src blob: (or child-src) throws here or fires 'error'
  } catch (error) {
    URL.revokeObjectURL(url);
    throw new Error(`a worker failed to start: ${String(error)}`);
  }
  const ready = new Promise<void>((resolve, reject) => {
    worker.onmessage = (event: MessageEvent<{ ready?: boolean; error?: string }>) =>
      event.data.ready ? resolve() : reject(new Error(`a worker failed to instantiate the module: ${event.data.error}`));
    worker.onerror = (event) =>
      reject(
        new Error(`a worker failed to start: ${event.message || 'error event (a Content-Security-Policy without worker-src blob:?)'}`),
      );
  });
  worker.postMessage(start);
  try {
    await settle(ready, timeoutMs, () => worker.terminate());
  } finally {
    URL.revokeObjectURL(url);
  }
  worker.onmessage = null;
  worker.onerror = null;
  return { terminate: () => worker.terminate() };
}

/** `ready`, or a rejection after `timeoutMs` (then `cancel` is called). */
async function settle(ready: Promise<void>, timeoutMs: number, cancel: () => void): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`a worker did not start within ${timeoutMs} ms`)), timeoutMs);
    (timer as { unref?: () => void }).unref?.();
  });
  try {
    await Promise.race([ready, timeout]);
  } catch (error) {
    cancel();
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
