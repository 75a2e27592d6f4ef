/**
 * spring-solver/three-webgpu's GpuInstancedSprings with the installed three.js WebGPURenderer in
 * headless Chromium: positions, rotations and scales springing in the buffer three draws from,
 * checked over 100 rendered frames (retargets, a partial retarget, a halflife change) against
 * InstancedSprings on the CPU from the same inputs, with the matrices read back through three's
 * own getArrayBufferAsync; no byte of instance data uploaded per frame; recording into the app's
 * encoder; the checks (a TypeError or RangeError naming the method and the argument, nothing
 * dispatched or written). Frames render into a RenderTarget (see three.webgpu.test.ts: presenting
 * to a canvas loses the device in headless Chromium on SwiftShader).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  BoxGeometry,
  InstancedMesh,
  Matrix4,
  MeshBasicNodeMaterial,
  PerspectiveCamera,
  Quaternion,
  RenderTarget,
  Scene,
  Vector3,
  WebGPURenderer,
} from 'three/webgpu';
import { createSolver, type Solver } from '../../dist/index.js';
import { InstancedSprings } from '../../dist/three/index.js';
import { createGpuSolver, type GpuSolver } from '../../dist/webgpu/index.js';
import { GpuInstancedSprings, createGpuSolverFor } from '../../dist/three-webgpu/index.js';
import { mulberry32, uniform, type Rng } from '../helpers/random.js';
import { GPU_PARITY_TOLERANCE } from '../helpers/tolerances.js';

const COUNT = 1_537; // not a multiple of the workgroup size (64)
const FRAMES = 100;
const DT = 1 / 60;

let gpu: GpuSolver;
let solver: Solver;
let renderer: WebGPURenderer;
const scene = new Scene();
const camera = new PerspectiveCamera(50, 1, 0.1, 100);
camera.position.set(0, 0, 20);

beforeAll(async () => {
  const canvas = document.createElement('canvas');
  canvas.width = 64;
  canvas.height = 64;
  renderer = new WebGPURenderer({ canvas });
  gpu = await createGpuSolverFor(renderer);
  // into a render target: presenting to the canvas loses the device in headless Chromium on SwiftShader
  renderer.setRenderTarget(new RenderTarget(64, 64));
  solver = await createSolver();
});
afterAll(() => {
  renderer.dispose();
  gpu.dispose();
  solver.dispose();
});

function randomRotation(rng: Rng): Quaternion {
  const axis = new Vector3(uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1)).normalize();
  return new Quaternion().setFromAxisAngle(axis, uniform(rng, 0, Math.PI));
}

/** `count` instance matrices T·R·S with random translations, rotations and scales. */
function randomMatrices(count: number, seed: number): Float32Array {
  const rng = mulberry32(seed);
  const matrices = new Float32Array(16 * count);
  const m = new Matrix4();
  for (let i = 0; i < count; i++) {
    const position = new Vector3(uniform(rng, -5, 5), uniform(rng, -5, 5), uniform(rng, -5, 5));
    const scale = new Vector3(uniform(rng, 0.5, 2), uniform(rng, 0.5, 2), uniform(rng, 0.5, 2));
    m.compose(position, randomRotation(rng), scale).toArray(matrices, 16 * i);
  }
  return matrices;
}

function goalSet(count: number, seed: number): { positions: Float32Array; rotations: Float32Array; scales: Float32Array } {
  const rng = mulberry32(seed);
  const positions = Float32Array.from({ length: 3 * count }, () => uniform(rng, -5, 5));
  const scales = Float32Array.from({ length: 3 * count }, () => uniform(rng, 0.3, 3));
  const rotations = new Float32Array(4 * count);
  for (let i = 0; i < count; i++) randomRotation(rng).toArray(rotations, 4 * i);
  return { positions, rotations, scales };
}

function instancedMesh(matrices: Float32Array): InstancedMesh {
  const count = matrices.length / 16;
  const mesh = new InstancedMesh(new BoxGeometry(0.1, 0.1, 0.1), new MeshBasicNodeMaterial(), count);
  mesh.instanceMatrix.array.set(matrices);
  return mesh;
}

/** The instance matrices three draws, read through three's own read-back of the attribute. */
async function drawn(mesh: InstancedMesh): Promise<Float32Array> {
  return new Float32Array((await renderer.getArrayBufferAsync(mesh.instanceMatrix)) as ArrayBuffer);
}

function firstMismatch(got: Float32Array, expected: Float32Array, largest: number): string {
  for (let k = 0; k < expected.length; k++) {
    if (!(Math.abs(got[k] - expected[k]) <= GPU_PARITY_TOLERANCE * (1 + largest))) {
      return `float ${k} (instance ${Math.floor(k / 16)}, element ${k % 16}): GPU ${got[k]}, InstancedSprings ${expected[k]}`;
    }
  }
  return 'ok';
}

describe('GpuInstancedSprings on WebGPURenderer', () => {
  it('draws what InstancedSprings computes on the CPU over 100 frames: positions, rotations and scales, retargets, a halflife change', async () => {
    const matrices = randomMatrices(COUNT, 3);
    const cpu = new InstancedSprings(solver, instancedMesh(matrices), { halflife: 0.25, rotation: true, scale: true });
    const mesh = instancedMesh(matrices);
    const springs = new GpuInstancedSprings(gpu, renderer, mesh, { halflife: 0.25, rotation: true, scale: true });
    scene.add(mesh);
    const instanceBuffer = springs.matrices.buffer;

    const writes = vi.spyOn(gpu.device.queue, 'writeBuffer');
    let updateBytes = 0; // bytes written through the queue while update() runs
    let largest = 0;
    for (let frame = 0; frame < FRAMES; frame++) {
      if (frame === 0 || frame === 50) {
        const goals = goalSet(COUNT, 10 + frame);
        cpu.goals.set(goals.positions);
        cpu.rotationGoals.set(goals.rotations);
        cpu.scaleGoals.set(goals.scales);
        springs.setGoals(goals);
      }
      if (frame === 30) {
        // a partial retarget: 100 instances from instance 400, positions and rotations only
        const part = goalSet(100, 99);
        cpu.goals.set(part.positions, 3 * 400);
        cpu.rotationGoals.set(part.rotations, 4 * 400);
        springs.setGoals({ positions: part.positions, rotations: part.rotations }, 400);
      }
      if (frame === 70) {
        cpu.halflife = 0.1;
        springs.halflife = 0.1;
      }
      cpu.update(DT);
      const before = writes.mock.calls.length;
      springs.update(DT);
      for (const call of writes.mock.calls.slice(before)) updateBytes += (call[2] as ArrayBufferView).byteLength;
      renderer.render(scene, camera);
      for (const value of cpu.matrices) largest = Math.max(largest, Math.abs(value));
    }
    const toInstanceBuffer = writes.mock.calls.filter((call) => call[0] === instanceBuffer).length;
    writes.mockRestore();
    expect(updateBytes, 'bytes uploaded by update() over 100 frames').toBe(0);
    expect(toInstanceBuffer, 'queue writes to the instance buffer (three renders included)').toBe(0);

    const gpuMatrices = await drawn(mesh);
    expect(gpuMatrices.length).toBe(16 * COUNT);
    expect(firstMismatch(gpuMatrices, cpu.matrices, largest)).toBe('ok');
    // our own read-back is three's
    expect(await springs.read()).toEqual(gpuMatrices);
    // and the springs moved everything: translations, the rotation·scale columns
    let moved = 0;
    for (let k = 0; k < 16 * COUNT; k++) moved = Math.max(moved, Math.abs(gpuMatrices[k] - matrices[k]));
    expect(moved).toBeGreaterThan(1);
    expect(Math.abs(gpuMatrices[0] - matrices[0])).toBeGreaterThan(1e-3);

    scene.remove(mesh);
    springs.dispose();
    cpu.dispose();
  });

  it('a 0.1 % different halflife on the GPU fails the comparison (the tolerance tells the springs apart)', async () => {
    const count = 257;
    const matrices = randomMatrices(count, 5);
    const cpu = new InstancedSprings(solver, instancedMesh(matrices), { halflife: 0.25, rotation: true });
    const mesh = instancedMesh(matrices);
    const springs = new GpuInstancedSprings(gpu, renderer, mesh, { halflife: 0.25 * 1.001, rotation: true });
    const goals = goalSet(count, 6);
    cpu.goals.set(goals.positions);
    cpu.rotationGoals.set(goals.rotations);
    springs.setGoals({ positions: goals.positions, rotations: goals.rotations });
    let largest = 0;
    for (let frame = 0; frame < 20; frame++) {
      cpu.update(DT);
      springs.update(DT);
      for (const value of cpu.matrices) largest = Math.max(largest, Math.abs(value));
    }
    expect(firstMismatch(await springs.read(), cpu.matrices, largest)).not.toBe('ok');
    springs.dispose();
    cpu.dispose();
  });

  it('positions only (no rotation, no scale): the other floats of each matrix are never written', async () => {
    const count = 100;
    const matrices = randomMatrices(count, 8);
    const cpu = new InstancedSprings(solver, instancedMesh(matrices), { halflife: 0.3 });
    const mesh = instancedMesh(matrices);
    const springs = new GpuInstancedSprings(gpu, renderer, mesh, { halflife: 0.3 });
    expect([springs.rotations, springs.scales, springs.rotationGoals, springs.scaleGoals]).toEqual([null, null, null, null]);
    const goals = goalSet(count, 9).positions;
    cpu.goals.set(goals);
    springs.setGoals({ positions: goals });
    scene.add(mesh);
    let largest = 0;
    for (let frame = 0; frame < 30; frame++) {
      cpu.update(DT);
      springs.update(DT);
      renderer.render(scene, camera);
      for (const value of cpu.matrices) largest = Math.max(largest, Math.abs(value));
    }
    const got = await drawn(mesh);
    expect(firstMismatch(got, cpu.matrices, largest)).toBe('ok');
    for (let k = 0; k < 16 * count; k++) if (k % 16 < 12 || k % 16 === 15) expect(got[k]).toBe(matrices[k]);
    scene.remove(mesh);
    springs.dispose();
    cpu.dispose();
  });

  it("records into the app's encoder: nothing moves before the app submits, then one step", async () => {
    const count = 65;
    const matrices = randomMatrices(count, 11);
    const cpu = new InstancedSprings(solver, instancedMesh(matrices), { halflife: 0.2, scale: true });
    const springs = new GpuInstancedSprings(gpu, renderer, instancedMesh(matrices), { halflife: 0.2, scale: true });
    const goals = goalSet(count, 12);
    cpu.goals.set(goals.positions);
    cpu.scaleGoals.set(goals.scales);
    springs.setGoals({ positions: goals.positions, scales: goals.scales });
    const encoder = gpu.device.createCommandEncoder();
    gpu.record(encoder);
    springs.update(DT);
    gpu.record(null);
    expect(await springs.read()).toEqual(matrices);
    gpu.device.queue.submit([encoder.finish()]);
    cpu.update(DT);
    expect(firstMismatch(await springs.read(), cpu.matrices, 5)).toBe('ok');
    springs.dispose();
    cpu.dispose();
  });
});

describe('GpuInstancedSprings checks: a TypeError or RangeError naming the method and the argument, nothing dispatched', () => {
  it('refuses bad construction before touching the mesh', async () => {
    const mesh = instancedMesh(randomMatrices(4, 1));
    const original = mesh.instanceMatrix;
    const other = await createGpuSolver();
    const uninitialized = new WebGPURenderer();
    const cases: [() => unknown, ErrorConstructor, RegExp][] = [
      [() => new GpuInstancedSprings({} as never, renderer, mesh), TypeError, /^GpuInstancedSprings: gpu must be a GpuSolver/],
      [() => new GpuInstancedSprings(gpu, {} as never, mesh), TypeError, /^GpuInstancedSprings: renderer must be a WebGPURenderer/],
      [() => new GpuInstancedSprings(gpu, uninitialized, mesh), TypeError, /^GpuInstancedSprings: renderer must be initialized/],
      [() => new GpuInstancedSprings(other, renderer, mesh), TypeError, /^GpuInstancedSprings: renderer and gpu must share one GPUDevice/],
      [
        () => new GpuInstancedSprings(gpu, renderer, new Scene() as never),
        TypeError,
        /^GpuInstancedSprings: mesh must be an InstancedMesh/,
      ],
      [() => new GpuInstancedSprings(gpu, renderer, mesh, { halfLife: 1 } as never), TypeError, /options\.halfLife is not an option/],
      [() => new GpuInstancedSprings(gpu, renderer, mesh, { halflife: -1 }), RangeError, /^GpuInstancedSprings: options\.halflife is -1/],
      [() => new GpuInstancedSprings(gpu, renderer, mesh, { rotation: 1 } as never), TypeError, /options\.rotation must be a boolean/],
      [
        () => new (GpuInstancedSprings as unknown as new (...a: unknown[]) => unknown)(gpu, renderer, mesh, {}, 1),
        TypeError,
        /takes 4 arguments/,
      ],
    ];
    const submits = vi.spyOn(gpu.device.queue, 'submit');
    for (const [make, type, message] of cases) {
      expect(make).toThrow(type);
      expect(make).toThrow(message);
    }
    expect(submits).not.toHaveBeenCalled();
    submits.mockRestore();
    expect(mesh.instanceMatrix).toBe(original);
    other.dispose();
    // and a mesh is driven by one GpuInstancedSprings at a time
    const springs = new GpuInstancedSprings(gpu, renderer, mesh);
    expect(() => new GpuInstancedSprings(gpu, renderer, mesh)).toThrow(
      /^GpuInstancedSprings: mesh is already attached to a GpuInstancedSprings/,
    );
    springs.dispose();
    new GpuInstancedSprings(gpu, renderer, mesh).dispose(); // free again after dispose
  });

  it('refuses bad goals, dt and halflife, writing and dispatching nothing', async () => {
    const matrices = randomMatrices(10, 2);
    const springs = new GpuInstancedSprings(gpu, renderer, instancedMesh(matrices), { rotation: true });
    const good = new Float32Array(30).fill(1);
    const cases: [() => unknown, ErrorConstructor, RegExp][] = [
      [() => springs.setGoals(null as never), TypeError, /^GpuInstancedSprings\.setGoals: goals must be an object/],
      [() => springs.setGoals({ position: good } as never), TypeError, /goals\.position is not an option/],
      [
        () => springs.setGoals({ positions: [1, 2, 3] as never }),
        TypeError,
        /^GpuInstancedSprings\.setGoals: goals\.positions must be a Float32Array/,
      ],
      [
        () => springs.setGoals({ positions: new Float32Array(4) }),
        RangeError,
        /goals\.positions has length 4; it must be a positive multiple of 3/,
      ],
      [
        () => springs.setGoals({ positions: new Float32Array(33) }),
        RangeError,
        /goals\.positions holds 11 instances from instance 0, past the mesh's 10/,
      ],
      [
        () => springs.setGoals({ positions: good, rotations: new Float32Array(40).fill(Number.NaN) }),
        RangeError,
        /goals\.rotations\[0\] is NaN; goals must be finite/,
      ],
      [() => springs.setGoals({ positions: good, scales: good }), TypeError, /goals\.scales needs the scale option/],
      [
        () => springs.setGoals({ positions: new Float32Array(3) }, 10),
        RangeError,
        /^GpuInstancedSprings\.setGoals: first is 10; it must be a whole number from 0 to 9/,
      ],
      [() => springs.setGoals({ positions: new Float32Array(6) }, 9), RangeError, /holds 2 instances from instance 9/],
      [() => springs.setGoals({ positions: good }, '0' as never), TypeError, /first must be a number/],
      [() => springs.update(-1), RangeError, /^GpuInstancedSprings\.update: dt is -1/],
      [() => springs.update(Number.NaN), RangeError, /^GpuInstancedSprings\.update: dt is NaN/],
      [() => springs.update('1/60' as never), TypeError, /^GpuInstancedSprings\.update: dt must be a number/],
      [() => (springs.update as (...a: unknown[]) => void)(DT, DT), TypeError, /^GpuInstancedSprings\.update: takes one argument/],
      [
        () => {
          springs.halflife = -0.5;
        },
        RangeError,
        /^GpuInstancedSprings\.halflife: halflife is -0\.5/,
      ],
    ];
    const submits = vi.spyOn(gpu.device.queue, 'submit');
    const writes = vi.spyOn(gpu.device.queue, 'writeBuffer');
    const encoders = vi.spyOn(gpu.device, 'createCommandEncoder');
    for (const [call, type, message] of cases) {
      expect(call).toThrow(type);
      expect(call).toThrow(message);
    }
    expect([submits.mock.calls.length, writes.mock.calls.length, encoders.mock.calls.length]).toEqual([0, 0, 0]);
    for (const spy of [submits, writes, encoders]) spy.mockRestore();
    expect(springs.halflife).toBe(0.25);
    expect(await springs.read()).toEqual(matrices);
    springs.dispose();
    expect(() => springs.update(DT)).toThrow(/^GpuInstancedSprings\.update: this GpuInstancedSprings has been disposed/);
    expect(() => springs.setGoals({})).toThrow(TypeError);
  });

  it('createGpuSolverFor rejects, saying why, a renderer that fell back to WebGL', async () => {
    const webgl = new WebGPURenderer({ forceWebGL: true });
    await expect(createGpuSolverFor(webgl)).rejects.toThrow(
      /^createGpuSolverFor: WebGPU is not available: the renderer fell back to WebGL/,
    );
    webgl.dispose();
    await expect(createGpuSolverFor({} as never)).rejects.toThrow(/^createGpuSolverFor: renderer must be a WebGPURenderer/);
  });
});
