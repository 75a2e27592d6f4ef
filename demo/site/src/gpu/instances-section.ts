// A million instances springing to new layouts on three.js's WebGPURenderer, with
// spring-solver/three-webgpu's GpuInstancedSprings: positions, rotations and scales spring inside
// the instance buffer three draws, so a frame uploads nothing for them (InstancedSprings on the
// CPU would upload 64 bytes an instance: 64 MB a frame at a million). A new layout is one upload
// of goals (setGoals); every frame is springs.update(dt) and renderer.render.
import {
  BoxGeometry,
  Color,
  InstancedMesh,
  MeshNormalNodeMaterial,
  PerspectiveCamera,
  Quaternion,
  Scene,
  Vector3,
  WebGPURenderer,
} from 'three/webgpu';
import { GpuInstancedSprings, createGpuSolverFor } from 'spring-solver/three-webgpu';
import type { GpuSolver } from 'spring-solver/webgpu';

export const LAYOUTS = ['grid', 'sphere', 'text', 'helix'] as const;
export type Layout = (typeof LAYOUTS)[number];

/** Goals of one layout: positions (3 floats an instance), rotations (4) and scales (3). */
interface Goals {
  positions: Float32Array;
  rotations: Float32Array;
  scales: Float32Array;
}

export class GpuInstancesSection {
  readonly scene = new Scene();
  readonly camera = new PerspectiveCamera(50, 2, 0.1, 500);
  layout: Layout = 'grid';
  private springs: GpuInstancedSprings | null = null;

  private constructor(
    readonly renderer: WebGPURenderer,
    readonly gpu: GpuSolver,
    readonly count: number,
  ) {
    this.scene.background = new Color(0x0f172a);
    this.camera.position.set(0, 0, 90);
  }

  /** The section on `canvas`, or the reason WebGPU is absent (createGpuSolverFor rejects: keep a CPU path). */
  static async create(canvas: HTMLCanvasElement, count: number): Promise<GpuInstancesSection> {
    const renderer = new WebGPURenderer({ canvas, antialias: false });
    const gpu = await createGpuSolverFor(renderer); // rejects where three fell back to WebGL
    const section = new GpuInstancesSection(renderer, gpu, count);
    const size = 40 / Math.cbrt(count); // the grid's spacing, so a million boxes fill a 40-unit cube
    const mesh = new InstancedMesh(new BoxGeometry(size, size, size), new MeshNormalNodeMaterial(), count);
    section.springs = new GpuInstancedSprings(gpu, renderer, mesh, { halflife: 0.35, rotation: true, scale: true });
    section.scene.add(mesh);
    section.setLayout('grid');
    return section;
  }

  /** One upload of goals: every instance heads for its place in `layout`. */
  setLayout(layout: Layout): void {
    this.layout = layout;
    this.springs!.setGoals(layoutGoals(layout, this.count));
  }

  /** A frame: the springs (compute passes, nothing uploaded), then the render. */
  frame(dt: number, time: number): void {
    const angle = 0.15 * time;
    this.camera.position.set(90 * Math.sin(angle), 10, 90 * Math.cos(angle));
    this.camera.lookAt(0, 0, 0);
    this.springs!.update(dt);
    this.renderer.render(this.scene, this.camera);
  }

  resize(width: number, height: number): void {
    this.renderer.setSize(width, height, false);
    this.camera.aspect = width / Math.max(1, height);
    this.camera.updateProjectionMatrix();
  }
}

/** A seeded random source (mulberry32), so a layout is the same every time. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Points inside the letters of `text`, drawn on a 2D canvas: [x, y] pairs in [-1, 1] × [-0.25, 0.25]. */
function textPixels(text: string): Float32Array {
  const canvas = document.createElement('canvas');
  canvas.width = 512;
  canvas.height = 128;
  const context = canvas.getContext('2d')!;
  context.font = 'bold 96px sans-serif';
  context.textAlign = 'center';
  context.textBaseline = 'middle';
  context.fillText(text, 256, 64, 500);
  const { data } = context.getImageData(0, 0, 512, 128);
  const points: number[] = [];
  for (let y = 0; y < 128; y++)
    for (let x = 0; x < 512; x++) if (data[4 * (512 * y + x) + 3] > 128) points.push(x / 256 - 1, (64 - y) / 256);
  return Float32Array.from(points.length > 0 ? points : [0, 0]);
}

function layoutGoals(layout: Layout, count: number): Goals {
  const positions = new Float32Array(3 * count);
  const rotations = new Float32Array(4 * count);
  const scales = new Float32Array(3 * count).fill(1);
  const rng = random(LAYOUTS.indexOf(layout) + 1);
  const side = Math.ceil(Math.cbrt(count));
  const spacing = 40 / side;
  const pixels = layout === 'text' ? textPixels('spring-solver') : null;
  const q = new Quaternion();
  const axis = new Vector3();
  for (let i = 0; i < count; i++) {
    let x = 0,
      y = 0,
      z = 0,
      s = 1;
    if (layout === 'grid') {
      x = ((i % side) - side / 2) * spacing;
      y = ((Math.floor(i / side) % side) - side / 2) * spacing;
      z = (Math.floor(i / (side * side)) - side / 2) * spacing;
      q.identity();
    } else if (layout === 'sphere') {
      // a Fibonacci sphere, each box facing out
      const t = (i + 0.5) / count;
      const polar = Math.acos(1 - 2 * t);
      const azimuth = Math.PI * (1 + Math.sqrt(5)) * i;
      const r = 30;
      x = r * Math.sin(polar) * Math.cos(azimuth);
      y = r * Math.cos(polar);
      z = r * Math.sin(polar) * Math.sin(azimuth);
      q.setFromUnitVectors(axis.set(0, 0, 1), new Vector3(x, y, z).normalize());
      s = 0.6;
    } else if (layout === 'text') {
      const k = Math.floor(rng() * (pixels!.length / 2));
      x = 70 * pixels![2 * k] + (rng() - 0.5) * 0.3;
      y = 70 * pixels![2 * k + 1] + (rng() - 0.5) * 0.3;
      z = (rng() - 0.5) * 4;
      q.setFromAxisAngle(axis.set(rng() - 0.5, rng() - 0.5, rng() - 0.5).normalize(), rng() * Math.PI);
      s = 0.5;
    } else {
      // a double helix, spinning along it
      const t = i / count;
      const strand = i % 2 === 0 ? 0 : Math.PI;
      const turn = 6 * 2 * Math.PI * t + strand;
      x = 14 * Math.cos(turn) + (rng() - 0.5) * 3;
      z = 14 * Math.sin(turn) + (rng() - 0.5) * 3;
      y = 70 * (t - 0.5);
      q.setFromAxisAngle(axis.set(0, 1, 0), turn);
      s = 0.8;
    }
    positions[3 * i] = x;
    positions[3 * i + 1] = y;
    positions[3 * i + 2] = z;
    q.toArray(rotations, 4 * i);
    scales[3 * i] = s;
    scales[3 * i + 1] = s;
    scales[3 * i + 2] = s;
  }
  return { positions, rotations, scales };
}
