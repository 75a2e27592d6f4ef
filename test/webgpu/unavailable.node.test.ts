/**
 * Where WebGPU is absent, createGpuSolver rejects with the reason, nothing silent: in Node there
 * is no navigator.gpu. (The no-adapter case runs in Chromium: test/webgpu/solver.webgpu.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { createGpuSolver } from '../../dist/webgpu/index.js';

describe('createGpuSolver without WebGPU', () => {
  it('rejects in Node, saying navigator.gpu is missing and why', async () => {
    await expect(createGpuSolver()).rejects.toThrow(
      /^createGpuSolver: WebGPU is not available: navigator\.gpu is missing; this is not a browser page/,
    );
  });

  it('rejects options that are not options before looking for a GPU', async () => {
    await expect(createGpuSolver({ devise: 1 } as never)).rejects.toThrow(TypeError);
    await expect(createGpuSolver({ device: 42 } as never)).rejects.toThrow(/options\.device must be a GPUDevice/);
  });
});
