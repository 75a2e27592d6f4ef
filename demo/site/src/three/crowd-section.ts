// The crowd: skinned characters (the pirouette skeleton with a capsule skin, one SkinnedMesh each)
// animated by their AnimationMixers through one InertializedMixerGroup, their skinning matrices
// computed by one SkeletonBatch reading the group's output in solver memory (or, for comparison,
// by three's own updateMatrixWorld() and skeleton.update()), each standing on a spot of an
// InstancedMesh whose instance matrices live in solver memory and spring toward goals
// (InstancedSprings, no copy).
//
// The skeletons are not in the scene graph: each mesh is in 'detached' bind mode and its root bone
// has no parent, so the bones' matrices are in the mesh's space and the renderer's
// scene.updateMatrixWorld() visits the characters' groups and meshes only, not their 25,000 bones
// (with the bones under the meshes, visiting them costs as much as three's own bone updates,
// whichever path computes the matrices).
import {
  AmbientLight,
  Color,
  CylinderGeometry,
  DetachedBindMode,
  DirectionalLight,
  Group,
  InstancedMesh,
  Matrix4,
  Mesh,
  MeshLambertMaterial,
  PerspectiveCamera,
  PlaneGeometry,
  Scene,
  Skeleton,
  WebGLRenderer,
  type AnimationAction,
  type AnimationMixer,
  type Object3D,
  type SkinnedMesh,
} from 'three';
import { createSolver, type Solver } from 'spring-solver';
import { InertializedMixerGroup, InstancedSprings, SkeletonBatch } from 'spring-solver/three';
import { buildSkinnedCrowd } from '../../../../test/fixtures/skinned-crowd.js';
import { fitRendererToCanvas } from './resize.js';

export const CROWD_SIZES = [100, 500, 1000, 2000];
const SPACING = 1.6; // metres between spots
/** The capture is in centimetres, the scene in metres. */
const CM = 0.01;
/** A jump moves every playhead this fraction of the clip forward. */
const JUMP_FRACTION = 0.4;
const MEMORY_BYTES = 128 * 1024 * 1024;
/** Frames the timings are the median of (robust to the first frames' compilation and to a slow frame). */
const WINDOW = 30;

/** What computes the skinning matrices: one SkeletonBatch, or three's own per-object updates. */
export type SkinningPath = 'batch' | 'three';

export interface CrowdTimings {
  /** The mixers and the inertialization (InertializedMixerGroup.update, transitions included). */
  animation: number;
  /** The spots' springs, and the characters moved onto them. */
  springs: number;
  /** The skinning matrices: SkeletonBatch.update(), or every skeleton's updateMatrixWorld() and update(). */
  skinning: number;
  /** renderer.render (scene.updateMatrixWorld() included: the groups and meshes). */
  render: number;
}

/** three's own Skeleton.update (world · inverse bind, bone by bone), called explicitly on three's path. */
const ownUpdate = Skeleton.prototype.update;
/** skeleton.update while three's path is timed before render: the render only uploads what was computed. */
function uploadOnly(this: Skeleton): void {
  if (this.boneTexture) this.boneTexture.needsUpdate = true;
}

interface CrowdState {
  solver: Solver;
  characters: { group: Group; mesh: SkinnedMesh; mixer: AnimationMixer; action: AnimationAction; skeletonRoot: Object3D }[];
  /** s: the clip's length. */
  duration: number;
  mixers: InertializedMixerGroup;
  batch: SkeletonBatch | null;
  spots: InstancedSprings;
  root: Group;
}

export class CrowdSection {
  /** The last frames' samples of each row, and of the skinning row per path (SkeletonBatch per backend). */
  private readonly rowSamples = new Map<string, number[]>();
  private readonly pathSamples = new Map<string, number[]>();
  /** Frames each path computed the skinning matrices. */
  readonly updates: Record<SkinningPath, number> = { batch: 0, three: 0 };
  /** Bones per character. */
  bones = 0;
  private readonly renderer: WebGLRenderer;
  private readonly scene = new Scene();
  private readonly camera = new PerspectiveCamera(40, 2, 0.1, 500);
  private state: CrowdState | null = null;
  private formation = 0;
  private builtCount = 0;
  private pendingHalflife = false;
  private path: SkinningPath = 'batch';

  constructor(
    canvas: HTMLCanvasElement,
    private readonly bvhText: string,
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
  }

  /** s: the inertialization halflife (the group is rebuilt with it at the next frame). */
  get halflife(): number {
    return this.halflifeValue;
  }
  set halflife(value: number) {
    this.halflifeValue = value;
    this.pendingHalflife = true;
  }
  private halflifeValue = 0.15;

  get skinningPath(): SkinningPath {
    return this.path;
  }

  /**
   * Builds the crowd on a new solver of `backend` with `count` characters; `threads` (SIMD only,
   * on a cross-origin-isolated page): the threads that split its large calls.
   */
  async build(backend: 'simd' | 'js', count: number, threads: number | 'auto' = 1): Promise<string> {
    this.dispose();
    const solver = await createSolver({ backend, memoryBytes: MEMORY_BYTES, threads: backend === 'simd' ? threads : 1 });
    this.rowSamples.clear();
    if (count !== this.builtCount) this.pathSamples.clear(); // the paths compare at one crowd size
    this.builtCount = count;
    const crowd = buildSkinnedCrowd(this.bvhText, count, { seed: 1 });
    // the rest pose's lowest point (cm below the hip) onto the ground
    crowd.template.geometry.computeBoundingBox();
    const lift = -crowd.template.geometry.boundingBox!.min.y;
    const root = new Group();
    const characters = crowd.characters.map((character) => {
      const { group, mesh } = character;
      group.scale.setScalar(CM);
      mesh.position.y = lift;
      root.add(group);
      // the skeleton out of the scene graph (see the top of this file); the bind matrix is the identity
      const skeletonRoot = mesh.skeleton.bones.find((bone) => bone.parent === mesh)!;
      mesh.remove(skeletonRoot);
      mesh.bindMode = DetachedBindMode;
      mesh.bindMatrixInverse.copy(mesh.bindMatrix).invert();
      return { ...character, skeletonRoot };
    });
    const mixers = new InertializedMixerGroup(
      solver,
      characters.map((c) => c.mixer),
      { halflife: this.halflifeValue },
    );
    // Spots: their instance matrices move into solver memory, and their translations spring.
    const discs = new InstancedMesh(new CylinderGeometry(0.45, 0.45, 0.04, 16), new MeshLambertMaterial({ color: 0x64748b }), count);
    discs.frustumCulled = false;
    const spots = new InstancedSprings(solver, discs, { halflife: 0.6 });
    this.placeGoals(spots, count);
    spots.matrices.set(spotMatrices(spots.goals));
    root.add(discs);
    this.scene.add(root);
    this.state = { solver, characters, duration: crowd.clip.duration, mixers, batch: null, spots, root };
    this.pendingHalflife = false;
    this.bones = characters[0]!.mesh.skeleton.bones.length;
    this.attach();
    this.placeCharacters();
    const side = Math.sqrt(count) * SPACING;
    this.camera.position.set(0, side * 0.22 + 2.5, side * 0.5 + 5);
    this.camera.lookAt(0, 0.5, side * 0.12);
    return solver.backend;
  }

  /** Switches what computes the skinning matrices. */
  setSkinningPath(path: SkinningPath): void {
    if (path === this.path) return;
    this.detach();
    this.path = path;
    this.attach();
  }

  /** The threads the crowd's solver runs (1 unless built with more on a cross-origin-isolated page). */
  get threads(): number {
    return this.state?.solver.threads ?? 1;
  }

  /** New goals for the spots: a square grid, then a ring, then a diamond, in turn. */
  regroup(): void {
    if (!this.state) return;
    this.formation = (this.formation + 1) % 3;
    this.placeGoals(this.state.spots, this.state.characters.length);
  }

  /** One frame: mixers and inertialization, spot springs, skinning matrices, render. */
  frame(dt: number, jump: boolean): void {
    const s = this.state;
    if (!s) return;
    if (this.pendingHalflife) this.rebuildGroup(s);
    const t0 = performance.now();
    if (jump) for (const { action } of s.characters) action.time = (action.time + JUMP_FRACTION * s.duration) % s.duration;
    // The loop point is a jump too (the capture's last pose is not its first): the characters about
    // to wrap wrap now, through a transition (one frame's dt is skipped there).
    const wrapping: AnimationMixer[] = [];
    for (const c of s.characters) {
      if (c.action.time + dt >= s.duration) {
        c.action.time = (c.action.time + dt) % s.duration;
        wrapping.push(c.mixer);
      }
    }
    if (jump) s.mixers.transition();
    else if (wrapping.length > 0) s.mixers.transition(wrapping);
    s.mixers.update(dt);
    const t1 = performance.now();
    s.spots.update(dt);
    this.placeCharacters();
    const t2 = performance.now();
    if (s.batch) {
      s.batch.update();
    } else {
      // what scene.updateMatrixWorld() and the renderer do for a skeleton, timed here
      for (const { mesh, skeletonRoot } of s.characters) {
        skeletonRoot.updateMatrixWorld();
        ownUpdate.call(mesh.skeleton);
      }
    }
    this.updates[this.path]++;
    const t3 = performance.now();
    fitRendererToCanvas(this.renderer, this.camera);
    this.renderer.render(this.scene, this.camera);
    const t4 = performance.now();
    const sample: CrowdTimings = { animation: t1 - t0, springs: t2 - t1, skinning: t3 - t2, render: t4 - t3 };
    for (const [row, ms] of Object.entries(sample)) record(this.rowSamples, row, ms);
    record(this.pathSamples, this.pathLabel(), t3 - t2);
  }

  /** ms per frame of each row: the median of the last frames. */
  get timings(): CrowdTimings {
    const rows: CrowdTimings = { animation: 0, springs: 0, skinning: 0, render: 0 };
    for (const row of Object.keys(rows) as (keyof CrowdTimings)[]) rows[row] = median(this.rowSamples.get(row) ?? []);
    return rows;
  }

  /** ms of the skinning row per path that ran ('three.js', 'SkeletonBatch (simd)', …): the median of its last frames. */
  get skinningMs(): Record<string, number> {
    const rows: Record<string, number> = {};
    for (const [key, values] of this.pathSamples) rows[key] = median(values);
    return rows;
  }

  /** The label of the running path in `skinningMs`: 'three.js', or 'SkeletonBatch (simd)' etc. */
  pathLabel(): string {
    return this.path === 'three' ? 'three.js' : `SkeletonBatch (${this.state?.solver.backend ?? '–'})`;
  }

  /** Mesh c's skinning matrix of bone b (16 floats, column-major), as the renderer reads it. */
  boneMatrix(c: number, b: number): number[] {
    const matrices = this.state?.characters[c]?.mesh.skeleton.boneMatrices;
    return matrices ? Array.from(matrices.subarray(16 * b, 16 * b + 16)) : [];
  }

  dispose(): void {
    const s = this.state;
    if (!s) return;
    this.detach();
    this.scene.remove(s.root);
    s.mixers.dispose();
    s.spots.dispose();
    for (const { mesh } of s.characters) mesh.skeleton.dispose();
    const first = s.characters[0]!.mesh;
    first.geometry.dispose();
    (first.material as MeshLambertMaterial).dispose();
    s.solver.dispose();
    this.state = null;
  }

  /** The running path takes over the skeletons: a SkeletonBatch reading the group, or three's update timed before render. */
  private attach(): void {
    const s = this.state;
    if (!s) return;
    if (this.path === 'batch') {
      s.batch = new SkeletonBatch(
        s.solver,
        s.characters.map((c) => c.mesh),
        { source: s.mixers },
      );
    } else {
      for (const { mesh } of s.characters) mesh.skeleton.update = uploadOnly;
    }
  }

  /** Gives the skeletons back to three (the batch's dispose also has the group write the bones again). */
  private detach(): void {
    const s = this.state;
    if (!s) return;
    if (s.batch) {
      s.batch.dispose();
      s.batch = null;
    } else {
      for (const { mesh } of s.characters) delete (mesh.skeleton as Partial<Skeleton>).update;
    }
  }

  /** A new group with the current halflife (the mixers keep playing; the offsets start from zero). */
  private rebuildGroup(s: CrowdState): void {
    this.pendingHalflife = false;
    this.detach();
    s.mixers.dispose();
    s.mixers = new InertializedMixerGroup(
      s.solver,
      s.characters.map((c) => c.mixer),
      { halflife: this.halflifeValue },
    );
    this.attach();
  }

  /** Each character over its spot. */
  private placeCharacters(): void {
    const s = this.state!;
    const m = s.spots.matrices;
    s.characters.forEach(({ group }, c) => group.position.set(m[16 * c + 12]!, 0, m[16 * c + 14]!));
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
}

function record(samples: Map<string, number[]>, key: string, ms: number): void {
  const values = samples.get(key) ?? [];
  samples.set(key, values);
  values.push(ms);
  if (values.length > WINDOW) values.shift();
}

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Identity matrices translated to the goals (the spots start on their goals). */
function spotMatrices(goals: Float32Array): Float32Array {
  const count = goals.length / 3;
  const out = new Float32Array(count * 16);
  const m = new Matrix4();
  for (let i = 0; i < count; i++) m.makeTranslation(goals[i * 3]!, goals[i * 3 + 1]!, goals[i * 3 + 2]!).toArray(out, i * 16);
  return out;
}
