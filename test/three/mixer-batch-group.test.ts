/**
 * InertializedMixerGroup over a MixerBatch, against the same group over the mixers themselves, on
 * every backend: twin pirouette crowds with two clips each, cross-fades and jumps followed by
 * `group.transition(mixer)`. The batch leaves each mixer's pose in three's PropertyMixer buffers,
 * bit for bit what `mixer.update` leaves there, so the two groups' inputs, outputs and objects are
 * identical (Object.is), frame after frame. The second clip also animates a bone's visibility, a
 * track the kernel leaves to three: the batch applies it through three's PropertyMixer, as the mixer would.
 */
import { describe, expect, it } from 'vitest';
import {
  AnimationClip,
  AnimationUtils,
  BooleanKeyframeTrack,
  NumberKeyframeTrack,
  type AnimationAction,
  type AnimationMixer,
  type Material,
  type Object3D,
} from 'three';
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
  part.tracks.push(new BooleanKeyframeTrack(`${characters[0]!.mesh.skeleton.bones[3]!.name}.visible`, [0, 0.4, 1.1], [true, false, true]));
  return {
    mixers: characters.map((c) => c.mixer),
    actions: characters.map((c) => [c.action, c.mixer.clipAction(part)]),
    objects: characters.map((c) => c.mesh.skeleton.bones),
  };
}

const values = (objects: Object3D[][]): unknown[][] =>
  objects.map((list) => list.flatMap((o) => [...o.position.toArray(), ...o.quaternion.toArray(), ...o.scale.toArray(), o.visible]));

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
    let hidden = 0;
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
      hidden += ours.objects.filter((list) => !list[3]!.visible).length;
    }
    // the visibility track played (its bone hidden in some frames)
    expect(hidden).toBeGreaterThan(0);
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

  it("an action a 'loop' listener plays in its mixer's update, of a clip the layout does not know: three's values from that frame on", () => {
    // the listener's action animates the mesh's material (a binding the layout has not seen): in that update
    // three's mixer applies the new binding (unchanged), at the next the batch lays out again (or leaves the
    // mixer to three's own update), and from then on the opacity and the material's version (PropertyBinding
    // sets needsUpdate) follow three's, with the bones
    const solver = solvers[backend];
    const make = () => {
      const { characters } = buildSkinnedCrowd(bvhText, 8, { seed: 5 });
      const fade = new AnimationClip('fade', 1, [new NumberKeyframeTrack('.material.opacity', [0, 1], [0.2, 0.9])]);
      let loops = 0;
      for (const c of characters) {
        c.mesh.material = (c.mesh.material as Material).clone();
        c.mixer.addEventListener('loop', () => {
          loops++;
          c.mixer.clipAction(fade).play();
        });
      }
      const materials = characters.map((c) => c.mesh.material as Material);
      return { mixers: characters.map((c) => c.mixer), materials, bones: characters.map((c) => c.mesh.skeleton.bones), loops: () => loops };
    };
    const three = make();
    const ours = make();
    const plain = new InertializedMixerGroup(solver, three.mixers, { halflife: 0.1 });
    const batch = new MixerBatch(solver, ours.mixers);
    const group = new InertializedMixerGroup(solver, batch, { halflife: 0.1 });
    const materials = (side: typeof ours): unknown[][] => side.materials.map((m) => [m.opacity, m.version]);
    for (let f = 0; f < 330; f++) {
      plain.update(1 / 60);
      group.update(1 / 60);
      expectIdentical(values(ours.bones), values(three.bones), `frame ${f}`);
      expectIdentical(materials(ours), materials(three), `frame ${f}, materials`);
    }
    // every character looped (its clip is 4.92 s) and played the new clip
    expect(ours.loops()).toBeGreaterThanOrEqual(8);
    expect(ours.materials.every((m) => m.version > 0)).toBe(true);
    group.dispose();
    plain.dispose();
    batch.dispose();
  });
});
