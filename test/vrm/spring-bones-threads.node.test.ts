/**
 * SpringBones on a threaded solver: the managers run in spans, one after the other as three-vrm
 * runs them, and the managers of a span, which read and write nothing of each other, are split over
 * the threads by whole managers (docs/DECISIONS.md, "Spring bones in spans"), so its results must
 * be the single-thread SIMD solver's bit for bit, with the caller and a worker sharing the managers
 * and with every manager on the workers. The crowd mixes the procedural avatars (80–100 joints, colliders
 * of every kind, half the chains in a moving center, teleports), a one-chain manager, and an avatar
 * whose joints are split over two managers that share slots and colliders. Node only: workers.
 */
import { describe, expect, it } from 'vitest';
import { backgroundCalls, splitCalls, useThreadSolvers } from '../helpers/thread-solvers.js';
import { Object3D, Vector3 } from 'three';
import {
  VRMSpringBoneCollider,
  VRMSpringBoneColliderShapeSphere,
  VRMSpringBoneJoint,
  VRMSpringBoneManager,
} from '@pixiv/three-vrm-springbone';
import type { Solver } from '../../dist/index.js';
import { SpringBones, type SpringBonesOptions } from '../../dist/vrm/index.js';
import { spanJoints } from '../../dist/vrm/spans.js';
import { buildAvatar, buildCrowd, type Avatar } from '../fixtures/vrm-avatars.js';

/** The kernel's avatar table of a SpringBones: per row (manager), its [start, end) of joints, slots, colliders, centers. */
function avatarTable(bones: SpringBones): number[][] {
  const table = (bones as unknown as { layout: { avatars: Float64Array } }).layout.avatars;
  return Array.from({ length: table.length / 8 }, (_, a) => Array.from(table.subarray(8 * a, 8 * a + 8)));
}

/** A manager of some of `avatar`'s joints (three-vrm sorts them itself). */
function managerOf(joints: Avatar['joints']): VRMSpringBoneManager {
  const manager = new VRMSpringBoneManager();
  for (const joint of joints) manager.addJoint(joint);
  return manager;
}

/**
 * The scene: a crowd of 7 procedural avatars, then avatar 8 as two managers (its chains split in
 * two halves, which share colliders and parents' slots) and one chain of avatar 9 alone.
 */
function world(): { managers: VRMSpringBoneManager[]; roots: Object3D[]; pose: (t: number) => void } {
  const crowd = buildCrowd({ count: 7, seed: 5 });
  const split = buildAvatar({ seed: 8 });
  const small = buildAvatar({ seed: 9 });
  for (const a of [split, small]) {
    crowd.scene.add(a.root);
    a.pose(0);
    a.root.updateMatrixWorld(true);
    a.manager.reset();
  }
  const half = Math.ceil(split.chains.length / 2);
  const managers = [
    ...crowd.avatars.map((a) => a.manager),
    managerOf(split.chains.slice(0, half).flatMap((c) => c.joints)),
    managerOf(split.chains.slice(half).flatMap((c) => c.joints)),
    managerOf(small.chains[0]!.joints),
  ];
  return {
    managers,
    roots: [...crowd.avatars, split, small].map((a) => a.root),
    pose: (t) => {
      crowd.pose(t);
      split.pose(t);
      small.pose(t);
    },
  };
}

/**
 * Two managers on one head, each a span of its own (spanJoints.min 1): chain B (the second
 * manager) avoids a bead that hangs below chain A's second bone (`withBead`), so B reads, as it
 * stands at its turn, a collider that A's update moves; then two managers on heads of their own,
 * which share nothing with the managers before them.
 */
function beadWorld(withBead = true): { managers: VRMSpringBoneManager[]; roots: Object3D[]; pose: (t: number) => void } {
  const heads: Object3D[] = [];
  const roots: Object3D[] = [];
  const managers: VRMSpringBoneManager[] = [];
  const chain = (parent: Object3D, lean: number): Object3D[] => {
    const bones: Object3D[] = [];
    let at = parent;
    for (let i = 0; i <= 4; i++) {
      const bone = new Object3D();
      bone.position.set(i === 0 ? lean : 0.01 * lean, i === 0 ? 0.05 : -0.07, i === 0 ? -0.05 : -0.015);
      at.add(bone);
      bones.push(bone);
      at = bone;
    }
    return bones;
  };
  const managerOfChain = (bones: Object3D[], colliders: VRMSpringBoneCollider[]): VRMSpringBoneManager => {
    const manager = new VRMSpringBoneManager();
    for (let i = 0; i < bones.length - 1; i++) {
      const settings = { stiffness: 1, dragForce: 0.3, gravityPower: 0.8, hitRadius: 0.02 };
      manager.addJoint(new VRMSpringBoneJoint(bones[i]!, bones[i + 1]!, settings, [{ colliders }]));
    }
    return manager;
  };
  for (let h = 0; h < 3; h++) {
    const root = new Object3D();
    const head = new Object3D();
    head.position.set(0, 1.5, 0);
    root.position.x = 2 * h;
    root.add(head);
    roots.push(root);
    heads.push(head);
    const a = chain(head, 0.03);
    if (h === 0) {
      const bead = new VRMSpringBoneCollider(new VRMSpringBoneColliderShapeSphere({ offset: new Vector3(0, -0.02, 0), radius: 0.05 }));
      a[1]!.add(bead);
      managers.push(managerOfChain(a, []), managerOfChain(chain(head, -0.03), withBead ? [bead] : []));
    } else managers.push(managerOfChain(a, []));
  }
  for (const root of roots) root.updateMatrixWorld(true);
  for (const manager of managers) manager.setInitState();
  return {
    managers,
    roots,
    pose: (t) => {
      heads.forEach((head, h) => {
        head.rotation.set(0.5 * Math.sin(3.1 * t + h), 1.2 * Math.sin(2 * t + h), 0);
      });
    },
  };
}

/** The bits of every object's quaternion, matrix and matrixWorld below `roots`. */
function bits(roots: Object3D[]): Uint32Array {
  const values: number[] = [];
  for (const root of roots) {
    root.traverse((o) => {
      values.push(...o.quaternion.toArray(), ...o.matrix.elements, ...o.matrixWorld.elements);
    });
  }
  return new Uint32Array(Float64Array.from(values).buffer);
}

/** A frame's dt: 1/60, then varying in [1/144, 1/30] (with fixedStep 1/60: steps at alpha < 1, and updates without a step). */
function frameDt(f: number): number {
  return f < 20 ? 1 / 60 : 1 / 144 + (((f * 7919) % 1000) / 1000) * (1 / 30 - 1 / 144);
}

/** The bits after each of `frames` frames of the scene on `solver`. */
function run(solver: Solver, frames: number, options: SpringBonesOptions = {}, scene = world()): Uint32Array[] {
  const bones = new SpringBones(solver, scene.managers, options);
  const out: Uint32Array[] = [];
  let t = 0;
  for (let f = 0; f < frames; f++) {
    const dt = frameDt(f);
    t += dt;
    scene.pose(t);
    bones.update(dt);
    out.push(bits(scene.roots));
  }
  bones.dispose();
  return out;
}

const solvers = useThreadSolvers();

describe('SpringBones on a threaded solver, spans split by whole managers', () => {
  it('lays out a row per manager, in order, whatever they share', () => {
    const scene = world();
    // avatar 1's first joint also collides with avatar 4's colliders
    const [first] = scene.managers[1]!.joints;
    const other = [...scene.managers[4]!.joints].find((joint) => joint.colliderGroups.length > 0)!;
    first!.colliderGroups = [...first!.colliderGroups, ...other.colliderGroups];
    const bones = new SpringBones(solvers.single, scene.managers);
    const table = avatarTable(bones);
    expect(table.length).toBe(scene.managers.length);
    // the ranges follow each other and cover every joint, slot, collider and center
    const layout = (bones as unknown as { layout: { slots: unknown[]; colliders: unknown[]; centers: unknown[] } }).layout;
    const totals = [bones.jointCount, layout.slots.length, layout.colliders.length, layout.centers.length];
    for (let r = 0; r < 4; r++) {
      expect(table[0]![2 * r]).toBe(0);
      for (let a = 1; a < table.length; a++) expect(table[a]![2 * r]).toBe(table[a - 1]![2 * r + 1]);
      expect(table.at(-1)![2 * r + 1]).toBe(totals[r]);
    }
    scene.managers.forEach((manager, m) => expect(table[m]![1]! - table[m]![0]!).toBe(manager.joints.size));
    bones.dispose();
  });

  it('gathers managers under one scene into spans of several: the scene, above every joint, is no conflict', () => {
    // every manager's pass climbs to the scene, as three-vrm's does; read as a write, it made each manager a span
    const scene = world();
    const bones = new SpringBones(solvers.single, scene.managers);
    const spans = (bones as unknown as { spans: { avatars: number }[] }).spans;
    expect(spans.reduce((sum, span) => sum + span.avatars, 0)).toBe(scene.managers.length);
    expect(Math.max(...spans.map((span) => span.avatars))).toBeGreaterThan(1);
    bones.dispose();
  });

  it('steps each span in the background while it writes the span before and reads the span after, where the spans share nothing', () => {
    // default spans (256 joints): the crowd's spans read and write nothing of each other but the split avatar's
    const expected = run(solvers.single, 20);
    for (const solver of [solvers.threaded, solvers.workersOnly]) {
      const bones = new SpringBones(solver, world().managers);
      const spans = (bones as unknown as { spans: { apart: boolean }[] }).spans;
      bones.dispose();
      expect(spans.length).toBeGreaterThan(2);
      expect(spans.filter((span) => span.apart).length).toBeGreaterThan(0);
      expect(spans.filter((span) => !span.apart).length).toBeGreaterThan(1); // the first, and the split avatar's second half
      const before = backgroundCalls(solver);
      const got = run(solver, 20);
      expect(got.findIndex((frame, f) => !frame.every((b, i) => b === expected[f]![i]))).toBe(-1);
      expect(backgroundCalls(solver) - before, 'every span of every frame stepped in the background').toBe(20 * spans.length);
    }
  });

  it('reads a span after the writes of the span before it when it reads what they write (a bead on the other chain)', () => {
    const spanDefault = spanJoints.min;
    spanJoints.min = 1;
    try {
      const bones = new SpringBones(solvers.single, beadWorld().managers);
      const spans = (bones as unknown as { spans: { apart: boolean }[] }).spans;
      bones.dispose();
      // the bead's chain, the chain that avoids it, then two heads that share nothing with them
      expect(spans.map((span) => span.apart)).toEqual([false, false, true, true]);
      const expected = run(solvers.single, 120, {}, beadWorld());
      // the bead moves chain B: without it, B's bones differ
      const withoutBead = run(solvers.single, 120, {}, beadWorld(false));
      expect(withoutBead.some((frame, f) => !frame.every((b, i) => b === expected[f]![i]))).toBe(true);
      for (const solver of [solvers.threaded, solvers.workersOnly]) {
        const got = run(solver, 120, {}, beadWorld());
        expect(got.findIndex((frame, f) => !frame.every((b, i) => b === expected[f]![i]))).toBe(-1);
      }
    } finally {
      spanJoints.min = spanDefault;
    }
  });

  const FRAMES = 40;
  for (const [name, options] of [
    ['one step a frame', {}],
    ['fixedStep 1/60 (slots interpolated, alpha < 1)', { fixedStep: 1 / 60 }],
  ] as const) {
    it(`gives the single-thread SIMD solver's bits over ${FRAMES} frames: ${name}`, () => {
      const expected = run(solvers.single, FRAMES, options);
      for (const solver of [solvers.threaded, solvers.workersOnly]) {
        expect(solver.threads).toBeGreaterThan(1);
        const before = splitCalls(solver);
        const got = run(solver, FRAMES, options);
        const first = got.findIndex((frame, f) => !frame.every((b, i) => b === expected[f]![i]));
        expect(first, `threads ${solver.threads}: first frame that differs`).toBe(-1);
        expect(splitCalls(solver) - before, 'calls shared with the workers').toBeGreaterThanOrEqual(FRAMES);
      }
    });
  }
});
