/**
 * The pose gather (assembly/kernels/pose-gather.ts, reference src/reference/pose-gather.ts): what
 * InertializedMixerGroup and a SkeletonBatch over a MixerBatch read from the batch's buffers, in
 * one call. The kernel on every backend (and split over 2 threads) against the reference on random
 * layouts: in use or not, seen or not, listed or read from the original region, float32 and float64
 * destinations, values that are not finite (copied as they are; float64 bit for bit). Then the
 * error path through a SkeletonBatch: a value the kernel lists (its binding not in use) is read
 * from the bone, and a NaN there is a RangeError naming the mesh and the bone, nothing written.
 */
import { describe, expect, it } from 'vitest';
import { Scene, type AnimationMixer } from 'three';
import { MixerBatch, SkeletonBatch } from '../../dist/three/index.js';
import { gatherPoseCall } from '../../dist/api/pose-gather-kernel.js';
import { ELEMENT_INTS, ROW_INTS, elementCode, gatherPose, type GatherArrays } from '../../dist/reference/pose-gather.js';
import { int32View } from '../../dist/api/skeleton-kernel.js';
import { useSolversWithThreads, THREADS_2 } from '../helpers/backends.js';
import { mulberry32 } from '../helpers/random.js';
import { buildSkinnedCrowd } from '../fixtures/skinned-crowd.js';
import bvhText from '../../data/pirouette.bvh?raw';
import type { Solver } from '../../dist/index.js';

const { names: SOLVERS, solvers } = useSolversWithThreads();

/** The batch's row width, as MixerBatch lays it out: the accumulator index at field 4. */
const BATCH_ROW = 8;

interface Layout {
  mixers: number;
  elements: number;
  blocks: number;
  applies: number;
}

/** A random layout in `alloc`'s memory: the gather's arrays filled, the destinations zeroed. */
function randomLayout(alloc: (length: number) => Float32Array, layout: Layout, seed: number, listing: boolean) {
  const random = mulberry32(seed);
  const ints = (n: number) => int32View(alloc(n));
  const f64 = (n: number) => {
    const a = alloc(2 * n);
    return new Float64Array(a.buffer, a.byteOffset, n);
  };
  const flags = alloc(Math.ceil(layout.applies / 4));
  const batchRows = ints(BATCH_ROW * layout.mixers);
  const a: GatherArrays = {
    rows: ints(ROW_INTS * layout.mixers),
    accu: batchRows.subarray(4),
    accuStride: BATCH_ROW,
    elements: ints(ELEMENT_INTS * layout.elements),
    seen: ints(layout.elements),
    active: new Uint8Array(flags.buffer, flags.byteOffset, layout.applies),
    blocks: f64(layout.blocks),
    missing: ints(layout.elements),
    flag: ints(1),
  };
  for (let i = 0; i < a.blocks.length; i++) {
    const r = random();
    a.blocks[i] = r < 0.01 ? Number.NaN : r < 0.02 ? -Infinity : r < 0.03 ? -0 : (random() - 0.5) * 10 ** (20 * random() - 10);
  }
  for (let m = 0; m < layout.mixers; m++) batchRows[BATCH_ROW * m + 4] = random() < 0.5 ? 0 : 1;
  for (let i = 0; i < layout.applies; i++) a.active[i] = random() < 0.7 ? 1 : 0;
  // each mixer's elements: consecutive, some mixers without any
  let e = 0;
  for (let m = 0; m < layout.mixers; m++) {
    const n =
      m === layout.mixers - 1
        ? layout.elements - e
        : Math.min(layout.elements - e, Math.floor(random() * 2 * (layout.elements / layout.mixers)));
    a.rows[ROW_INTS * m] = e;
    a.rows[ROW_INTS * m + 1] = n;
    for (let j = 0; j < n; j++, e++) {
      const kind = Math.floor(random() * 3);
      const size = kind === 1 ? 4 : 3;
      const source = Math.floor(random() * (layout.blocks - 6 * size));
      const at = 4 * e + (size === 3 && random() < 0.5 ? 1 : 0); // each element its own floats (a mixer's own, as in a plan)
      a.elements.set([source, Math.floor(random() * layout.applies), at, elementCode(kind, listing ? -1 : 3)], ELEMENT_INTS * e);
      a.seen[e] = random() < 0.5 ? 1 : 0;
    }
  }
  return a;
}

/** Copies of every array a call writes. */
function written(a: GatherArrays, targets: readonly (Float32Array | Float64Array)[]) {
  return {
    seen: [...a.seen],
    listed: [...a.rows].filter((_, i) => i % ROW_INTS === 2),
    missing: [...a.missing],
    flag: a.flag[0],
    targets: targets.map((t) => [...t]),
  };
}

describe.each(SOLVERS)('gatherPose, %s', (name) => {
  for (const f32 of [true, false]) {
    for (const listing of [false, true]) {
      it(`equals the reference: ${f32 ? 'float32' : 'float64'} destinations, ${listing ? 'elements not in use listed' : 'original values once seen'}`, () => {
        const solver = solvers[name]!;
        // 5,000 mixers: beyond the split minimum, so the threaded solver splits the call by whole mixers
        const layout: Layout = { mixers: 5000, elements: 12000, blocks: 6000, applies: 900 };
        const floats = 4 * layout.elements;
        const owned: Float32Array[] = [];
        const alloc = (n: number) => {
          const array = solver.alloc(n);
          owned.push(array);
          return array;
        };
        const plainAlloc = (n: number) => new Float32Array(n);
        try {
          for (const seed of [1, 2]) {
            const a = randomLayout(alloc, layout, seed, listing);
            const b = randomLayout(plainAlloc, layout, seed, listing); // the reference's copy, in plain arrays
            const targets = (make: (n: number) => Float32Array) =>
              [0, 1, 2].map(() => {
                const array = make(f32 ? floats : 2 * floats);
                return f32 ? array : new Float64Array(array.buffer, array.byteOffset, floats);
              });
            const ours = targets(alloc),
              theirs = targets(plainAlloc);
            const call = gatherPoseCall(solver as Solver, a, f32);
            // the first mixers alone, then the rest (a split of the caller's own)
            // seed 2: the values in use already in place (copied by MixerBatch's sampler): only `seen` is set
            const copied = seed === 2;
            call({ positions: ours[0]!, rotations: ours[1]!, scales: ours[2]! }, 0, 3, copied);
            call({ positions: ours[0]!, rotations: ours[1]!, scales: ours[2]! }, 3, layout.mixers - 3, copied);
            gatherPose(b, { positions: theirs[0]!, rotations: theirs[1]!, scales: theirs[2]! }, 0, layout.mixers, copied);
            const got = written(a, ours),
              expected = written(b, theirs);
            expect(got.flag).toBe(expected.flag);
            expect(got.listed).toEqual(expected.listed);
            expect(got.missing).toEqual(expected.missing);
            expect(got.seen).toEqual(expected.seen);
            // Object.is for each value: NaN, −0 and every float32 rounding as a Float32Array store makes it
            const differences = got.targets.flatMap((t, k) =>
              t.flatMap((v, i) => (Object.is(v, expected.targets[k]![i]) ? [] : [`array ${k}[${i}]: ${v} vs ${expected.targets[k]![i]}`])),
            );
            expect(differences.slice(0, 3)).toEqual([]);
            const nonzero = got.targets.flat().filter((v) => v !== 0).length; // values were written (fewer when copied)
            expect(nonzero).toBeGreaterThan(copied ? (listing ? -1 : layout.elements / 4) : layout.elements);
            if (copied && listing) expect(nonzero).toBe(0);
            if (listing) expect(expected.flag).toBe(1);
            else expect(expected.seen.filter((s) => s === 1).length).toBeGreaterThan(b.seen.length / 2);
          }
          if (name === THREADS_2)
            expect((solver as unknown as { splits(k: string, n: number): boolean }).splits('gatherPose', layout.mixers)).toBe(true);
        } finally {
          for (const array of owned) solver.free(array);
        }
      });
    }
  }

  it('a value listed (its binding not in use) is read from the bone: a NaN there is a RangeError naming the mesh and the bone, nothing written', () => {
    const solver = solvers[name]!;
    const { characters } = buildSkinnedCrowd(bvhText, 3, { seed: 4 });
    const scene = new Scene();
    for (const c of characters) scene.add(c.group);
    const mixers: AnimationMixer[] = characters.map((c) => c.mixer);
    const batch = new MixerBatch(solver, mixers);
    const skins = new SkeletonBatch(
      solver,
      characters.map((c) => c.mesh),
      { source: batch },
    );
    try {
      batch.update(1 / 60);
      skins.update();
      // mixer 1's action stopped: its bindings are no longer in use (three restored the bones' original values)
      characters[1]!.action.stop();
      batch.update(1 / 60);
      skins.update();
      const matrices = characters.map((c) => new Float32Array(c.mesh.skeleton.boneMatrices!));
      const bone = characters[1]!.mesh.skeleton.bones.find((b) => b.name === 'lshldr')!;
      bone.quaternion.x = Number.NaN;
      batch.update(1 / 60);
      expect(() => skins.update()).toThrow(
        new RangeError(`SkeletonBatch.update: meshes[1]'s bone "lshldr" has quaternion NaN; it must be finite`),
      );
      characters.forEach((c, m) => expect(c.mesh.skeleton.boneMatrices).toEqual(matrices[m]));
      bone.quaternion.x = 0;
      skins.update();
    } finally {
      skins.dispose();
      batch.dispose();
    }
  });
});
