// src/backends/webgpu/wgsl.generated.ts is what scripts/wgsl-sources.mjs makes of the .wgsl files.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { generatedPath, generateWgslSources } from '../../scripts/wgsl-sources.mjs';

describe('wgsl.generated.ts', () => {
  it('is up to date with src/backends/webgpu/shaders/*.wgsl (npm run build:wgsl)', async () => {
    expect(await readFile(generatedPath, 'utf8')).toBe(await generateWgslSources());
  });
});
