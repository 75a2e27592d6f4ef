/**
 * SpringBones (spring-solver/vrm) against real @pixiv/three-vrm-springbone 3.5 on the procedural
 * avatars of test/fixtures/vrm-avatars.js (hair, skirts, tails, chest and arm ribbons, a branch,
 * child-less ends, half the chains in a moving center, every collider kind; roots walking,
 * turning, bobbing and teleporting). Each avatar has a twin with the same seed run by three-vrm's
 * own manager.update, posed identically. The kernel performs three-vrm's float64 operations in
 * its order (src/reference/spring-bones.ts), so the results are compared for equality: every
 * joint's quaternion, matrix and matrixWorld, and the matrixWorld of the joints' other
 * descendants, on every backend; rotation too (the kernel's Euler angles use the engine's own asin/atan2).
 * (The issue's own bound is 2e-3 rad at the 99th percentile.)
 */
import { describe, expect, it, vi } from 'vitest';
import type { Object3D } from 'three';
import type { VRMSpringBoneJoint } from '@pixiv/three-vrm-springbone';
import { SpringBones } from '../../dist/vrm/index.js';
import { BACKENDS, useSolvers } from '../helpers/backends.js';
import { buildAvatar, type Avatar } from '../fixtures/vrm-avatars.js';

const solvers = useSolvers();
const SEEDS = [11, 12, 13];

/** A frame's dt: 1/60 for the first 300 frames, then varying in [1/144, 1/30]. */
function frameDt(f: number): number {
  if (f < 300) return 1 / 60;
  const u = ((f * 7919) % 1000) / 1000;
  return 1 / 144 + u * (1 / 30 - 1 / 144);
}

/** Joint bones and the non-joint objects below them (three-vrm keeps those current), in a fixed order. */
function outputs(avatar: Avatar): Object3D[] {
  const bones = new Set(avatar.joints.map((j) => j.bone));
  const list: Object3D[] = [];
  const walk = (o: Object3D, below: boolean): void => {
    const isBone = bones.has(o);
    if (isBone || below) list.push(o);
    for (const c of o.children) walk(c, isBone || below);
  };
  walk(avatar.root, false);
  return list;
}

/** The first difference between twin objects' rotation, matrix and matrixWorld, or null. */
function firstDifference(a: Object3D[], b: Object3D[]): string | null {
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!,
      y = b[i]!;
    const qa = x.quaternion.toArray(),
      qb = y.quaternion.toArray();
    const ra = x.rotation.toArray(),
      rb = y.rotation.toArray();
    for (let k = 0; k < 4; k++) if (qa[k] !== qb[k]) return `${x.name}: quaternion[${k}] ${qa[k]} vs ${qb[k]}`;
    // rotation: the kernel calls the engine's own Math.asin and Math.atan2, as three does
    for (let k = 0; k < 3; k++) if (ra[k] !== rb[k]) return `${x.name}: rotation[${k}] ${ra[k]} vs ${rb[k]}`;
    for (let k = 0; k < 16; k++) {
      if (x.matrix.elements[k] !== y.matrix.elements[k])
        return `${x.name}: matrix[${k}] ${x.matrix.elements[k]} vs ${y.matrix.elements[k]}`;
      if (x.matrixWorld.elements[k] !== y.matrixWorld.elements[k]) {
        return `${x.name}: matrixWorld[${k}] ${x.matrixWorld.elements[k]} vs ${y.matrixWorld.elements[k]}`;
      }
    }
  }
  return null;
}

/** Twins: three-vrm runs `theirs`, SpringBones runs `ours`. */
function twins(seeds = SEEDS): { theirs: Avatar[]; ours: Avatar[] } {
  return { theirs: seeds.map((seed) => buildAvatar({ seed })), ours: seeds.map((seed) => buildAvatar({ seed })) };
}

function frame(theirs: Avatar[], ours: Avatar[], bones: SpringBones, t: number, dt: number): void {
  for (const a of theirs) {
    a.pose(t);
    a.manager.update(dt);
  }
  for (const a of ours) a.pose(t);
  bones.update(dt);
}

function compare(theirs: Avatar[], ours: Avatar[]): string | null {
  for (let k = 0; k < theirs.length; k++) {
    const d = firstDifference(outputs(theirs[k]!), outputs(ours[k]!));
    if (d !== null) return `avatar ${k}: ${d}`;
  }
  return null;
}

describe.each(BACKENDS)('SpringBones on %s', (backend) => {
  it('gives three-vrm’s results exactly: 300 frames at 1/60 s, then 480 of dt in [1/144, 1/30] with a settings change and a reset', () => {
    const { theirs, ours } = twins();
    const bones = new SpringBones(
      solvers[backend],
      ours.map((a) => a.manager),
    );
    expect(bones.jointCount).toBe(ours.reduce((n, a) => n + a.joints.length, 0));
    let t = 0;
    const differences: string[] = [];
    for (let f = 0; f < 780; f++) {
      const dt = frameDt(f);
      t += dt;
      if (f === 400) {
        // a settings change on both twins (refresh reads it), then a reset of both
        for (const a of [...theirs, ...ours]) for (const j of a.joints) j.settings.stiffness *= 1.5;
        bones.refresh();
      }
      if (f === 600) {
        for (const a of theirs) a.manager.reset();
        bones.reset();
      }
      frame(theirs, ours, bones, t, dt);
      const d = compare(theirs, ours);
      if (d !== null) differences.push(`frame ${f}: ${d}`);
    }
    expect(differences.slice(0, 3)).toEqual([]);
    bones.dispose();
  });

  it('places the bones on their parents without a step at dt = 0, as three-vrm', () => {
    const { theirs, ours } = twins([21]);
    const bones = new SpringBones(
      solvers[backend],
      ours.map((a) => a.manager),
    );
    for (let f = 0; f < 30; f++) frame(theirs, ours, bones, f / 60, 1 / 60);
    frame(theirs, ours, bones, 31 / 60, 0);
    expect(compare(theirs, ours)).toBeNull();
    const moved = theirs[0]!.joints.some((j, i) => !j.bone.quaternion.equals(ours[0]!.joints[i]!.bone.quaternion));
    expect(moved).toBe(false);
    bones.dispose();
  });

  it('adds and removes managers mid-run, and gives them back with their state', () => {
    const { theirs, ours } = twins([31, 32]);
    const bones = new SpringBones(solvers[backend], [ours[0]!.manager]);
    let f = 0;
    const run = (frames: number, active: Avatar[], twin: Avatar[]): void => {
      for (let k = 0; k < frames; k++, f++) frame(twin, active, bones, f / 60, 1 / 60);
    };
    run(40, [ours[0]!], [theirs[0]!]);
    // the second avatar joins: until now both twins ran three-vrm's own update
    for (let k = 0; k < 40; k++) {
      for (const a of [theirs[1]!, ours[1]!]) {
        a.pose(k / 60);
        a.manager.update(1 / 60);
      }
    }
    bones.add(ours[1]!.manager);
    expect(bones.managers).toEqual([ours[0]!.manager, ours[1]!.manager]);
    run(60, ours, theirs);
    expect(compare(theirs, ours)).toBeNull();
    // the first leaves: its manager runs three-vrm's update again, from SpringBones' state
    bones.remove(ours[0]!.manager);
    for (let k = 0; k < 60; k++, f++) {
      for (const a of [theirs[0]!, ours[0]!, theirs[1]!, ours[1]!]) a.pose(f / 60);
      theirs[0]!.manager.update(1 / 60);
      ours[0]!.manager.update(1 / 60);
      theirs[1]!.manager.update(1 / 60);
      bones.update(1 / 60);
    }
    expect(compare(theirs, ours)).toBeNull();
    bones.dispose();
    // after dispose, both run three-vrm
    for (let k = 0; k < 30; k++, f++) {
      for (const a of [...theirs, ...ours]) {
        a.pose(f / 60);
        a.manager.update(1 / 60);
      }
    }
    expect(compare(theirs, ours)).toBeNull();
  });

  it('takes over manager.update (vrm.update runs no spring bones) and routes manager.reset and setInitState', () => {
    const { theirs, ours } = twins([41]);
    const manager = ours[0]!.manager;
    const ownUpdate = manager.update;
    const bones = new SpringBones(solvers[backend], [manager]);
    expect(manager.update).not.toBe(ownUpdate);
    for (let f = 0; f < 20; f++) frame(theirs, ours, bones, f / 60, 1 / 60);
    const before = ours[0]!.joints.map((j) => j.bone.quaternion.clone());
    manager.update(1 / 60); // a vrm.update(dt) while attached: no spring-bone step
    expect(ours[0]!.joints.every((j, i) => j.bone.quaternion.equals(before[i]!))).toBe(true);
    theirs[0]!.manager.reset();
    manager.reset();
    for (let f = 20; f < 50; f++) frame(theirs, ours, bones, f / 60, 1 / 60);
    expect(compare(theirs, ours)).toBeNull();
    theirs[0]!.manager.setInitState();
    manager.setInitState();
    for (let f = 50; f < 80; f++) frame(theirs, ours, bones, f / 60, 1 / 60);
    expect(compare(theirs, ours)).toBeNull();
    bones.dispose();
    expect(manager.update).toBe(ownUpdate);
    expect(Object.hasOwn(manager, 'update')).toBe(false);
  });

  it('runs at most maxSteps fixed steps in one update, and drops the rest of the time', () => {
    // three avatars in one pose: one long update capped at 3 steps, 3 updates of one step each, and 4 of them
    const avatars = [buildAvatar({ seed: 51 }), buildAvatar({ seed: 51 }), buildAvatar({ seed: 51 })];
    const [capped, three, four] = avatars.map((a) => new SpringBones(solvers[backend], [a.manager], { fixedStep: 1 / 60, maxSteps: 3 }));
    for (const [k, bones] of [capped!, three!, four!].entries()) {
      avatars[k]!.pose(0);
      bones.update(0); // primes the previous matrices
    }
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    capped!.update(10); // ten seconds: three steps of 1/60 s, the rest dropped (and the large-dt warning, once per solver)
    warn.mockRestore();
    expect(warn.mock.calls.every(([message]) => /SpringBones\.update got dt = 10; dt is in seconds/.test(String(message)))).toBe(true);
    for (let k = 0; k < 3; k++) three!.update(1 / 60);
    for (let k = 0; k < 4; k++) four!.update(1 / 60);
    expect(firstDifference(outputs(avatars[0]!), outputs(avatars[1]!))).toBeNull();
    expect(firstDifference(outputs(avatars[0]!), outputs(avatars[2]!))).not.toBeNull();
    capped!.update(1 / 120); // the dropped time is not carried over: half a step runs nothing
    three!.update(0);
    expect(firstDifference(outputs(avatars[0]!), outputs(avatars[1]!))).toBeNull();
    for (const bones of [capped!, three!, four!]) bones.dispose();
  });
});

describe('SpringBones: bad input throws, naming the method and the argument, and changes nothing', () => {
  const solver = () => solvers.simd;
  const fresh = (seed = 61) => buildAvatar({ seed });

  it.each([
    ['stiffness', -1, /settings\.stiffness is -1; it must be ≥ 0/],
    ['hitRadius', Number.NaN, /settings\.hitRadius is NaN; it must be finite/],
    ['gravityPower', Number.POSITIVE_INFINITY, /settings\.gravityPower is Infinity; it must be finite/],
    ['dragForce', 1.5, /settings\.dragForce is 1\.5; it must be in \[0, 1\]/],
  ] as const)('settings.%s = %s: a RangeError, and the manager is not taken over', (name, value, message) => {
    const avatar = fresh();
    const joint = [...avatar.manager.joints][5]!;
    joint.settings = { ...joint.settings, gravityDir: joint.settings.gravityDir.clone(), [name]: value }; // its own settings
    const update = avatar.manager.update;
    expect(() => new SpringBones(solver(), [avatar.manager])).toThrow(RangeError);
    expect(() => new SpringBones(solver(), [avatar.manager])).toThrow(message);
    expect(() => new SpringBones(solver(), [avatar.manager])).toThrow(/SpringBones: managers\[0\]'s joint 5/);
    expect(avatar.manager.update).toBe(update);
  });

  it('a gravityDir with NaN, a zero-length bone, a bad collider shape', () => {
    const a = fresh();
    const joint = [...a.manager.joints][2]!;
    joint.settings = { ...joint.settings, gravityDir: joint.settings.gravityDir.clone().setY(Number.NaN) };
    expect(() => new SpringBones(solver(), [a.manager])).toThrow(/joint 2 .*settings\.gravityDir\.y is NaN/);
    const b = fresh();
    (
      [...b.manager.joints][3] as unknown as { _initialLocalChildPosition: { set(x: number, y: number, z: number): void } }
    )._initialLocalChildPosition.set(0, 0, 0);
    expect(() => new SpringBones(solver(), [b.manager])).toThrow(/joint 3 .*zero length/);
    const c = fresh();
    const collider = c.colliders[0]! as unknown as { shape: { radius: number } };
    collider.shape.radius = -0.1;
    expect(() => new SpringBones(solver(), [c.manager])).toThrow(/shape\.radius is -0\.1; it must be ≥ 0/);
  });

  it('a refresh that fails keeps the SpringBones running as before', () => {
    const { theirs, ours } = twins([62]);
    const bones = new SpringBones(
      solver(),
      ours.map((a) => a.manager),
    );
    for (let f = 0; f < 20; f++) frame(theirs, ours, bones, f / 60, 1 / 60);
    const joint = [...ours[0]!.manager.joints][0]!;
    const settings = joint.settings;
    joint.settings = { ...settings, stiffness: -2 };
    expect(() => bones.refresh()).toThrow(/SpringBones\.refresh: managers\[0\]'s joint 0 .*settings\.stiffness is -2/);
    joint.settings = settings;
    for (let f = 20; f < 40; f++) frame(theirs, ours, bones, f / 60, 1 / 60);
    expect(compare(theirs, ours)).toBeNull();
    bones.dispose();
  });

  it('a joint whose bone left the scene: update throws and writes nothing; put back, it runs again', () => {
    const a = fresh();
    const bones = new SpringBones(solver(), [a.manager]);
    a.pose(0);
    bones.update(1 / 60);
    const joint = a.joints[10]! as VRMSpringBoneJoint;
    const quaternions = a.joints.map((j) => j.bone.quaternion.clone());
    const parent = joint.bone.parent!;
    parent.remove(joint.bone);
    expect(() => bones.update(1 / 60)).toThrow(RangeError);
    expect(() => bones.update(1 / 60)).toThrow(/SpringBones\.update: managers\[0\]'s joint \d+ \(bone "[^"]+"\): the bone has no parent/);
    expect(a.joints.every((j, i) => j.bone.quaternion.equals(quaternions[i]!))).toBe(true);
    parent.add(joint.bone);
    bones.update(1 / 60);
    expect(a.joints.some((j, i) => !j.bone.quaternion.equals(quaternions[i]!))).toBe(true);
    bones.dispose();
  });

  it('a manager twice, or in two SpringBones', () => {
    const a = fresh(),
      b = fresh(62);
    expect(() => new SpringBones(solver(), [a.manager, a.manager])).toThrow(/managers\[1\] is already attached to this SpringBones/);
    const first = new SpringBones(solver(), [a.manager]);
    expect(() => new SpringBones(solver(), [b.manager, a.manager])).toThrow(/managers\[1\] is attached to another SpringBones/);
    expect(() => first.add(a.manager)).toThrow(/SpringBones\.add: manager is already attached to this SpringBones/);
    expect(() => first.remove(b.manager)).toThrow(/SpringBones\.remove: manager is not attached to this SpringBones/);
    expect(() => new SpringBones(solver(), [{} as never])).toThrow(TypeError);
    expect(() => new SpringBones(solver(), 'x' as never)).toThrow(/managers must be an Array/);
    first.dispose();
    const second = new SpringBones(solver(), [a.manager]); // free again after dispose
    second.dispose();
  });

  it('dt, options and use after dispose', () => {
    const a = fresh();
    const bones = new SpringBones(solver(), [a.manager]);
    expect(() => bones.update(-1 / 60)).toThrow(/SpringBones\.update: dt is -0\.0166.*; it must be finite and ≥ 0/);
    expect(() => bones.update(Number.NaN)).toThrow(RangeError);
    expect(() => bones.update('0.016' as never)).toThrow(/dt must be a number, got string/);
    bones.dispose();
    expect(() => bones.update(1 / 60)).toThrow(/SpringBones\.update: this SpringBones was disposed/);
    expect(() => bones.reset()).toThrow(TypeError);
    const b = fresh();
    expect(() => new SpringBones(solver(), [b.manager], { fixedStep: 0 })).toThrow(/options\.fixedStep is 0; it must be finite and > 0/);
    expect(() => new SpringBones(solver(), [b.manager], { fixedStep: 1 / 60, maxSteps: 0 })).toThrow(/options\.maxSteps is 0/);
    expect(() => new SpringBones(solver(), [b.manager], { teleportDistance: -1 })).toThrow(/options\.teleportDistance is -1/);
    expect(() => new SpringBones({} as never, [b.manager])).toThrow(/solver must be a Solver/);
  });
});
