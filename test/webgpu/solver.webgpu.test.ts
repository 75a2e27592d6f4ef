/**
 * spring-solver/webgpu beyond the maths: wrap() over an interleaved buffer the app owns (only the
 * view's floats change), recording into the app's command encoder (nothing runs before the app
 * submits), the checks (a TypeError or RangeError naming the method and the argument, nothing
 * dispatched), dispose, createGpuSolver's rejection without an adapter, and the adapter's name.
 * The maths of every GPU method against its float64 reference: contract-parity.webgpu.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createGpuSolver, type GpuArray, type GpuSolver } from '../../dist/webgpu/index.js';
import * as reference from '../../dist/reference/index.js';
import { mulberry32, uniform } from '../helpers/random.js';
import { GPU_PARITY_TOLERANCE } from '../helpers/tolerances.js';

type GpuBuffer = ReturnType<GpuSolver['device']['createBuffer']>;

let gpu: GpuSolver;
beforeAll(async () => {
  gpu = await createGpuSolver();
});
afterAll(() => gpu.dispose());

const STORAGE = 0x80;
const COPY_SRC = 0x04;
const COPY_DST = 0x08;

function filled(n: number, seed: number, max = 10): Float32Array {
  const rng = mulberry32(seed);
  return Float32Array.from({ length: n }, () => uniform(rng, -max, max));
}

function expectClose(got: Float32Array, expected: Float32Array, label: string): void {
  let worst = 'ok';
  for (let i = 0; i < expected.length; i++) {
    if (!(Math.abs(got[i] - expected[i]) <= GPU_PARITY_TOLERANCE * (1 + Math.abs(expected[i])))) {
      worst = `${label}[${i}]: got ${got[i]}, expected ${expected[i]}`;
      break;
    }
  }
  expect(worst).toBe('ok');
}

describe('the adapter', () => {
  it('is there, and says its name', () => {
    expect(typeof gpu.adapter).toBe('string');
    expect(gpu.adapter.length).toBeGreaterThan(0);
  });
});

describe('wrap', () => {
  it('updates positions inside an interleaved buffer in place, leaving every other float as it was', async () => {
    // 16 floats per instance, as a column of instance matrices: v at floats 0-2, g at 4-6, x at 12-14.
    const count = 1_001;
    const floats = 16 * count;
    const buffer = gpu.device.createBuffer({ size: 4 * floats, usage: STORAGE | COPY_SRC | COPY_DST }) as GpuBuffer;
    const initial = filled(floats, 7);
    gpu.device.queue.writeBuffer(buffer, 0, initial);
    const view = (offset: number) => gpu.wrap(buffer, { offset, length: 3 * count, itemSize: 3, stride: 16 });
    const [x, v, g] = [view(12), view(0), view(4)];
    const pick = (offset: number) => Float32Array.from({ length: 3 * count }, (_, i) => initial[offset + 16 * Math.floor(i / 3) + (i % 3)]);
    const [xRef, vRef, gRef] = [pick(12), pick(0), pick(4)];

    gpu.simpleSpringDamper(x, v, g, 0.2, 1 / 60);
    reference.simpleSpringDamper(xRef, vRef, gRef, 0.2, 1 / 60);

    const whole = await gpu.read(gpu.wrap(buffer, { length: floats }));
    const expected = initial.slice();
    for (let i = 0; i < 3 * count; i++) {
      const item = 16 * Math.floor(i / 3) + (i % 3);
      expected[item + 12] = xRef[i];
      expected[item] = vRef[i];
    }
    expectClose(whole, expected, 'buffer');
    // the floats outside x and v are bit for bit the ones written
    const untouched = [...Array(floats).keys()].filter((k) => k % 16 >= 3 && (k % 16 < 12 || k % 16 === 15));
    expect(untouched.filter((k) => !Object.is(whole[k], initial[k]))).toEqual([]);
    // read() and write() of a strided view go through its items only
    expectClose(await gpu.read(x), xRef, 'x');
    gpu.write(g, new Float32Array(3 * count).fill(5));
    const after = await gpu.read(gpu.wrap(buffer, { length: floats }));
    for (let k = 0; k < floats; k++) {
      const inG = k % 16 >= 4 && k % 16 < 7;
      if (inG ? after[k] !== 5 : !Object.is(after[k], whole[k])) throw new Error(`float ${k} is ${after[k]}`);
    }
    buffer.destroy();
  });

  it('rejects a view past the end of the buffer, or a buffer without STORAGE', () => {
    const buffer = gpu.device.createBuffer({ size: 64, usage: STORAGE }) as GpuBuffer;
    expect(() => gpu.wrap(buffer, { offset: 13, length: 6, itemSize: 3, stride: 4 })).toThrow(
      /^wrap: the view ends at byte 80, past the end/,
    );
    expect(() => gpu.wrap(buffer, { length: 5, itemSize: 2 })).toThrow(RangeError);
    const uniformOnly = gpu.device.createBuffer({ size: 64, usage: 0x40 }) as GpuBuffer;
    expect(() => gpu.wrap(uniformOnly, { length: 4 })).toThrow(/STORAGE/);
    buffer.destroy();
    uniformOnly.destroy();
  });
});

describe('record', () => {
  it("records calls into the app's encoder: nothing changes until the app submits it", async () => {
    const n = 301;
    const [x, v, g, q] = [gpu.alloc(n), gpu.alloc(n), gpu.alloc(n), gpu.alloc(n)];
    const [x0, g0, q0] = [filled(n, 1), filled(n, 2), filled(n, 3)];
    gpu.write(x, x0);
    gpu.write(g, g0);
    gpu.write(q, q0);
    const encoder = gpu.device.createCommandEncoder();
    gpu.record(encoder);
    gpu.criticalSpringDamper(x, v, g, q, 0.1, 1 / 60);
    gpu.criticalSpringDamper(x, v, g, q, 0.3, 1 / 30); // its own uniforms: the first call's are not overwritten
    gpu.record(null);
    expect(Array.from(await gpu.read(x))).toEqual(Array.from(x0)); // recorded, not run
    gpu.device.queue.submit([encoder.finish()]);
    const [xRef, vRef] = [x0.slice(), new Float32Array(n)];
    reference.criticalSpringDamper(xRef, vRef, g0, q0, 0.1, 1 / 60);
    reference.criticalSpringDamper(xRef, vRef, g0, q0, 0.3, 1 / 30);
    expectClose(await gpu.read(x), xRef, 'x');
    expectClose(await gpu.read(v), vRef, 'v');
    for (const a of [x, v, g, q]) gpu.free(a);
  });
});

describe('checks', () => {
  const n = 8;
  let x: GpuArray, v: GpuArray, g: GpuArray, q: GpuArray, short: GpuArray;
  beforeAll(() => {
    [x, v, g, q] = [gpu.alloc(n), gpu.alloc(n), gpu.alloc(n), gpu.alloc(n)];
    short = gpu.alloc(n - 1);
    gpu.write(x, new Float32Array(n).fill(3));
    gpu.write(g, new Float32Array(n).fill(1));
  });

  /** Asserts `call` throws `type` naming method and argument, and x and v still hold 3 and 0. */
  async function rejects(call: () => void, type: typeof TypeError | typeof RangeError, method: string, argument: string) {
    let error: unknown = null;
    try {
      call();
    } catch (e) {
      error = e;
    }
    expect(error, `${method}/${argument}`).toBeInstanceOf(type);
    const message = (error as Error).message;
    expect(message.startsWith(`${method}:`), message).toBe(true);
    expect(message.includes(argument), message).toBe(true);
    expect(Array.from(await gpu.read(x))).toEqual(Array(n).fill(3));
    expect(Array.from(await gpu.read(v))).toEqual(Array(n).fill(0));
  }

  it('reject bad arguments, naming the method and the argument, and dispatch nothing', async () => {
    const plain = new Float32Array(n);
    await rejects(() => gpu.criticalSpringDamper(plain as never, v, g, q, 0.1, 1 / 60), TypeError, 'criticalSpringDamper', 'x');
    await rejects(() => gpu.springDamper(x, v, g, short, 2, 0.1, 1 / 60), RangeError, 'springDamper', 'q');
    await rejects(() => gpu.springDamper(x, v, g, q, -1, 0.1, 1 / 60), RangeError, 'springDamper', 'frequency');
    await rejects(() => gpu.springDamper(x, v, g, q, 2, Number.NaN, 1 / 60), RangeError, 'springDamper', 'halflife');
    await rejects(() => gpu.simpleSpringDamper(x, v, g, short, 1 / 60), RangeError, 'simpleSpringDamper', 'halflife');
    await rejects(() => gpu.simpleSpringDamper(x, v, g, '0.1' as never, 1 / 60), TypeError, 'simpleSpringDamper', 'halflife');
    await rejects(() => gpu.decaySpringDamper(x, v, 0.1, -1), RangeError, 'decaySpringDamper', 'dt');
    await rejects(() => gpu.decaySpringDamper(x, x, 0.1, 1 / 60), RangeError, 'decaySpringDamper', 'v');
    await rejects(() => gpu.damper(x, g, -0, 1 / 60), RangeError, 'damper', 'halflife'); // −0: 4·ln2/−0 is −∞
    await rejects(() => gpu.criticalSpringDamper(x, v, g, q, x, 1 / 60), RangeError, 'criticalSpringDamper', 'halflife'); // shares x
  });

  it('allow a goal to be the very output array, not a part of one', async () => {
    const buffer = gpu.device.createBuffer({ size: 4 * 2 * n, usage: STORAGE | COPY_SRC | COPY_DST }) as GpuBuffer;
    const a = gpu.wrap(buffer, { length: n });
    const b = gpu.wrap(buffer, { offset: 1, length: n });
    const c = gpu.wrap(buffer, { offset: n, length: n });
    await rejects(() => gpu.simpleSpringDamper(a, c, b, 0.1, 1 / 60), RangeError, 'simpleSpringDamper', 'g');
    gpu.simpleSpringDamper(a, c, a, 0.1, 1 / 60); // g is x itself: allowed
    buffer.destroy();
  });

  it('reject arrays of another solver, freed arrays, and any call after dispose', async () => {
    const other = await createGpuSolver({ device: gpu.device });
    const foreign = other.alloc(n);
    await rejects(() => gpu.decaySpringDamper(x, foreign, 0.1, 1 / 60), TypeError, 'decaySpringDamper', 'v');
    const freed = gpu.alloc(n);
    gpu.free(freed);
    await rejects(() => gpu.decaySpringDamper(x, freed, 0.1, 1 / 60), TypeError, 'decaySpringDamper', 'v');
    other.dispose(); // the device stays: it is gpu's, passed in
    expect(() => other.alloc(1)).toThrow(/^alloc: this GPU solver has been disposed/);
    expect(() => foreign.length).not.toThrow();
    gpu.decaySpringDamper(x, v, 0.1, 0); // dt 0: nothing to do, nothing dispatched
    expect(Array.from(await gpu.read(x))).toEqual(Array(n).fill(3));
  });

  it('reject a write of the wrong length, an alloc of no floats', () => {
    expect(() => gpu.write(x, new Float32Array(n + 1))).toThrow(/^write: data has length 9, expected 8/);
    expect(() => gpu.alloc(0)).toThrow(RangeError);
  });
});

describe('createGpuSolver', () => {
  it('rejects with the reason when the browser finds no adapter', async () => {
    const gpuApi = (navigator as unknown as { gpu: { requestAdapter(): Promise<unknown> } }).gpu;
    const spy = vi.spyOn(gpuApi, 'requestAdapter').mockResolvedValue(null);
    await expect(createGpuSolver()).rejects.toThrow(
      /^createGpuSolver: WebGPU is not available: navigator\.gpu\.requestAdapter\(\) found no adapter/,
    );
    spy.mockRestore();
  });

  it('warns once of a dt that looks like milliseconds, as the CPU solvers do', async () => {
    const solver = await createGpuSolver({ device: gpu.device });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const [x, v] = [solver.alloc(4), solver.alloc(4)];
    solver.decaySpringDamper(x, v, 0.1, 16.7);
    solver.decaySpringDamper(x, v, 0.1, 16.7);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0][0])).toMatch(/decaySpringDamper got dt = 16\.7; dt is in seconds/);
    warn.mockRestore();
    solver.dispose();
  });
});
