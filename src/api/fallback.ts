/**
 * createSolver()'s choice when no backend is forced: the SIMD build, else the scalar build, else
 * JS, and never silently. When a build the engine supports fails to load (a 404, a bundler that
 * did not copy the file, a Content-Security-Policy without 'wasm-unsafe-eval'), the solver that
 * runs carries the reason in `fallbackReason`, and `onFallback` says what else happens:
 * 'warn' (default) prints it once per page or process with console.warn, 'silent' does not,
 * 'throw' rejects with an Error naming it instead of running a slower backend.
 */
import type { Solver } from './solver.js';
import { JsSolver } from '../backends/js-solver.js';
import type { WasmSolver } from '../backends/wasm/wasm-solver.js';
import { defaultWasmUrl, describeError, type WasmBuild, type WasmSource } from '../backends/wasm/load.js';
import { simdSupported, wasmSupported } from '../backends/wasm/simd-support.js';
import { describe } from '../core/validate.js';

/**
 * What createSolver() does when a wasm build fails to load and it runs a slower backend.
 * @group Setup
 */
export type OnFallback = 'warn' | 'silent' | 'throw';

export const ON_FALLBACK: readonly OnFallback[] = ['warn', 'silent', 'throw'];

type WasmBackend = 'simd' | 'wasm';

const BUILD: Record<WasmBackend, 'simd' | 'scalar'> = { simd: 'simd', wasm: 'scalar' };

/** Reasons already printed by 'warn', so that each is printed once per page or process. */
const warned = new Set<string>();

/**
 * Loads the best wasm build the engine supports, falling back as `onFallback` says.
 * `load` creates a solver on a wasm backend; `sources` are the caller's `wasm` option.
 */
export async function createBestSolver(
  load: (backend: WasmBackend) => Promise<WasmSolver>,
  sources: { simd?: WasmSource; scalar?: WasmSource },
  onFallback: OnFallback,
): Promise<Solver> {
  const failures: string[] = [];
  for (const backend of ['simd', 'wasm'] as const) {
    if (!(backend === 'simd' ? simdSupported() : wasmSupported())) continue;
    try {
      return fallenBack(await load(backend), failures, onFallback);
    } catch (error) {
      const failure = describeFailure(BUILD[backend], sources[BUILD[backend]], error);
      if (onFallback === 'throw') throw new Error(`createSolver: ${failure} (onFallback is 'throw')`, { cause: error });
      failures.push(failure);
    }
  }
  return fallenBack(new JsSolver(), failures, onFallback);
}

/** Sets the solver's fallbackReason (null with no failure) and warns once per reason if asked. */
function fallenBack<S extends JsSolver | WasmSolver>(solver: S, failures: string[], onFallback: OnFallback): S {
  if (failures.length === 0) return solver;
  const reason = failures.join('; ');
  solver.fallbackReason = reason;
  if (onFallback === 'warn' && !warned.has(reason)) {
    warned.add(reason);
    console.warn(
      `spring-solver: createSolver() runs the slower '${solver.backend}' backend: ${reason}. ` +
        "Serve the .wasm files, pass them as createSolver({ wasm: { simd, scalar } }), or import 'spring-solver/embedded'; " +
        "createSolver({ onFallback: 'silent' }) hides this warning.",
    );
  }
  return solver;
}

/** "the SIMD build (from <where>) failed to load: <error>". */
function describeFailure(build: WasmBuild, source: WasmSource | undefined, error: unknown): string {
  const what = build === 'simd' ? 'SIMD' : 'scalar';
  return `the ${what} build (from ${describeSource(build, source)}) failed to load: ${describeError(error)}`;
}

function describeSource(build: WasmBuild, source: WasmSource | undefined): string {
  if (source === undefined) {
    try {
      return defaultWasmUrl(build).href;
    } catch {
      // A bundle in a format without import.meta (CommonJS, IIFE) cannot resolve the default URL.
      return `spring-solver.${build}.wasm next to the module, which has no import.meta.url here`;
    }
  }
  if (typeof source === 'string' || source instanceof URL) return String(source);
  if (typeof Response !== 'undefined' && source instanceof Response) return `a Response for ${source.url || 'no URL'}`;
  if (source instanceof WebAssembly.Module) return 'a WebAssembly.Module';
  const bytes = (source as { byteLength?: unknown }).byteLength;
  return typeof bytes === 'number' ? `${bytes} bytes` : describe(source);
}
