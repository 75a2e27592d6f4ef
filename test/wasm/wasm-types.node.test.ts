// The typed wasm boundary and the quiet build: src/core/kernels.generated.ts (the declarations
// asc emits for assembly/index.ts, from which src/core/kernel-exports.ts derives KernelExports)
// must be what asc generates from the current sources, and asc must compile both targets without
// a warning (docs/DECISIONS.md, "Typed wasm boundary" and "Quiet build").
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { ascDiagnostics, generateKernelTypes, generatedPath } from '../../scripts/wasm-types.mjs';

describe('wasm boundary', () => {
  it('src/core/kernels.generated.ts is up to date with assembly/ (else: npm run build:wasm-types)', async () => {
    const { text } = await generateKernelTypes();
    expect(text).toContain('export function springUniform('); // really asc's declarations
    expect(await readFile(generatedPath, 'utf8')).toBe(text);
  }, 120_000);

  it.each(['simd', 'scalar'] as const)(
    'asc compiles the %s target without a diagnostic',
    async (target) => {
      expect(await ascDiagnostics(target)).toBe('');
    },
    120_000,
  );
});
