/**
 * Finding, compiling and instantiating the two wasm builds, in Node and in browsers.
 * The .wasm files sit next to the compiled JS; `new URL('./x.wasm', import.meta.url)` with a
 * literal path is what Vite and webpack 5 recognise and copy as an asset (esbuild and Rollup do
 * not: they need 'spring-solver/embedded', src/embedded.ts).
 */
import type { KernelExports } from '../../core/kernel-exports.js';

export type WasmBuild = 'simd' | 'scalar';

/** Where a build comes from: a URL to fetch or read, the bytes, a fetch Response, or a compiled Module. */
export type WasmSource = URL | string | BufferSource | Response | WebAssembly.Module;

export function defaultWasmUrl(build: WasmBuild): URL {
  return build === 'simd' ? new URL('./spring-solver.simd.wasm', import.meta.url) : new URL('./spring-solver.scalar.wasm', import.meta.url);
}

const compiled = new Map<WasmBuild, Promise<WebAssembly.Module>>();

/** Compiles a build once per page or process (unless a source is given). */
export function compileBuild(build: WasmBuild, source?: WasmSource): Promise<WebAssembly.Module> {
  if (source !== undefined) return compileSource(source);
  let module = compiled.get(build);
  if (!module) {
    module = compileSource(defaultWasmUrl(build));
    module.catch(() => compiled.delete(build)); // a failed load may succeed later
    compiled.set(build, module);
  }
  return module;
}

async function compileSource(source: WasmSource): Promise<WebAssembly.Module> {
  if (source instanceof WebAssembly.Module) return source;
  if (typeof Response !== 'undefined' && source instanceof Response) return compileResponse(source);
  if (typeof source === 'string' || source instanceof URL) {
    const url = new URL(source, typeof location !== 'undefined' ? location.href : undefined);
    if (url.protocol === 'file:') return WebAssembly.compile(await readFileBytes(url));
    return compileResponse(await fetch(url));
  }
  return WebAssembly.compile(source as BufferSource);
}

/** compileStreaming when the engine has it and the server says application/wasm; bytes otherwise. */
async function compileResponse(response: Response): Promise<WebAssembly.Module> {
  if (!response.ok) throw new Error(`spring-solver: fetching ${response.url} failed with HTTP ${response.status}`);
  const isWasm = (response.headers.get('content-type') ?? '').split(';')[0].trim() === 'application/wasm';
  if (isWasm && typeof WebAssembly.compileStreaming === 'function') {
    return WebAssembly.compileStreaming(response);
  }
  return WebAssembly.compile(await response.arrayBuffer());
}

async function readFileBytes(url: URL): Promise<Uint8Array<ArrayBuffer>> {
  // The specifier is built at run time so that browser bundlers do not try to resolve node:fs;
  // webpack would turn it into a module context that cannot find node:fs (test/loading/bundle-webpack).
  const fsModule = 'node:fs/promises';
  const { readFile } = (await import(/* @vite-ignore */ /* webpackIgnore: true */ fsModule)) as typeof import('node:fs/promises');
  return new Uint8Array(await readFile(url));
}

/**
 * Instantiates a compiled build on the given memory, its only import: the kernels are built
 * with --noAssert and the stub runtime, so they import no `abort` (test/wasm/build.node.test.ts).
 */
export async function instantiateBuild(module: WebAssembly.Module, memory: WebAssembly.Memory): Promise<KernelExports> {
  const instance = await WebAssembly.instantiate(module, { env: { memory } });
  return instance.exports as unknown as KernelExports;
}
