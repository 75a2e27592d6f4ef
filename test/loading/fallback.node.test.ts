// createSolver() never falls back silently: a wasm build that fails to load (a missing file, bytes
// that are not wasm) leaves its reason in solver.fallbackReason and, by default, one console
// warning per reason; onFallback 'silent' drops the warning, 'throw' rejects instead. In
// Chromium the same is checked for a 404 and a Content-Security-Policy (load-*.node.test.ts).
// Each test uses sources of its own, so that its reasons are new to the once-per-reason memory.
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { createSolver, simdSupported } from '../../dist/index.js';

/** Bytes that are not a wasm module, `length` long (which the reason names). */
const notWasm = (length: number) => new Uint8Array(length).fill(7);

let warn: MockInstance<typeof console.warn>;
beforeEach(() => {
  warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => {
  warn.mockRestore();
});

describe('createSolver() fallbacks', () => {
  it("Node supports SIMD, so the default solver is 'simd' with no fallback reason and no warning", async () => {
    expect(simdSupported()).toBe(true);
    const solver = await createSolver();
    expect(solver.backend).toBe('simd');
    expect(solver.fallbackReason).toBeNull();
    expect(warn).not.toHaveBeenCalled();
  });

  it("a missing SIMD file: 'wasm' runs, the reason names the build, the URL and the error, and it is warned once", async () => {
    const missing = new URL('file:///nonexistent/spring-solver.simd.wasm');
    const solver = await createSolver({ wasm: { simd: missing } });
    expect(solver.backend).toBe('wasm');
    expect(solver.fallbackReason).toBe(
      "the SIMD build (from file:///nonexistent/spring-solver.simd.wasm) failed to load: ENOENT: no such file or directory, open '/nonexistent/spring-solver.simd.wasm'",
    );
    expect(warn).toHaveBeenCalledTimes(1);
    const message = String(warn.mock.calls[0]![0]);
    expect(message).toContain("runs the slower 'wasm' backend");
    expect(message).toContain(solver.fallbackReason);
    expect(message).toContain("onFallback: 'silent'");

    // The same reason again: the solver still carries it, the console is not told twice.
    const again = await createSolver({ wasm: { simd: missing } });
    expect(again.fallbackReason).toBe(solver.fallbackReason);
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it("both builds failing: 'js' runs and the reason names both failures", async () => {
    const solver = await createSolver({ wasm: { simd: notWasm(11), scalar: notWasm(12) } });
    expect(solver.backend).toBe('js');
    expect(solver.fallbackReason).toMatch(
      /^the SIMD build \(from 11 bytes\) failed to load: CompileError: .+; the scalar build \(from 12 bytes\) failed to load: CompileError: /,
    );
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toContain("runs the slower 'js' backend");
    // It still computes: one critical spring step moves x toward g.
    const [x, v, g, q] = [0, 0, 0, 0].map(() => solver.alloc(4));
    g!.fill(1);
    solver.criticalSpringDamper(x!, v!, g!, q!, 0.1, 1 / 60);
    expect(x!.every((value) => value > 0 && value < 1)).toBe(true);
  });

  it("onFallback 'silent' keeps the reason and prints nothing", async () => {
    const solver = await createSolver({ wasm: { simd: notWasm(13) }, onFallback: 'silent' });
    expect(solver.backend).toBe('wasm');
    expect(solver.fallbackReason).toMatch(/^the SIMD build \(from 13 bytes\) failed to load: CompileError: /);
    expect(warn).not.toHaveBeenCalled();
  });

  it("onFallback 'throw' rejects with an Error naming the reason, whose cause is the load error", async () => {
    const error: Error = await createSolver({ wasm: { simd: notWasm(14) }, onFallback: 'throw' }).then(
      () => {
        throw new Error('createSolver resolved');
      },
      (e: Error) => e,
    );
    expect(error.constructor).toBe(Error);
    expect(error.message).toMatch(
      /^createSolver: the SIMD build \(from 14 bytes\) failed to load: CompileError: .+ \(onFallback is 'throw'\)$/,
    );
    expect((error.cause as Error).name).toBe('CompileError');
    expect(warn).not.toHaveBeenCalled();
  });

  it("with every build loading, onFallback 'throw' and 'silent' give the 'simd' solver", async () => {
    for (const onFallback of ['throw', 'silent'] as const) {
      const solver = await createSolver({ onFallback });
      expect(solver.backend).toBe('simd');
      expect(solver.fallbackReason).toBeNull();
    }
    expect(warn).not.toHaveBeenCalled();
  });

  it('a forced backend that fails to load still throws the load error, whatever onFallback says', async () => {
    for (const onFallback of ['warn', 'silent'] as const) {
      await expect(createSolver({ backend: 'simd', wasm: { simd: notWasm(15) }, onFallback })).rejects.toThrow(WebAssembly.CompileError);
      await expect(createSolver({ backend: 'wasm', wasm: { scalar: new URL('file:///nonexistent/x.wasm') }, onFallback })).rejects.toThrow(
        /ENOENT/,
      );
    }
    const forced = await createSolver({ backend: 'wasm' });
    expect(forced.fallbackReason).toBeNull();
    expect(warn).not.toHaveBeenCalled();
  });

  it('an unknown onFallback is a RangeError naming the argument', async () => {
    await expect(createSolver({ onFallback: 'loud' as never })).rejects.toThrow(
      new RangeError('createSolver: onFallback is "loud"; it must be one of warn, silent, throw'),
    );
    await expect(createSolver({ onFallback: 1 as never })).rejects.toThrow(/^createSolver: onFallback is the number 1; it must be one of/);
  });
});
