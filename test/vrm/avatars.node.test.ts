/**
 * The procedural VRM avatars of test/fixtures/vrm-avatars.js, which the spring-bone parity tests,
 * the benchmark and the demo use: their contents (joint and collider counts, every collider kind,
 * centered chains, child-less ends, a branch, settings in range), their walk (a function of the
 * time only, with teleports), and three-vrm's own run on them (deterministic, finite, unit
 * quaternions, colliders in contact).
 */
import { describe, expect, it } from 'vitest';
import { Matrix4, type Object3D, Quaternion, Vector3 } from 'three';
import {
  VRMSpringBoneColliderShapeCapsule,
  VRMSpringBoneColliderShapePlane,
  VRMSpringBoneColliderShapeSphere,
  type VRMSpringBoneCollider,
} from '@pixiv/three-vrm-springbone';
import { type Avatar, buildAvatar, buildCrowd } from '../fixtures/vrm-avatars.js';

const SEEDS = [1, 2, 3, 4, 5, 6, 7, 8];
const DT = 1 / 60;

/** Poses and updates `avatar` with three-vrm for frames `from` to `to - 1` (t = frame / 60). */
function run(avatar: Avatar, to: number, from = 0): void {
  for (let frame = from; frame < to; frame++) {
    avatar.pose(frame * DT);
    avatar.manager.update(DT);
  }
}

/** The angle (rad) between two unit quaternions. */
function angle(a: Quaternion, b: Quaternion): number {
  return 2 * Math.acos(Math.min(1, Math.abs(a.dot(b))));
}

/** The collider's kind, read from its shape (not from the fixture's stats). */
function kindOf(collider: VRMSpringBoneCollider): string {
  const { shape } = collider;
  if (shape instanceof VRMSpringBoneColliderShapeSphere) return shape.inside ? 'insideSphere' : 'sphere';
  if (shape instanceof VRMSpringBoneColliderShapeCapsule) return shape.inside ? 'insideCapsule' : 'capsule';
  if (shape instanceof VRMSpringBoneColliderShapePlane) return 'plane';
  return 'unknown';
}

/** Every object below `root`, depth first. */
function objects(root: Object3D): Object3D[] {
  const all: Object3D[] = [];
  root.traverse((o) => all.push(o));
  return all;
}

/** The largest angle between the two avatars' joint rotations (same seed, so the same joints in the same order). */
function largestAngle(a: Avatar, b: Avatar, kinds: readonly string[]): number {
  let largest = 0;
  a.chains.forEach((chain, c) => {
    if (!kinds.includes(chain.kind)) return;
    chain.joints.forEach((joint, j) => {
      largest = Math.max(largest, angle(joint.bone.quaternion, b.chains[c].joints[j].bone.quaternion));
    });
  });
  return largest;
}

describe('vrm-avatars: what each avatar contains', () => {
  const avatars = SEEDS.map((seed) => buildAvatar({ seed }));

  it('has 80–100 joints, 10–12 colliders and stats that count them', () => {
    for (const a of avatars) {
      const jointsInManager = a.manager.joints.size;
      expect(jointsInManager).toBeGreaterThanOrEqual(80);
      expect(jointsInManager).toBeLessThanOrEqual(100);
      expect(a.manager.colliders.length).toBeGreaterThanOrEqual(10);
      expect(a.manager.colliders.length).toBeLessThanOrEqual(12);
      expect(new Set(a.joints)).toEqual(a.manager.joints);
      expect(a.stats.joints).toBe(jointsInManager);
      expect(a.stats.colliders).toBe(a.manager.colliders.length);
      expect(new Set(a.colliders)).toEqual(new Set(a.manager.colliders));
      expect(a.stats.chains).toBe(a.chains.length);
      expect(a.chains.flatMap((c) => c.joints)).toEqual(a.joints);
    }
  });

  it('has every collider kind, each with a non-zero offset, on a humanoid bone', () => {
    const humanoidBones = (a: Avatar): Set<Object3D> => new Set(Object.values(a.bones));
    for (const a of avatars) {
      const kinds = new Set(a.manager.colliders.map(kindOf));
      expect([...kinds].sort()).toEqual(['capsule', 'insideCapsule', 'insideSphere', 'plane', 'sphere']);
      expect([...a.stats.colliderKinds].sort()).toEqual([...kinds].sort());
      for (const collider of a.manager.colliders) {
        expect(collider.shape.offset?.length(), collider.name).toBeGreaterThan(0.01);
        expect(humanoidBones(a).has(collider.parent!), collider.name).toBe(true);
      }
    }
  });

  it('has hair, bangs, skirt, tail, chest, arm and branch chains of 2–6 joints', () => {
    const lengths: Record<string, [number, number]> = {
      hair: [3, 6],
      bangs: [3, 6],
      skirt: [2, 4],
      tail: [4, 6],
      chest: [2, 3],
      arm: [2, 3],
      branch: [2, 3],
    };
    for (const a of avatars) {
      expect(new Set(a.chains.map((c) => c.kind))).toEqual(new Set(Object.keys(lengths)));
      expect(a.chains.filter((c) => c.kind === 'hair' || c.kind === 'bangs').length).toBeGreaterThanOrEqual(6);
      expect(a.chains.filter((c) => c.kind === 'skirt').length).toBeGreaterThanOrEqual(6);
      for (const chain of a.chains) {
        const [lo, hi] = lengths[chain.kind];
        expect(chain.joints.length, chain.name).toBeGreaterThanOrEqual(lo);
        expect(chain.joints.length, chain.name).toBeLessThanOrEqual(hi);
        // a chain: each joint's child is the next joint's bone
        for (let j = 0; j + 1 < chain.joints.length; j++) expect(chain.joints[j].child).toBe(chain.joints[j + 1].bone);
      }
    }
  });

  it('simulates half of the chains in the root’s or the hips’ space, none with centers: false', () => {
    for (const a of avatars) {
      const centered = a.chains.filter((c) => c.joints.every((j) => j.center !== null));
      const uncentered = a.chains.filter((c) => c.joints.every((j) => j.center === null));
      expect(centered.length + uncentered.length).toBe(a.chains.length); // no chain half and half
      expect(centered.length).toBe(Math.floor(a.chains.length / 2));
      expect(a.stats.centered).toBe(centered.length);
      for (const chain of centered) expect([a.root, a.bones.hips]).toContain(chain.joints[0].center);
    }
    const plain = buildAvatar({ seed: 1, centers: false });
    expect(plain.joints.filter((j) => j.center !== null)).toEqual([]);
    expect(plain.stats.centered).toBe(0);
  });

  it('ends some chains with a child-less joint (7 cm rule) and others with a non-joint leaf', () => {
    for (const a of avatars) {
      const jointBones = new Set(a.joints.map((j) => j.bone));
      const ends = a.chains.map((c) => c.joints[c.joints.length - 1]);
      const childless = ends.filter((j) => j.child === null);
      const leaves = ends.filter((j) => j.child !== null && !jointBones.has(j.child) && j.child.parent === j.bone);
      expect(childless.length).toBeGreaterThan(0);
      expect(leaves.length).toBeGreaterThan(0);
      expect(childless.length + leaves.length).toBe(ends.length);
      expect(a.stats.childless).toBe(a.joints.filter((j) => j.child === null).length);
      expect(a.stats.childless).toBe(childless.length);
      // three-vrm's 7 cm rule took effect: the initial child position is 7 cm along the bone's position
      for (const j of childless) expect(j.initialLocalChildPosition.length()).toBeCloseTo(0.07, 9);
    }
  });

  it('has a branch: a chain whose root bone is a joint bone of another chain', () => {
    for (const a of avatars) {
      const chainOf = new Map(a.chains.flatMap((c) => c.joints.map((j) => [j.bone, c] as const)));
      const branches = a.chains.filter((c) => {
        const parentChain = chainOf.get(c.joints[0].bone.parent!);
        return parentChain !== undefined && parentChain !== c;
      });
      expect(branches.length).toBeGreaterThan(0);
    }
  });

  it('uses settings within three-vrm’s usual ranges, gravity mostly down and sometimes tilted', () => {
    let tilted = 0;
    let down = 0;
    for (const a of avatars) {
      for (const { settings } of a.joints) {
        expect(settings.stiffness).toBeGreaterThanOrEqual(0.5);
        expect(settings.stiffness).toBeLessThanOrEqual(4);
        expect(settings.dragForce).toBeGreaterThanOrEqual(0.2);
        expect(settings.dragForce).toBeLessThanOrEqual(0.7);
        expect(settings.gravityPower).toBeGreaterThanOrEqual(0);
        expect(settings.gravityPower).toBeLessThanOrEqual(1);
        expect(settings.hitRadius).toBeGreaterThanOrEqual(0.01);
        expect(settings.hitRadius).toBeLessThanOrEqual(0.05);
        expect(settings.gravityDir.length()).toBeCloseTo(1, 12);
        if (settings.gravityDir.y === -1) down++;
        else tilted++;
      }
    }
    expect(tilted).toBeGreaterThan(0);
    expect(down).toBeGreaterThan(tilted);
  });

  it('is about 1.6 m tall in its rest pose, scaled by `scale`', () => {
    const top = (a: Avatar): number => new Vector3().setFromMatrixPosition(a.bones.head.matrixWorld).y + 0.2;
    expect(top(avatars[0])).toBeGreaterThan(1.5);
    expect(top(avatars[0])).toBeLessThan(1.75);
    const big = buildAvatar({ seed: 1, scale: 1.5 });
    expect(top(big) - 0.2).toBeCloseTo(1.5 * (top(avatars[0]) - 0.2), 12);
  });
});

describe('vrm-avatars: the walk', () => {
  it('depends only on t: two avatars of one seed posed at the same t have identical world matrices', () => {
    const a = buildAvatar({ seed: 11 });
    const b = buildAvatar({ seed: 11 });
    a.pose(3.1);
    a.pose(1.7);
    b.pose(1.7);
    a.root.updateMatrixWorld();
    b.root.updateMatrixWorld();
    const [oa, ob] = [objects(a.root), objects(b.root)];
    expect(oa.length).toBe(ob.length);
    oa.forEach((o, i) => expect(o.matrixWorld.elements, o.name).toEqual(ob[i].matrixWorld.elements));
    // another seed walks elsewhere
    const c = buildAvatar({ seed: 12 });
    c.pose(1.7);
    c.root.updateMatrixWorld();
    expect(c.root.matrixWorld.elements).not.toEqual(a.root.matrixWorld.elements);
  });

  it('moves only the humanoid bones and the root, through their local transforms', () => {
    const a = buildAvatar({ seed: 5 });
    const posed: Object3D[] = [a.root, ...Object.values(a.bones)];
    const springObjects = objects(a.root).filter((o) => !posed.includes(o)); // joint bones, leaves, colliders
    const before = springObjects.map((o) => [o.position.clone(), o.quaternion.clone(), o.matrix.clone()] as const);
    const matrices = posed.map((o) => o.matrix.clone());
    a.pose(1.3);
    springObjects.forEach((o, i) => {
      expect(o.position.equals(before[i][0]), o.name).toBe(true);
      expect(o.quaternion.equals(before[i][1]), o.name).toBe(true);
      expect(o.matrix.equals(before[i][2]), o.name).toBe(true);
    });
    posed.forEach((o, i) => expect(o.matrix.equals(matrices[i]), o.name).toBe(true)); // never matrices
    const turned = posed.filter((o) => o.quaternion.angleTo(new Quaternion()) > 0.01);
    expect(turned.length).toBeGreaterThan(15);
  });

  it('walks, turns and bobs smoothly, and teleports by several metres at 2.5 s and 4.5 s', () => {
    const a = buildAvatar({ seed: 3 });
    // built where the walk starts (the joints' initial state too): no jump on the first frame
    const built = [a.root.position.clone(), a.root.quaternion.clone()] as const;
    a.pose(0);
    expect(a.root.position.equals(built[0])).toBe(true);
    expect(a.root.quaternion.equals(built[1])).toBe(true);
    expect(a.root.position.length()).toBeGreaterThan(0.5);
    const positions: Vector3[] = [];
    const headings: number[] = [];
    const forward = new Vector3();
    for (let frame = 0; frame <= 360; frame++) {
      a.pose(frame * DT);
      positions.push(a.root.position.clone());
      forward.set(0, 0, 1).applyQuaternion(a.root.quaternion);
      headings.push(Math.atan2(forward.x, forward.z));
    }
    const jumps: number[] = [];
    for (let frame = 1; frame <= 360; frame++) {
      const step = positions[frame].distanceTo(positions[frame - 1]);
      if (step > 0.1) jumps.push(frame);
      else expect(step).toBeGreaterThan(0.002); // walking, never standing still
    }
    expect(jumps).toEqual([150, 270]);
    for (const frame of jumps) expect(positions[frame].distanceTo(positions[frame - 1])).toBeGreaterThan(2.5);
    const heights = positions.map((p) => p.y);
    expect(Math.max(...heights) - Math.min(...heights)).toBeGreaterThan(0.03);
    const turned = headings.map((h) => Math.abs(Math.atan2(Math.sin(h - headings[0]), Math.cos(h - headings[0]))));
    expect(Math.max(...turned)).toBeGreaterThan(1);
  });
});

describe('vrm-avatars: three-vrm on them', () => {
  it('is deterministic: two avatars of one seed have identical joint rotations after 120 frames', () => {
    const a = buildAvatar({ seed: 21 });
    const b = buildAvatar({ seed: 21 });
    run(a, 120);
    run(b, 120);
    a.joints.forEach((joint, i) => expect(joint.bone.quaternion.toArray(), joint.bone.name).toEqual(b.joints[i].bone.quaternion.toArray()));
    // the springs did move away from the rest rotations
    const rest = buildAvatar({ seed: 21 });
    const moved = a.joints.filter((joint, i) => angle(joint.bone.quaternion, rest.joints[i].bone.quaternion) > 0.05);
    expect(moved.length).toBeGreaterThan(a.joints.length / 2);
  });

  it('runs 300 frames at 1/60 s with every joint rotation finite and of unit length, scaled or not', () => {
    for (const options of [{ seed: 1 }, { seed: 2, scale: 1.3 }]) {
      const a = buildAvatar(options);
      for (let frame = 0; frame < 300; frame++) {
        a.pose(frame * DT);
        a.manager.update(DT);
        for (const joint of a.joints) {
          const q = joint.bone.quaternion;
          const length = Math.hypot(q.x, q.y, q.z, q.w);
          if (!(Math.abs(length - 1) < 1e-9)) expect.fail(`${joint.bone.name} at frame ${frame}: |q| = ${length}`);
          const m = joint.bone.matrixWorld.elements;
          if (!m.every(Number.isFinite)) expect.fail(`${joint.bone.name} at frame ${frame}: matrixWorld ${m}`);
        }
      }
    }
  });

  it('collides: without collider groups, hair and skirt rotations differ', () => {
    const withColliders = buildAvatar({ seed: 4 });
    const without = buildAvatar({ seed: 4 });
    for (const joint of without.joints) joint.colliderGroups = [];
    let hair = 0;
    let skirt = 0;
    for (let frame = 0; frame < 300; frame++) {
      run(withColliders, frame + 1, frame);
      run(without, frame + 1, frame);
      hair = Math.max(hair, largestAngle(withColliders, without, ['hair', 'bangs']));
      skirt = Math.max(skirt, largestAngle(withColliders, without, ['skirt']));
    }
    expect(hair).toBeGreaterThan(0.05);
    expect(skirt).toBeGreaterThan(0.05);
  });

  it('puts every collider in contact: removing any one of them changes some joint', { timeout: 120_000 }, () => {
    const FRAMES = 150; // up to the first teleport
    const reference = buildAvatar({ seed: 7 });
    const referenceRotations: Quaternion[][] = [];
    for (let frame = 0; frame < FRAMES; frame++) {
      run(reference, frame + 1, frame);
      referenceRotations.push(reference.joints.map((joint) => joint.bone.quaternion.clone()));
    }
    expect(reference.colliders.length).toBe(12); // seed 7 has the optional hips sphere
    for (const [c, collider] of reference.colliders.entries()) {
      const a = buildAvatar({ seed: 7 });
      const removed = a.colliders[c];
      for (const group of a.colliderGroups) group.colliders = group.colliders.filter((other) => other !== removed);
      let largest = 0;
      for (let frame = 0; frame < FRAMES; frame++) {
        run(a, frame + 1, frame);
        a.joints.forEach((joint, j) => {
          largest = Math.max(largest, angle(joint.bone.quaternion, referenceRotations[frame][j]));
        });
      }
      expect(largest, collider.name).toBeGreaterThan(1e-3);
    }
  });

  it('builds a crowd of distinct avatars placed apart in one scene, reset where they stand at t = 0', () => {
    const { scene, avatars, pose } = buildCrowd({ count: 9, seed: 5 });
    expect(avatars.length).toBe(9);
    expect(new Set(avatars.map((a) => a.seed)).size).toBe(9);
    const roots = avatars.map((a) => a.root);
    for (const root of roots) {
      let top: Object3D = root;
      while (top.parent) top = top.parent;
      expect(top).toBe(scene);
    }
    pose(0);
    scene.updateMatrixWorld();
    const places = avatars.map((a) => new Vector3().setFromMatrixPosition(a.root.parent!.matrixWorld));
    for (let i = 0; i < places.length; i++) for (let j = 0; j < i; j++) expect(places[i].distanceTo(places[j])).toBeGreaterThan(5);
    // reset at pose(0) where they stand: the first frame is the same as a lone avatar's reset at pose(0) at the
    // origin (no jump from where it was built)
    const identity = new Matrix4();
    const lone = buildAvatar({ seed: avatars[1].seed });
    expect(avatars[1].root.parent!.matrixWorld.equals(identity)).toBe(false);
    lone.pose(0);
    lone.root.updateMatrixWorld(true);
    lone.manager.reset();
    avatars[1].manager.update(DT);
    lone.manager.update(DT);
    let largest = 0;
    avatars[1].joints.forEach((joint, j) => {
      largest = Math.max(largest, angle(joint.bone.quaternion, lone.joints[j].bone.quaternion));
    });
    expect(largest).toBeLessThan(1e-6);
  });
});
