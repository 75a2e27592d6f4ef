/**
 * Colliders attached below spring-joint bones (a ribbon's bead that the hair must avoid), and the
 * circular dependency they can make (each chain collides with a bead on the other): three-vrm moves
 * such a collider after its joint, runs the joints in its own depth-first order, and warns once of
 * a circle. SpringBones must give the same results, exactly, and warn once too. Twins as in
 * spring-bones.test.ts: one runs three-vrm's manager.update, the other SpringBones.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Object3D, Quaternion, Vector3 } from 'three';
import {
  VRMSpringBoneCollider,
  VRMSpringBoneColliderShapeCapsule,
  VRMSpringBoneColliderShapeSphere,
  VRMSpringBoneJoint,
  VRMSpringBoneManager,
} from '@pixiv/three-vrm-springbone';
import { SpringBones } from '../../dist/vrm/index.js';
import { BACKENDS, useSolvers } from '../helpers/backends.js';

const solvers = useSolvers();

interface Rig {
  root: Object3D;
  head: Object3D;
  manager: VRMSpringBoneManager;
  joints: VRMSpringBoneJoint[];
}

/** A chain of `length` bones below `parent` (with a leaf at its end), leaning by `lean`. */
function chain(parent: Object3D, name: string, length: number, lean: number): Object3D[] {
  const bones: Object3D[] = [];
  let at = parent;
  for (let i = 0; i <= length; i++) {
    const bone = new Object3D();
    bone.name = `${name}${i}`;
    bone.position.set(i === 0 ? lean : 0.01 * lean, i === 0 ? 0.05 : -0.07, i === 0 ? -0.05 : -0.015);
    at.add(bone);
    bones.push(bone);
    at = bone;
  }
  return bones;
}

/**
 * Two chains on a head. A bead (sphere) hangs below chain A's second bone and chain B collides with
 * it; with `circle`, a capsule below chain B's second bone collides with chain A too.
 */
function rig(circle: boolean): Rig {
  const root = new Object3D();
  const head = new Object3D();
  head.position.set(0, 1.5, 0);
  root.add(head);
  const a = chain(head, 'a', 4, 0.03);
  const b = chain(head, 'b', 4, -0.03);
  const bead = new VRMSpringBoneCollider(new VRMSpringBoneColliderShapeSphere({ offset: new Vector3(0, -0.02, 0), radius: 0.05 }));
  a[1]!.add(bead);
  const groupsA = [];
  if (circle) {
    const rod = new VRMSpringBoneCollider(
      new VRMSpringBoneColliderShapeCapsule({ offset: new Vector3(0, 0, 0), tail: new Vector3(0, -0.12, 0), radius: 0.04 }),
    );
    b[2]!.add(rod);
    groupsA.push({ colliders: [rod] });
  }
  const headSphere = new VRMSpringBoneCollider(new VRMSpringBoneColliderShapeSphere({ offset: new Vector3(0, 0, 0), radius: 0.09 }));
  head.add(headSphere);
  const manager = new VRMSpringBoneManager();
  const joints: VRMSpringBoneJoint[] = [];
  const add = (bones: Object3D[], groups: { colliders: VRMSpringBoneCollider[] }[], stiffness: number) => {
    for (let i = 0; i < bones.length - 1; i++) {
      const joint = new VRMSpringBoneJoint(
        bones[i]!,
        bones[i + 1]!,
        { stiffness, dragForce: 0.3, gravityPower: 0.8, hitRadius: 0.02 },
        groups,
      );
      manager.addJoint(joint);
      joints.push(joint);
    }
  };
  add(a, [{ colliders: [headSphere] }, ...groupsA], 0.8);
  add(b, [{ colliders: [headSphere, bead] }], 1.2);
  root.updateMatrixWorld(true);
  manager.setInitState();
  return { root, head, manager, joints };
}

/** The head turns and nods; the root walks. */
function pose(r: Rig, t: number): void {
  r.root.position.set(Math.sin(t), 0, 0.8 * t);
  r.head.quaternion.setFromAxisAngle(new Vector3(0, 1, 0), 1.2 * Math.sin(2 * t));
  r.head.quaternion.multiply(new Quaternion().setFromAxisAngle(new Vector3(1, 0, 0), 0.5 * Math.sin(3.1 * t)));
}

function firstDifference(a: Rig, b: Rig): string | null {
  for (let j = 0; j < a.joints.length; j++) {
    const x = a.joints[j]!.bone,
      y = b.joints[j]!.bone;
    if (x.quaternion.toArray().some((v, k) => v !== y.quaternion.toArray()[k])) return `${x.name}: quaternion`;
    if (x.matrixWorld.elements.some((v, k) => v !== y.matrixWorld.elements[k])) return `${x.name}: matrixWorld`;
  }
  const beads = [a, b].map((r) => r.joints[0]!.bone.children[0]!.children.find((c) => c instanceof VRMSpringBoneCollider));
  if (beads[0]?.matrixWorld.elements.some((v, k) => v !== beads[1]!.matrixWorld.elements[k])) return 'the bead: matrixWorld';
  return null;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe.each(BACKENDS)('colliders below joint bones on %s', (backend) => {
  it.each([
    ['a bead on one chain that the other avoids', false],
    ['each chain colliding with the other (a circle)', true],
  ] as const)('%s: equal to three-vrm over 240 frames', (_name, circle) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const theirs = rig(circle),
      ours = rig(circle);
    const bones = new SpringBones(solvers[backend], [ours.manager]);
    const differences: string[] = [];
    let moved = 0;
    for (let f = 0; f < 240; f++) {
      const dt = f < 120 ? 1 / 60 : 1 / 90;
      pose(theirs, f / 60);
      pose(ours, f / 60);
      theirs.manager.update(dt);
      bones.update(dt);
      const d = firstDifference(theirs, ours);
      if (d !== null) differences.push(`frame ${f}: ${d}`);
      moved = Math.max(moved, ...ours.joints.map((j) => 2 * Math.acos(Math.min(1, Math.abs(j.bone.quaternion.w)))));
    }
    expect(differences.slice(0, 3)).toEqual([]);
    expect(moved).toBeGreaterThan(0.3);
    const messages = warn.mock.calls.map((c) => String(c[0]));
    // three-vrm warned once per manager (the twins' setInitState sorted their joints), SpringBones once for its one manager
    expect(messages.filter((m) => m.startsWith('VRMSpringBoneManager: Circular dependency')).length).toBe(circle ? 2 : 0);
    expect(messages.filter((m) => m.startsWith('SpringBones: manager 0: circular dependency')).length).toBe(circle ? 1 : 0);
    bones.refresh(); // warned once per manager, not again
    expect(warn.mock.calls.filter((c) => String(c[0]).startsWith('SpringBones')).length).toBe(circle ? 1 : 0);
    bones.dispose();
  });
});
