/**
 * Property-based fuzzing of spring-solver/three's classes (InstancedSprings, AttributeSprings,
 * InertializedMixerGroup, InertializedMixer, SkeletonBatch) on real three.js (fast-check, seeded;
 * FUZZ_RUNS for a longer run, FUZZ_SEED for another seed): random constructor arguments (good ones,
 * bad ones, objects of another solver or already attached) and random sequences of calls. Every call
 * either succeeds or throws a TypeError or RangeError whose message starts with the class the user
 * called and names the argument; a call that throws writes nothing (the three.js objects and the
 * arrays it owns are as they were); an accepted update from finite input writes no NaN or infinity.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  AnimationMixer,
  BoxGeometry,
  BufferAttribute,
  InstancedMesh,
  InterleavedBuffer,
  InterleavedBufferAttribute,
  MeshBasicMaterial,
  type SkinnedMesh,
} from 'three';
import type { Solver } from '../../dist/index.js';
import { AttributeSprings, InertializedMixer, InertializedMixerGroup, InstancedSprings, SkeletonBatch } from '../../dist/three/index.js';
import { buildSkinnedCrowd } from '../fixtures/skinned-crowd.js';
import bvhText from '../../data/pirouette.bvh?raw';
import {
  adapterParams,
  allFinite,
  attempt,
  dtArb,
  extraArb,
  floats,
  mostly,
  solverArb,
  useAdapterSolvers,
  type SolverKind,
} from './adapters-harness.js';

const solvers = useAdapterSolvers();
const otherOf = (kind: SolverKind): Solver => (kind === 'simd' ? solvers.js : solvers.simd);
const params = (offset: number) => adapterParams(7000, offset);
/** Halflives (s). */
const halflifeArb = mostly([0.25, 0.1, 0, 1e-3, 5], [1e300, -1, -0, Number.NaN, Number.POSITIVE_INFINITY, '0.3', null]);

// ---------------------------------------------------------------------------------------------
// InstancedSprings and AttributeSprings

type SpringsOp =
  | { kind: 'update'; dt: unknown; extra: number }
  | { kind: 'halflife'; value: unknown }
  | { kind: 'goals'; values: number[] }
  | { kind: 'dispose' };
const springsOpArb: fc.Arbitrary<SpringsOp> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('update' as const), dt: dtArb, extra: extraArb }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('halflife' as const), value: halflifeArb }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('goals' as const),
      values: fc.array(fc.double({ min: -1e3, max: 1e3, noNaN: true }), { maxLength: 8 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('dispose' as const) }) },
);
/** Options that are an instance of a class (not a plain object): refused, whatever their fields. */
class NotPlain {
  halflife = 0.3;
}
const optionsArb = (keys: Record<string, fc.Arbitrary<unknown>>) =>
  fc.oneof(
    { weight: 1, arbitrary: fc.constantFrom<unknown>(undefined, null, 'fast', [0.3], { halfLife: 0.3 }, new NotPlain()) },
    { weight: 6, arbitrary: fc.record(keys, { requiredKeys: [] }) },
  );

/** Runs the ops of a springs object (InstancedSprings or AttributeSprings) whose written state is `state()`. */
function runSpringsOps(
  cls: string,
  springs: { update(dt: number): void; halflife: number; goals: Float32Array; dispose(): void },
  ops: SpringsOp[],
  state: () => unknown,
  outputs: () => Float32Array,
): void {
  let disposed = false;
  ops.forEach((op, k) => {
    const label = `${cls} op ${k} ${JSON.stringify(op)}`;
    if (op.kind === 'update') {
      const update = springs.update as (...args: unknown[]) => void;
      const ok = attempt(
        label,
        cls,
        ['dt', 'solver', 'disposed'],
        () => update.call(springs, op.dt, ...Array(op.extra).fill(op.dt)),
        state,
      );
      if (ok) expect(allFinite(outputs()), `${label}: NaN or infinity from finite input`).toBe(true);
      if (disposed || op.extra > 0) expect(ok, `${label}: accepted after dispose or with an extra argument`).toBe(false);
    } else if (op.kind === 'halflife') {
      const before = springs.halflife;
      const ok = attempt(label, cls, ['halflife', 'disposed'], () => (springs.halflife = op.value as number), state);
      expect(springs.halflife, label).toBe(ok ? op.value : before);
      if (disposed) expect(ok, `${label}: accepted after dispose`).toBe(false);
    } else if (op.kind === 'goals') {
      if (!disposed) springs.goals.set(op.values.slice(0, springs.goals.length).map(Math.fround));
    } else {
      springs.dispose();
      disposed = true;
    }
  });
  springs.dispose();
}

describe('InstancedSprings', () => {
  it('random constructor arguments and calls: success, or a TypeError/RangeError naming the class and the argument; nothing written on error; no NaN', () => {
    const arb = fc.record({
      solver: solverArb,
      mesh: fc.constantFrom('fresh', 'fresh', 'fresh', 'held', 'none'),
      count: fc.integer({ min: 0, max: 9 }),
      options: optionsArb({
        halflife: halflifeArb,
        rotation: fc.constantFrom<unknown>(true, false, 'yes'),
        scale: fc.constantFrom<unknown>(true, false, 0),
      }),
      ops: fc.array(springsOpArb, { maxLength: 8 }),
    });
    fc.assert(
      fc.property(arb, ({ solver, mesh: kind, count, options, ops }) => {
        const mesh = new InstancedMesh(new BoxGeometry(), new MeshBasicMaterial(), count);
        for (let i = 0; i < count; i++) mesh.instanceMatrix.array.set([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, i, -i, 2 * i, 1], 16 * i);
        // held: attached to a live InstancedSprings of another solver
        const holder = kind === 'held' ? new InstancedSprings(otherOf(solver), mesh) : null;
        const given = kind === 'none' ? ({} as InstancedMesh) : mesh;
        const state = () => [mesh.instanceMatrix, floats(mesh.instanceMatrix.array)];
        let springs: InstancedSprings<boolean, boolean> | null = null;
        const ok = attempt(
          'constructor',
          'InstancedSprings',
          ['solver', 'mesh', 'options'],
          () => {
            springs = new InstancedSprings(solvers[solver], given, options as never);
          },
          state,
        );
        if (kind !== 'fresh' || solver === 'disposed' || solver === 'none')
          expect(ok, `${kind} mesh, ${solver} solver accepted`).toBe(false);
        if (springs) {
          const s = springs as InstancedSprings<boolean, boolean>;
          const owned = () => [s.matrices, s.velocities, s.rotations, s.angularVelocities, s.scales, s.scaleVelocities].map(floats);
          runSpringsOps('InstancedSprings', s, ops, owned, () => s.matrices);
        }
        holder?.dispose();
      }),
      params(0),
    );
  });
});

describe('AttributeSprings', () => {
  it('random constructor arguments and calls: success, or a TypeError/RangeError naming the class and the argument; nothing written on error; no NaN', () => {
    const arb = fc.record({
      solver: solverArb,
      attribute: fc.constantFrom(
        'alloc',
        'alloc',
        'plain',
        'foreign',
        'interleaved',
        'past-the-end',
        'normalized',
        'held',
        'overlapping',
        'none',
      ),
      count: fc.integer({ min: 0, max: 6 }),
      options: optionsArb({ halflife: halflifeArb, scale: fc.constant(true) }),
      ops: fc.array(springsOpArb, { maxLength: 8 }),
    });
    fc.assert(
      fc.property(arb, ({ solver, attribute: kind, count, options, ops }) => {
        const live = solver === 'simd' || solver === 'js' ? solvers[solver] : solvers.js;
        const memory = kind === 'foreign' ? otherOf(solver) : live;
        const array = kind === 'plain' ? new Float32Array(24 * count + 24) : memory.alloc(24 * count + 24);
        array.forEach((_, i) => (array[i] = Math.fround(Math.sin(i) * 10)));
        const attribute =
          kind === 'interleaved'
            ? new InterleavedBufferAttribute(new InterleavedBuffer(array, 8), 3, 4)
            : kind === 'past-the-end'
              ? new InterleavedBufferAttribute(new InterleavedBuffer(array, 8), 3, 6)
              : new BufferAttribute(array, 3, kind === 'normalized');
        // held: the attribute is sprung already; overlapping: another attribute over the same floats is
        const holder =
          kind === 'held'
            ? new AttributeSprings(live, attribute)
            : kind === 'overlapping'
              ? new AttributeSprings(live, new BufferAttribute(array.subarray(3), 3))
              : null;
        const state = () => floats(array);
        let springs: AttributeSprings | null = null;
        const ok = attempt(
          'constructor',
          'AttributeSprings',
          ['solver', 'attribute', 'options'],
          () => {
            springs = new AttributeSprings(solvers[solver], kind === 'none' ? (null as never) : attribute, options as never);
          },
          state,
        );
        if (['held', 'overlapping', 'none', 'normalized', 'past-the-end'].includes(kind) || solver === 'disposed' || solver === 'none')
          expect(ok, `${kind} attribute, ${solver} solver accepted`).toBe(false);
        if (springs) {
          const s = springs as AttributeSprings;
          runSpringsOps(
            'AttributeSprings',
            s,
            ops,
            () => [floats(array), floats(s.velocities)],
            () => array,
          );
        }
        holder?.dispose();
        if (kind !== 'plain') memory.free(array);
      }),
      params(1),
    );
  });
});

// ---------------------------------------------------------------------------------------------
// InertializedMixerGroup, InertializedMixer, SkeletonBatch

type CrowdOp =
  | { kind: 'groupUpdate'; dt: unknown; extra: number }
  | { kind: 'transition'; which: 'all' | 'one' | 'foreign' | 'list' }
  | { kind: 'jump'; character: number; time: number }
  | { kind: 'batchUpdate'; extra: number }
  | { kind: 'refresh' }
  | { kind: 'nanBone'; character: number; bone: number }
  | { kind: 'disposeGroup' }
  | { kind: 'disposeBatch' };
const crowdOpArb: fc.Arbitrary<CrowdOp> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('groupUpdate' as const), dt: dtArb, extra: extraArb }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('transition' as const), which: fc.constantFrom('all', 'one', 'foreign', 'list') }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('jump' as const), character: fc.nat(), time: fc.double({ min: 0, max: 4.9, noNaN: true }) }),
  },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('batchUpdate' as const), extra: extraArb }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('refresh' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('nanBone' as const), character: fc.nat(), bone: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('disposeGroup' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('disposeBatch' as const) }) },
);

type MixersKind = 'ok' | 'reversed' | 'duplicate' | 'mesh' | 'held' | 'twin' | 'empty' | 'none';
type MeshesKind = 'ok' | 'duplicate' | 'sharedSkeleton' | 'held' | 'empty' | 'none';
type SourceKind = 'absent' | 'objects' | 'group' | 'otherSolverGroup' | 'disposedGroup' | 'bones';

describe('InertializedMixerGroup, InertializedMixer and SkeletonBatch', () => {
  it('random constructor arguments and calls: success, or a TypeError/RangeError naming the class and the argument; nothing written on error; no NaN', () => {
    const arb = fc.record({
      count: fc.integer({ min: 1, max: 3 }),
      single: fc.boolean(),
      groupSolver: solverArb,
      mixers: fc.constantFrom<MixersKind>('ok', 'ok', 'ok', 'reversed', 'duplicate', 'mesh', 'held', 'twin', 'empty', 'none'),
      groupOptions: optionsArb({ halflife: halflifeArb, root: mostly(['hip'], ['nope', 3]) }),
      batchSolver: solverArb,
      meshes: fc.constantFrom<MeshesKind>('ok', 'ok', 'ok', 'duplicate', 'sharedSkeleton', 'held', 'empty', 'none'),
      source: fc.constantFrom<SourceKind>('absent', 'objects', 'group', 'group', 'otherSolverGroup', 'disposedGroup', 'bones'),
      boneWorldMatrices: mostly([undefined, true, false], ['yes']),
      ops: fc.array(crowdOpArb, { maxLength: 10 }),
    });
    fc.assert(fc.property(arb, runCrowd), params(2));
  });
});

function runCrowd(c: {
  count: number;
  single: boolean;
  groupSolver: SolverKind;
  mixers: MixersKind;
  groupOptions: unknown;
  batchSolver: SolverKind;
  meshes: MeshesKind;
  source: SourceKind;
  boneWorldMatrices: unknown;
  ops: CrowdOp[];
}): void {
  const crowd = buildSkinnedCrowd(bvhText, c.count, { seed: 3 });
  const characters = crowd.characters;
  const meshes = characters.map((ch) => ch.mesh);
  const mixers = characters.map((ch) => ch.mixer);
  for (const mixer of mixers) mixer.update(0);
  const held: { dispose(): void }[] = [];
  /** Everything a call may write: each bone's transform and matrices, the skeletons' matrices, the actions' times. */
  const state = () => [
    meshes.map((mesh) => [
      mesh.skeleton.boneMatrices,
      floats(mesh.skeleton.boneMatrices),
      mesh.skeleton.bones.map((b) => [...b.position.toArray(), ...b.quaternion.toArray(), ...b.scale.toArray(), ...b.matrixWorld.elements]),
    ]),
    characters.map((ch) => ch.action.time),
  ];
  try {
    // the group (or single mixer)
    const groupSolver = solvers[c.groupSolver];
    let given: unknown = mixers;
    if (c.mixers === 'reversed') given = [...mixers].reverse();
    if (c.mixers === 'duplicate') given = [...mixers, mixers[0]];
    if (c.mixers === 'mesh') given = [meshes[0], ...mixers.slice(1)];
    if (c.mixers === 'held') held.push(new InertializedMixerGroup(otherOf(c.groupSolver), [mixers[0]!], { halflife: 0.1 }));
    if (c.mixers === 'twin') {
      // another mixer on mesh 0, in a group: it animates the bones mixers[0] animates
      const twin = new AnimationMixer(meshes[0]!);
      twin.clipAction(crowd.clip).play();
      held.push(new InertializedMixerGroup(otherOf(c.groupSolver), [twin], { halflife: 0.1 }));
    }
    if (c.mixers === 'empty') given = [];
    if (c.mixers === 'none') given = undefined;
    const cls = c.single ? 'InertializedMixer' : 'InertializedMixerGroup';
    let group: InertializedMixerGroup | null = null;
    let single: InertializedMixer | null = null;
    const accepted = attempt(
      'group constructor',
      cls,
      ['solver', 'mixers', 'mixer', 'options'],
      () => {
        if (c.single)
          single = new InertializedMixer(groupSolver, (Array.isArray(given) ? given[0] : given) as AnimationMixer, c.groupOptions as never);
        else group = new InertializedMixerGroup(groupSolver, given as AnimationMixer[], c.groupOptions as never);
      },
      state,
    );
    if (c.mixers === 'held' || c.mixers === 'twin' || c.mixers === 'mesh' || c.groupSolver === 'disposed' || c.groupSolver === 'none')
      expect(accepted, `${cls} of ${c.mixers} mixers on ${c.groupSolver} accepted`).toBe(false);
    const driver = (single ?? group) as InertializedMixer | InertializedMixerGroup | null;
    // the batch
    const batchSolver = solvers[c.batchSolver];
    let givenMeshes: unknown = meshes;
    if (c.meshes === 'duplicate') givenMeshes = [...meshes, meshes[0]];
    if (c.meshes === 'sharedSkeleton') {
      const twin = meshes[0]!.clone();
      twin.bind(meshes[0]!.skeleton, meshes[0]!.bindMatrix);
      givenMeshes = [...meshes, twin];
    }
    if (c.meshes === 'held') held.push(new SkeletonBatch(otherOf(c.batchSolver), [meshes[0]!]));
    if (c.meshes === 'empty') givenMeshes = [];
    if (c.meshes === 'none') givenMeshes = null;
    let source: unknown;
    if (c.source === 'objects') source = 'objects';
    if (c.source === 'group') source = group ?? undefined;
    if (c.source === 'otherSolverGroup' || c.source === 'disposedGroup') {
      const live = c.batchSolver === 'simd' ? solvers.js : solvers.simd;
      const fresh = buildSkinnedCrowd(bvhText, c.count, { seed: 4 });
      const other = new InertializedMixerGroup(
        live,
        fresh.characters.map((ch) => ch.mixer),
        { halflife: 0.1 },
      );
      held.push(other);
      if (c.source === 'disposedGroup') other.dispose();
      source = other;
    }
    if (c.source === 'bones') source = 'bones';
    const batchOptions: Record<string, unknown> = {};
    if (c.source !== 'absent') batchOptions.source = source;
    if (c.boneWorldMatrices !== undefined) batchOptions.boneWorldMatrices = c.boneWorldMatrices;
    let batch: SkeletonBatch | null = null;
    const batchAccepted = attempt(
      'batch constructor',
      'SkeletonBatch',
      ['solver', 'meshes', 'options'],
      () => {
        batch = new SkeletonBatch(batchSolver, givenMeshes as SkinnedMesh[], batchOptions);
      },
      state,
    );
    if (
      c.meshes !== 'ok' ||
      c.batchSolver === 'disposed' ||
      c.batchSolver === 'none' ||
      ['otherSolverGroup', 'disposedGroup', 'bones'].includes(c.source)
    )
      expect(batchAccepted, `batch of ${c.meshes} meshes on ${c.batchSolver}, source ${c.source} accepted`).toBe(false);
    runCrowdOps(c.ops, characters, meshes, mixers, driver, cls, batch, state);
    (batch as SkeletonBatch | null)?.dispose();
    driver?.dispose();
  } finally {
    for (const h of held) h.dispose();
  }
}

function runCrowdOps(
  ops: CrowdOp[],
  characters: ReturnType<typeof buildSkinnedCrowd>['characters'],
  meshes: SkinnedMesh[],
  mixers: AnimationMixer[],
  driver: InertializedMixer | InertializedMixerGroup | null,
  cls: string,
  batch: SkeletonBatch | null,
  state: () => unknown,
): void {
  const bonesFinite = () =>
    meshes.every((mesh) => mesh.skeleton.bones.every((b) => [...b.position.toArray(), ...b.quaternion.toArray()].every(Number.isFinite)));
  ops.forEach((op, k) => {
    const label = `op ${k} ${JSON.stringify(op)}`;
    if (op.kind === 'groupUpdate' && driver) {
      const update = driver.update as (...args: unknown[]) => void;
      const ok = attempt(label, cls, ['dt', 'solver', 'disposed'], () => update.call(driver, op.dt, ...Array(op.extra).fill(0)), state);
      if (ok) expect(bonesFinite(), `${label}: NaN from finite input`).toBe(true);
      if (op.extra > 0) expect(ok, `${label}: accepted with an extra argument`).toBe(false);
    } else if (op.kind === 'transition' && driver) {
      let call = () => driver.transition();
      if (driver instanceof InertializedMixerGroup) {
        const group = driver;
        if (op.which === 'one') call = () => group.transition(group.mixers[0]);
        if (op.which === 'foreign') call = () => group.transition(new AnimationMixer(meshes[0]!));
        if (op.which === 'list') call = () => group.transition([...group.mixers]);
      }
      const ok = attempt(label, cls, ['which', 'solver', 'disposed'], call, () => null);
      if (ok) expect(bonesFinite(), `${label}: NaN from finite input`).toBe(true);
    } else if (op.kind === 'jump') {
      const ch = characters[op.character % characters.length]!;
      ch.action.time = op.time;
    } else if (op.kind === 'batchUpdate' && batch) {
      const update = batch.update as (...args: unknown[]) => void;
      const ok = attempt(
        label,
        'SkeletonBatch',
        ['meshes', 'solver', 'disposed', 'options.source', 'arguments'],
        () => update.call(batch, ...Array(op.extra).fill(1 / 60)),
        state,
      );
      if (op.extra > 0) expect(ok, `${label}: accepted with an argument`).toBe(false);
      if (ok) for (const mesh of meshes) expect(allFinite(mesh.skeleton.boneMatrices!), `${label}: NaN from finite input`).toBe(true);
    } else if (op.kind === 'refresh' && batch) {
      attempt(label, 'SkeletonBatch', ['meshes', 'solver', 'disposed'], () => batch.refresh(), state);
    } else if (op.kind === 'nanBone' && batch) {
      const mesh = meshes[op.character % meshes.length]!;
      const bone = mesh.skeleton.bones[op.bone % mesh.skeleton.bones.length]!;
      const x = bone.position.x;
      bone.position.x = Number.NaN;
      // a NaN bone: refused by the objects source (which reads it), naming the mesh; the group source does not read it
      attempt(label, 'SkeletonBatch', ['meshes', 'solver', 'disposed'], () => batch.update(), state);
      bone.position.x = x;
    } else if (op.kind === 'disposeGroup') {
      driver?.dispose();
    } else if (op.kind === 'disposeBatch') {
      batch?.dispose();
    }
  });
  void mixers;
}
