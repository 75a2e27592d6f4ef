/**
 * The crowd pipeline in random app loops (issue 26, items 2 and 3, against the principle "mirror
 * three in the loops users write"): seeded random crowds of the pirouette capture
 * (test/fixtures/skinned-crowd.js), their bones under their mesh as glTF has them or detached (the
 * root bone beside the mesh), a sword (with a gem on it) in each right hand and a hat on each neck.
 * Each run picks its pipeline: the SkeletonBatch's source is the bones' objects, an
 * InertializedMixerGroup (over the mixers or over a MixerBatch) or a MixerBatch, and the sampler
 * three's mixers or a MixerBatch. Each frame is what apps do: before the sampler's update, between
 * it and the SkeletonBatch's update, and between that and the render, a random mix of cross-fades
 * (with or without warps and `group.transition`), jumps of `action.time`, `mixer.setTime`, pauses, new
 * clips (`clipAction`, then `batch.refresh()` or not), characters' roots moved and reparented under
 * a moving group, `scene.updateMatrixWorld()`, `updateMatrixWorld(true)` on characters and meshes and
 * `updateWorldMatrix(true, true)` on random subtrees (characters, meshes, bones, attachments),
 * `getWorldPosition` / `getWorldQuaternion` of random bones and attachments, attachments detached
 * (`removeFromParent` or `scene.attach`) and attached again under random bones (`add` or `attach`),
 * and the pipeline (the SkeletonBatch, then the group, then the batch) disposed and built again on a
 * random subset of the characters; the sampler's dt varies in [1/240, 1/20].
 *
 * A twin crowd gets the same operations, animated by three alone (three's `mixer.update`, or the
 * same InertializedMixerGroup over three's mixers, writing the bones; the renderer's
 * `scene.updateMatrixWorld()` and `skeleton.update()`). Every frame, every mesh's boneMatrices and
 * every attachment's matrixWorld, and at once every getWorldPosition / getWorldQuaternion, equal
 * the twin's bit for bit (Object.is), on every backend and on 2 threads (crowds of 32 or more on
 * some runs, so that the kernels split).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  AnimationUtils,
  Group,
  type Object3D,
  Quaternion,
  Scene,
  Vector3,
  type AnimationAction,
  type AnimationClip,
  type AnimationMixer,
  type Bone,
  type SkinnedMesh,
} from 'three';
import type { Solver } from '../../dist/index.js';
import { InertializedMixerGroup, MixerBatch, SkeletonBatch } from '../../dist/three/index.js';
import { THREADS_2, useSolversWithThreads } from '../helpers/backends.js';
import { splitCalls } from '../helpers/thread-solvers.js';
import { attachProps } from '../helpers/attachments.js';
import { applyMove, moveArbitraries, type MoveOp } from '../helpers/crowd-moves.js';
import { buildSkinnedCrowd } from '../fixtures/skinned-crowd.js';
import { SEED } from '../fuzz/harness.js';
import { STATEFUL_RUNS } from '../fuzz/stateful-harness.js';
import bvhText from '../../data/pirouette.bvh?raw';

const { names: SOLVERS, solvers } = useSolversWithThreads();

/** A failure's `path` (with FUZZ_SEED set to its seed minus 9000 and the solver's index): that run alone, replayed. */
const PATH = (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env.FUZZ_PATH;

/** Runs per solver: a fifteenth of the stateful fuzz's (FUZZ_RUNS for a longer run); each builds two crowds and runs FRAMES frames. */
const RUNS = Math.max(10, Math.round(STATEFUL_RUNS / 15));
const FRAMES = 20;

interface Character {
  group: Group;
  mesh: SkinnedMesh;
  mixer: AnimationMixer;
  actions: AnimationAction[];
  playing: number;
  /** The sword (a gem on it) and the hat. */
  attachments: [Object3D, Object3D];
}

/** One side of the comparison: the crowd under a moving world group and a moving carrier group. */
interface Side {
  scene: Scene;
  world: Group;
  carrier: Group;
  clip: AnimationClip;
  fps: number;
  clips: number;
  characters: Character[];
  /** Every attachment (swords, gems, hats), whose matrixWorld is compared. */
  watched: Object3D[];
}

type Layout = 'gltf' | 'detached';

function side(count: number, seed: number, layout: Layout): Side {
  const built = buildSkinnedCrowd(bvhText, count, { seed, spacing: 120 });
  const scene = new Scene();
  const world = new Group();
  const carrier = new Group();
  scene.add(world);
  world.add(carrier);
  const times = built.clip.tracks[0]!.times;
  const fps = 1 / (times[1]! - times[0]!);
  const alt = AnimationUtils.subclip(built.clip, 'alt', 100, 400, fps);
  const characters = built.characters.map((ch, m): Character => {
    world.add(ch.group);
    const bones = ch.mesh.skeleton.bones;
    if (layout === 'detached') {
      ch.group.add(bones[0]!);
      ch.mesh.bindMode = 'detached';
    }
    const [sword, hat] = attachProps(bones, m);
    return {
      group: ch.group,
      mesh: ch.mesh,
      mixer: ch.mixer,
      actions: [ch.action, ch.mixer.clipAction(alt)],
      playing: 0,
      attachments: [sword, hat],
    };
  });
  const watched = characters.flatMap((c) => [c.attachments[0], c.attachments[0].children[0]!, c.attachments[1]]);
  return { scene, world, carrier, clip: built.clip, fps, clips: 0, characters, watched };
}

/** The run's pipeline: the sampler (a MixerBatch or three's mixers), an InertializedMixerGroup or none, and the SkeletonBatch's source. */
interface Config {
  batch: boolean;
  group: boolean;
  /** The SkeletonBatch reads the bones' objects (else the group, or the batch; three's mixers and no group: the objects). */
  objects: boolean;
  boneWorldMatrices: boolean;
}

/**
 * The pipelines a run may build, the four sources of issue 26 most often: the bones' objects (three's mixers, a
 * MixerBatch or a group writing them), a group over the mixers, a MixerBatch, a group over a MixerBatch.
 */
const PIPELINES: { weight: number; config: Omit<Config, 'boneWorldMatrices'> }[] = [
  { weight: 1, config: { batch: false, group: false, objects: true } },
  { weight: 1, config: { batch: true, group: false, objects: true } },
  { weight: 1, config: { batch: true, group: true, objects: true } },
  { weight: 2, config: { batch: false, group: true, objects: false } },
  { weight: 3, config: { batch: true, group: false, objects: false } },
  { weight: 3, config: { batch: true, group: true, objects: false } },
];

/** What is built on the subset `members` of the characters (ours), and the twin's group over the same mixers. */
interface Pipeline {
  members: number[];
  batch: MixerBatch | null;
  group: InertializedMixerGroup | null;
  skins: SkeletonBatch | null;
  twinGroup: InertializedMixerGroup | null;
}

type Op =
  | { kind: 'crossfade'; character: number; to: number; duration: number; warp: boolean; time: number; transition: boolean }
  | { kind: 'jump'; character: number; time: number; transition: boolean }
  | { kind: 'setTime'; character: number; time: number; transition: boolean }
  | { kind: 'pause'; character: number }
  | { kind: 'newClip'; character: number; all: boolean; start: number; length: number; refresh: boolean }
  | MoveOp
  | { kind: 'sceneUpdate' }
  | { kind: 'subtree'; character: number; target: number; how: 'updateMatrixWorld' | 'updateWorldMatrix' }
  | { kind: 'ask'; character: number; target: number; quaternion: boolean }
  | { kind: 'attachment'; character: number; which: 0 | 1; bone: number; how: 'add' | 'attach' }
  | { kind: 'rebuild'; mask: number; all: boolean; level: 0 | 1 | 2 };

const time = fc.double({ min: 0, max: 4, noNaN: true });
const character = fc.nat();

const askArb: fc.Arbitrary<Op> = fc.record({ kind: fc.constant('ask' as const), character, target: fc.nat(), quaternion: fc.boolean() });
const subtreeArb: fc.Arbitrary<Op> = fc.record({
  kind: fc.constant('subtree' as const),
  character,
  target: fc.nat(),
  how: fc.constantFrom('updateMatrixWorld' as const, 'updateWorldMatrix' as const),
});
const attachmentArb: fc.Arbitrary<Op> = fc.record({
  kind: fc.constant('attachment' as const),
  character,
  which: fc.constantFrom(0 as const, 1 as const),
  bone: fc.nat(),
  how: fc.constantFrom('add' as const, 'attach' as const),
});
const sceneArb: fc.Arbitrary<Op> = fc.record({ kind: fc.constant('sceneUpdate' as const) });

/** What an app does between the SkeletonBatch's update and the render: asks, updates of subtrees, attachments. */
const lateOps = [
  { weight: 3, arbitrary: askArb },
  { weight: 2, arbitrary: subtreeArb },
  { weight: 2, arbitrary: attachmentArb },
  { weight: 1, arbitrary: sceneArb },
];

/** Anything but rebuilding the pipeline and new clips: what an app may do between the sampler's update and the SkeletonBatch's. */
const animationOps = [
  ...lateOps,
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('crossfade' as const),
      character,
      to: fc.nat(),
      duration: fc.constantFrom(0, 0.05, 0.3),
      warp: fc.boolean(),
      time,
      transition: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('jump' as const), character, time, transition: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('setTime' as const), character, time, transition: fc.boolean() }) },
  // (a paused action's values do not change: three writes them no more)
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('pause' as const), character }) },
  ...moveArbitraries(character),
];

/** Before the sampler's update: anything, the pipeline rebuilt and new clips included. */
const earlyOps = [
  ...animationOps,
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('newClip' as const),
      character,
      all: fc.boolean(),
      start: fc.integer({ min: 0, max: 400 }),
      length: fc.integer({ min: 30, max: 180 }),
      refresh: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('rebuild' as const),
      mask: fc.nat(),
      all: fc.boolean(),
      level: fc.constantFrom(0 as const, 1 as const, 2 as const),
    }),
  },
];

/** A frame: ops, the sampler's update (dt), ops, the SkeletonBatch's update, ops, the render. */
const frameArb = fc.record({
  early: fc.array(fc.oneof(...earlyOps), { maxLength: 4 }),
  dt: fc.double({ min: 1 / 240, max: 1 / 20, noNaN: true }),
  middle: fc.array(fc.oneof(...animationOps), { maxLength: 3 }),
  late: fc.array(fc.oneof(...lateOps), { maxLength: 3 }),
});

/** Character c's objects an updateWorldMatrix(true, true) may start from: its group, its mesh, its bones, its attachments. */
function subtreeTargets(c: Character): Object3D[] {
  const [sword, hat] = c.attachments;
  return [c.group, c.mesh, ...c.mesh.skeleton.bones, sword, sword.children[0]!, hat];
}

/** Character c's objects whose world position an app may ask: its bones and its attachments. */
function askTargets(c: Character): Object3D[] {
  const [sword, hat] = c.attachments;
  return [...c.mesh.skeleton.bones, sword, sword.children[0]!, hat];
}

/**
 * Applies `op` (all but 'rebuild') to one side; `pipeline` is this side's (the twin's has its group
 * only). Returns the answer of an 'ask' (a world position or quaternion), else null.
 */
function apply(s: Side, op: Op, pipeline: Pipeline, ours: boolean): number[] | null {
  const n = s.characters.length;
  const group = ours ? pipeline.group : pipeline.twinGroup;
  const inGroup = (c: Character): boolean => group?.mixers.includes(c.mixer) === true;
  switch (op.kind) {
    case 'crossfade': {
      const c = s.characters[op.character % n]!;
      const count = c.actions.length;
      let k = op.to % (count - 1);
      if (k >= c.playing) k++;
      const from = c.actions[c.playing]!,
        to = c.actions[k]!;
      to.reset().play();
      to.time = op.time % to.getClip().duration;
      if (op.duration > 0) from.crossFadeTo(to, op.duration, op.warp);
      else from.stop();
      c.playing = k;
      if (op.transition && inGroup(c)) group!.transition(c.mixer);
      return null;
    }
    case 'jump': {
      const c = s.characters[op.character % n]!;
      c.actions[c.playing]!.time = op.time;
      if (op.transition && inGroup(c)) group!.transition(c.mixer);
      return null;
    }
    case 'setTime': {
      const c = s.characters[op.character % n]!;
      c.mixer.setTime(op.time);
      if (op.transition && inGroup(c)) group!.transition(c.mixer);
      return null;
    }
    case 'pause': {
      const c = s.characters[op.character % n]!;
      const action = c.actions[c.playing]!;
      action.paused = !action.paused;
      return null;
    }
    case 'newClip': {
      const clip = AnimationUtils.subclip(s.clip, `clip ${s.clips++}`, op.start, op.start + op.length, s.fps);
      const chosen = op.all ? s.characters : [s.characters[op.character % n]!];
      for (const c of chosen) c.actions.push(c.mixer.clipAction(clip));
      if (ours && op.refresh) pipeline.batch?.refresh();
      return null;
    }
    case 'move':
    case 'moveWorld':
    case 'reparent':
      applyMove(s, op);
      return null;
    case 'sceneUpdate':
      s.scene.updateMatrixWorld();
      return null;
    case 'subtree': {
      // (updateMatrixWorld from a bone or an attachment reads its parent bone's matrixWorld as it stands, which three keeps
      // from its last traversal for every bone, and a SkeletonBatch for the bones objects hang from only: docs/DECISIONS.md)
      const c = s.characters[op.character % n]!;
      const targets = op.how === 'updateMatrixWorld' ? [c.group, c.mesh] : subtreeTargets(c);
      const o = targets[op.target % targets.length]!;
      if (op.how === 'updateMatrixWorld') o.updateMatrixWorld(true);
      else o.updateWorldMatrix(true, true);
      return null;
    }
    case 'ask': {
      const targets = askTargets(s.characters[op.character % n]!);
      const o = targets[op.target % targets.length]!;
      return op.quaternion ? o.getWorldQuaternion(new Quaternion()).toArray() : o.getWorldPosition(new Vector3()).toArray();
    }
    case 'attachment': {
      const c = s.characters[op.character % n]!;
      const o = c.attachments[op.which];
      const bones = c.mesh.skeleton.bones;
      if (bones.includes(o.parent as Bone)) {
        if (op.how === 'add') o.removeFromParent();
        else s.scene.attach(o);
      } else {
        const bone = bones[op.bone % bones.length]!;
        if (op.how === 'add') bone.add(o);
        else bone.attach(o);
      }
      return null;
    }
    case 'rebuild':
      throw new Error('rebuild is applied by build()');
  }
}

/** The characters of a rebuild's subset: bit m of the mask, or all of them. */
function membersOf(op: Extract<Op, { kind: 'rebuild' }>, count: number): number[] {
  return [...Array(count).keys()].filter((m) => op.all || (op.mask >> (m % 30)) & 1);
}

/**
 * Disposes the SkeletonBatch, then (level ≥ 1) the group, then (level 2) the batch, and builds them
 * again, on a new subset at level 2; the twin's group follows ours. A new group is updated at once
 * by dt 0, on both sides: its pose is float32 from its first update on (docs/DECISIONS.md).
 */
function rebuild(ours: Side, theirs: Side, p: Pipeline, op: Extract<Op, { kind: 'rebuild' }>, config: Config, solver: Solver): void {
  p.skins?.dispose();
  p.skins = null;
  if (op.level >= 1) {
    p.group?.dispose();
    p.twinGroup?.dispose();
    p.group = p.twinGroup = null;
  }
  if (op.level === 2) {
    p.batch?.dispose();
    p.batch = null;
    p.members = membersOf(op, ours.characters.length);
  }
  build(ours, theirs, p, config, solver);
}

/** Builds what is missing of the pipeline on its members. */
function build(ours: Side, theirs: Side, p: Pipeline, config: Config, solver: Solver): void {
  if (p.members.length === 0) return;
  const mixers = (s: Side): AnimationMixer[] => p.members.map((m) => s.characters[m]!.mixer);
  if (config.batch && p.batch === null) p.batch = new MixerBatch(solver, mixers(ours));
  if (config.group && p.group === null) {
    p.group = new InertializedMixerGroup(solver, p.batch ?? mixers(ours), { halflife: 0.1 });
    p.twinGroup = new InertializedMixerGroup(solver, mixers(theirs), { halflife: 0.1 });
    p.group.update(0);
    p.twinGroup.update(0);
  }
  const source = config.objects ? 'objects' : (p.group ?? p.batch ?? 'objects');
  p.skins = new SkeletonBatch(
    solver,
    p.members.map((m) => ours.characters[m]!.mesh),
    { source, boneWorldMatrices: config.boneWorldMatrices },
  );
}

/** The sampler's update: the pipeline's members through it (the twin: through its group), the other characters by three's mixers. */
function sample(s: Side, p: Pipeline, ours: boolean, dt: number): void {
  const group = ours ? p.group : p.twinGroup;
  const batch = ours ? p.batch : null;
  if (group) group.update(dt);
  else batch?.update(dt);
  const covered = group ?? batch;
  s.characters.forEach((c, m) => {
    if (covered === null || !p.members.includes(m)) c.mixer.update(dt);
  });
}

/** What three's renderer does before drawing: the scene's matrices, then every skeleton.update(). */
function render(s: Side): void {
  s.scene.updateMatrixWorld();
  for (const c of s.characters) c.mesh.skeleton.update();
}

/** The first difference between the two sides' boneMatrices and attachments' matrixWorld, or null. */
function firstDifference(ours: Side, theirs: Side): string | null {
  for (let m = 0; m < ours.characters.length; m++) {
    const a = ours.characters[m]!.mesh.skeleton,
      b = theirs.characters[m]!.mesh.skeleton;
    const x = a.boneMatrices!,
      y = b.boneMatrices!;
    for (let i = 0; i < 16 * a.bones.length; i++)
      if (!Object.is(x[i], y[i])) return `mesh ${m}, bone ${i >> 4}, element ${i & 15}: ${x[i]} vs three's ${y[i]}`;
  }
  for (let k = 0; k < ours.watched.length; k++) {
    const x = ours.watched[k]!.matrixWorld.elements,
      y = theirs.watched[k]!.matrixWorld.elements;
    for (let j = 0; j < 16; j++)
      if (!Object.is(x[j], y[j])) return `${ours.watched[k]!.name}'s matrixWorld, element ${j}: ${x[j]} vs three's ${y[j]}`;
  }
  return null;
}

/** Runs `op` on both sides (a rebuild on the pipeline); an ask's answers must be identical. */
function both(ours: Side, theirs: Side, p: Pipeline, op: Op, config: Config, solver: Solver, where: string): void {
  if (op.kind === 'rebuild') {
    rebuild(ours, theirs, p, op, config, solver);
    return;
  }
  const a = apply(ours, op, p, true);
  const b = apply(theirs, op, p, false);
  if (a === null || b === null) return;
  const same = a.every((v, i) => Object.is(v, b[i]));
  expect(same, `${where}: ${JSON.stringify(op)} gave ${a.join(' ')}, three's ${b.join(' ')}`).toBe(true);
}

describe.each(SOLVERS)('the crowd pipeline in random app loops on %s', (backend) => {
  it(
    "every frame, boneMatrices, attachments' matrixWorld and world positions asked equal three's alone, bit for bit",
    () => {
      const solver = solvers[backend]!;
      const threaded = backend === THREADS_2;
      const before = threaded ? splitCalls(solver) : 0;
      const arb = fc.record({
        // on 2 threads, crowds at the kernels' split minimum (32 characters), until a rebuild takes a subset
        count: threaded ? fc.integer({ min: 32, max: 34 }) : fc.integer({ min: 1, max: 6 }),
        seed: fc.integer({ min: 1, max: 1000 }),
        layout: fc.constantFrom<Layout>('gltf', 'detached'),
        config: fc
          .record({ boneWorldMatrices: fc.boolean() })
          .chain(({ boneWorldMatrices }) =>
            fc.oneof(...PIPELINES.map(({ weight, config }) => ({ weight, arbitrary: fc.constant({ ...config, boneWorldMatrices }) }))),
          ),
        frames: fc.array(frameArb, { minLength: FRAMES, maxLength: FRAMES }),
      });
      fc.assert(
        fc.property(arb, ({ count, seed, layout, config, frames }) => {
          const ours = side(count, seed, layout),
            theirs = side(count, seed, layout);
          const p: Pipeline = { members: [...Array(count).keys()], batch: null, group: null, skins: null, twinGroup: null };
          try {
            build(ours, theirs, p, config, solver);
            frames.forEach(({ early, dt, middle, late }, f) => {
              for (const op of early) both(ours, theirs, p, op, config, solver, `frame ${f}, before the sampler`);
              sample(ours, p, true, dt);
              sample(theirs, p, false, dt);
              for (const op of middle) both(ours, theirs, p, op, config, solver, `frame ${f}, after the sampler`);
              p.skins?.update();
              for (const op of late) both(ours, theirs, p, op, config, solver, `frame ${f}, after the SkeletonBatch`);
              render(ours);
              render(theirs);
              expect(firstDifference(ours, theirs), `frame ${f}`).toBeNull();
            });
          } finally {
            p.skins?.dispose();
            p.group?.dispose();
            p.twinGroup?.dispose();
            p.batch?.dispose();
          }
        }),
        { numRuns: RUNS, seed: SEED + 9000 + SOLVERS.indexOf(backend), endOnFailure: !PATH, ...(PATH ? { path: PATH } : {}) },
      );
      if (threaded) expect(splitCalls(solver) - before, 'kernel calls split over the threads').toBeGreaterThan(0);
      // (a longer run, FUZZ_RUNS, gets a longer timeout: about 3 s a run on 2 threads with 32 or more characters on a loaded machine)
    },
    Math.max(60_000, 6_000 * RUNS),
  );
});
