// The crowd: thousands of characters playing the pirouette through an Inertializer, their joints
// drawn as one InstancedMesh, their spots on the ground a second InstancedMesh whose instance
// matrices live in solver memory and spring toward goals (InstancedSprings, no copy).
import {
  AmbientLight,
  Color,
  DirectionalLight,
  Group,
  InstancedMesh,
  Matrix4,
  Mesh,
  MeshLambertMaterial,
  OctahedronGeometry,
  CylinderGeometry,
  PerspectiveCamera,
  PlaneGeometry,
  Scene,
  WebGLRenderer,
} from 'three';
import { createSolver, Inertializer, type Pose, type Solver } from 'spring-solver';
import { InstancedSprings } from 'spring-solver/three';
import type { Clip } from '../skeleton/clip.js';
import { Crowd } from '../skeleton/crowd.js';
import { createWorldPose, forwardKinematics } from '../skeleton/forward-kinematics.js';

export const CROWD_SIZES = [500, 1000, 2000, 5000];
const SPACING = 1.6; // metres between spots
const MEMORY_BYTES = 64 * 1024 * 1024;

export interface CrowdTimings {
  pose: number;
  inertialize: number;
  springs: number;
  joints: number;
  render: number;
}

export class CrowdSection {
  readonly timings: CrowdTimings = { pose: 0, inertialize: 0, springs: 0, joints: 0, render: 0 };
  private readonly renderer: WebGLRenderer;
  private readonly scene = new Scene();
  private readonly camera = new PerspectiveCamera(40, 2, 0.1, 500);
  private readonly world: ReturnType<typeof createWorldPose>;
  private readonly scale: number;
  private readonly bottom: number;
  private state: {
    solver: Solver;
    crowd: Crowd;
    inertializer: Inertializer;
    output: Pose;
    spots: InstancedSprings;
    joints: InstancedMesh;
    group: Group;
  } | null = null;
  private formation = 0;

  constructor(
    canvas: HTMLCanvasElement,
    private readonly clip: Clip,
  ) {
    this.renderer = new WebGLRenderer({ canvas, antialias: true });
    this.renderer.setPixelRatio(Math.min(2, window.devicePixelRatio));
    this.scene.background = new Color(0xe2e8f0);
    this.scene.add(new AmbientLight(0xffffff, 1.2));
    const sun = new DirectionalLight(0xffffff, 2);
    sun.position.set(3, 10, 6);
    this.scene.add(sun);
    const ground = new Mesh(new PlaneGeometry(400, 400), new MeshLambertMaterial({ color: 0xcbd5e1 }));
    ground.rotation.x = -Math.PI / 2;
    this.scene.add(ground);
    this.world = createWorldPose(clip);
    // The clip's units (cm) to metres, from the character's extent in its first frame (the root,
    // at the hips, is at height 0 in the capture: the feet are lifted onto the ground).
    forwardKinematics(clip, clip.rotations, clip.positions, 0, 0, 0, this.world);
    let [bottom, top] = [Infinity, -Infinity];
    for (const array of [this.world.bones, this.world.endSites]) {
      for (let i = 1; i < array.length; i += 3) [bottom, top] = [Math.min(bottom, array[i]!), Math.max(top, array[i]!)];
    }
    this.scale = 1.75 / (top - bottom);
    this.bottom = bottom;
  }

  /**
   * Builds the crowd on a new solver of `backend` with `count` characters; `threads` (SIMD only,
   * on a cross-origin-isolated page): the threads that split its large calls.
   */
  async build(backend: 'simd' | 'js', count: number, threads: number | 'auto' = 1): Promise<string> {
    this.dispose();
    const solver = await createSolver({ backend, memoryBytes: MEMORY_BYTES, threads: backend === 'simd' ? threads : 1 });
    const crowd = new Crowd(this.clip, count, solver);
    const inertializer = new Inertializer(solver, { count, bones: this.clip.bones, halflife: this.halflife });
    const n = count * this.clip.bones;
    const output: Pose = {
      positions: solver.alloc(3 * n),
      rotations: solver.alloc(4 * n),
      velocities: solver.alloc(3 * n),
      angularVelocities: solver.alloc(3 * n),
    };
    const group = new Group();
    // Spots: their instance matrices move into solver memory, and their translations spring.
    const discs = new InstancedMesh(new CylinderGeometry(0.45, 0.45, 0.04, 16), new MeshLambertMaterial({ color: 0x64748b }), count);
    const spots = new InstancedSprings(solver, discs, { halflife: 0.6 });
    this.placeGoals(spots, count);
    spots.matrices.set(spotMatrices(spots.goals));
    const perCharacter = this.clip.bones + this.clip.endSiteParents.length;
    const joints = new InstancedMesh(new OctahedronGeometry(0.06), new MeshLambertMaterial({ color: 0x2563eb }), count * perCharacter);
    joints.frustumCulled = false;
    discs.frustumCulled = false;
    group.add(discs, joints);
    this.scene.add(group);
    const side = Math.sqrt(count) * SPACING;
    this.camera.position.set(0, side * 0.22 + 2.5, side * 0.5 + 5);
    this.camera.lookAt(0, 0.5, side * 0.12);
    this.state = { solver, crowd, inertializer, output, spots, joints, group };
    return solver.backend;
  }

  /** The threads the crowd's solver runs (1 unless built with more on a cross-origin-isolated page). */
  get threads(): number {
    return this.state?.solver.threads ?? 1;
  }

  /** New goals for the spots: a square grid, then a ring, then a diamond, in turn. */
  regroup(): void {
    if (!this.state) return;
    this.formation = (this.formation + 1) % 3;
    this.placeGoals(this.state.spots, this.state.crowd.count);
  }

  /** s: the Inertializer's halflife, read every frame. */
  halflife = 0.15;

  /** One frame: poses, inertialization, spot springs, joints (forward kinematics), render. */
  frame(dt: number, jump: boolean): void {
    const s = this.state;
    if (!s) return;
    const t0 = performance.now();
    const switched = s.crowd.advance(dt, jump);
    const t1 = performance.now();
    if (switched) s.inertializer.transition(s.crowd.source, s.crowd.input);
    s.inertializer.update(s.crowd.input, this.halflife, dt, s.output);
    const t2 = performance.now();
    s.spots.update(dt);
    const t3 = performance.now();
    this.writeJoints(s.output, s.spots.matrices, s.joints, s.crowd.count);
    const t4 = performance.now();
    this.resize();
    this.renderer.render(this.scene, this.camera);
    const t5 = performance.now();
    const sample = { pose: t1 - t0, inertialize: t2 - t1, springs: t3 - t2, joints: t4 - t3, render: t5 - t4 };
    for (const key of Object.keys(sample) as (keyof CrowdTimings)[]) {
      this.timings[key] = this.timings[key] === 0 ? sample[key] : this.timings[key] + 0.1 * (sample[key] - this.timings[key]);
    }
  }

  dispose(): void {
    const s = this.state;
    if (!s) return;
    this.scene.remove(s.group);
    s.spots.dispose();
    s.joints.dispose();
    s.crowd.dispose();
    s.inertializer.dispose();
    s.solver.dispose();
    this.state = null;
  }

  private placeGoals(spots: InstancedSprings, count: number): void {
    const columns = Math.ceil(Math.sqrt(count));
    for (let i = 0; i < count; i++) {
      let x: number, z: number;
      if (this.formation === 0) {
        x = ((i % columns) - (columns - 1) / 2) * SPACING;
        z = (Math.floor(i / columns) - (columns - 1) / 2) * SPACING;
      } else if (this.formation === 1) {
        const ring = Math.floor(Math.sqrt(i));
        const angle = ((i - ring * ring) / (2 * ring + 1)) * 2 * Math.PI;
        x = Math.cos(angle) * (ring + 1) * SPACING * 0.5;
        z = Math.sin(angle) * (ring + 1) * SPACING * 0.5;
      } else {
        const u = ((i % columns) - (columns - 1) / 2) * SPACING,
          w = (Math.floor(i / columns) - (columns - 1) / 2) * SPACING;
        x = (u - w) * 0.72;
        z = (u + w) * 0.72;
      }
      spots.goals.set([x, 0.02, z], i * 3);
    }
  }

  /** Forward kinematics of every character, placed on its spot, into the joints' instance translations. */
  private writeJoints(pose: Pose, spots: Float32Array, joints: InstancedMesh, count: number): void {
    const m = joints.instanceMatrix.array as Float32Array;
    const { bones } = this.clip;
    const perCharacter = bones + this.clip.endSiteParents.length;
    const k = this.scale;
    for (let c = 0; c < count; c++) {
      forwardKinematics(this.clip, pose.rotations, pose.positions, c * bones, 0, 0, this.world);
      // The root stands over the spot (the capture's own horizontal position is taken out).
      const ox = spots[c * 16 + 12]! - this.world.bones[0]! * k,
        oz = spots[c * 16 + 14]! - this.world.bones[2]! * k;
      let j = c * perCharacter * 16;
      for (const array of [this.world.bones, this.world.endSites]) {
        for (let i = 0; i < array.length; i += 3, j += 16) {
          m[j] = 1;
          m[j + 5] = 1;
          m[j + 10] = 1;
          m[j + 15] = 1;
          m[j + 12] = ox + array[i]! * k;
          m[j + 13] = (array[i + 1]! - this.bottom) * k;
          m[j + 14] = oz + array[i + 2]! * k;
        }
      }
    }
    joints.instanceMatrix.needsUpdate = true;
  }

  private resize(): void {
    const canvas = this.renderer.domElement;
    const width = canvas.clientWidth,
      height = canvas.clientHeight;
    if (
      canvas.width !== Math.round(width * this.renderer.getPixelRatio()) ||
      canvas.height !== Math.round(height * this.renderer.getPixelRatio())
    ) {
      this.renderer.setSize(width, height, false);
      this.camera.aspect = width / Math.max(1, height);
      this.camera.updateProjectionMatrix();
    }
  }
}

/** Identity matrices translated to the goals (the spots start on their goals). */
function spotMatrices(goals: Float32Array): Float32Array {
  const count = goals.length / 3;
  const out = new Float32Array(count * 16);
  const m = new Matrix4();
  for (let i = 0; i < count; i++) m.makeTranslation(goals[i * 3]!, goals[i * 3 + 1]!, goals[i * 3 + 2]!).toArray(out, i * 16);
  return out;
}
