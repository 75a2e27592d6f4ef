// Where splitting a call over threads starts to pay, per method family (issue 20): each family's
// kernel timed over N = 2^8 … 2^18 on the single-thread SIMD solver and on a threaded one that
// splits every call (splitEverything), interleaved, best of ROUNDS in each of PASSES passes. Prints the ratios, the
// smallest N from which every larger N is ≥ 1.05× faster threaded (the threshold written in
// src/backends/wasm/threads/thresholds.ts), the round-trip cost of a split call, and the memory
// bandwidth of the uniform spring at 2^20 (docs/DECISIONS.md, "Threads"). The spring bones' kernel is
// timed over 1 … 100 avatars of the vrm suite's crowd (its elements: about 25 µs each), the mixers' over 2 … 1,000
// pirouettes of the mixer suite (about 2 µs each), the pose gather's over 256 … 10,000 of them.
//   node bench/thresholds.js [--threads 2] [--rounds 7] [--passes 3] [--only poseInertialize]
import { createSolver, ForwardKinematics, Inertializer, springStrided } from '../dist/index.js';
import { instanceComposition, instanceTranslations } from '../dist/api/instance-matrices.js';
import { SpringBones } from '../dist/vrm/index.js';
import { buildCrowd } from '../test/fixtures/vrm-avatars.js';
import { readFileSync } from 'node:fs';
import { InertializedMixerGroup, MixerBatch } from '../dist/three/index.js';
import { buildSkinnedCrowd } from '../test/fixtures/skinned-crowd.js';
import { mulberry32 } from '../tools/mulberry32.js';

const argv = process.argv.slice(2);
const option = (name, fallback) => (argv.includes(name) ? Number(argv[argv.indexOf(name) + 1]) : fallback);
const THREADS = option('--threads', 2);
const ROUNDS = option('--rounds', 7);
/** Passes over every family and size, the best time of each kept: spread over the run, they catch the moments the machine's other load leaves both cores free. */
const PASSES = option('--passes', 3);
/** --only <text>[,<text>…]: the families whose kernel name contains one of them. */
const ONLY = argv.includes('--only') ? argv[argv.indexOf('--only') + 1] : null;
const DT = 1 / 60;
const BONES = 60;
const memoryBytes = 512 * 1024 * 1024;

const one = await createSolver({ backend: 'simd', memoryBytes });
const many = await createSolver({ threads: THREADS, memoryBytes, splitEverything: true });
if (many.threads !== THREADS) throw new Error(`threads: ${many.threads} ran (${many.threadsReason})`);

/** n floats in solver memory, seeded, in [lo, hi). */
function filled(solver, n, lo, hi, seed) {
  const a = solver.alloc(n);
  const random = mulberry32(seed);
  for (let i = 0; i < n; i++) a[i] = lo + (hi - lo) * random();
  return a;
}

/** Each family: its kernel, and a call over n elements on a solver (returns the call and a release). */
const FAMILIES = [
  {
    family: 'core springs, uniform (springUniform)',
    kernel: 'springUniform',
    make(s, n) {
      const [x, v, g, q] = [1, 2, 3, 4].map((k) => filled(s, n, -1, 1, k));
      return { call: () => s.criticalSpringDamper(x, v, g, q, 0.2, DT), arrays: [x, v, g, q] };
    },
  },
  {
    family: 'core springs, per-element (springPerElement)',
    kernel: 'springPerElement',
    make(s, n) {
      const [x, v, g, q] = [1, 2, 3, 4].map((k) => filled(s, n, -1, 1, k));
      const h = filled(s, n, 0.05, 0.5, 5);
      return { call: () => s.criticalSpringDamper(x, v, g, q, h, DT), arrays: [x, v, g, q, h] };
    },
  },
  {
    family: 'core springs, per-element, prepared: kept coefficients applied (springApplyKept)',
    kernel: 'springApplyKept',
    make(s, n) {
      const [x, v, g, q] = [1, 2, 3, 4].map((k) => filled(s, n, -1, 1, k));
      const h = filled(s, n, 0.05, 0.5, 5);
      const step = s.prepare('criticalSpringDamper', x, v, g, q, h);
      step(DT); // computes; the next call keeps, the following ones apply what it kept
      step(DT);
      return { call: () => step(DT), arrays: [x, v, g, q, h], dispose: () => step.dispose() };
    },
  },
  {
    family: 'damper, uniform (damperUniform)',
    kernel: 'damperUniform',
    make(s, n) {
      const [x, g] = [1, 2].map((k) => filled(s, n, -1, 1, k));
      return { call: () => s.damper(x, g, 0.2, DT), arrays: [x, g] };
    },
  },
  {
    family: 'damper, per-element (damperVarying)',
    kernel: 'damperVarying',
    make(s, n) {
      const [x, g] = [1, 2].map((k) => filled(s, n, -1, 1, k));
      const h = filled(s, n, 0.05, 0.5, 5);
      return { call: () => s.damper(x, g, h, DT), arrays: [x, g, h] };
    },
  },
  {
    family: 'contract kernels, cheapest: doubleSpringDamper, uniform',
    kernel: 'doubleSpringDamper',
    make(s, n) {
      const [x, v, xi, vi, g] = [1, 2, 3, 4, 5].map((k) => filled(s, n, -1, 1, k));
      return { call: () => s.doubleSpringDamper(x, v, xi, vi, g, 0.2, DT), arrays: [x, v, xi, vi, g] };
    },
  },
  {
    family: 'quaternion springs: quatSimpleSpringDamper, per-element (elements: quaternions)',
    kernel: 'quatSimpleSpringDamper',
    make(s, n) {
      const q = filled(s, 4 * n, -0.5, 0.5, 1);
      const w = filled(s, 3 * n, -1, 1, 2);
      const goal = filled(s, 4 * n, -0.5, 0.5, 3);
      const h = filled(s, n, 0.05, 0.5, 5);
      return { call: () => s.quatSimpleSpringDamper(q, w, goal, h, DT), arrays: [q, w, goal, h] };
    },
  },
  {
    family: `Inertializer.update, per-bone halflife (poseInertializeUpdate; elements: bones, ${BONES} a character)`,
    kernel: 'poseInertializeUpdate',
    make(s, n) {
      const count = Math.max(1, Math.round(n / BONES));
      const bones = count * BONES;
      const pose = (seed) => ({
        positions: filled(s, 3 * bones, -1, 1, seed),
        velocities: filled(s, 3 * bones, -1, 1, seed + 1),
        rotations: filled(s, 4 * bones, -0.5, 0.5, seed + 2),
        angularVelocities: filled(s, 3 * bones, -1, 1, seed + 3),
      });
      const [src, dst, out] = [pose(10), pose(20), pose(30)];
      const halflife = Float32Array.from({ length: BONES }, (_, i) => 0.05 + i / 200);
      const inertializer = new Inertializer(s, { count, bones: BONES, halflife });
      inertializer.transition(src, dst);
      const arrays = [src, dst, out].flatMap((p) => Object.values(p));
      return { call: () => inertializer.update(dst, undefined, DT, out), arrays, dispose: () => inertializer.dispose() };
    },
  },
  {
    family: 'InstancedSprings translations (springInstanceTranslations; elements: instances)',
    kernel: 'springInstanceTranslations',
    make(s, n) {
      const [m, v, g] = [filled(s, 16 * n, -1, 1, 1), filled(s, 3 * n, -1, 1, 2), filled(s, 3 * n, -1, 1, 3)];
      const translate = instanceTranslations(s, m, v, g, n);
      return { call: () => translate(0.2, DT), arrays: [m, v, g] };
    },
  },
  {
    family: 'InstancedSprings matrices from rotations and scales (composeInstanceMatrices; elements: instances)',
    kernel: 'composeInstanceMatrices',
    make(s, n) {
      const [m, q, sc] = [filled(s, 16 * n, -1, 1, 1), filled(s, 4 * n, -0.5, 0.5, 2), filled(s, 3 * n, 0.5, 2, 3)];
      return { call: instanceComposition(s, m, q, sc, n), arrays: [m, q, sc] };
    },
  },
  {
    family: 'springStrided, items of 3 every 16 floats (the translations of instance matrices: SIMD groups of 4; elements: items)',
    kernel: 'springStrided3',
    make(s, n) {
      const [x, v, g] = [filled(s, 16 * n, -1, 1, 1), filled(s, 3 * n, -1, 1, 2), filled(s, 3 * n, -1, 1, 3)];
      const items = { x: { array: x, offset: 12, stride: 16 }, v: { array: v }, g: { array: g }, width: 3, count: n };
      return { call: () => springStrided(s, items, { halflife: 0.2 }, DT), arrays: [x, v, g] };
    },
  },
  {
    family: 'springStrided, items of 4 every 8 floats, critical (elements: floats; widths other than 3)',
    kernel: 'springStrided',
    make(s, n) {
      const count = n / 4;
      const [x, v, g] = [filled(s, 2 * n, -1, 1, 1), filled(s, n, -1, 1, 2), filled(s, n, -1, 1, 3)];
      const items = { x: { array: x, stride: 8 }, v: { array: v }, g: { array: g }, width: 4, count };
      return { call: () => springStrided(s, items, { halflife: 0.2 }, DT), arrays: [x, v, g] };
    },
  },
  {
    family: 'ForwardKinematics.update, 25 bones with skinning matrices (forwardKinematics; elements: characters)',
    kernel: 'forwardKinematics',
    sizes: [8, 16, 32, 64, 128, 256, 512, 1024, 2048],
    /** About 5 ms a sample (a character of 25 bones: about 0.7 µs). */
    reps: (n) => Math.max(3, Math.round(8000 / n)),
    make(s, n) {
      const parents = Array.from({ length: 25 }, (_, k) => (k === 0 ? -1 : k - 1 - (k % 4 === 0 ? 2 : 0)));
      const inverseBindMatrices = Array.from({ length: 16 * 25 }, (_, i) => (i % 5 === 0 ? 1 : 0.01 * (i % 7)));
      const fk = new ForwardKinematics(s, { count: n, parents, inverseBindMatrices });
      const random = mulberry32(1);
      fk.positions.forEach((_, i) => (fk.positions[i] = 2 * random() - 1));
      return { call: () => fk.update(), arrays: [], dispose: () => fk.dispose() };
    },
  },
  {
    family: "SpringBones.update's kernel alone (springBonesStep; elements: managers of the vrm suite, an avatar each, about 87 joints)",
    kernel: 'springBonesStep',
    sizes: [1, 2, 4, 8, 16, 100],
    /** About 20 ms a sample. */
    reps: (n) => Math.max(3, Math.round(800 / n)),
    make(s, n) {
      const crowd = buildCrowd({ count: n, seed: 17 });
      crowd.pose(DT);
      const bones = new SpringBones(
        s,
        crowd.avatars.map((a) => a.manager),
      );
      bones.update(DT);
      const step = /** @type {{ step: (dt: number, alpha: number, row: number, rows: number) => void }} */ (/** @type {unknown} */ (bones))
        .step;
      return { call: () => step(DT, 1, 0, n), arrays: [], dispose: () => bones.dispose() };
    },
  },
  {
    family: "MixerBatch.update's kernel alone (sampleMixers; elements: mixers of the mixer suite's crowd, a pirouette of 25 bones each)",
    kernel: 'sampleMixers',
    sizes: [2, 4, 8, 16, 32, 64, 128, 1000],
    /** About 8 ms a sample (a mixer: about 2 µs). */
    reps: (n) => Math.max(3, Math.round(4000 / n)),
    make(s, n) {
      const crowd = buildSkinnedCrowd(readFileSync(new URL('../data/pirouette.bvh', import.meta.url), 'utf8'), n, { seed: 26 });
      for (const c of crowd.characters) c.mixer.update(DT);
      const batch = new MixerBatch(
        s,
        crowd.characters.map((c) => c.mixer),
      );
      batch.update(DT);
      const run = /** @type {{ run: (first: number, count: number) => void }} */ (/** @type {unknown} */ (batch)).run;
      return { call: () => run(0, n), arrays: [], dispose: () => batch.dispose() };
    },
  },
  {
    family: "the pose gather alone (gatherPose; elements: mixers of the crowd suite's pirouettes, read by an InertializedMixerGroup)",
    kernel: 'gatherPose',
    sizes: [256, 512, 1000, 2048, 4096, 10000],
    reps: (n) => Math.max(3, Math.round(200000 / n)),
    make(s, n) {
      const crowd = buildSkinnedCrowd(readFileSync(new URL('../data/pirouette.bvh', import.meta.url), 'utf8'), n, { seed: 26 });
      for (const c of crowd.characters) c.mixer.update(DT);
      const batch = new MixerBatch(
        s,
        crowd.characters.map((c) => c.mixer),
      );
      const group = new InertializedMixerGroup(s, batch, { halflife: 0.1 });
      group.update(DT);
      // the group's plan (private): its kernel call into the group's input
      const internal =
        /** @type {{ plan: { run: (to: unknown, first: number, count: number) => void }, input: { positions: Float32Array, rotations: Float32Array } }} */ (
          /** @type {unknown} */ (group)
        );
      const to = { positions: internal.input.positions, rotations: internal.input.rotations, scales: null };
      return {
        call: () => internal.plan.run(to, 0, n),
        arrays: [],
        dispose: () => {
          group.dispose();
          batch.dispose();
        },
      };
    },
  },
];

/** Best time per call (µs) of `call`, over `reps` calls a sample. */
function sample(call, reps) {
  const t0 = performance.now();
  for (let r = 0; r < reps; r++) call();
  return ((performance.now() - t0) / reps) * 1000;
}

/**
 * Best times of a family's call on one thread and split, interleaved.
 * @param {{ make: (s: any, n: number) => any, reps?: (n: number) => number }} family
 * @param {number} n
 */
function compare({ make, reps: repsOf }, n) {
  const a = make(one, n);
  const b = make(many, n);
  const reps = repsOf ? repsOf(n) : Math.max(3, Math.min(2000, Math.round(2e6 / n)));
  sample(a.call, reps);
  sample(b.call, reps);
  let bestOne = Infinity;
  let bestMany = Infinity;
  for (let r = 0; r < ROUNDS; r++) {
    bestOne = Math.min(bestOne, sample(a.call, reps));
    bestMany = Math.min(bestMany, sample(b.call, reps));
  }
  for (const [s, x] of [
    [one, a],
    [many, b],
  ]) {
    x.dispose?.();
    for (const array of x.arrays) s.free(array);
  }
  return { one: bestOne, many: bestMany, ratio: bestOne / bestMany };
}

const SIZES = Array.from({ length: 11 }, (_, i) => 2 ** (8 + i));
console.log(
  `threads ${THREADS} vs 1, best of ${ROUNDS} × ${PASSES} passes; node ${process.version}; ratio = one thread's time / threaded time`,
);
const families = FAMILIES.filter((f) => ONLY === null || ONLY.split(',').some((only) => f.kernel.includes(only)));
const best = families.map(({ sizes = SIZES }) => sizes.map((n) => ({ n, one: Infinity, many: Infinity })));
for (let pass = 0; pass < PASSES; pass++) {
  families.forEach((family, f) => {
    (family.sizes ?? SIZES).forEach((n, i) => {
      const r = compare(family, n);
      best[f][i].one = Math.min(best[f][i].one, r.one);
      best[f][i].many = Math.min(best[f][i].many, r.many);
    });
  });
}
families.forEach(({ family, kernel }, f) => {
  const results = best[f].map((r) => ({ ...r, ratio: r.one / r.many }));
  let threshold = null;
  for (let i = results.length - 1; i >= 0 && results[i].ratio >= 1.05; i--) threshold = results[i].n;
  console.log(`\n${family}  [${kernel}]`);
  for (const r of results)
    console.log(
      `  N = ${String(r.n).padStart(6)}  one ${r.one.toFixed(2).padStart(8)} µs  threaded ${r.many.toFixed(2).padStart(8)} µs  ${r.ratio.toFixed(2)}×`,
    );
  console.log(`  threshold (every larger N ≥ 1.05×): ${threshold ?? 'none measured'}`);
});

// The round trip: a split call of 32 elements, against one thread's.
const tiny = compare(FAMILIES[0], 32);
console.log(
  `\nround trip of a split call (N = 32, uniform critical): ${(tiny.many - tiny.one).toFixed(2)} µs over one thread's ${tiny.one.toFixed(2)} µs`,
);
// Bandwidth: the uniform critical spring at 2^20 reads x, v, g, q and writes x, v: 24 bytes an element.
const big = compare(FAMILIES[0], 2 ** 20);
const gbps = (us) => ((24 * 2 ** 20) / (us * 1e-6) / 1e9).toFixed(1);
console.log(
  `uniform critical at 2^20: one ${big.one.toFixed(0)} µs (${gbps(big.one)} GB/s), threaded ${big.many.toFixed(0)} µs (${gbps(big.many)} GB/s)`,
);
const perElement = compare(FAMILIES[1], 2 ** 20);
console.log(
  `per-element critical at 2^20: one ${perElement.one.toFixed(0)} µs, threaded ${perElement.many.toFixed(0)} µs (${perElement.ratio.toFixed(2)}×)`,
);
one.dispose();
many.dispose();
