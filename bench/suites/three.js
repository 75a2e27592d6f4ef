// three.js: 100 characters, each a copy of the pirouette skeleton (25 bones, real
// three.js AnimationMixer + BVHLoader) playing the clip at its own time. Two rows, SIMD solver:
//   mixer.update                    the 100 plain mixer.update(dt) calls;
//   InertializedMixerGroup.update   the same mixers through one InertializedMixerGroup (one
//                                   kernel call for all 2,500 bones), after a jump and transition.
// One element is one character. The target: what the group adds over the plain calls costs at
// most half of what those calls cost (both rows of this run). See bench/README.md.
import { readFileSync } from 'node:fs';
import { AnimationMixer, Object3D } from 'three';
import { BVHLoader } from 'three/examples/jsm/loaders/BVHLoader.js';
import { InertializedMixerGroup } from '../../dist/three/index.js';
import { DT } from './shared.js';

const CHARACTERS = 100;
const HALFLIFE = 0.1;
const VARIANT = `${CHARACTERS}×pirouette`;
const BVH = new URL('../../data/pirouette.bvh', import.meta.url);

let loaded = null;
/** The pirouette, parsed once (three's BVHLoader). */
function pirouette() {
  loaded ??= new BVHLoader().parse(readFileSync(BVH, 'utf8'));
  return loaded;
}

/** CHARACTERS mixers, each on its own copy of the skeleton, playing the clip from staggered times. */
function crowd() {
  const { skeleton, clip } = pirouette();
  return Array.from({ length: CHARACTERS }, (_, c) => {
    const root = new Object3D();
    root.add(skeleton.bones[0].clone());
    const mixer = new AnimationMixer(root);
    const action = mixer.clipAction(clip).play();
    action.time = (c * 0.037) % clip.duration;
    mixer.update(0);
    return { mixer, action, duration: clip.duration };
  });
}

function task(kernel, setup) {
  return {
    kernel,
    variant: VARIANT,
    params: 'none',
    n: CHARACTERS,
    backends: ['simd'],
    setup(solver) {
      return { bounded: () => true, ...setup(solver) };
    },
  };
}

export default {
  name: 'three-mixer',
  sizes: ({ quick }) => (quick ? [] : [CHARACTERS]),
  tasks() {
    return [
      task('mixer.update', () => {
        const characters = crowd();
        return { call: () => characters.forEach(({ mixer }) => mixer.update(DT)), reset: () => {}, dispose: () => {} };
      }),
      task('InertializedMixerGroup.update', (solver) => {
        const characters = crowd();
        const group = new InertializedMixerGroup(
          solver,
          characters.map((c) => c.mixer),
          { halflife: HALFLIFE },
        );
        let jumps = 0;
        // a jump of every character (so that every offset is live), then frames; each reset jumps again
        const reset = () => {
          jumps++;
          for (const { action, duration } of characters) action.time = (action.time + 0.5 + 0.1 * jumps) % duration;
          group.transition();
        };
        reset();
        return { call: () => group.update(DT), reset, dispose: () => group.dispose() };
      }),
    ];
  },
  targets(t) {
    const plain = t.find('mixer.update', 'none', 'simd', CHARACTERS, VARIANT);
    const group = t.find('InertializedMixerGroup.update', 'none', 'simd', CHARACTERS, VARIANT);
    const lines = [];
    if (plain && group) {
      const added = (group.nsPerElement - plain.nsPerElement) / plain.nsPerElement;
      t.check({
        name: `${CHARACTERS} × pirouette: InertializedMixerGroup.update adds ≤ 0.5× the mixer.update calls' cost`,
        value: added,
        max: 0.5,
        unit: '× mixer.update',
        noisy: plain.noisy || group.noisy,
      });
      lines.push(
        `per character: mixer.update ${t.fmt(plain.nsPerElement / 1000)} µs, through the group ${t.fmt(group.nsPerElement / 1000)} µs ` +
          `(added ${t.fmt((group.nsPerElement - plain.nsPerElement) / 1000)} µs)`,
      );
    }
    return { header: 'three: cost per character (25 bones), one run', lines };
  },
  settings: { characters: CHARACTERS, bones: 25, halflife: HALFLIFE },
};
