/**
 * Property-based fuzzing of spring-solver/vrm's SpringBones on real @pixiv/three-vrm-springbone
 * (fast-check, seeded; FUZZ_RUNS for a longer run, FUZZ_SEED for another seed): random constructor
 * arguments (good ones, bad ones, managers attached elsewhere or sharing a joint with one, options
 * that do not exist or do nothing, extra arguments) and random sequences of calls. Every call either
 * succeeds or throws a TypeError or RangeError whose message starts with SpringBones and names the
 * argument (and no private field); a call that throws writes nothing (the managers' methods, the
 * joint bones and the joints' state are as they were); an accepted update from finite input writes
 * no NaN or infinity.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { VRMSpringBoneManager, type VRMSpringBoneJoint } from '@pixiv/three-vrm-springbone';
import { SpringBones, type SpringBoneManager } from '../../dist/vrm/index.js';
import { buildAvatar, type Avatar } from '../fixtures/vrm-avatars.js';
import { adapterParams, attempt, dtArb, extraArb, mostly, solverArb, useAdapterSolvers, type SolverKind } from './adapters-harness.js';

const solvers = useAdapterSolvers();

type ManagersKind = 'ok' | 'duplicate' | 'held' | 'sharedJoint' | 'notManager' | 'none';
type AddKind = 'fresh' | 'attached' | 'sharedJoint' | 'notManager';
type VrmOp =
  | { kind: 'update'; dt: unknown; extra: number; t: number }
  | { kind: 'add'; which: AddKind; extra: number }
  | { kind: 'remove'; which: number; extra: number }
  | { kind: 'reset' | 'setInitState' | 'refresh'; extra: number }
  | { kind: 'badSetting'; joint: number }
  | { kind: 'dispose' };
const opArb: fc.Arbitrary<VrmOp> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('update' as const),
      dt: dtArb,
      extra: extraArb,
      t: fc.double({ min: 0, max: 5, noNaN: true }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('add' as const),
      which: fc.constantFrom<AddKind>('fresh', 'attached', 'sharedJoint', 'notManager'),
      extra: extraArb,
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('remove' as const), which: fc.nat(), extra: extraArb }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constantFrom('reset' as const, 'setInitState' as const, 'refresh' as const), extra: extraArb }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('badSetting' as const), joint: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('dispose' as const) }) },
);
const optionsArb = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom<unknown>(undefined, null, 'fixed', [1 / 60], { fixedstep: 1 / 60 }, { maxSteps: 4 }) },
  {
    weight: 6,
    arbitrary: fc.record(
      {
        fixedStep: mostly([1 / 60, 1 / 120, 0.05], [0, -1, Number.NaN, Number.POSITIVE_INFINITY, '1/60']),
        maxSteps: mostly([8, 1, 3], [0, 1.5, 1e9, Number.NaN]),
        teleportDistance: mostly([1, 0.5, Number.POSITIVE_INFINITY], [0, -1, Number.NaN]),
      },
      { requiredKeys: [] },
    ),
  },
);

/** A manager of its own holding one joint of `avatar`'s (three-vrm accepts a joint in two managers). */
function sharing(avatar: Avatar): SpringBoneManager {
  const manager = new VRMSpringBoneManager();
  manager.addJoint([...avatar.manager.joints][1] as VRMSpringBoneJoint);
  return manager as unknown as SpringBoneManager;
}

/** Every joint's bone transform and matrices and its tails (three-vrm's own state), finite or not. */
function bonesOf(avatars: readonly Avatar[]): number[] {
  return avatars.flatMap((a) =>
    a.joints.flatMap((j) => {
      const internals = j as unknown as {
        _currentTail: { x: number; y: number; z: number };
        _prevTail: { x: number; y: number; z: number };
      };
      const t = internals._currentTail,
        p = internals._prevTail;
      return [...j.bone.quaternion.toArray(), ...j.bone.matrixWorld.elements, t.x, t.y, t.z, p.x, p.y, p.z];
    }),
  );
}

describe('SpringBones', () => {
  it('random constructor arguments and calls: success, or a TypeError/RangeError naming SpringBones and the argument; nothing written on error; no NaN', () => {
    const arb = fc.record({
      solver: solverArb,
      count: fc.integer({ min: 1, max: 3 }),
      managers: fc.constantFrom<ManagersKind>('ok', 'ok', 'ok', 'duplicate', 'held', 'sharedJoint', 'notManager', 'none'),
      options: optionsArb,
      extra: extraArb,
      seed: fc.integer({ min: 1, max: 1000 }),
      ops: fc.array(opArb, { maxLength: 10 }),
    });
    fc.assert(fc.property(arb, run), adapterParams(9000, 0));
  });
});

function run(c: {
  solver: SolverKind;
  count: number;
  managers: ManagersKind;
  options: unknown;
  extra: number;
  seed: number;
  ops: VrmOp[];
}): void {
  const avatars = Array.from({ length: c.count }, (_, i) => buildAvatar({ seed: c.seed + i }));
  const extras: Avatar[] = [];
  const others: SpringBones[] = [];
  const managers = avatars.map((a) => a.manager);
  const all = () => [...avatars, ...extras];
  /** Everything a call may write: each manager's methods, and every joint's bone and state. */
  const state = () => [all().map((a) => [a.manager.update, a.manager.reset, a.manager.setInitState]), bonesOf(all())];
  try {
    let given: unknown = managers;
    if (c.managers === 'duplicate') given = [...managers, managers[0]];
    if (c.managers === 'held') others.push(new SpringBones(solvers.js, [managers[0]!]));
    if (c.managers === 'sharedJoint') given = [...managers, sharing(avatars[0]!)];
    if (c.managers === 'notManager') given = [...managers, { joints: [] }];
    if (c.managers === 'none') given = managers[0];
    let bones: SpringBones | null = null;
    const args = [solvers[c.solver], given, c.options, ...Array(c.extra).fill(c.options)];
    const accepted = attempt(
      'constructor',
      'SpringBones',
      ['solver', 'managers', 'options', 'arguments'],
      () => {
        bones = new (SpringBones as unknown as new (...a: unknown[]) => SpringBones)(...args);
      },
      state,
    );
    if (c.managers !== 'ok' || c.solver === 'disposed' || c.solver === 'none' || c.extra > 0)
      expect(accepted, `${c.managers} managers on ${c.solver} with ${c.extra} extra arguments accepted`).toBe(false);
    if (bones) runOps(bones, c.ops, avatars, extras, others, state);
    (bones as SpringBones | null)?.dispose();
  } finally {
    for (const other of others) other.dispose();
  }
}

function runOps(bones: SpringBones, ops: VrmOp[], avatars: Avatar[], extras: Avatar[], others: SpringBones[], state: () => unknown): void {
  let disposed = false;
  const cls = 'SpringBones';
  const call = (name: string, args: unknown[]) => () =>
    (bones as unknown as Record<string, (...a: unknown[]) => void>)[name]!.call(bones, ...args);
  ops.forEach((op, k) => {
    const label = `op ${k} ${JSON.stringify(op)}`;
    let ok = true;
    if (op.kind === 'update') {
      for (const a of [...avatars, ...extras]) a.pose(op.t);
      ok = attempt(
        label,
        cls,
        ['dt', 'solver', 'disposed', 'arguments', 'managers'],
        call('update', [op.dt, ...Array(op.extra).fill(0)]),
        state,
      );
      if (ok) expect(bonesOf([...avatars, ...extras]).every(Number.isFinite), `${label}: NaN or infinity from finite input`).toBe(true);
      if (op.extra > 0) expect(ok, `${label}: accepted with an extra argument`).toBe(false);
    } else if (op.kind === 'add') {
      const avatar = buildAvatar({ seed: 500 + extras.length });
      let manager: unknown = avatar.manager;
      if (op.which === 'attached') manager = bones.managers[0] ?? avatar.manager;
      if (op.which === 'sharedJoint') {
        others.push(new SpringBones(solvers.js, [avatar.manager]));
        manager = sharing(avatar);
      }
      if (op.which === 'notManager') manager = avatar.root;
      extras.push(avatar);
      ok = attempt(
        label,
        cls,
        ['manager', 'disposed', 'solver', 'arguments'],
        call('add', [manager, ...Array(op.extra).fill(manager)]),
        state,
      );
      if (op.which !== 'fresh' || op.extra > 0) expect(ok, `${label}: accepted`).toBe(false);
    } else if (op.kind === 'remove') {
      const list = bones.managers;
      const manager = list.length > 0 ? list[op.which % list.length] : avatars[0]!.manager;
      ok = attempt(
        label,
        cls,
        ['manager', 'disposed', 'solver', 'arguments'],
        call('remove', [manager, ...Array(op.extra).fill(0)]),
        state,
      );
    } else if (op.kind === 'badSetting') {
      // a joint's stiffness set to −1: refresh is refused, naming the manager and joint, and the SpringBones runs on as before
      const list = bones.managers;
      if (list.length === 0 || disposed) return;
      const joints = [...list[op.joint % list.length]!.joints];
      const joint = joints[op.joint % joints.length]!;
      const settings = joint.settings;
      joint.settings = { ...settings, stiffness: -1 };
      ok = attempt(label, cls, ['managers', 'disposed', 'solver'], call('refresh', []), state);
      joint.settings = settings;
      expect(ok, `${label}: a stiffness of −1 accepted`).toBe(false);
    } else if (op.kind === 'dispose') {
      bones.dispose();
      disposed = true;
      return;
    } else {
      ok = attempt(label, cls, ['disposed', 'solver', 'arguments', 'managers'], call(op.kind, Array(op.extra).fill(0)), state);
      if (op.extra > 0) expect(ok, `${label}: accepted with an extra argument`).toBe(false);
    }
    if (disposed) expect(ok, `${label}: accepted after dispose`).toBe(false);
  });
}
