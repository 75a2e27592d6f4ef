/**
 * InertializedMixerGroup over a MixerBatch, against the same group over the mixers themselves, on
 * every backend: twin pirouette crowds with two clips each, cross-fades and jumps followed by
 * `group.transition(mixer)`. The batch leaves each mixer's pose in three's PropertyMixer buffers,
 * bit for bit what `mixer.update` leaves there, so the two groups' inputs, outputs and objects are
 * identical (Object.is), frame after frame.
 */
import { describe, expect, it } from 'vitest';
import { AnimationUtils, type AnimationAction, type AnimationMixer, type Object3D } from 'three';
import { InertializedMixerGroup, MixerBatch } from '../../dist/three/index.js';
import { BACKENDS, useSolvers } from '../helpers/backends.js';
import { buildSkinnedCrowd } from '../fixtures/skinned-crowd.js';
import bvhText from '../../data/pirouette.bvh?raw';
import { expectIdentical } from './mixer-batch-twins.js';
import { mulberry32 } from '../helpers/random.js';

const solvers = useSolvers();

function crowd(count: number): { mixers: AnimationMixer[]; actions: AnimationAction[][]; objects: Object3D[][] } {
  const { characters, clip } = buildSkinnedCrowd(bvhText, count, { seed: 12 });
  const times = clip.tracks[0]!.times;
  const part = AnimationUtils.subclip(clip, 'part', 150, 450, 1 / (times[1]! - times[0]!));
  return {
    mixers: characters.map((c) => c.mixer),
    actions: characters.map((c) => [c.action, c.mixer.clipAction(part)]),
    objects: characters.map((c) => c.mesh.skeleton.bones),
  };
}

const values = (objects: Object3D[][]): unknown[][] =>
  objects.map((list) => list.flatMap((o) => [...o.position.toArray(), ...o.quaternion.toArray(), ...o.scale.toArray()]));

describe.each(BACKENDS)('InertializedMixerGroup over a MixerBatch, %s', (backend) => {
  it('equals the group over the mixers bit for bit, through cross-fades, jumps and transitions', () => {
    const solver = solvers[backend];
    const three = crowd(12);
    const ours = crowd(12);
    const plain = new InertializedMixerGroup(solver, three.mixers, { halflife: 0.1 });
    const batch = new MixerBatch(solver, ours.mixers);
    const group = new InertializedMixerGroup(solver, batch, { halflife: 0.1 });
    expect(() => batch.dispose()).toThrow(
      new TypeError('MixerBatch.dispose: an InertializedMixerGroup reads this MixerBatch; dispose the group first'),
    );
    expect(() => new InertializedMixerGroup(solver, batch, { halflife: 0.1 })).toThrow(RangeError);
    const random = mulberry32(4);
    for (let f = 0; f < 150; f++) {
      for (let m = 0; m < 12; m++) {
        const r = random();
        if (r > 0.04) continue;
        const jump = random();
        for (const side of [three, ours]) {
          const [a, b] = side.actions[m]!;
          if (r < 0.02) {
            const [from, to] = a!.getEffectiveWeight() > 0.5 ? [a!, b!] : [b!, a!];
            to.reset().play();
            from.crossFadeTo(to, 0.3, false);
          } else {
            a!.time = jump * a!.getClip().duration;
          }
        }
        plain.transition(three.mixers[m]!);
        group.transition(ours.mixers[m]!);
      }
      const dt = 1 / 60 + (f % 4) / 400;
      plain.update(dt);
      group.update(dt);
      expectIdentical(values(ours.objects), values(three.objects), `frame ${f}`);
    }
    group.dispose();
    // the batch runs on its own again, writing the objects
    plain.dispose();
    for (let f = 0; f < 5; f++) {
      for (const mixer of three.mixers) mixer.update(1 / 60);
      batch.update(1 / 60);
      expectIdentical(values(ours.objects), values(three.objects), `after the groups, frame ${f}`);
    }
    batch.dispose();
  });
});
