/**
 * Bad input to the crowd pipeline (issue 26, item 6), beyond test/three/mixer-batch.test.ts's
 * refusals: a mixer in a MixerBatch and in an InertializedMixerGroup, non-finite keyframe times, a
 * bad clip played after the batch's layout (refused at the next update, by the batch or by the
 * group over it, with nothing changed), use after dispose; and what three accepts, which the batch
 * must do exactly as three: cross-fades and syncs between actions of different mixers, in the batch
 * or outside it. Twin pirouette crowds (test/fixtures/skinned-crowd.js) compare for identity.
 */
import { describe, expect, it } from 'vitest';
import { AnimationMixer, type AnimationAction, type AnimationClip, type Object3D } from 'three';
import { createSolver } from '../../dist/index.js';
import { InertializedMixerGroup, MixerBatch, SkeletonBatch } from '../../dist/three/index.js';
import { BACKENDS, useSolvers } from '../helpers/backends.js';
import { expectRefused } from '../helpers/refused.js';
import { buildSkinnedCrowd } from '../fixtures/skinned-crowd.js';
import bvhText from '../../data/pirouette.bvh?raw';
import { expectIdentical, transformOf } from './mixer-batch-twins.js';

const solvers = useSolvers();

function crowd(count: number, seed = 3) {
  const built = buildSkinnedCrowd(bvhText, count, { seed });
  return {
    ...built,
    mixers: built.characters.map((c) => c.mixer),
    meshes: built.characters.map((c) => c.mesh),
    bones: built.characters.map((c) => c.mesh.skeleton.bones as Object3D[]),
  };
}

/** Every bone's position, quaternion, scale and rotation. */
const pose = (bones: Object3D[][]): unknown[][] => bones.map((list) => list.flatMap(transformOf));

/** A copy of `clip` named `name` with `track`'s `field`[index] set to `value`. */
function spoiled(clip: AnimationClip, name: string, track: number, field: 'times' | 'values', index: number, value: number): AnimationClip {
  const bad = clip.clone();
  bad.name = name;
  const t = bad.tracks[track]!;
  t[field] = t[field].slice();
  t[field][index] = value;
  return bad;
}

describe.each(BACKENDS)('the crowd pipeline refuses bad input on %s', (backend) => {
  it('a mixer in a MixerBatch and in an InertializedMixerGroup over mixers (either order), or in batches on two solvers', async () => {
    const solver = solvers[backend];
    const c = crowd(3);
    const [a, b, d] = c.mixers as [AnimationMixer, AnimationMixer, AnimationMixer];
    const batch = new MixerBatch(solver, [a, b]);
    expectRefused(
      () => new InertializedMixerGroup(solver, [d, b], { halflife: 0.1 }),
      'InertializedMixerGroup',
      /^InertializedMixerGroup: mixers\[1\] is already attached to a MixerBatch; dispose it first$/,
      RangeError,
    );
    const other = await createSolver({ backend });
    try {
      expectRefused(
        () => new MixerBatch(other, [d, a]),
        'MixerBatch',
        /^MixerBatch: mixers\[1\] is already attached to a MixerBatch/,
        RangeError,
      );
    } finally {
      other.dispose();
    }
    batch.dispose();
    const group = new InertializedMixerGroup(solver, [a], { halflife: 0.1 });
    expectRefused(
      () => new MixerBatch(solver, [b, a]),
      'MixerBatch',
      /^MixerBatch: mixers\[1\] is already attached to an InertializedMixerGroup; dispose it first$/,
      RangeError,
    );
    // nothing taken by the refused ones: b and d can join a batch, and the group still runs its mixer
    new MixerBatch(solver, [b, d]).dispose();
    group.update(1 / 60);
    group.dispose();
  });

  it('non-finite keyframe times and values, naming the mixer, clip and track', () => {
    const solver = solvers[backend];
    const c = crowd(2);
    const cases = [
      [spoiled(c.clip, 'nan time', 4, 'times', 2, Number.NaN), 4, 'times[2] is NaN; keyframe times must be finite'],
      [
        spoiled(c.clip, 'infinite time', 0, 'times', 591, Number.POSITIVE_INFINITY),
        0,
        'times[591] is Infinity; keyframe times must be finite',
      ],
      [
        spoiled(c.clip, 'infinite value', 1, 'values', 0, Number.NEGATIVE_INFINITY),
        1,
        'values[0] is -Infinity; keyframe values must be finite',
      ],
    ] as const;
    for (const [clip, track, what] of cases) {
      const mixer = new AnimationMixer(c.meshes[1]!);
      mixer.clipAction(clip);
      const message = expectRefused(() => new MixerBatch(solver, [c.mixers[0]!, mixer]), 'MixerBatch', /keyframe/, RangeError);
      expect(message).toBe(
        `MixerBatch: mixers[1]'s clip ${JSON.stringify(clip.name)} track ${JSON.stringify(clip.tracks[track]!.name)}: ${what}`,
      );
    }
    // nothing taken: mixers[0] can join a batch
    new MixerBatch(solver, [c.mixers[0]!]).dispose();
  });

  it('a bad clip played after the layout: the next update refuses it (batch, mixer or group), nothing changed; without it, three again', () => {
    const solver = solvers[backend];
    const ours = crowd(3, 5),
      theirs = crowd(3, 5);
    const batch = new MixerBatch(solver, ours.mixers);
    const group = new InertializedMixerGroup(solver, batch, { halflife: 0.1 });
    const twin = new InertializedMixerGroup(solver, theirs.mixers, { halflife: 0.1 });
    try {
      for (let f = 0; f < 4; f++) {
        group.update(1 / 50);
        twin.update(1 / 50);
      }
      const bad = spoiled(ours.clip, 'bad', 6, 'values', 9, Number.NaN);
      const action: AnimationAction = ours.mixers[1]!.clipAction(bad).play();
      const before = pose(ours.bones);
      const times = ours.mixers.map((m) => m.time);
      const expected = `mixers[1]'s clip "bad" track ${JSON.stringify(bad.tracks[6]!.name)}: values[9] is NaN; keyframe values must be finite`;
      expect(expectRefused(() => group.update(1 / 50), 'InertializedMixerGroup', /keyframe/, RangeError)).toBe(
        `InertializedMixerGroup.update: ${expected}`,
      );
      expect(expectRefused(() => group.transition(), 'InertializedMixerGroup', /keyframe/, RangeError)).toBe(
        `InertializedMixerGroup.transition: ${expected}`,
      );
      expect(pose(ours.bones)).toEqual(before);
      expect(ours.mixers.map((m) => m.time)).toEqual(times);
      // the bad action taken back: the group over the batch carries on as its twin, a transition first (its velocities
      // come from the last update that ran)
      action.stop();
      ours.mixers[1]!.uncacheAction(bad);
      for (const [g, c] of [
        [group, ours],
        [twin, theirs],
      ] as const)
        g.transition(c.mixers[2]!);
      for (let f = 0; f < 6; f++) {
        group.update(1 / 50);
        twin.update(1 / 50);
        expectIdentical(pose(ours.bones), pose(theirs.bones), `frame ${f}`);
      }
    } finally {
      group.dispose();
      twin.dispose();
    }
    // a group disposed while a bad clip waits for the batch's next layout: it lets go without throwing; then the batch's
    // update and a mixer's own update refuse the clip the same way
    const again = new InertializedMixerGroup(solver, batch, { halflife: 0.1 });
    const bad = spoiled(ours.clip, 'bad again', 2, 'times', 7, -1);
    ours.mixers[0]!.clipAction(bad).play();
    again.dispose();
    const before = pose(ours.bones);
    expectRefused(
      () => batch.update(1 / 50),
      'MixerBatch',
      /^MixerBatch.update: mixers\[0\]'s clip "bad again" track .*ascending order$/,
      RangeError,
    );
    expect(() => ours.mixers[2]!.update(1 / 50)).toThrow(/mixers\[0\]'s clip "bad again" track .*ascending order$/);
    expect(pose(ours.bones)).toEqual(before);
    batch.dispose();
  });

  it('use after dispose: a TypeError naming the method, and the objects left as they were', () => {
    const solver = solvers[backend];
    const c = crowd(2);
    const batch = new MixerBatch(solver, c.mixers);
    const group = new InertializedMixerGroup(solver, batch, { halflife: 0.1 });
    const skins = new SkeletonBatch(solver, c.meshes, { source: group });
    group.update(1 / 60);
    skins.update();
    skins.dispose();
    expectRefused(() => skins.update(), 'SkeletonBatch', /^SkeletonBatch.update: this SkeletonBatch has been disposed$/, TypeError);
    expectRefused(() => skins.refresh(), 'SkeletonBatch', /^SkeletonBatch.refresh: this SkeletonBatch has been disposed$/, TypeError);
    group.dispose();
    expectRefused(() => group.update(1 / 60), 'InertializedMixerGroup', /this InertializedMixerGroup has been disposed$/, TypeError);
    expectRefused(() => group.transition(), 'InertializedMixerGroup', /this InertializedMixerGroup has been disposed$/, TypeError);
    batch.dispose();
    const before = pose(c.bones);
    expectRefused(
      () => new InertializedMixerGroup(solver, batch, { halflife: 0.1 }),
      'InertializedMixerGroup',
      /^InertializedMixerGroup: mixers \(a MixerBatch\): this MixerBatch has been disposed$/,
      TypeError,
    );
    expectRefused(() => batch.update(1 / 60), 'MixerBatch', /^MixerBatch.update: this MixerBatch has been disposed$/, TypeError);
    expect(pose(c.bones)).toEqual(before);
  });

  it("a batch on a disposed solver: its update and its mixers' own updates are refused, nothing written", async () => {
    const solver = await createSolver({ backend });
    const c = crowd(2);
    const batch = new MixerBatch(solver, c.mixers);
    batch.update(1 / 60);
    solver.dispose();
    const before = pose(c.bones);
    expectRefused(() => batch.update(1 / 60), 'MixerBatch', /^MixerBatch.update: this solver has been disposed/, TypeError);
    expect(() => c.mixers[0]!.update(1 / 60)).toThrow(TypeError);
    expect(pose(c.bones)).toEqual(before);
    batch.dispose(); // the mixers are three's again
    c.mixers[0]!.update(1 / 60);
  });
});

describe.each(BACKENDS)('actions of other mixers, as three accepts them, on %s', (backend) => {
  it('cross-fades (to and from) and syncs between mixers of the batch and a mixer outside it equal three', () => {
    const solver = solvers[backend];
    const ours = crowd(3, 8),
      theirs = crowd(3, 8);
    const events = [ours, theirs].map((c) => {
      const list: string[] = [];
      c.mixers.forEach((mixer, m) => {
        mixer.addEventListener('loop', (e) => list.push(`loop ${m} ${e.loopDelta}`));
        mixer.addEventListener('finished', (e) => list.push(`finished ${m} ${e.direction}`));
      });
      return list;
    });
    // mixer 2 is outside the batch: three's own update, before or after the batch's
    const batch = new MixerBatch(solver, ours.mixers.slice(0, 2));
    const actions = [ours, theirs].map((c) => c.characters.map((ch) => ch.action));
    const script: Record<number, (a: AnimationAction[]) => void> = {
      3: (a) => a[0]!.crossFadeTo(a[1]!.reset().play(), 0.3, true), // to an action of another mixer of the batch, warped
      9: (a) => a[1]!.crossFadeFrom(a[2]!, 0.2, false), // from the outside mixer's action
      15: (a) => a[2]!.reset().play().crossFadeFrom(a[0]!.play(), 0.25, true), // the outside mixer's action from one of the batch
      21: (a) => a[0]!.reset().play().syncWith(a[2]!),
      27: (a) => a[2]!.crossFadeTo(a[1]!, 0.4, true),
    };
    try {
      for (let f = 0; f < 40; f++) {
        script[f]?.(actions[0]!);
        script[f]?.(actions[1]!);
        const dt = 1 / 60 + (f % 3) / 300;
        // the outside mixer after the batch's, or before (the events in the same order on both sides)
        if (f % 2 === 0) {
          batch.update(dt);
          ours.mixers[2]!.update(dt);
          for (const m of [0, 1, 2]) theirs.mixers[m]!.update(dt);
        } else {
          ours.mixers[2]!.update(dt);
          batch.update(dt);
          for (const m of [2, 0, 1]) theirs.mixers[m]!.update(dt);
        }
        expectIdentical(pose(ours.bones), pose(theirs.bones), `frame ${f}`);
      }
    } finally {
      batch.dispose();
    }
    // the script crossed its fades: weights and time scales as three's (warps included)
    actions[0]!.forEach((a, m) => {
      expect(a.getEffectiveWeight()).toBe(actions[1]![m]!.getEffectiveWeight());
      expect(a.getEffectiveTimeScale()).toBe(actions[1]![m]!.getEffectiveTimeScale());
      expect(a.time).toBe(actions[1]![m]!.time);
    });
    expect(events[0]).toEqual(events[1]);
  });
});
