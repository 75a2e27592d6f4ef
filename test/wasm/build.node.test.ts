// The two wasm builds: the scalar one must contain no SIMD at all (engines without SIMD reject
// the whole module otherwise), the SIMD one must use it, and both agree with the TS constants.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import binaryen from 'binaryen';
import { SpringMode, createSolver } from '../../dist/index.js';

const dist = new URL('../../dist/backends/wasm/', import.meta.url);

async function wasmText(file: string): Promise<string> {
  const module = binaryen.readBinary(new Uint8Array(await readFile(new URL(file, dist))));
  const text = module.emitText();
  module.dispose();
  return text;
}

describe('wasm builds', () => {
  it('the scalar build has no v128 type or instruction', async () => {
    const text = await wasmText('spring-solver.scalar.wasm');
    expect(text).toContain('(func'); // the disassembly really is the module
    expect(text).not.toMatch(/v128|[if](8x16|16x8|32x4|64x2)\./);
  });

  it('the SIMD build uses f32x4 and f64x2 instructions', async () => {
    const text = await wasmText('spring-solver.simd.wasm');
    expect(text).toMatch(/f32x4\.mul/);
    expect(text).toMatch(/f64x2\.mul/);
  });

  it("both builds import only their memory and the engine's Math.acos, sin, asin and atan2 (no abort, no runtime) and export the same kernels", async () => {
    const [simd, scalar] = await Promise.all(
      ['spring-solver.simd.wasm', 'spring-solver.scalar.wasm'].map(
        async (file) => new WebAssembly.Module(await readFile(new URL(file, dist))),
      ),
    );
    for (const module of [simd, scalar]) {
      // (Math.acos and Math.sin: MixerBatch's slerps give the engine's own results, docs/DECISIONS.md; asin and atan2: its Euler angles)
      const imports = WebAssembly.Module.imports(module).sort((a, b) => `${a.module}.${a.name}`.localeCompare(`${b.module}.${b.name}`));
      expect(imports).toEqual([
        { module: 'env', name: 'memory', kind: 'memory' },
        { module: 'Math', name: 'acos', kind: 'function' },
        { module: 'Math', name: 'asin', kind: 'function' },
        { module: 'Math', name: 'atan2', kind: 'function' },
        { module: 'Math', name: 'sin', kind: 'function' },
      ]);
    }
    const names = (m: WebAssembly.Module) =>
      WebAssembly.Module.exports(m)
        .map((e) => e.name)
        .sort();
    expect(names(scalar)).toEqual(names(simd));
  });
});

describe('kernel constants', () => {
  it.each(['simd', 'wasm'] as const)('%s: the spring modes match SpringMode and simdEnabled() matches the build', async (backend) => {
    const solver = await createSolver({ backend });
    const k = (solver as unknown as { exports: Record<string, WebAssembly.Global & (() => number)> }).exports;
    expect(k.MODE_FREQUENCY_HALFLIFE.value).toBe(SpringMode.FrequencyHalflife);
    expect(k.MODE_STIFFNESS_DAMPING.value).toBe(SpringMode.StiffnessDamping);
    expect(k.MODE_RATIO_HALFLIFE.value).toBe(SpringMode.RatioHalflife);
    expect(k.MODE_CRITICAL.value).toBe(SpringMode.Critical);
    expect((k.simdEnabled as unknown as () => number)()).toBe(backend === 'simd' ? 1 : 0);
    solver.dispose();
  });
});
