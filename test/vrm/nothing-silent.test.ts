/**
 * spring-solver/vrm refuses what it accepted silently (issue 27, "Nothing silent in the adapters"),
 * on real @pixiv/three-vrm-springbone: a joint run twice (in two managers of one SpringBones, or in
 * two SpringBones), an option that does not exist or does nothing, extra arguments, messages with
 * three-vrm's private field names or unnamed objects as "", use after dispose. Every refusal is a
 * TypeError or RangeError naming the class the user called and the argument, and leaves the managers
 * and bones as they were.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Object3D } from 'three';
import { VRMSpringBoneManager, type VRMSpringBoneJoint } from '@pixiv/three-vrm-springbone';
import { createSolver, type Solver } from '../../dist/index.js';
import { SpringBones, type SpringBoneManager } from '../../dist/vrm/index.js';
import { buildAvatar, type Avatar } from '../fixtures/vrm-avatars.js';
import { construct, expectRefused } from '../helpers/refused.js';

let solver: Solver;
beforeAll(async () => {
  solver = await createSolver({ backend: 'simd' });
});
afterAll(() => solver.dispose());

const fresh = (seed = 61) => buildAvatar({ seed });

/** What a refused call must leave as it was: each manager's methods and every joint bone's transform and matrices. */
function state(avatars: readonly Avatar[], managers: readonly SpringBoneManager[] = avatars.map((a) => a.manager)) {
  return [
    managers.map((m) => [m.update, m.reset, m.setInitState]),
    avatars.map((a) => a.joints.map((j) => [...j.bone.quaternion.toArray(), ...j.bone.matrix.elements, ...j.bone.matrixWorld.elements])),
  ];
}

/** A manager of its own holding one joint of `avatar`'s (three-vrm accepts a joint in two managers). */
function sharing(avatar: Avatar, k: number): SpringBoneManager {
  const manager = new VRMSpringBoneManager();
  manager.addJoint([...avatar.manager.joints][k] as VRMSpringBoneJoint);
  return manager as unknown as SpringBoneManager;
}

describe('a joint run twice is refused', () => {
  it('a joint in two managers of one SpringBones', () => {
    const a = fresh();
    const b = sharing(a, 4);
    const before = state([a], [a.manager, b]);
    expectRefused(
      () => new SpringBones(solver, [a.manager, b]),
      'SpringBones',
      /^SpringBones: managers\[1\]'s joint 0 \(bone "[^"]+"\) is also managers\[0\]'s joint 4 \(bone "[^"]+"\); a joint must belong to one manager/,
      RangeError,
    );
    expect(state([a], [a.manager, b])).toEqual(before);
    const bones = new SpringBones(solver, [a.manager]);
    expectRefused(() => bones.add(b), 'SpringBones', /^SpringBones\.add: manager's joint 0 .* is also managers\[0\]'s joint 4/, RangeError);
    expect(bones.managers).toEqual([a.manager]);
    bones.dispose();
  });

  it('a joint in two SpringBones: refused until its first SpringBones lets it go', () => {
    const a = fresh();
    const b = sharing(a, 2);
    const first = new SpringBones(solver, [a.manager]);
    const before = state([a], [a.manager, b]);
    expectRefused(
      () => new SpringBones(solver, [b]),
      'SpringBones',
      /^SpringBones: managers\[0\]'s joint 0 \(bone "[^"]+"\) is already run by another SpringBones .*; remove that manager there first/,
      RangeError,
    );
    const second = new SpringBones(solver, []);
    expectRefused(
      () => second.add(b),
      'SpringBones',
      /^SpringBones\.add: manager's joint 0 .* is already run by another SpringBones/,
      RangeError,
    );
    expect(state([a], [a.manager, b])).toEqual(before);
    expect(second.managers).toEqual([]);
    first.remove(a.manager);
    second.add(b); // free now
    second.update(1 / 60);
    second.dispose();
    first.dispose();
  });
});

describe('options and arguments', () => {
  it('an option that does not exist, options that are not an object, an option that does nothing without fixedStep', () => {
    const a = fresh();
    const before = state([a]);
    expectRefused(
      () => new SpringBones(solver, [a.manager], { fixedstep: 1 / 60 } as never),
      'SpringBones',
      /^SpringBones: options\.fixedstep is not an option; the options are fixedStep, maxSteps, teleportDistance/,
      TypeError,
    );
    expectRefused(
      () => new SpringBones(solver, [a.manager], [1 / 60] as never),
      'SpringBones',
      /options must be an object, got an Array/,
      TypeError,
    );
    expectRefused(
      () => new SpringBones(solver, [a.manager], { maxSteps: 4 }),
      'SpringBones',
      /^SpringBones: options\.maxSteps is given without options\.fixedStep; it only applies to fixed steps/,
      RangeError,
    );
    expectRefused(
      () => new SpringBones(solver, [a.manager], { teleportDistance: 2 }),
      'SpringBones',
      /options\.teleportDistance is given without options\.fixedStep/,
      RangeError,
    );
    expect(state([a])).toEqual(before);
    new SpringBones(solver, [a.manager], { fixedStep: 1 / 60, maxSteps: 4, teleportDistance: 2 }).dispose();
  });

  it('extra arguments: refused, nothing written', () => {
    const a = fresh(),
      b = fresh(62);
    expectRefused(
      () => construct(SpringBones, solver, [a.manager], {}, 1),
      'SpringBones',
      /^SpringBones: takes 3 arguments \(solver, managers, options\), got 4/,
      TypeError,
    );
    const bones = new SpringBones(solver, [a.manager]);
    a.pose(0.3);
    const before = state([a]);
    expectRefused(
      () => (bones.update as (dt: number, x: number) => void)(1 / 60, 1 / 60),
      'SpringBones',
      /^SpringBones\.update: takes one argument \(dt\), got 2/,
      TypeError,
    );
    expectRefused(
      () => (bones.reset as (x: number) => void)(1),
      'SpringBones',
      /^SpringBones\.reset: takes no arguments, got 1/,
      TypeError,
    );
    expectRefused(
      () => (bones.setInitState as (x: number) => void)(1),
      'SpringBones',
      /^SpringBones\.setInitState: takes no arguments, got 1/,
      TypeError,
    );
    expectRefused(
      () => (bones.refresh as (x: number) => void)(1),
      'SpringBones',
      /^SpringBones\.refresh: takes no arguments, got 1/,
      TypeError,
    );
    expectRefused(
      () => (bones.add as (m: SpringBoneManager, x: SpringBoneManager) => void)(b.manager, a.manager),
      'SpringBones',
      /^SpringBones\.add: takes one argument \(manager\), got 2/,
      TypeError,
    );
    expectRefused(
      () => (bones.remove as (m: SpringBoneManager, x: number) => void)(a.manager, 1),
      'SpringBones',
      /^SpringBones\.remove: takes one argument \(manager\), got 2/,
      TypeError,
    );
    expect(state([a])).toEqual(before);
    expect(bones.managers).toEqual([a.manager]);
    bones.update(1 / 60);
    expect(state([a])).not.toEqual(before);
    bones.dispose();
  });
});

describe('messages name what the user called and gave', () => {
  it("no three-vrm private names: setInitState's state, a joint that is not three-vrm's", () => {
    const a = fresh();
    const joint = [...a.manager.joints][3] as unknown as { _initialLocalRotation: { x: number } };
    joint._initialLocalRotation.x = Number.NaN;
    expectRefused(
      () => new SpringBones(solver, [a.manager]),
      'SpringBones',
      /^SpringBones: managers\[0\]'s joint 3 \(bone "[^"]+"\): setInitState's local rotation\.x is NaN; it must be finite/,
      RangeError,
    );
    const b = fresh(62);
    const plain = { ...[...b.manager.joints][0]! } as Record<string, unknown>;
    for (const key of Object.keys(plain)) if (key.startsWith('_')) delete plain[key];
    const manager = { joints: new Set([plain]), update() {}, reset() {}, setInitState() {} } as unknown as SpringBoneManager;
    expectRefused(
      () => new SpringBones(solver, [manager]),
      'SpringBones',
      /^SpringBones: managers\[0\]'s joint 0 \(bone "[^"]+"\): is not a VRMSpringBoneJoint of @pixiv\/three-vrm-springbone 3\.5/,
      TypeError,
    );
    expectRefused(
      () => new SpringBones(solver, [{ joints: new Set([null]), update() {} } as unknown as SpringBoneManager]),
      'SpringBones',
      /^SpringBones: managers\[0\]'s joint 0 must be a VRMSpringBoneJoint, got null/,
      TypeError,
    );
  });

  it('unnamed objects are described by their path, never as ""; errors of a re-layout name the method called', () => {
    const a = fresh();
    const bones = new SpringBones(solver, [a.manager]);
    try {
      a.pose(0);
      bones.update(1 / 60);
      // an unnamed object between two joint bones, whose matrixWorld three-vrm would leave stale
      const joints = [...a.manager.joints];
      const upper = joints.find((j) => joints.some((k) => k.bone.parent === j.bone))!;
      const lower = joints.find((k) => k.bone.parent === upper.bone)!;
      const link = new Object3D();
      upper.bone.add(link);
      link.add(lower.bone);
      link.matrixWorldAutoUpdate = false;
      const before = state([a]);
      const message = expectRefused(
        () => bones.update(1 / 60),
        'SpringBones',
        /^SpringBones\.update: the joint bone "[^"]+" > children\[\d+\] \(below a spring joint's bone\) has matrixAutoUpdate false/,
        RangeError,
      );
      expect(message).toContain(`the joint bone ${JSON.stringify(upper.bone.name)} > children[${upper.bone.children.indexOf(link)}]`);
      expect(state([a])).toEqual(before);
      link.matrixWorldAutoUpdate = true;
      bones.update(1 / 60);
      // an unnamed joint bone with matrixWorldAutoUpdate false: named by its manager and joint
      const k = joints.indexOf(lower);
      lower.bone.name = '';
      lower.bone.matrixWorldAutoUpdate = false;
      expectRefused(
        () => bones.update(1 / 60),
        'SpringBones',
        new RegExp(`^SpringBones\\.update: the joint bone managers\\[0\\]'s joint ${k}'s bone has matrixWorldAutoUpdate false`),
        RangeError,
      );
      lower.bone.matrixWorldAutoUpdate = true;
    } finally {
      bones.dispose();
    }
  });

  it('use after dispose, and after solver.dispose(), names SpringBones and the method', async () => {
    const a = fresh(),
      b = fresh(62);
    const bones = new SpringBones(solver, [a.manager]);
    bones.dispose();
    expectRefused(() => bones.add(b.manager), 'SpringBones', /^SpringBones\.add: this SpringBones was disposed/, TypeError);
    expectRefused(() => bones.refresh(), 'SpringBones', /^SpringBones\.refresh: this SpringBones was disposed/, TypeError);
    expectRefused(() => bones.setInitState(), 'SpringBones', /^SpringBones\.setInitState: this SpringBones was disposed/, TypeError);
    const own = await createSolver({ backend: 'js' });
    const live = new SpringBones(own, [b.manager]);
    own.dispose();
    expectRefused(() => live.update(1 / 60), 'SpringBones', /^SpringBones\.update: this solver has been disposed/, TypeError);
    expectRefused(() => live.remove(b.manager), 'SpringBones', /^SpringBones\.remove: this solver has been disposed/, TypeError);
    live.dispose();
    expect(b.manager.update).toBe(VRMSpringBoneManager.prototype.update); // given back
  });
});
