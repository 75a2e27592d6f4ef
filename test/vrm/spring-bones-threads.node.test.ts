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
import { splitCalls, useThreadSolvers } from '../helpers/thread-solvers.js';
import type { Object3D } from 'three';
import { VRMSpringBoneManager } from '@pixiv/three-vrm-springbone';
import type { Solver } from '../../dist/index.js';
import { SpringBones, type SpringBonesOptions } from '../../dist/vrm/index.js';
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
function run(solver: Solver, frames: number, options: SpringBonesOptions = {}): Uint32Array[] {
  const scene = world();
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
