/**
 * Nothing non-finite from finite input: every method of the GPU solver on parameters and dt from
 * the extremes of their ranges (0, float32's smallest normals, 1e-6 … 1e6, 3e38) and states up
 * to 1e3, per element and uniform: wherever the float64 reference's result is finite, the GPU's is.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGpuSolver, type GpuSolver } from '../../dist/webgpu/index.js';
import * as reference from '../../dist/reference/index.js';
import { mulberry32, uniform } from '../helpers/random.js';

let gpu: GpuSolver;
beforeAll(async () => {
  gpu = await createGpuSolver({ warnLargeDt: false }); // dt up to 1e6 s on purpose
});
afterAll(() => gpu.dispose());

const PARAMS = [0, 1.2e-38, 1e-30, 1e-6, 1e-3, 0.1, 1, 1e3, 1e6, 3e38];
const DTS = [1e-30, 1e-4, 1 / 60, 1, 1e3, 1e6];

describe('extreme parameters and dt', () => {
  it.each(['criticalSpringDamper', 'springDamper', 'damper', 'quatSimpleSpringDamper'] as const)(
    '%s stays finite where the reference does',
    async (name) => {
      const rng = mulberry32(5);
      const pairs = PARAMS.flatMap((a) => PARAMS.map((b) => [a, b]));
      const width = name === 'quatSimpleSpringDamper' ? 4 : 1;
      const n = pairs.length;
      const bad: string[] = [];
      for (const dt of DTS) {
        const x = Float32Array.from({ length: width * n }, () => uniform(rng, -1e3, 1e3));
        if (width === 4) for (let i = 0; i < n; i++) x.set([0, Math.SQRT1_2, 0, Math.SQRT1_2], 4 * i);
        const v = Float32Array.from({ length: (width === 4 ? 3 : 1) * n }, () => uniform(rng, -1e3, 1e3));
        const g = Float32Array.from({ length: width * n }, () => uniform(rng, -1e3, 1e3));
        if (width === 4) for (let i = 0; i < n; i++) g.set([Math.SQRT1_2, 0, 0, Math.SQRT1_2], 4 * i);
        const q = Float32Array.from({ length: n }, () => uniform(rng, -1e3, 1e3));
        const p0 = Float32Array.from(pairs, (p) => p[0]);
        const p1 = Float32Array.from(pairs, (p) => p[1]);
        const [xr, vr] = [x.slice(), v.slice()];
        const onGpu = [x, v, g, q, p0, p1].map((a) => {
          const b = gpu.alloc(a.length);
          gpu.write(b, a);
          return b;
        });
        const [X, V, G, Q, P0, P1] = onGpu;
        if (name === 'criticalSpringDamper') {
          reference.criticalSpringDamper(xr, vr, g, q, p0, dt);
          gpu.criticalSpringDamper(X, V, G, Q, P0, dt);
        } else if (name === 'springDamper') {
          reference.springDamper(xr, vr, g, q, p0, p1, dt);
          gpu.springDamper(X, V, G, Q, P0, P1, dt);
        } else if (name === 'damper') {
          reference.damper(xr, g, p0, dt);
          gpu.damper(X, G, P0, dt);
        } else {
          const h = Float32Array.from({ length: n }, (_, i) => p0[i]);
          const H = gpu.alloc(n);
          gpu.write(H, h);
          reference.quatSimpleSpringDamper(xr, vr, g, h, dt);
          gpu.quatSimpleSpringDamper(X, V, G, H, dt);
          gpu.free(H);
        }
        const [xg, vg] = [await gpu.read(X), await gpu.read(V)];
        for (const [label, got, ref] of [
          ['x', xg, xr],
          ['v', vg, vr],
        ] as const) {
          for (let k = 0; k < ref.length; k++) {
            const i = Math.floor(k / (label === 'x' ? width : width === 4 ? 3 : 1));
            if (Number.isFinite(ref[k]) && !Number.isFinite(got[k]))
              bad.push(`dt ${dt} params ${pairs[i]}: ${label}[${k}] ${got[k]} (reference ${ref[k]})`);
          }
        }
        for (const a of onGpu) gpu.free(a);
      }
      expect(bad.slice(0, 8)).toEqual([]);
    },
  );
});

describe('extreme uniform parameters (coefficients from the host)', () => {
  it('springDamper and criticalSpringDamper stay finite where the reference does', async () => {
    const rng = mulberry32(6);
    const n = 16;
    const bad: string[] = [];
    const arrays = Array.from({ length: 4 }, () => gpu.alloc(n));
    for (const dt of [1e-4, 1, 1e6]) {
      for (const f of PARAMS) {
        for (const h of PARAMS) {
          const state = Array.from({ length: 4 }, () => Float32Array.from({ length: n }, () => uniform(rng, -1e3, 1e3)));
          state.forEach((a, k) => gpu.write(arrays[k], a));
          const [xr, vr] = [state[0].slice(), state[1].slice()];
          reference.springDamper(xr, vr, state[2], state[3], f, h, dt);
          gpu.springDamper(arrays[0], arrays[1], arrays[2], arrays[3], f, h, dt);
          const [xg, vg] = [await gpu.read(arrays[0]), await gpu.read(arrays[1])];
          for (let i = 0; i < n; i++) {
            if (Number.isFinite(xr[i]) && !Number.isFinite(xg[i]))
              bad.push(`springDamper f ${f} h ${h} dt ${dt}: x ${xg[i]} (reference ${xr[i]})`);
            if (Number.isFinite(vr[i]) && !Number.isFinite(vg[i]))
              bad.push(`springDamper f ${f} h ${h} dt ${dt}: v ${vg[i]} (reference ${vr[i]})`);
          }
        }
      }
    }
    for (const a of arrays) gpu.free(a);
    expect(bad.slice(0, 8)).toEqual([]);
  });
});
