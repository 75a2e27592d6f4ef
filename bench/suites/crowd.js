// A crowd's whole animation frame (issue 26): skinned pirouette characters of 25 bones
// (test/fixtures/skinned-crowd.js: three's BVHLoader clip, SkeletonUtils.clone, a mixer each at its
// own time), in the glTF layout (the bones under their mesh, each character under its own group in
// one scene). One element is one character; every call is one frame (dt 1/60 s), without rendering.
//   three frame                       every mixer.update(dt), the renderer's scene.updateMatrixWorld(),
//                                     every skeleton.update() (three r187, the baseline)
//   MixerBatch frame                  batch.update(dt) + SkeletonBatch.update() (reading the batch's
//                                     buffers) + scene.updateMatrixWorld() (the bones off its walk)
//   group frame                       the same with an InertializedMixerGroup over the MixerBatch
//                                     (halflife 0.1 s): group.update(dt) + SkeletonBatch.update() + scene update
//   three scene.updateMatrixWorld     the renderer's scene update alone, on three's own crowd
//   scene.updateMatrixWorld, attached the same while a SkeletonBatch is attached (the bones off the walk)
// 'simd×2' is the threads suite's solver on 2 threads (both kernels split by whole characters).
// The rows of a size are measured together, in alternating rounds (`interleave`, bench/run.js).
// Targets (issue 26): 1,000 characters, the group frame ≥ 12× three's on one thread (threads: 2
// reported); 10,000 characters, the group frame within 16 ms on threads: 2 (one thread reported).
import { readFileSync } from 'node:fs';
import { Scene } from 'three';
import { InertializedMixerGroup, MixerBatch, SkeletonBatch } from '../../dist/three/index.js';
import { buildSkinnedCrowd } from '../../test/fixtures/skinned-crowd.js';
import { threaded } from './threads.js'; // createSolver({ threads: 2 }), shared with the threads suite

const SIZES = [1000, 10000];
const THREADED = 'simd×2';
const solverOf = (solver, backend) => (backend === THREADED ? threaded : solver);
const BVH = readFileSync(new URL('../../data/pirouette.bvh', import.meta.url), 'utf8');
const DT = 1 / 60;

/** A crowd in one scene, each character's mixer at its own time. */
function crowd(count) {
  const built = buildSkinnedCrowd(BVH, count, { seed: 26 });
  const scene = new Scene();
  for (const c of built.characters) {
    scene.add(c.group);
    c.mixer.update(DT);
  }
  scene.updateMatrixWorld();
  return {
    scene,
    mixers: built.characters.map((c) => c.mixer),
    meshes: built.characters.map((c) => c.mesh),
  };
}

function task(kernel, n, backends, make) {
  return {
    kernel,
    variant: `${n} characters`,
    params: 'none',
    n,
    backends,
    interleave: `crowd ${n}`,
    budget: { reps: 1, time: n >= 10000 ? 4000 : 2000, warmup: 300, minIterations: 20 },
    setup(solver, backend) {
      const c = crowd(n);
      const { call, dispose = () => {} } = make(c, solverOf(solver, backend));
      return { call, reset: () => {}, bounded: () => true, dispose };
    },
  };
}

/** Our frame: the sampler (a MixerBatch, or a group over one), the skinning matrices, the renderer's scene update. */
function ours(withGroup) {
  return (c, solver) => {
    const batch = new MixerBatch(solver, c.mixers);
    const group = withGroup ? new InertializedMixerGroup(solver, batch, { halflife: 0.1 }) : null;
    const skins = new SkeletonBatch(solver, c.meshes, { source: group ?? batch });
    const sampler = group ?? batch;
    return {
      call: () => {
        sampler.update(DT);
        skins.update();
        c.scene.updateMatrixWorld();
      },
      dispose: () => {
        skins.dispose();
        group?.dispose();
        batch.dispose();
      },
    };
  };
}

export default {
  name: 'crowd',
  sizes: ({ quick }) => (quick ? [] : SIZES),
  tasks(n) {
    if (n >= 10000) return [task('group frame', n, ['simd', THREADED], ours(true))];
    return [
      task('three frame', n, ['simd'], (c) => ({
        call: () => {
          for (const mixer of c.mixers) mixer.update(DT);
          c.scene.updateMatrixWorld();
          for (const mesh of c.meshes) mesh.skeleton.update();
        },
      })),
      task('MixerBatch frame', n, ['simd', THREADED], ours(false)),
      task('group frame', n, ['simd', THREADED], ours(true)),
      task('three scene.updateMatrixWorld', n, ['simd'], (c) => ({ call: () => c.scene.updateMatrixWorld() })),
      task('scene.updateMatrixWorld, attached', n, ['simd'], (c, solver) => {
        const skins = new SkeletonBatch(solver, c.meshes);
        return { call: () => c.scene.updateMatrixWorld(), dispose: () => skins.dispose() };
      }),
    ];
  },
  targets(t) {
    const lines = [];
    const ms = (r, n) => (r.nsPerElementP50 * n) / 1e6;
    const n = 1000;
    const row = (kernel, backend = 'simd', size = n) => t.find(kernel, 'none', backend, size, `${size} characters`);
    const three = row('three frame');
    if (three) {
      lines.push(`${n} characters: three's frame ${t.fmt(ms(three, n))} ms (mixers + scene.updateMatrixWorld() + skeleton.update())`);
      for (const kernel of ['group frame', 'MixerBatch frame']) {
        for (const backend of ['simd', THREADED]) {
          const r = row(kernel, backend);
          if (!r) continue;
          const value = three.nsPerElementP50 / r.nsPerElementP50;
          if (kernel === 'group frame' && backend === 'simd')
            t.check({
              name: `${n} characters: group over a MixerBatch + SkeletonBatch + scene update ≥ 12× three's frame, one thread (medians)`,
              value,
              min: 12,
              unit: '×',
              noisy: three.noisy || r.noisy,
            });
          lines.push(`${kernel}, ${backend}: ${t.fmt(ms(r, n))} ms (${t.fmt(value)}× three's)`);
        }
      }
      const before = row('three scene.updateMatrixWorld');
      const after = row('scene.updateMatrixWorld, attached');
      if (before && after)
        lines.push(
          `the renderer's scene.updateMatrixWorld(): three's ${t.fmt(ms(before, n))} ms, with a SkeletonBatch attached (bones off the walk) ${t.fmt(ms(after, n))} ms`,
        );
    }
    const big = 10000;
    const split = row('group frame', THREADED, big);
    const one = row('group frame', 'simd', big);
    if (split) {
      t.check({
        name: `${big} characters: group over a MixerBatch + SkeletonBatch + scene update within 16 ms on threads: 2 (median)`,
        value: ms(split, big),
        max: 16,
        unit: 'ms',
        noisy: split.noisy,
      });
      lines.push(
        `${big} characters, group frame: ${t.fmt(ms(split, big))} ms on threads: 2${one ? `, ${t.fmt(ms(one, big))} ms on one thread` : ''}`,
      );
    }
    return { header: "crowd: a crowd's whole animation frame, one run", lines };
  },
  settings: { sizes: SIZES, seed: 26 },
};
