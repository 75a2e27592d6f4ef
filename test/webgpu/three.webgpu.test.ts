/**
 * three.js WebGPURenderer instances springing on the GPU: the instance matrices of an
 * InstancedMesh live in a StorageInstancedBufferAttribute (three creates its GPUBuffer with the
 * STORAGE usage and renders from it), GpuSolver.wrap reaches their translations (floats 12-14 of
 * each 16) in that very buffer, and each frame springs them there before rendering. Checked over
 * 100 rendered frames (a retarget half-way) against InstancedSprings on the CPU from the same
 * goals, and that no instance data is written to the buffer from the CPU after the first frame.
 * The frames render into a RenderTarget: in headless Chromium on SwiftShader, presenting to a
 * canvas loses the device ("A valid external Instance reference no longer exists").
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
  StorageInstancedBufferAttribute,
  Vector3,
  WebGPURenderer,
} from 'three/webgpu';
import { createSolver, type Solver } from '../../dist/index.js';
import { InstancedSprings } from '../../dist/three/index.js';
import { createGpuSolver, type GpuSolver } from '../../dist/webgpu/index.js';
import { mulberry32, uniform } from '../helpers/random.js';
import { GPU_PARITY_TOLERANCE } from '../helpers/tolerances.js';

const COUNT = 2_001;
const FRAMES = 100;
const DT = 1 / 60;
const HALFLIFE = 0.25;

let gpu: GpuSolver;
let solver: Solver;
beforeAll(async () => {
  gpu = await createGpuSolver();
  solver = await createSolver();
});
afterAll(() => {
  gpu.dispose();
  solver.dispose();
});

describe('an InstancedMesh on WebGPURenderer', () => {
  it('springs its instance translations in the GPUBuffer three renders from, as InstancedSprings does on the CPU', async () => {
    const rng = mulberry32(3);
    const matrices = new Float32Array(16 * COUNT);
    const m = new Matrix4();
    for (let i = 0; i < COUNT; i++) {
      const position = new Vector3(uniform(rng, -5, 5), uniform(rng, -5, 5), uniform(rng, -5, 5));
      const rotation = new Quaternion().setFromAxisAngle(new Vector3(0, 1, 0), uniform(rng, 0, Math.PI));
      m.compose(position, rotation, new Vector3(1, 1, 1)).toArray(matrices, 16 * i);
    }
    const goals = (seed: number) => {
      const r = mulberry32(seed);
      return Float32Array.from({ length: 3 * COUNT }, () => uniform(r, -5, 5));
    };

    // the CPU path
    const cpuMesh = new InstancedMesh(new BoxGeometry(), new MeshBasicNodeMaterial(), COUNT);
    cpuMesh.instanceMatrix.array.set(matrices);
    const springs = new InstancedSprings(solver, cpuMesh, { halflife: HALFLIFE });

    // the GPU path: three renders from a storage attribute; the springs write into its buffer
    const canvas = document.createElement('canvas');
    canvas.width = 64;
    canvas.height = 64;
    const renderer = new WebGPURenderer({ canvas, device: gpu.device as never });
    await renderer.init();
    // into a render target: presenting to the canvas loses the device in headless Chromium on SwiftShader
    renderer.setRenderTarget(new RenderTarget(64, 64));
    const mesh = new InstancedMesh(new BoxGeometry(0.1, 0.1, 0.1), new MeshBasicNodeMaterial(), COUNT);
    mesh.instanceMatrix = new StorageInstancedBufferAttribute(matrices.slice(), 16) as never;
    const scene = new Scene();
    scene.add(mesh);
    const camera = new PerspectiveCamera(50, 1, 0.1, 100);
    camera.position.set(0, 0, 20);
    renderer.render(scene, camera); // three creates the attribute's GPUBuffer
    // three keeps each attribute's GPUBuffer in its backend's data of the attribute
    const buffer = (renderer.backend as unknown as { get(a: object): { buffer: Parameters<GpuSolver['wrap']>[0] } }).get(
      mesh.instanceMatrix,
    ).buffer;
    const positions = gpu.wrap(buffer, { offset: 12, length: 3 * COUNT, itemSize: 3, stride: 16 });
    const [velocities, goalsOnGpu] = [gpu.alloc(3 * COUNT), gpu.alloc(3 * COUNT)];

    const writes = vi.spyOn(gpu.device.queue, 'writeBuffer');
    let largest = 0;
    for (let frame = 0; frame < FRAMES; frame++) {
      if (frame === 0 || frame === FRAMES / 2) {
        const g = goals(10 + frame);
        springs.goals.set(g);
        gpu.write(goalsOnGpu, g);
      }
      springs.update(DT);
      gpu.simpleSpringDamper(positions, velocities, goalsOnGpu, HALFLIFE, DT);
      renderer.render(scene, camera);
      for (const value of springs.matrices) largest = Math.max(largest, Math.abs(value));
    }
    const toInstanceBuffer = writes.mock.calls.filter((call) => call[0] === buffer).length;
    writes.mockRestore();
    expect(toInstanceBuffer, 'CPU writes of instance data after the first frame').toBe(0);

    const rendered = await gpu.read(gpu.wrap(buffer, { length: 16 * COUNT }));
    let worst = 'ok';
    for (let k = 0; k < 16 * COUNT; k++) {
      if (!(Math.abs(rendered[k] - springs.matrices[k]) <= GPU_PARITY_TOLERANCE * (1 + largest))) {
        worst = `float ${k}: GPU ${rendered[k]}, InstancedSprings ${springs.matrices[k]}`;
        break;
      }
    }
    expect(worst).toBe('ok');
    // and the springs moved them: the translations are near the second goals, not where they started
    expect(Math.abs(rendered[12] - matrices[12])).toBeGreaterThan(1e-3);
    renderer.dispose();
    springs.dispose();
  });
});
