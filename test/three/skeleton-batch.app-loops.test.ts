/**
 * SkeletonBatch in random app loops (issue 27): seeded random crowds of the pirouette capture
 * (test/fixtures/skinned-crowd.js: BVHLoader's skeleton, SkeletonUtils.clone, a mixer each), and
 * each frame a random mix of what apps do around the batch: mixer updates with crossfades between
 * two clips (through an InertializedMixerGroup source in some runs), `scene.updateMatrixWorld()`
 * before or after `batch.update()`, `updateMatrixWorld(true)` and `updateWorldMatrix(true, true)` on
 * random subtrees, `getWorldPosition` of random bones, characters' roots moved and reparented under
 * a moving group, `SkeletonUtils.clone` of an attached character mid-run (animated by three alone
 * from then on), and the batch disposed and built again on a random subset. Every frame, every
 * mesh's boneMatrices equal, bit for bit, those of a twin crowd that three animates alone (the same
 * operations, three's `scene.updateMatrixWorld()` and `skeleton.update()`), as in
 * test/three/skeleton-batch.test.ts; the clones equal the twin's clones.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { AnimationMixer, Group, Scene, Vector3, type AnimationAction, type AnimationClip, type Object3D, type SkinnedMesh } from 'three';
import { clone as cloneSkinned } from 'three/examples/jsm/utils/SkeletonUtils.js';
import { InertializedMixerGroup, SkeletonBatch } from '../../dist/three/index.js';
import { useSolversWithThreads } from '../helpers/backends.js';
import { buildSkinnedCrowd } from '../fixtures/skinned-crowd.js';
import { SEED } from '../fuzz/harness.js';
import { applyMove, moveArbitraries, type MoveOp } from '../helpers/crowd-moves.js';
import { STATEFUL_RUNS } from '../fuzz/stateful-harness.js';
import bvhText from '../../data/pirouette.bvh?raw';

/**
 * Every backend, and where threads can run a SIMD solver on 2 threads that splits the kernel by
 * characters (any call of 32 or more).
 */
const { names: SOLVERS, solvers } = useSolversWithThreads();

/** Runs per solver: a twentieth of the stateful fuzz's (FUZZ_RUNS for a longer run); each builds two crowds and runs 24 frames. */
const RUNS = Math.max(8, Math.round(STATEFUL_RUNS / 20));
const FRAMES = 24;

/** One side of the comparison: a crowd under a moving world group, a moving carrier group, two actions per character, clones. */
interface Side {
  scene: Scene;
  world: Group;
  carrier: Group;
  clip: AnimationClip;
  alt: AnimationClip;
  characters: { group: Group; mesh: SkinnedMesh; mixer: AnimationMixer; actions: [AnimationAction, AnimationAction]; playing: 0 | 1 }[];
  clones: { mesh: SkinnedMesh; mixer: AnimationMixer }[];
}

function side(count: number, seed: number): Side {
  const built = buildSkinnedCrowd(bvhText, count, { seed, spacing: 120 });
  const scene = new Scene();
  const world = new Group();
  const carrier = new Group();
  scene.add(world);
  world.add(carrier);
  const alt = built.clip.clone();
  alt.name = 'alt';
  const characters = built.characters.map((ch) => {
    world.add(ch.group);
    const second = ch.mixer.clipAction(alt);
    return {
      group: ch.group,
      mesh: ch.mesh,
      mixer: ch.mixer,
      actions: [ch.action, second] as [AnimationAction, AnimationAction],
      playing: 0 as 0 | 1,
    };
  });
  return { scene, world, carrier, clip: built.clip, alt, characters, clones: [] };
}

type Op =
  | { kind: 'mixers'; dt: number }
  | { kind: 'crossfade'; character: number; duration: number; time: number }
  | MoveOp
  | { kind: 'sceneUpdate' }
  | { kind: 'subtree'; character: number; depth: number; how: 'updateMatrixWorld' | 'updateWorldMatrix' }
  | { kind: 'worldPosition'; character: number; bone: number }
  | { kind: 'clone'; character: number; time: number }
  | { kind: 'reattach'; mask: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('mixers' as const), dt: fc.constantFrom(1 / 60, 1 / 30, 1 / 144, 0) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('crossfade' as const),
      character: fc.nat(),
      duration: fc.constantFrom(0.1, 0.3, 0),
      time: fc.double({ min: 0, max: 4, noNaN: true }),
    }),
  },
  ...moveArbitraries(fc.nat()),
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('sceneUpdate' as const) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('subtree' as const),
      character: fc.nat(),
      depth: fc.nat({ max: 6 }),
      how: fc.constantFrom('updateMatrixWorld' as const, 'updateWorldMatrix' as const),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('worldPosition' as const), character: fc.nat(), bone: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('clone' as const), character: fc.nat(), time: fc.double({ min: 0, max: 4, noNaN: true }) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('reattach' as const), mask: fc.nat() }) },
);

/** A frame: the ops, and whether the renderer-like pass brings the scene up to date before the batch runs or after. */
const frameArb = fc.record({ ops: fc.array(opArb, { maxLength: 5 }), sceneFirst: fc.boolean() });

/** The object `depth` steps down from a character's group along first children (its group, mesh or a bone). */
function objectAt(s: Side, character: number, depth: number): Object3D {
  let o: Object3D = s.characters[character]!.group;
  for (let d = 0; d < depth && o.children.length > 0; d++) o = o.children[o.children.length - 1]!;
  return o;
}

/** Applies `op` to one side (both sides get the same ops; only the side with the batch has `group` reading it). */
function apply(s: Side, op: Op, group: InertializedMixerGroup | null): void {
  const n = s.characters.length;
  if (op.kind === 'mixers') {
    if (group) group.update(op.dt);
    else for (const ch of s.characters) ch.mixer.update(op.dt);
    for (const c of s.clones) c.mixer.update(op.dt);
  } else if (op.kind === 'crossfade') {
    const ch = s.characters[op.character % n]!;
    const from = ch.actions[ch.playing],
      to = ch.actions[1 - ch.playing]!;
    to.reset().play();
    to.time = op.time;
    if (op.duration > 0) from.crossFadeTo(to, op.duration, false);
    else from.stop();
    ch.playing = ch.playing === 0 ? 1 : 0;
    group?.transition(ch.mixer);
  } else if (op.kind === 'move' || op.kind === 'moveWorld' || op.kind === 'reparent') {
    applyMove(s, op);
  } else if (op.kind === 'sceneUpdate') {
    s.scene.updateMatrixWorld();
  } else if (op.kind === 'subtree') {
    const o = objectAt(s, op.character % n, op.depth);
    if (op.how === 'updateMatrixWorld') o.updateMatrixWorld(true);
    else o.updateWorldMatrix(true, true);
  } else if (op.kind === 'worldPosition') {
    const bones = s.characters[op.character % n]!.mesh.skeleton.bones;
    bones[op.bone % bones.length]!.getWorldPosition(new Vector3());
  } else if (op.kind === 'clone') {
    const mesh = cloneSkinned(s.characters[op.character % n]!.mesh) as SkinnedMesh;
    const holder = new Group();
    holder.position.set(30 * s.clones.length, 0, -40);
    holder.add(mesh);
    s.carrier.add(holder);
    const mixer = new AnimationMixer(mesh);
    mixer.clipAction(s.clip).play().time = op.time;
    // posed at once (with a group source the attached bones keep their own transforms, which the clone copies)
    mixer.update(0);
    s.clones.push({ mesh, mixer });
  }
}

/** What three's renderer does before drawing: the scene's matrices, then every skinned mesh's skeleton.update(). */
function render(s: Side): void {
  s.scene.updateMatrixWorld();
  for (const ch of s.characters) ch.mesh.skeleton.update();
  for (const c of s.clones) c.mesh.skeleton.update();
}

/** The first difference between the two sides' boneMatrices (characters, then clones), or null. */
function firstDifference(ours: Side, theirs: Side): string | null {
  const pairs = [
    ...ours.characters.map((ch, m) => [`mesh ${m}`, ch.mesh, theirs.characters[m]!.mesh] as const),
    ...ours.clones.map((c, k) => [`clone ${k}`, c.mesh, theirs.clones[k]!.mesh] as const),
  ];
  for (const [name, a, b] of pairs) {
    const x = a.skeleton.boneMatrices!,
      y = b.skeleton.boneMatrices!;
    // (an attached skeleton's boneMatrices is its bone texture's data: the matrices, then padding)
    for (let i = 0; i < 16 * a.skeleton.bones.length; i++)
      if (!Object.is(x[i], y[i])) return `${name}, bone ${i >> 4}, element ${i & 15}: ${x[i]} vs three's ${y[i]}`;
  }
  return null;
}

describe.each(SOLVERS)('SkeletonBatch in random app loops on %s', (backend) => {
  it("every frame, every mesh's boneMatrices equal three's alone, bit for bit (and the clones of attached characters theirs)", () => {
    const arb = fc.record({
      count: fc.integer({ min: 1, max: 5 }),
      seed: fc.integer({ min: 1, max: 1000 }),
      useGroup: fc.boolean(),
      boneWorldMatrices: fc.boolean(),
      frames: fc.array(frameArb, { minLength: FRAMES, maxLength: FRAMES }),
    });
    fc.assert(
      fc.property(arb, ({ count, seed, useGroup, boneWorldMatrices, frames }) => {
        const ours = side(count, seed),
          theirs = side(count, seed);
        const solver = solvers[backend]!;
        const groups = useGroup
          ? [ours, theirs].map(
              (s) =>
                new InertializedMixerGroup(
                  solver,
                  s.characters.map((ch) => ch.mixer),
                  { halflife: 0.1 },
                ),
            )
          : null;
        const attach = (mask: number): SkeletonBatch | null => {
          // with a group source every mesh (mixer m animates mesh m); else the characters of the mask (none: detached)
          const meshes = ours.characters.filter((_, m) => groups || (mask >> m) & 1).map((ch) => ch.mesh);
          if (meshes.length === 0) return null;
          return new SkeletonBatch(solver, meshes, { boneWorldMatrices, ...(groups ? { source: groups[0] } : {}) });
        };
        // the groups' pose is float32: both sides show it from the first frame on (test/three/skeleton-batch.test.ts)
        for (const g of groups ?? []) g.update(0);
        let batch = attach(-1);
        try {
          frames.forEach(({ ops, sceneFirst }, f) => {
            for (const op of ops) {
              if (op.kind === 'reattach') {
                batch?.dispose();
                batch = attach(op.mask);
                continue;
              }
              apply(ours, op, groups?.[0] ?? null);
              apply(theirs, op, groups?.[1] ?? null);
            }
            if (sceneFirst) ours.scene.updateMatrixWorld();
            batch?.update();
            render(ours);
            render(theirs);
            expect(firstDifference(ours, theirs), `frame ${f}`).toBeNull();
          });
        } finally {
          batch?.dispose();
          for (const g of groups ?? []) g.dispose();
        }
      }),
      { numRuns: RUNS, seed: SEED + 8000 + SOLVERS.indexOf(backend), endOnFailure: true },
    );
  });
});
