/**
 * Finding, compiling and instantiating the two wasm builds, in Node and in browsers.
 * The .wasm files sit next to the compiled JS; `new URL('./x.wasm', import.meta.url)` with a
 * literal path is what Vite and webpack 5 recognise and emit as an asset. esbuild and Rollup do
 * not emit it: when the file cannot be fetched or read, the build's embedded copy is used, from
 * `./embedded-simd.js` or `./embedded-scalar.js` imported with `import()` only then, which
 * code-splitting bundlers emit as lazy chunks, never loaded while the file is there
 * (docs/DECISIONS.md, "Zero-config SIMD under every bundler").
 */
import type { KernelExports } from '../../core/kernel-exports.js';

export type WasmBuild = 'simd' | 'scalar';

/**
 * Where a build comes from: a URL to fetch or read, the bytes, a fetch Response, or a compiled Module.
 * @group Setup
 */
export type WasmSource = URL | string | BufferSource | Response | WebAssembly.Module;

export function defaultWasmUrl(build: WasmBuild): URL {
  return build === 'simd' ? new URL('./spring-solver.simd.wasm', import.meta.url) : new URL('./spring-solver.scalar.wasm', import.meta.url);
}

const compiled = new Map<WasmBuild, Promise<WebAssembly.Module>>();

/**
 * Compiles a build once per page or process: the given source, or else the file next to this
 * module, or its embedded copy when that file cannot be fetched or read.
 */
export function compileBuild(build: WasmBuild, source?: WasmSource): Promise<WebAssembly.Module> {
  if (source !== undefined) return compileSource(source);
  let module = compiled.get(build);
  if (!module) {
    module = compileDefault(build);
    module.catch(() => compiled.delete(build)); // a failed load may succeed later
    compiled.set(build, module);
  }
  return module;
}

export async function compileSource(source: WasmSource): Promise<WebAssembly.Module> {
  if (source instanceof WebAssembly.Module) return source;
  if (typeof Response !== 'undefined' && source instanceof Response) return compileResponse(checkResponse(source));
  if (typeof source === 'string' || source instanceof URL) return compileFile(await readUrl(source));
  return WebAssembly.compile(source as BufferSource);
}

/**
 * The build next to this module. Only a file that cannot be fetched or read (ENOENT, an HTTP error,
 * no import.meta.url in a CommonJS or IIFE bundle) turns to the embedded copy: a file that is there
 * but does not compile (a Content-Security-Policy, a broken file) keeps its own error.
 */
async function compileDefault(build: WasmBuild): Promise<WebAssembly.Module> {
  let file: Response | Uint8Array<ArrayBuffer>;
  try {
    file = await readUrl(defaultWasmUrl(build));
  } catch (missing) {
    return compileEmbedded(build, missing);
  }
  return compileFile(file);
}

/**
 * The build's embedded copy, from a module of its own imported only now (literal specifiers, so that
 * bundlers include it: code-splitting ones as a lazy chunk per build).
 */
async function compileEmbedded(build: WasmBuild, missing: unknown): Promise<WebAssembly.Module> {
  try {
    return await WebAssembly.compile(await embeddedBytes(build));
  } catch (error) {
    throw new Error(`${describeError(missing)}; its embedded copy failed to load too: ${describeError(error)}`, { cause: missing });
  }
}

/** A build's embedded copy, from its own module. */
export async function embeddedBytes(build: WasmBuild): Promise<Uint8Array<ArrayBuffer>> {
  const base64 = build === 'simd' ? (await import('./embedded-simd.js')).SIMD_BASE64 : (await import('./embedded-scalar.js')).SCALAR_BASE64;
  return decodeBase64(base64);
}

/** A file's bytes (file: URLs, in Node) or its fetch Response, which must be OK. */
export async function readUrl(source: URL | string): Promise<Response | Uint8Array<ArrayBuffer>> {
  const url = new URL(source, typeof location !== 'undefined' ? location.href : undefined);
  if (url.protocol === 'file:') return readFileBytes(url);
  return checkResponse(await fetch(url));
}

function compileFile(file: Response | Uint8Array<ArrayBuffer>): Promise<WebAssembly.Module> {
  return file instanceof Uint8Array ? WebAssembly.compile(file) : compileResponse(file);
}

export function checkResponse(response: Response): Response {
  if (!response.ok) throw new Error(`spring-solver: fetching ${response.url} failed with HTTP ${response.status}`);
  return response;
}

/** compileStreaming when the engine has it and the server says application/wasm; bytes otherwise. */
async function compileResponse(response: Response): Promise<WebAssembly.Module> {
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

/** The bytes of a base64 string (Uint8Array.fromBase64 is not in Node 20). */
export function decodeBase64(base64: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** An error as the fallback reason shows it: its message, after its name unless that is plain `Error`. */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error.name === 'Error' ? error.message : `${error.name}: ${error.message}`;
}

/**
 * Instantiates a compiled build on the given memory and the engine's Math.acos and Math.sin (the
 * mixer kernel's slerps, assembly/kernels/mixer-sampling.ts) and Math.asin and Math.atan2 (its Euler
 * angles), its only imports: the kernels are built
 * with --noAssert and the stub runtime, so they import no `abort` (test/wasm/build.node.test.ts).
 */
export async function instantiateBuild(module: WebAssembly.Module, memory: WebAssembly.Memory): Promise<KernelExports> {
  const instance = await WebAssembly.instantiate(module, {
    env: { memory },
    Math: { acos: Math.acos, sin: Math.sin, asin: Math.asin, atan2: Math.atan2 },
  });
  return instance.exports as unknown as KernelExports;
}
