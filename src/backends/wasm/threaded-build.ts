/**
 * The threaded SIMD build (shared-build.ts) for a threaded solver: the caller's `wasm.simdThreads`,
 * or the SIMD build's bytes with their memory made shared. Imported only by src/api/threads.ts.
 */
import { checkResponse, compileSource, defaultWasmUrl, describeError, embeddedBytes, readUrl, type WasmSource } from './load.js';
import { sharedMemoryBuild } from './shared-build.js';

let threadedDefault: Promise<WebAssembly.Module> | undefined;

/**
 * The threaded SIMD build (shared-build.ts): `threads` when given, else the SIMD build's bytes
 * (`simd`, or the file next to this module, or its embedded copy) with their memory made shared.
 * The default is compiled once per page or process.
 */
export function compileThreadedBuild(simd?: WasmSource, threads?: WasmSource): Promise<WebAssembly.Module> {
  if (threads !== undefined) return compileSource(threads);
  if (simd !== undefined) return simdBytes(simd).then((bytes) => WebAssembly.compile(sharedMemoryBuild(bytes)));
  if (!threadedDefault) {
    threadedDefault = defaultSimdBytes().then((bytes) => WebAssembly.compile(sharedMemoryBuild(bytes)));
    threadedDefault.catch(() => (threadedDefault = undefined));
  }
  return threadedDefault;
}

/** The SIMD build's bytes from the file next to this module, or from its embedded copy when the file cannot be read. */
async function defaultSimdBytes(): Promise<Uint8Array> {
  let file: Response | Uint8Array<ArrayBuffer>;
  try {
    file = await readUrl(defaultWasmUrl('simd'));
  } catch (missing) {
    try {
      return await embeddedBytes('simd');
    } catch (error) {
      throw new Error(`${describeError(missing)}; its embedded copy failed to load too: ${describeError(error)}`, { cause: missing });
    }
  }
  return file instanceof Uint8Array ? file : new Uint8Array(await file.arrayBuffer());
}

/** The bytes of a SIMD build the caller gave (a Response is cloned: the single-thread fallback may still read it). */
async function simdBytes(source: WasmSource): Promise<Uint8Array> {
  if (source instanceof WebAssembly.Module) {
    throw new Error(
      'wasm.simd is a compiled WebAssembly.Module, which cannot be given a shared memory: pass its bytes, a URL, or wasm.simdThreads',
    );
  }
  if (typeof Response !== 'undefined' && source instanceof Response)
    return new Uint8Array(await checkResponse(source.clone()).arrayBuffer());
  if (typeof source === 'string' || source instanceof URL) {
    const file = await readUrl(source);
    return file instanceof Uint8Array ? file : new Uint8Array(await file.arrayBuffer());
  }
  if (ArrayBuffer.isView(source)) return new Uint8Array(source.buffer, source.byteOffset, source.byteLength);
  return new Uint8Array(source as ArrayBuffer);
}
