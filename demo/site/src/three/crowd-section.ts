// The crowd, the showcase of the whole animation pipeline: skinned characters (the pirouette
// skeleton with a capsule skin, one SkinnedMesh each), each with an AnimationMixer holding three
// clips (the pirouette and two parts of it cut with AnimationUtils.subclip) between which random
// characters cross-fade (three's crossFadeTo, seeded random durations, a few a second). On the
// library path, one MixerBatch samples every mixer in one kernel call, one InertializedMixerGroup
// over it inertializes the result (jumps and loop points), and one SkeletonBatch reads the group's
// output in solver memory and writes every skinning matrix. On three's path, every
// mixer.update(dt), scene.updateMatrixWorld() and every skeleton.update() run three's own code
// (no inertialization: three has none, so jumps and loop points snap). Each character stands on a
// spot of an InstancedMesh whose instance matrices live in solver memory and spring toward goals
// (InstancedSprings, no copy).
//
// The skeletons are not in the scene graph: each mesh is in 'detached' bind mode and its root bone
// has no parent, so the bones' matrices are in the mesh's space and scene.updateMatrixWorld()
// visits the characters' groups and meshes only, not their 25,000 bones. The page calls
// scene.updateMatrixWorld() itself, timed, and turns the renderer's own call off
// (scene.matrixWorldAutoUpdate = false): the same matrices are drawn.
import {
  AmbientLight,
  AnimationUtils,
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
  type AnimationClip,
  type AnimationMixer,
  type Object3D,
  type SkinnedMesh,
} from 'three';
import { createSolver, type Solver } from 'spring-solver';
import { InertializedMixerGroup, InstancedSprings, MixerBatch, SkeletonBatch } from 'spring-solver/three';
import { buildSkinnedCrowd } from '../../../../test/fixtures/skinned-crowd.js';
import { mulberry32 } from '../../../../tools/mulberry32.js';
import { fitRendererToCanvas } from './resize.js';

export const CROWD_SIZES = [100, 500, 1000, 2000, 10000];
const SPACING = 1.6; // metres between spots
/** The capture is in centimetres, the scene in metres. */
const CM = 0.01;
/** A jump moves every playhead this fraction of its clip forward. */
const JUMP_FRACTION = 0.4;
/**
 * The crowd's solver. 10,000 characters (?crowd=10000) take about 100 MB of it (MixerBatch's
 * buffers and cursors, the group's poses, the skinning matrices, the spots): 256 MB leaves room.
 */
const MEMORY_BYTES = 256 * 1024 * 1024;
/** Frames the timings are the median of (robust to the first frames' compilation and to a slow frame). */
const WINDOW = 30;
/** Characters that start a cross-fade per second, on average. */
const CROSSFADES_PER_SECOND = 4;
/** s: the range of a cross-fade's duration (uniform). */
const CROSSFADE_MIN = 0.25;
const CROSSFADE_MAX = 1.2;
/** The two parts of the pirouette cut out as clips of their own: [first, last) frame as fractions of its frames. */
const PARTS: [string, number, number][] = [
  ['wind-up', 0.05, 0.4],
  ['spin', 0.45, 0.9],
];

/** What runs the crowd's animation frame: the library's pipeline, or three.js's own updates. */
export type SkinningPath = 'batch' | 'three';

export interface CrowdTimings {
  /**
   * The keyframe sampling: on the library path, MixerBatch.update as the group runs it (timed inside
   * the group's update; NaN if the group did not call it); on three's, every mixer.update(dt).
   */
  sampling: number;
  /** The inertialization: the rest of InertializedMixerGroup.update (transitions before it not included); 0 on three's path (none). */
  inertialization: number;
  /** The spots' springs, and the characters moved onto them. */
  springs: number;
  /** scene.updateMatrixWorld() (the characters' groups and meshes, the spots; the bones are out of the scene graph). */
  scene: number;
  /** The skinning matrices: SkeletonBatch.update(), or every skeleton root's updateMatrixWorld() and skeleton.update(). */
  skinning: number;
  /** renderer.render (without its scene.updateMatrixWorld(), timed above). */
  render: number;
}

/** three's own Skeleton.update (world · inverse bind, bone by bone), called explicitly on three's path. */
const ownUpdate = Skeleton.prototype.update;
/** skeleton.update while three's path is timed before render: the render only uploads what was computed. */
function uploadOnly(this: Skeleton): void {
  if (this.boneTexture) this.boneTexture.needsUpdate = true;
}

interface Character {
  group: Group;
  mesh: SkinnedMesh;
  mixer: AnimationMixer;
  /** One action per clip (the pirouette, then its parts), all created before the pipeline is built. */
  actions: AnimationAction[];
  /** The action faded in last. */
  current: number;
  /** s of the crowd's clock until which its cross-fade runs (no new one before: three would snap its weights). */
  busyUntil: number;
  skeletonRoot: Object3D;
}

/** The library's pipeline: MixerBatch → InertializedMixerGroup → SkeletonBatch. */
interface Pipeline {
  batch: MixerBatch;
  group: InertializedMixerGroup;
  skins: SkeletonBatch;
}

interface CrowdState {
  solver: Solver;
  characters: Character[];
  clips: AnimationClip[];
  pipeline: Pipeline | null;
  spots: InstancedSprings;
  root: Group;
  random: () => number;
  /** s: the crowd's clock. */
  clock: number;
  /** Cross-fades due (fractional: CROSSFADES_PER_SECOND · dt accumulates). */
  due: number;
}

export class CrowdSection {
  /** The last frames' samples of each row, and of the skinning row per path (SkeletonBatch per backend). */
  private readonly rowSamples = new Map<string, number[]>();
  private readonly pathSamples = new Map<string, number[]>();
  /** Frames each path ran. */
  readonly updates: Record<SkinningPath, number> = { batch: 0, three: 0 };
  /** Cross-fades started since the page opened. */
  crossFades = 0;
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
  /** ms spent in MixerBatch.update during the group's update of this frame, and its calls. */
  private sampleMs = 0;
  private sampleCalls = 0;

  constructor(
    canvas: HTMLCanvasElement,
    private readonly bvhText: string,
  ) {
    this.renderer = new WebGLRenderer({ canvas, antialias: true });
    this.renderer.setPixelRatio(Math.min(2, window.devicePixelRatio));
    this.scene.background = new Color(0xe2e8f0);
    // the page calls scene.updateMatrixWorld() itself (timed); the render then draws the same matrices
    this.scene.matrixWorldAutoUpdate = false;
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
    const random = mulberry32(7);
    // the pirouette and two parts of it (AnimationUtils.subclip takes frames: the capture's are uniform)
    const times = crowd.clip.tracks[0]!.times;
    const frames = times.length;
    const fps = 1 / (times[1]! - times[0]!);
    const clips = [
      crowd.clip,
      ...PARTS.map(([name, from, to]) => AnimationUtils.subclip(crowd.clip, name, Math.round(from * frames), Math.round(to * frames), fps)),
    ];
    // the rest pose's lowest point (cm below the hip) onto the ground
    crowd.template.geometry.computeBoundingBox();
    const lift = -crowd.template.geometry.boundingBox!.min.y;
    const root = new Group();
    const characters = crowd.characters.map(({ group, mesh, mixer, action }): Character => {
      group.scale.setScalar(CM);
      mesh.position.y = lift;
      root.add(group);
      // the skeleton out of the scene graph (see the top of this file); the bind matrix is the identity
      const skeletonRoot = mesh.skeleton.bones.find((bone) => bone.parent === mesh)!;
      mesh.remove(skeletonRoot);
      mesh.bindMode = DetachedBindMode;
      mesh.bindMatrixInverse.copy(mesh.bindMatrix).invert();
      // every clip's action exists before the pipeline is built (the group's bindings are fixed then)
      const actions = [action, ...clips.slice(1).map((clip) => mixer.clipAction(clip))];
      return { group, mesh, mixer, actions, current: 0, busyUntil: 0, skeletonRoot };
    });
    // Spots: their instance matrices move into solver memory, and their translations spring.
    const discs = new InstancedMesh(new CylinderGeometry(0.45, 0.45, 0.04, 16), new MeshLambertMaterial({ color: 0x64748b }), count);
    discs.frustumCulled = false;
    const spots = new InstancedSprings(solver, discs, { halflife: 0.6 });
    this.placeGoals(spots, count);
    spots.matrices.set(spotMatrices(spots.goals));
    root.add(discs);
    this.scene.add(root);
    this.state = { solver, characters, clips, pipeline: null, spots, root, random, clock: 0, due: 0 };
    this.pendingHalflife = false;
    this.bones = characters[0]!.mesh.skeleton.bones.length;
    this.attach();
    this.placeCharacters();
    const side = Math.sqrt(count) * SPACING;
    this.camera.position.set(0, side * 0.22 + 2.5, side * 0.5 + 5);
    this.camera.lookAt(0, 0.5, side * 0.12);
    return solver.backend;
  }

  /** Switches what runs the animation frame: the library's pipeline, or three's own updates. */
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

  /** Clips per character. */
  get clipCount(): number {
    return this.state?.clips.length ?? 0;
  }

  /** The stages the running path goes through, in order. */
  get stages(): string[] {
    if (!this.state) return [];
    return this.state.pipeline
      ? ['MixerBatch', 'InertializedMixerGroup', 'SkeletonBatch']
      : ['AnimationMixer.update', 'scene.updateMatrixWorld', 'Skeleton.update'];
  }

  /** The tracks the MixerBatch samples in its kernel and leaves to three (null on three's path). */
  get tracks(): { kernel: number; three: number } | null {
    return this.state?.pipeline?.batch.tracks ?? null;
  }

  /** New goals for the spots: a square grid, then a ring, then a diamond, in turn. */
  regroup(): void {
    if (!this.state) return;
    this.formation = (this.formation + 1) % 3;
    this.placeGoals(this.state.spots, this.state.characters.length);
  }

  /** One frame: cross-fades, sampling and inertialization, spot springs, scene update, skinning matrices, render. */
  frame(dt: number, jump: boolean): void {
    const s = this.state;
    if (!s) return;
    if (this.pendingHalflife) this.rebuildGroup(s);
    s.clock += dt;
    this.startCrossFades(s, dt);
    const p = s.pipeline;
    if (jump)
      for (const c of s.characters)
        for (const a of c.actions) if (a.isRunning()) a.time = (a.time + JUMP_FRACTION * a.getClip().duration) % a.getClip().duration;
    // The loop point is a jump too (a capture's last pose is not its first): the characters whose
    // running actions are about to wrap wrap now, through a transition (one frame's dt is skipped there).
    const wrapping = new Set<AnimationMixer>();
    for (const c of s.characters) {
      for (const a of c.actions) {
        const duration = a.getClip().duration;
        if (a.isRunning() && a.time + dt * a.getEffectiveTimeScale() >= duration) {
          a.time = (a.time + dt) % duration;
          wrapping.add(c.mixer);
        }
      }
    }
    if (p) {
      if (jump) p.group.transition();
      else if (wrapping.size > 0) p.group.transition([...wrapping]);
    }
    const t0 = performance.now();
    this.sampleMs = 0;
    this.sampleCalls = 0;
    if (p) p.group.update(dt);
    else for (const c of s.characters) c.mixer.update(dt);
    const t1 = performance.now();
    s.spots.update(dt);
    this.placeCharacters();
    const t2 = performance.now();
    this.scene.updateMatrixWorld();
    const t3 = performance.now();
    if (p) {
      p.skins.update();
    } else {
      // what scene.updateMatrixWorld() (with the bones in the graph) and the renderer do for a skeleton, timed here
      for (const { mesh, skeletonRoot } of s.characters) {
        skeletonRoot.updateMatrixWorld();
        ownUpdate.call(mesh.skeleton);
      }
    }
    this.updates[this.path]++;
    const t4 = performance.now();
    fitRendererToCanvas(this.renderer, this.camera);
    this.renderer.render(this.scene, this.camera);
    const t5 = performance.now();
    const sampled = p === null || this.sampleCalls > 0;
    const sampling = p === null ? t1 - t0 : sampled ? this.sampleMs : Number.NaN;
    const sample: CrowdTimings = {
      sampling,
      inertialization: p === null ? 0 : sampled ? t1 - t0 - this.sampleMs : t1 - t0,
      springs: t2 - t1,
      scene: t3 - t2,
      skinning: t4 - t3,
      render: t5 - t4,
    };
    for (const [row, ms] of Object.entries(sample)) record(this.rowSamples, row, ms);
    record(this.pathSamples, this.pathLabel(), t4 - t3);
  }

  /** ms per frame of each row: the median of the last frames. */
  get timings(): CrowdTimings {
    const rows: CrowdTimings = { sampling: 0, inertialization: 0, springs: 0, scene: 0, skinning: 0, render: 0 };
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
    s.spots.dispose();
    for (const { mesh } of s.characters) mesh.skeleton.dispose();
    const first = s.characters[0]!.mesh;
    first.geometry.dispose();
    (first.material as MeshLambertMaterial).dispose();
    s.solver.dispose();
    this.state = null;
  }

  /**
   * A few random characters a second cross-fade from their current clip to another (three's
   * crossFadeTo, a random duration), on either path; not one whose last cross-fade still runs.
   */
  private startCrossFades(s: CrowdState, dt: number): void {
    s.due += CROSSFADES_PER_SECOND * dt;
    for (; s.due >= 1; s.due--) {
      const c = s.characters[Math.floor(s.random() * s.characters.length)]!;
      const next = (c.current + 1 + Math.floor(s.random() * (c.actions.length - 1))) % c.actions.length;
      const duration = CROSSFADE_MIN + s.random() * (CROSSFADE_MAX - CROSSFADE_MIN);
      if (s.clock < c.busyUntil) continue;
      const to = c.actions[next]!;
      to.reset().play();
      to.time = s.random() * to.getClip().duration;
      c.actions[c.current]!.crossFadeTo(to, duration, false);
      c.current = next;
      c.busyUntil = s.clock + duration;
      this.crossFades++;
    }
  }

  /**
   * The running path takes over: the library's MixerBatch → InertializedMixerGroup → SkeletonBatch,
   * or three's own updates (the skeletons' update timed before render).
   */
  private attach(): void {
    const s = this.state;
    if (!s) return;
    if (this.path === 'batch') {
      const batch = new MixerBatch(
        s.solver,
        s.characters.map((c) => c.mixer),
      );
      this.timeSampling(batch);
      const group = new InertializedMixerGroup(s.solver, batch, { halflife: this.halflifeValue });
      const skins = new SkeletonBatch(
        s.solver,
        s.characters.map((c) => c.mesh),
        { source: group },
      );
      s.pipeline = { batch, group, skins };
    } else {
      for (const { mesh } of s.characters) mesh.skeleton.update = uploadOnly;
    }
  }

  /** Gives the mixers and skeletons back to three: SkeletonBatch, then the group, then the MixerBatch. */
  private detach(): void {
    const s = this.state;
    if (!s) return;
    if (s.pipeline) {
      s.pipeline.skins.dispose();
      s.pipeline.group.dispose();
      s.pipeline.batch.dispose();
      s.pipeline = null;
    } else {
      for (const { mesh } of s.characters) delete (mesh.skeleton as Partial<Skeleton>).update;
    }
  }

  /**
   * The sampling's share of the group's update: the batch's own `update` (which the group calls
   * once per frame) timed, on this instance only.
   */
  private timeSampling(batch: MixerBatch): void {
    const update = batch.update;
    batch.update = (dt: number) => {
      const t = performance.now();
      update.call(batch, dt);
      this.sampleMs += performance.now() - t;
      this.sampleCalls++;
    };
  }

  /** A new group with the current halflife over the same MixerBatch (the mixers keep playing; the offsets start from zero). */
  private rebuildGroup(s: CrowdState): void {
    this.pendingHalflife = false;
    const p = s.pipeline;
    if (!p) return; // three's path: no inertialization; the library's takes the halflife when attached
    p.skins.dispose();
    p.group.dispose();
    p.group = new InertializedMixerGroup(s.solver, p.batch, { halflife: this.halflifeValue });
    p.skins = new SkeletonBatch(
      s.solver,
      s.characters.map((c) => c.mesh),
      { source: p.group },
    );
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
