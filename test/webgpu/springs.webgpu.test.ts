/**
 * spring-solver/webgpu in Chromium with WebGPU (SwiftShader here): every method against the
 * float64 reference (src/reference/spring.ts) on the same float32 inputs, with uniform,
 * per-element and mixed parameters, dt from 1e-4 to 2 s, halflife 0 and frequency 0 among the
 * draws, more elements than a workgroup multiple (100,003); each step starts both from the
 * reference's previous outputs. Tolerance: GPU_PARITY_TOLERANCE × (1 + the largest magnitude of
 * the value on the reference trajectory), plus GPU_INPUT_ROUNDINGS × the change of the exact result
 * under one float32 rounding of dt and of each parameter (test/helpers/tolerances.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGpuSolver, type GpuArray, type GpuParam, type GpuSolver } from '../../dist/webgpu/index.js';
import * as reference from '../../dist/reference/index.js';
import { SpringMode } from '../../dist/index.js';
import { dampingRatio, logUniform, mulberry32, uniform, X_MAX, V_MAX, type Regime, type Rng } from '../helpers/random.js';
import { GPU_INPUT_ROUNDINGS, GPU_PARITY_TOLERANCE } from '../helpers/tolerances.js';

let gpu: GpuSolver;
beforeAll(async () => {
  gpu = await createGpuSolver({ warnLargeDt: false }); // dt up to 2 s on purpose
});
afterAll(() => gpu.dispose());

type Name = 'damper' | 'springDamper' | 'criticalSpringDamper' | 'simpleSpringDamper' | 'decaySpringDamper';
type State = 'x' | 'v' | 'g' | 'q';

interface Spec {
  name: Name;
  arrays: State[];
  outputs: State[];
  params: ('frequency' | 'halflife')[];
}

const SPECS: Spec[] = [
  { name: 'damper', arrays: ['x', 'g'], outputs: ['x'], params: ['halflife'] },
  { name: 'springDamper', arrays: ['x', 'v', 'g', 'q'], outputs: ['x', 'v'], params: ['frequency', 'halflife'] },
  { name: 'criticalSpringDamper', arrays: ['x', 'v', 'g', 'q'], outputs: ['x', 'v'], params: ['halflife'] },
  { name: 'simpleSpringDamper', arrays: ['x', 'v', 'g'], outputs: ['x', 'v'], params: ['halflife'] },
  { name: 'decaySpringDamper', arrays: ['x', 'v'], outputs: ['x', 'v'], params: ['halflife'] },
];

/** Steps of every parity run: 1e-4 s up to 2 s. */
const DTS = [1e-4, 1 / 60, 0.1, 0.5, 2];
const N_PER_ELEMENT = 100_003; // not a multiple of the workgroup size (64)
const N_UNIFORM = 1_003;

type Call = (...args: unknown[]) => void;

function call(impl: unknown, spec: Spec, arrays: Record<string, unknown>, params: unknown[], dt: number): void {
  (impl as Record<Name, Call>)[spec.name](...spec.arrays.map((k) => arrays[k]), ...params, dt);
}

/**
 * Per-element parameters: halflife log-uniform in [0.01, 5] s, 0 for one element in 32; for
 * springDamper a damping ratio ζ from every regime (ζ = ln2/(π·f·h)), frequency 0 for one in 32.
 */
function perElementParams(rng: Rng, spec: Spec, n: number): Float32Array[] {
  const h = new Float32Array(n);
  const f = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const hi = rng() < 1 / 32 ? 0 : logUniform(rng, spec.name === 'springDamper' ? 0.02 : 0.01, spec.name === 'springDamper' ? 2 : 5);
    h[i] = hi;
    f[i] = rng() < 1 / 32 || hi === 0 ? uniform(rng, 0, 3) * (rng() < 0.5 ? 0 : 1) : Math.LN2 / (Math.PI * dampingRatio(rng) * hi);
  }
  return spec.params.map((p) => (p === 'halflife' ? h : f));
}

/** Uniform parameters of the k-th call: each regime in turn for springDamper, halflife 0 and frequency 0 among them. */
function uniformParams(rng: Rng, spec: Spec, k: number): number[] {
  const regimes: (Regime | 'zeroHalflife' | 'zeroFrequency')[] = ['under', 'critical', 'over', 'zeroHalflife', 'zeroFrequency'];
  const c = regimes[k % regimes.length];
  const h = c === 'zeroHalflife' ? 0 : Math.fround(logUniform(rng, 0.02, 2));
  if (spec.name !== 'springDamper') return [h];
  if (c === 'zeroFrequency' || c === 'zeroHalflife') return [c === 'zeroFrequency' ? 0 : Math.fround(logUniform(rng, 0.1, 5)), h];
  return [Math.fround(Math.LN2 / (Math.PI * dampingRatio(rng, c) * h)), h];
}

function randomState(rng: Rng, spec: Spec, n: number): Record<State, Float32Array> {
  const state = {} as Record<State, Float32Array>;
  for (const k of spec.arrays) {
    const max = k === 'x' || k === 'g' ? X_MAX : V_MAX;
    state[k] = Float32Array.from({ length: n }, () => uniform(rng, -max, max));
  }
  return state;
}

/** Element i of one step in float64: [x', v'] from the state and the parameters (the reference's formulas). */
function exactStep(spec: Spec, s: Record<string, Float32Array>, i: number, p: number[], dt: number): [number, number] {
  const x = s.x[i];
  const g = s.g ? s.g[i] : 0;
  if (spec.name === 'damper') return [g + (x - g) * Math.exp((-Math.LN2 * dt) / p[0]), 0];
  const mode = spec.name === 'springDamper' ? SpringMode.FrequencyHalflife : SpringMode.Critical;
  const m = reference.springTransition(...reference.stiffnessAndDamping(mode, p[0], p[1] ?? 0), dt);
  const y = x - g;
  const v = s.v[i];
  const q = s.q ? s.q[i] : 0;
  return [g + m.xx * y + m.xv * v + m.xq * q, m.vx * y + m.vv * v + m.vq * q];
}

/**
 * Per element and output: Σ over dt and each parameter of |exact(input × (1 + 2^-24)) − exact|,
 * the result's change under one float32 rounding of that input.
 */
function inputSensitivity(spec: Spec, s: Record<string, Float32Array>, params: (number | Float32Array)[], dt: number, n: number) {
  const out = { x: new Float64Array(n), v: new Float64Array(n) };
  const up = 1 + 2 ** -24;
  for (let i = 0; i < n; i++) {
    const p = params.map((a) => (typeof a === 'number' ? a : a[i]));
    const base = exactStep(spec, s, i, p, dt);
    const moved = [
      exactStep(spec, s, i, p, dt * up),
      ...p.map((_, k) =>
        exactStep(
          spec,
          s,
          i,
          p.map((value, j) => (j === k ? value * up : value)),
          dt,
        ),
      ),
    ];
    for (const r of moved) {
      out.x[i] += Math.abs(r[0] - base[0]);
      out.v[i] += Math.abs(r[1] - base[1]);
    }
  }
  return out;
}

/** The worst element of |gpu − ref| against its tolerance, as a message; 'ok' when all pass. */
function worstOf(label: string, got: Float32Array, ref: Float32Array, largest: Float64Array, sensitivity: Float64Array): string {
  let worst = -1;
  let ratio = 1;
  const allowed = (i: number) => GPU_PARITY_TOLERANCE * (1 + largest[i]) + GPU_INPUT_ROUNDINGS * sensitivity[i];
  for (let i = 0; i < ref.length; i++) {
    const r = Math.abs(got[i] - ref[i]) / allowed(i);
    if (!(r <= ratio)) {
      worst = i;
      ratio = Number.isNaN(r) ? Infinity : r;
    }
  }
  return worst < 0 ? 'ok' : `${label}[${worst}]: got ${got[worst]}, reference ${ref[worst]} ± ${allowed(worst)}`;
}

/**
 * Runs `spec` over DTS on the GPU and on the reference from the same inputs at each step, and
 * returns the failures (an empty list when every output is within tolerance and finite).
 */
async function parity(spec: Spec, mode: 'uniform' | 'perElement' | 'mixed0' | 'mixed1', seed: number): Promise<string[]> {
  const rng = mulberry32(seed);
  const n = mode === 'uniform' ? N_UNIFORM : N_PER_ELEMENT;
  let state = randomState(rng, spec, n);
  const largest = Object.fromEntries(spec.outputs.map((k) => [k, new Float64Array(n)])) as Record<State, Float64Array>;
  const onGpu = Object.fromEntries(spec.arrays.map((k) => [k, gpu.alloc(n)])) as Record<State, GpuArray>;
  const paramArrays = spec.params.map(() => gpu.alloc(n));
  const failures: string[] = [];
  let k = 0;
  try {
    for (const dt of DTS) {
      const calls = mode === 'uniform' ? 5 : 1;
      for (let c = 0; c < calls; c++, k++) {
        let params: (number | Float32Array)[];
        if (mode === 'uniform') params = uniformParams(rng, spec, k);
        else {
          params = perElementParams(rng, spec, n);
          // mixed: one parameter uniform (float32, as the solver rounds it beside an array)
          if (mode === 'mixed0' || mode === 'mixed1') {
            const uniformIndex = mode === 'mixed0' ? 0 : 1;
            params[uniformIndex] = Math.fround(
              spec.params[uniformIndex] === 'halflife' ? logUniform(rng, 0.02, 2) : logUniform(rng, 0.1, 5),
            );
          }
        }
        const expected = Object.fromEntries(Object.entries(state).map(([key, a]) => [key, a.slice()]));
        call(reference, spec, expected, params, dt);
        const sensitivity = inputSensitivity(spec, state, params, dt, n);
        for (const key of spec.arrays) gpu.write(onGpu[key], state[key]);
        const gpuParams: GpuParam[] = params.map((p, i) => {
          if (typeof p === 'number') return p;
          gpu.write(paramArrays[i], p);
          return paramArrays[i];
        });
        call(gpu, spec, onGpu, gpuParams, dt);
        for (const key of spec.outputs) {
          const got = await gpu.read(onGpu[key]);
          const ref = expected[key];
          const big = largest[key];
          for (let i = 0; i < n; i++) big[i] = Math.max(big[i], Math.abs(state[key][i]), Math.abs(ref[i]));
          const bad = got.findIndex((value) => !Number.isFinite(value));
          if (bad >= 0) failures.push(`${key}[${bad}] is ${got[bad]} (dt ${dt})`);
          const worst = worstOf(`${spec.name} ${mode} dt ${dt} call ${c}: ${key}`, got, ref, big, sensitivity[key as 'x' | 'v']);
          if (worst !== 'ok') failures.push(worst);
        }
        state = expected as Record<State, Float32Array>;
      }
    }
  } finally {
    for (const a of [...Object.values(onGpu), ...paramArrays]) gpu.free(a);
  }
  return failures;
}

/** Runs `body` inside a validation error scope and expects the device to report no error. */
async function withoutGpuErrors(body: () => Promise<void>): Promise<void> {
  gpu.device.pushErrorScope('validation');
  await body();
  const error = await gpu.device.popErrorScope();
  expect(error?.message ?? 'no WebGPU validation error').toBe('no WebGPU validation error');
}

describe('the adapter', () => {
  it('is there, and says its name', () => {
    expect(typeof gpu.adapter).toBe('string');
    expect(gpu.adapter.length).toBeGreaterThan(0);
  });
});

let seed = 1;
describe.each(SPECS.map((s) => [s.name, s] as const))('%s', (_name, spec) => {
  const modes = spec.params.length === 2 ? (['uniform', 'perElement', 'mixed0', 'mixed1'] as const) : (['uniform', 'perElement'] as const);
  it.each(modes.map((m) => [m, seed++] as const))('matches the float64 reference, %s parameters', async (mode, caseSeed) => {
    await withoutGpuErrors(async () => {
      expect(await parity(spec, mode, caseSeed)).toEqual([]);
    });
  });
});
