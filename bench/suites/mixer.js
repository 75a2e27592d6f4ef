// Animation sampling of a crowd (issue 26): 1,000 skinned pirouette characters of 25 bones
// (test/fixtures/skinned-crowd.js: three's BVHLoader clip, a position and a quaternion track per
// bone, SkeletonUtils.clone, a mixer each at its own time), in two settings: one action each, and
// two actions each blended half and half (a cross-fade's middle: two tracks into every property).
// One element is one character; every call is one frame (dt 1/60 s).
//   three mixer.update            every mixer.update(dt) (three r187, the baseline)
//   MixerBatch.update             one batch.update(dt): three's per-action code, one kernel call
//                                 for every track of every mixer, then the changed properties
//                                 written as three's PropertyBindings write them; also on 'simd×2',
//                                 the threads suite's solver on 2 threads (the kernel split by mixers)
//   MixerBatch sampling, no writes   the same without writing the objects (an internal switch): the
//                                 per-action code and the kernel, the pose left in solver memory,
//                                 what a pipeline that reads it there (issue 26's item 2) would pay
//   group over the mixers         InertializedMixerGroup.update (halflife 0.1 s): every mixer.update, then
//                                 the inertialization and the bones written (the library today)
//   group over a MixerBatch       the same group built on a MixerBatch: one kernel call samples every mixer
//   writes floor                  only what any sampler must do to three's objects: every bone's
//                                 position, quaternion and rotation (the Euler three's onChange keeps
//                                 beside the quaternion, its angles computed with the pose, as the
//                                 kernel does) set from arrays (MixerBatch's own write,
//                                 src/three/object-writes.ts) and its matrixWorldNeedsUpdate, as
//                                 PropertyBinding.setValue does
// Target (issue 26): MixerBatch.update ≥ 3× three's mixers, one thread (medians).
import { readFileSync } from 'node:fs';
import { AnimationUtils } from 'three';
import { InertializedMixerGroup, MixerBatch } from '../../dist/three/index.js';
import { setQuaternionAndAngles } from '../../dist/three/object-writes.js';
import { buildSkinnedCrowd } from '../../test/fixtures/skinned-crowd.js';
import { threaded } from './threads.js'; // createSolver({ threads: 2 }), shared with the threads suite

const SIZES = [1000];
const THREADED = 'simd×2';
const ALL = ['simd', 'wasm', 'js', THREADED];
/** The solver of a row: the run's solver of its backend, or the threaded one. */
const solverOf = (solver, backend) => (backend === THREADED ? threaded : solver);
const BVH = readFileSync(new URL('../../data/pirouette.bvh', import.meta.url), 'utf8');
const DT = 1 / 60;
const SETTINGS = ['one action', 'two actions blended'];

/** A crowd: one action each, or a second one (a part of the capture) at weight 0.5 each. */
function crowd(count, setting) {
  const built = buildSkinnedCrowd(BVH, count, { seed: 26 });
  if (setting === SETTINGS[1]) {
    const times = built.clip.tracks[0].times;
    const part = AnimationUtils.subclip(built.clip, 'part', 100, 400, 1 / (times[1] - times[0]));
    built.characters.forEach((c, i) => {
      c.action.setEffectiveWeight(0.5);
      const second = c.mixer.clipAction(part).play().setEffectiveWeight(0.5);
      second.time = (i / count) * part.duration;
    });
  }
  for (const c of built.characters) c.mixer.update(DT);
  return { ...built, mixers: built.characters.map((c) => c.mixer), bones: built.characters.flatMap((c) => c.mesh.skeleton.bones) };
}

function task(kernel, n, setting, backends, make) {
  return {
    kernel,
    variant: `${n} characters, ${setting}`,
    params: 'none',
    n,
    backends,
    budget: { reps: 1, time: 1500, warmup: 300, minIterations: 20 },
    setup(solver, backend) {
      const c = crowd(n, setting);
      const { call, dispose = () => {} } = make(c, solverOf(solver, backend));
      return { call, reset: () => {}, bounded: () => true, dispose };
    },
  };
}

export default {
  name: 'mixer',
  sizes: ({ quick }) => (quick ? [] : SIZES),
  tasks(n) {
    return SETTINGS.flatMap((setting) => [
      task('three mixer.update', n, setting, ['simd'], (c) => ({
        call: () => {
          for (const mixer of c.mixers) mixer.update(DT);
        },
      })),
      task('MixerBatch.update', n, setting, ALL, (c, solver) => {
        const batch = new MixerBatch(solver, c.mixers);
        return { call: () => batch.update(DT), dispose: () => batch.dispose() };
      }),
      task('MixerBatch sampling, no writes', n, setting, ['simd', THREADED], (c, solver) => {
        const batch = new MixerBatch(solver, c.mixers);
        batch.writeObjects = false;
        return { call: () => batch.update(DT), dispose: () => batch.dispose() };
      }),
      task('group over the mixers', n, setting, ['simd'], (c, solver) => {
        const group = new InertializedMixerGroup(solver, c.mixers, { halflife: 0.1 });
        return { call: () => group.update(DT), dispose: () => group.dispose() };
      }),
      task('group over a MixerBatch', n, setting, ['simd', THREADED], (c, solver) => {
        const batch = new MixerBatch(solver, c.mixers);
        const group = new InertializedMixerGroup(solver, batch, { halflife: 0.1 });
        return {
          call: () => group.update(DT),
          dispose: () => {
            group.dispose();
            batch.dispose();
          },
        };
      }),
      task('writes floor', n, setting, ['simd'], (c) => {
        const values = new Float64Array(7 * c.bones.length);
        const angles = new Float64Array(3 * c.bones.length);
        c.bones.forEach((b, i) => {
          b.position.toArray(values, 7 * i);
          b.quaternion.toArray(values, 7 * i + 3);
          angles.set([b.rotation.x, b.rotation.y, b.rotation.z], 3 * i);
        });
        return {
          call: () => {
            const bones = c.bones;
            for (let i = 0; i < bones.length; i++) {
              const b = bones[i];
              b.position.fromArray(values, 7 * i);
              b.matrixWorldNeedsUpdate = true;
              setQuaternionAndAngles(b.quaternion, b.rotation, values, 7 * i + 3, angles, 3 * i);
              b.matrixWorldNeedsUpdate = true;
            }
          },
        };
      }),
    ]);
  },
  targets(t) {
    const lines = [];
    for (const n of SIZES) {
      for (const setting of SETTINGS) {
        const row = (kernel, backend = 'simd') => t.find(kernel, 'none', backend, n, `${n} characters, ${setting}`);
        const three = row('three mixer.update');
        if (!three) continue;
        const ms = (r) => (r.nsPerElementP50 * n) / 1e6;
        lines.push(`${n} characters, ${setting}: three's mixers ${t.fmt(ms(three))} ms a frame`);
        for (const backend of ALL) {
          const ours = row('MixerBatch.update', backend);
          if (!ours) continue;
          const value = three.nsPerElementP50 / ours.nsPerElementP50;
          if (backend === 'simd')
            t.check({
              name: `${n} characters, ${setting}: MixerBatch.update ≥ 3× every mixer.update (medians)`,
              value,
              min: 3,
              unit: '×',
              noisy: three.noisy || ours.noisy,
            });
          lines.push(`MixerBatch.update, ${backend}: ${t.fmt(ms(ours))} ms (${t.fmt(value)}× three)`);
        }
        for (const backend of ['simd', THREADED]) {
          const sampling = row('MixerBatch sampling, no writes', backend);
          if (sampling)
            lines.push(
              `MixerBatch sampling without writes, ${backend}: ${t.fmt(ms(sampling))} ms (${t.fmt(three.nsPerElementP50 / sampling.nsPerElementP50)}× three; issue 26's target for the pipeline: ≥ 20×)`,
            );
        }
        const groupPlain = row('group over the mixers');
        for (const backend of ['simd', THREADED]) {
          const groupBatch = row('group over a MixerBatch', backend);
          if (groupPlain && groupBatch)
            lines.push(
              `InertializedMixerGroup.update over a MixerBatch, ${backend}: ${t.fmt(ms(groupBatch))} ms; over the mixers ${t.fmt(ms(groupPlain))} ms (${t.fmt(groupPlain.nsPerElementP50 / groupBatch.nsPerElementP50)}×; three's mixers alone ${t.fmt(ms(three))} ms)`,
            );
        }
        const floor = row('writes floor');
        if (floor) lines.push(`writing every bone's position and quaternion alone (the floor): ${t.fmt(ms(floor))} ms`);
      }
    }
    return { header: "mixer: sampling a crowd's animation, one run", lines };
  },
  settings: { sizes: SIZES, seed: 26 },
};
