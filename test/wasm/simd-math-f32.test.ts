// Measures the error of the float32 polynomials of assembly/maths/x4.ts (atan, atan2,
// sin r / r, cos r) that the SIMD quaternion kernels use, against Math on the same float32
// inputs, over their whole domains. The bounds are the ones documented in docs/DECISIONS.md.
// Each measured error includes the float32 rounding of the result itself, which a float32
// function cannot avoid: half an ulp, 6.0e-8 relative (2^-24).
import { describe, expect, it } from 'vitest';
import { createSolver } from '../../dist/index.js';

interface Probe {
  probeAtanF32(x: number, output: number, n: number): void;
  probeAtan2F32(y: number, x: number, output: number, n: number): void;
  probeSinCosF32(r: number, sinOverXOutput: number, cosOutput: number, n: number): void;
  probeExpF32(u: number, output: number, n: number): void;
}

const N = 200_000; // a multiple of 4

async function simdProbe() {
  const solver = await createSolver({ backend: 'simd' });
  const kernels = (solver as unknown as { exports: Probe }).exports;
  return { solver, kernels, f32: (n: number) => solver.alloc(n) };
}

describe('float32 polynomials (SIMD build)', () => {
  it('atan(x) over the reals: absolute error ≤ 2e-7, relative ≤ 1.5e-7 near 0, exact limits at ±∞', async () => {
    const { solver, kernels, f32 } = await simdProbe();
    const x = f32(N);
    const out = f32(N);
    // dense near 0 and spanning ±1e6 (the three reduction ranges and their borders)
    for (let i = 0; i < N - 4; i++) {
      const t = (2 * i) / (N - 5) - 1;
      x[i] = Math.sign(t) * 1e6 * Math.abs(t) ** 6;
    }
    x.set([Infinity, -Infinity, 1e-30, Math.tan(Math.PI / 8)], N - 4);
    kernels.probeAtanF32(x.byteOffset, out.byteOffset, N);
    let absolute = 0;
    let relativeNearZero = 0;
    for (let i = 0; i < N; i++) {
      const exact = Math.atan(x[i]);
      absolute = Math.max(absolute, Math.abs(out[i] - exact));
      if (exact !== 0 && Math.abs(x[i]) <= Math.tan(Math.PI / 8)) {
        relativeNearZero = Math.max(relativeNearZero, Math.abs(out[i] - exact) / Math.abs(exact));
      }
    }
    // Fit error 6.0e-10 relative. Near 0 (|x| ≤ tan(π/8), u = x exactly) float32 adds the last
    // Horner step on P ≈ 1 (6e-8), the one before it damped by u² ≤ 0.17 (1e-8) and the product
    // u·P (6e-8): 1.3e-7 relative, the precision the log map needs near the identity.
    // Elsewhere the quotient u (6e-8 relative, |u| ≤ 0.41), P, u·P and the sum with π/4 or π/2
    // (half an ulp of π/2: 6e-8) stay under 2e-7 absolute. Measured: 8.3e-8 relative near 0,
    // 1.35e-7 absolute (docs/DECISIONS.md).
    expect(relativeNearZero).toBeLessThanOrEqual(1.5e-7);
    expect(absolute).toBeLessThanOrEqual(2e-7);
    expect(out[N - 4]).toBe(Math.fround(Math.PI / 2));
    expect(out[N - 3]).toBe(Math.fround(-Math.PI / 2));
    expect(Math.abs(out[N - 2] - x[N - 2])).toBeLessThanOrEqual(x[N - 2] * 1.5e-7); // no underflow near 0
    solver.dispose();
  });

  it('atan2(y, x) over the plane (all quadrants, radii 1e-3 … 1e3): absolute error ≤ 3e-7, Math signs at ±0', async () => {
    const { solver, kernels, f32 } = await simdProbe();
    const y = f32(N);
    const x = f32(N);
    const out = f32(N);
    for (let i = 0; i < N - 8; i++) {
      const angle = -Math.PI + (2 * Math.PI * i) / (N - 8);
      const radius = 10 ** (6 * (((i * 7919) % N) / N) - 3);
      y[i] = radius * Math.sin(angle);
      x[i] = radius * Math.cos(angle);
    }
    // the axes and the four signed zeros
    y.set([0, -0, 0, -0, 1, -1, 0, -0], N - 8);
    x.set([0, 0, -0, -0, 0, 0, -1, -1], N - 8);
    kernels.probeAtan2F32(y.byteOffset, x.byteOffset, out.byteOffset, N);
    let absolute = 0;
    for (let i = 0; i < N; i++) absolute = Math.max(absolute, Math.abs(out[i] - Math.atan2(y[i], x[i])));
    // atan's 2e-7, plus π − a for x < 0 (half an ulp of π: 1.2e-7 at most, 3e-7 together).
    // Measured 2.55e-7.
    expect(absolute).toBeLessThanOrEqual(3e-7);
    for (let i = N - 8; i < N; i++) {
      expect(Object.is(Math.sign(out[i]), Math.sign(Math.atan2(y[i], x[i])))).toBe(true); // ±0 and ±π as Math
    }
    solver.dispose();
  });

  it('sin(r)/r and cos(r) for |r| ≤ π/2: relative error ≤ 2e-7 and absolute error ≤ 1.5e-7', async () => {
    const { solver, kernels, f32 } = await simdProbe();
    const r = f32(N);
    const sinOverX = f32(N);
    const cos = f32(N);
    for (let i = 0; i < N; i++) r[i] = -Math.PI / 2 + (Math.PI * i) / (N - 1);
    r[N >> 1] = 0;
    kernels.probeSinCosF32(r.byteOffset, sinOverX.byteOffset, cos.byteOffset, N);
    let relative = 0;
    let absolute = 0;
    for (let i = 0; i < N; i++) {
      const exact = r[i] === 0 ? 1 : Math.sin(r[i]) / r[i];
      relative = Math.max(relative, Math.abs(sinOverX[i] - exact) / exact);
      absolute = Math.max(absolute, Math.abs(cos[i] - Math.cos(r[i])));
    }
    // Fit errors 2.1e-11 (relative) and 2.2e-10 (absolute); the float32 rounding of r² (6e-8
    // relative, times the slope |r²·S'/S| ≤ 0.5 or |r²·C'| ≤ 0.8) and of the last two Horner
    // steps (the earlier ones are damped by r² terms of size ≤ 0.4) add up to 1.4e-7 and 1.2e-7
    // at most. Measured: 1.36e-7 relative, 1.16e-7 absolute.
    expect(relative).toBeLessThanOrEqual(2e-7);
    expect(absolute).toBeLessThanOrEqual(1.5e-7);
    expect(sinOverX[N >> 1]).toBe(1);
    expect(cos[N >> 1]).toBe(1);
    solver.dispose();
  });

  it('exp(u) for u in [−88, 0] (the damper factor): relative error ≤ 1.5e-7, 0 below the flush point', async () => {
    const { solver, kernels, f32 } = await simdProbe();
    const u = f32(N);
    const out = f32(N);
    for (let i = 0; i < N; i++) u[i] = -88 * (i / (N - 1)) ** 2; // dense near 0, where factors are near 1
    kernels.probeExpF32(u.byteOffset, out.byteOffset, N);
    let relative = 0;
    for (let i = 0; i < N; i++) {
      const exact = Math.exp(u[i]);
      if (u[i] < -87.33654) {
        expect(out[i]).toBe(0); // flushed: the exact value is below FLT_MIN, 1.2e-38
        continue;
      }
      relative = Math.max(relative, Math.abs(out[i] - exact) / exact);
    }
    // Degree-7 Taylor on |r| ≤ ln2/2 truncates at 5e-9; the reduction r = u − k·ln2 is exact to
    // ~|k|·2^-24·1.4e-6 (≤ 3e-11 for |k| ≤ 126); the last two Horner steps on p ≈ 1 round by
    // ≤ 6e-8 each (the earlier ones are damped by |r| ≤ 0.35), the product with 2^k is exact:
    // 1.5e-7 bounds the sum. Measured 9.8e-8 (docs/DECISIONS.md).
    expect(relative).toBeLessThanOrEqual(1.5e-7);
    solver.dispose();
  });
});
