// Measures the error of the vectorised float64 exp and sin/cos (assembly/maths/x2.ts) that the
// SIMD per-element kernels use, against Math (the bounds are documented in docs/DECISIONS.md).
import { describe, expect, it } from 'vitest';
import { createSolver } from '../../dist/index.js';

interface Probe {
  probeExp(input: number, output: number, n: number): void;
  probeSinCos(input: number, sinOutput: number, cosOutput: number, n: number): void;
}

async function simdProbe() {
  const solver = await createSolver({ backend: 'simd' });
  const kernels = (solver as unknown as { exports: Probe }).exports;
  /** A float64 array in the solver's memory (alloc gives 16-byte aligned float32 blocks). */
  const f64 = (n: number) => {
    const block = solver.alloc(2 * n);
    return new Float64Array(block.buffer, block.byteOffset, n);
  };
  return { solver, kernels, f64 };
}

const N = 200_000;

describe('vectorised float64 math (SIMD build)', () => {
  it('exp(u) for u in [−745, 0]: relative error ≤ 1e-14, and 0 below the flush point', async () => {
    const { solver, kernels, f64 } = await simdProbe();
    const u = f64(N);
    const out = f64(N);
    for (let i = 0; i < N; i++) u[i] = -745 * (i / (N - 1)) ** 2; // dense near 0, where springs live
    kernels.probeExp(u.byteOffset, out.byteOffset, N);
    let worst = 0;
    for (let i = 0; i < N; i++) {
      const exact = Math.exp(u[i]);
      if (u[i] < -708) {
        expect(out[i]).toBe(0); // flushed: exact value < 3.3e-308, an absolute error nobody can see
        continue;
      }
      worst = Math.max(worst, Math.abs(out[i] - exact) / exact);
    }
    // Degree-11 Taylor on |r| ≤ ln2/2: truncation (ln2/2)^12/12! = 6.3e-15, plus ~12 Horner
    // roundings of 2^-53 (~1e-15): 1e-14 bounds both. Measured 8.8e-15 (docs/DECISIONS.md); the
    // kernels round the result to float32 (6e-8), so this is 7 orders of magnitude below visible.
    expect(worst).toBeLessThanOrEqual(1e-14);
    solver.dispose();
  });

  it('sin θ and cos θ for θ in [0, 1e4]: absolute error ≤ 3e-14', async () => {
    const { solver, kernels, f64 } = await simdProbe();
    const theta = f64(N);
    const s = f64(N);
    const c = f64(N);
    for (let i = 0; i < N; i++) theta[i] = 1e4 * (i / (N - 1)) ** 3;
    kernels.probeSinCos(theta.byteOffset, s.byteOffset, c.byteOffset, N);
    let worst = 0;
    for (let i = 0; i < N; i++) {
      worst = Math.max(worst, Math.abs(s[i] - Math.sin(theta[i])), Math.abs(c[i] - Math.cos(theta[i])));
    }
    // Cody–Waite reduction with a 3-part π/2 is exact to ~1e-31·k; the degree-13 sin series on
    // |r| ≤ π/4 truncates at (π/4)^15/15! = 2.0e-14 (cos: (π/4)^16/16! = 1e-15), plus ~8 roundings
    // of 1.1e-16: 3e-14 bounds both. Measured 2.0e-14 (docs/DECISIONS.md).
    expect(worst).toBeLessThanOrEqual(3e-14);
    solver.dispose();
  });
});
