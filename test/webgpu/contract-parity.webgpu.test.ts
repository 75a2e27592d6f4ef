/**
 * The kernel contract's GPU versions against their float64 reference: every kernel of
 * src/methods/method-kernels.ts that has a `gpu` field runs on spring-solver/webgpu (the method the
 * GPU solver built from that field) and through the kernel's own `js` (the float64 reference,
 * run here on Float64Array copies of the same float32 inputs, so nothing of it is rounded), with
 * uniform (each at every dt: a drawn halflife, 0, 1e4 s, frequency 0), per-element (all those
 * mixed) and mixed parameters, dt from 1e-4 to 2 s, over 100,003 elements (not a multiple of the workgroup size, 64); each step starts both
 * from the reference's previous outputs rounded to float32. Nothing is listed by hand: a kernel
 * given a `gpu` field is tested here, and one without it is listed as CPU-only (and absent from
 * the GPU solver).
 *
 * Tolerance (the issue's, test/helpers/tolerances.ts): every output within GPU_PARITY_TOLERANCE ×
 * (1 + the largest magnitude the value had on its float64 trajectory), plus GPU_INPUT_ROUNDINGS ×
 * the value's change under one float32 rounding of dt and of each parameter (measured with the
 * same float64 reference), for the values far more sensitive to those than to the state.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGpuSolver, type GpuParam, type GpuSolver } from '../../dist/webgpu/index.js';
import { createSolver, type Solver } from '../../dist/index.js';
import { methodKernels } from '../../dist/methods/method-kernels.js';
import type { GpuKernel, KernelSpec } from '../../dist/core/contract.js';
import { dampingRatio, logUniform, mulberry32, uniform, V_MAX, X_MAX, type Rng } from '../helpers/random.js';
import { GPU_INPUT_ROUNDINGS, GPU_PARITY_TOLERANCE } from '../helpers/tolerances.js';

const N = 100_003;
const DTS = [1e-4, 1 / 60, 0.1, 0.5, 2];
const LARGE_HALFLIFE = 1e4; // s
const UP = 1 + 2 ** -24; // one float32 rounding, relative

const kernels = Object.entries(methodKernels as Record<string, KernelSpec>);
const onGpu = kernels.filter((entry): entry is [string, KernelSpec & { gpu: GpuKernel }] => entry[1].gpu !== undefined);
const cpuOnly = kernels.filter(([, kernel]) => kernel.gpu === undefined).map(([method]) => method);

let gpu: GpuSolver;
let cpu: Solver;
beforeAll(async () => {
  gpu = await createGpuSolver({ warnLargeDt: false }); // dt up to 2 s on purpose
  cpu = await createSolver({ backend: 'js', warnLargeDt: false });
});
afterAll(() => {
  gpu.dispose();
  cpu.dispose();
});

type Mode = 'uniform' | 'perElement' | 'mixed0' | 'mixed1';

function randomQuat(rng: Rng): number[] {
  for (;;) {
    const q = [0, 0, 0, 0].map(() => uniform(rng, -1, 1));
    const n = Math.hypot(...q);
    if (n > 0.1 && n <= 1) return q.map((c) => c / n);
  }
}

/** An array of the signature: unit quaternions (width 4), positions and goals in ±X_MAX, velocities in ±V_MAX. */
function randomArray(rng: Rng, name: string, width: number): Float32Array {
  if (width === 4) {
    const quats = new Float32Array(4 * N);
    for (let i = 0; i < N; i++) quats.set(randomQuat(rng), 4 * i);
    return quats;
  }
  const max = name === 'x' || name === 'g' ? X_MAX : V_MAX;
  return Float32Array.from({ length: N * width }, () => uniform(rng, -max, max));
}

/** Which halflife a draw takes: log-uniform in [0.01, 2] s, 0, LARGE_HALFLIFE, or drawn with frequency 0. */
type Draw = 'drawn' | 'zeroHalflife' | 'largeHalflife' | 'zeroFrequency';
const UNIFORM_DRAWS: Draw[] = ['drawn', 'zeroHalflife', 'largeHalflife', 'zeroFrequency'];

/**
 * One value of each parameter for element (or call) k, as `draw` says (per element: each special
 * draw one time in 16). The spring is drawn as a halflife h (log-uniform in [0.01, 2] s, 0 or
 * LARGE_HALFLIFE) and a damping ratio ζ of every regime, then given in each parameterisation:
 * frequency f = ln2/(π·ζ·h), stiffness (2π·f)², damping 4·ln2/h (0 where h is 0: undamped, since a
 * damping cannot be infinite), dampingRatio ζ. 'zeroFrequency': frequency and stiffness 0. A
 * parameter name without a rule here fails the test.
 */
function drawValues(rng: Rng, names: readonly string[], draw?: Draw): number[] {
  const r = rng();
  const kind = draw ?? (r < 1 / 16 ? 'zeroHalflife' : r < 2 / 16 ? 'largeHalflife' : r < 3 / 16 ? 'zeroFrequency' : 'drawn');
  const h = kind === 'zeroHalflife' ? 0 : kind === 'largeHalflife' ? LARGE_HALFLIFE : logUniform(rng, 0.01, 2);
  const zeta = dampingRatio(rng);
  // undamped (h = 0 as a damping): a frequency in [0.1, 5] Hz
  const f = kind === 'zeroFrequency' ? 0 : h === 0 ? logUniform(rng, 0.1, 5) : Math.LN2 / (Math.PI * zeta * h);
  return names.map((name) => {
    if (name === 'halflife') return Math.fround(h);
    if (name === 'frequency') return h === 0 ? 0 : Math.fround(f);
    if (name === 'stiffness') return Math.fround((2 * Math.PI * f) ** 2);
    if (name === 'damping') return h === 0 ? 0 : Math.fround((4 * Math.LN2) / h);
    if (name === 'dampingRatio') return Math.fround(zeta);
    throw new Error(`no drawing rule for the parameter ${name}`);
  });
}

/** The parameters of one call in `mode` (mixed k: parameter k uniform, the others per element). */
function drawParams(rng: Rng, gpuKernel: GpuKernel, mode: Mode, call: number): (number | Float32Array)[] {
  const names = gpuKernel.params.map(([name]) => name);
  if (mode === 'uniform') return drawValues(rng, names, UNIFORM_DRAWS[call]);
  const arrays = names.map(() => new Float32Array(N));
  for (let i = 0; i < N; i++) drawValues(rng, names).forEach((value, k) => (arrays[k][i] = value));
  if (mode === 'perElement') return arrays;
  const k = mode === 'mixed0' ? 0 : 1;
  const uniformValue = drawValues(rng, names)[k];
  return arrays.map((a, j) => (j === k ? uniformValue : a));
}

/** The float64 reference (the kernel's js) on Float64Array copies of `state`: the outputs, unrounded. */
function referenceStep(kernel: KernelSpec & { gpu: GpuKernel }, state: Float32Array[], params: (number | Float32Array)[], dt: number) {
  const copies = state.map((a) => Float64Array.from(a));
  const p = params.map((v) => (typeof v === 'number' ? v : Float64Array.from(v)));
  kernel.js(copies as unknown as Float32Array[], p as unknown as Float32Array[], [dt], N);
  return copies;
}

/** Runs the kernel over DTS in `mode`; returns the failures (empty when every output is finite and within tolerance). */
async function parity(method: string, kernel: KernelSpec & { gpu: GpuKernel }, mode: Mode, seed: number): Promise<string[]> {
  const rng = mulberry32(seed);
  const signature = kernel.gpu.arrays;
  let state = signature.map(({ name, width = 1 }) => randomArray(rng, name, width));
  const outputs = signature.flatMap((s, k) => (s.output ? [k] : []));
  const largest = outputs.map((k) => new Float64Array(state[k].length));
  const arrays = state.map((a) => gpu.alloc(a.length));
  const paramArrays = kernel.gpu.params.map(() => gpu.alloc(N));
  const failures: string[] = [];
  try {
    // uniform: every draw at every dt (halflife 0 and large included); per element: one call, all draws mixed
    const steps = DTS.flatMap((dt) => (mode === 'uniform' ? UNIFORM_DRAWS : ['mixed']).map((_, call) => [dt, call] as const));
    for (const [dt, call] of steps) {
      const params = drawParams(rng, kernel.gpu, mode, call);
      const expected = referenceStep(kernel, state, params, dt);
      // the value's change under one float32 rounding of dt and of each parameter
      const moved = [
        referenceStep(kernel, state, params, dt * UP),
        ...params.map((_, k) =>
          referenceStep(
            kernel,
            state,
            params.map((p, j) => (j !== k ? p : typeof p === 'number' ? p * UP : p.map((v) => v * UP))),
            dt,
          ),
        ),
      ];
      state.forEach((a, k) => gpu.write(arrays[k], a));
      const gpuParams: GpuParam[] = params.map((p, k) => {
        if (typeof p === 'number') return p;
        gpu.write(paramArrays[k], p);
        return paramArrays[k];
      });
      (gpu as unknown as Record<string, (...args: unknown[]) => void>)[method](...arrays, ...gpuParams, dt);
      for (const [o, k] of outputs.entries()) {
        const got = await gpu.read(arrays[k]);
        const ref = expected[k];
        const big = largest[o];
        let worst = -1;
        let worstRatio = 1;
        let allowedWorst = 0;
        for (let i = 0; i < ref.length; i++) {
          big[i] = Math.max(big[i], Math.abs(state[k][i]), Math.abs(ref[i]));
          let sensitivity = 0;
          for (const m of moved) sensitivity += Math.abs(m[k][i] - ref[i]);
          const allowed = GPU_PARITY_TOLERANCE * (1 + big[i]) + GPU_INPUT_ROUNDINGS * sensitivity;
          const ratio = Number.isFinite(got[i]) ? Math.abs(got[i] - ref[i]) / allowed : Infinity;
          if (!(ratio <= worstRatio)) {
            worst = i;
            worstRatio = ratio;
            allowedWorst = allowed;
          }
        }
        const bad = got.findIndex((value) => !Number.isFinite(value));
        if (bad >= 0) failures.push(`${signature[k].name}[${bad}] is ${got[bad]} (dt ${dt})`);
        if (worst >= 0)
          failures.push(
            `${mode} dt ${dt} call ${call}: ${signature[k].name}[${worst}] got ${got[worst]}, reference ${ref[worst]} ± ${allowedWorst}`,
          );
      }
      state = expected.map((a) => Float32Array.from(a));
    }
  } finally {
    for (const a of [...arrays, ...paramArrays]) gpu.free(a);
  }
  return failures;
}

describe('the contract', () => {
  it('has GPU kernels, each a method of the GPU solver', () => {
    expect(onGpu.length).toBeGreaterThan(0);
    for (const [method] of onGpu) expect(typeof (gpu as unknown as Record<string, unknown>)[method], method).toBe('function');
  });

  // CPU-only: the kernels without a GPU field, and no GPU method of their name.
  it.each(cpuOnly.map((m) => [m]))('%s is CPU-only: no GPU method', (method) => {
    expect((gpu as unknown as Record<string, unknown>)[method]).toBeUndefined();
  });
});

let seed = 1;
describe.each(onGpu.map(([method, kernel]) => [method, kernel] as const))('%s on the GPU', (method, kernel) => {
  const modes: Mode[] = kernel.gpu.params.length === 2 ? ['uniform', 'perElement', 'mixed0', 'mixed1'] : ['uniform', 'perElement'];
  it.each(modes.map((m) => [m, seed++] as const))('matches its float64 reference, %s parameters', async (mode, caseSeed) => {
    gpu.device.pushErrorScope('validation');
    const failures = await parity(method, kernel, mode, caseSeed);
    const error = await gpu.device.popErrorScope();
    expect(failures).toEqual([]);
    expect(error?.message ?? 'no WebGPU validation error').toBe('no WebGPU validation error');
  });

  it('rejects bad parameters and dt with the CPU solver’s errors, dispatching nothing', async () => {
    const widths = kernel.gpu.arrays.map(({ width = 1 }) => width);
    const onCpu = widths.map((w) => new Float32Array(3 * w));
    const arrays = widths.map((w) => gpu.alloc(3 * w));
    const before = new Float32Array(3 * widths[0]).fill(0.5);
    gpu.write(arrays[0], before);
    const good = kernel.gpu.params.map(() => 0.1);
    const cases: [string, number[], unknown][] = [
      ...kernel.gpu.params.map((_, k): [string, number[], unknown] => [`parameter ${k} = −1`, good.map((v, j) => (j === k ? -1 : v)), 0.1]),
      ...kernel.gpu.params.map((_, k): [string, number[], unknown] => [
        `parameter ${k} = NaN`,
        good.map((v, j) => (j === k ? Number.NaN : v)),
        0.1,
      ]),
      ['dt −1', good, -1],
      ['dt NaN', good, Number.NaN],
      ['dt a string', good, '0.1'],
    ];
    /** The error the call throws, as `name: message` ('no error' when none). */
    const thrown = (solver: unknown, args: unknown[], params: number[], dt: unknown): string => {
      try {
        (solver as Record<string, (...a: unknown[]) => void>)[method](...args, ...params, dt);
      } catch (error) {
        return `${(error as Error).name}: ${(error as Error).message}`;
      }
      return 'no error';
    };
    try {
      for (const [label, params, dt] of cases) {
        const onCpuError = thrown(cpu, onCpu, params, dt);
        expect(onCpuError, label).toMatch(new RegExp(`^(TypeError|RangeError): ${method}: `));
        expect(thrown(gpu, arrays, params, dt), label).toBe(onCpuError);
      }
      expect(await gpu.read(arrays[0]), 'nothing dispatched').toEqual(before);
    } finally {
      for (const a of arrays) gpu.free(a);
    }
  });
});
