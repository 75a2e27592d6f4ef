// createSolver({ threads: 2 }) against the single-thread SIMD solver, in the same run (issue 20):
// each row on backend 'simd' (the run's solver) and 'simd×2' (a threaded solver of this suite).
//   criticalSpringDamper   per-element and uniform halflife, N ∈ {16, 1000, 2^20}
//   Inertializer.update    2,000 characters × 60 bones, one halflife per bone (N = 120,000 bones)
// Targets on 2 cores: per-element critical at 2^20 ≥ 1.7×, Inertializer.update ≥ 1.7×, uniform critical
// at 2^20 (memory-bound) ≥ 1.3×; at N = 1000 and 16, threaded ≥ 0.95× one thread (calls below the
// split threshold run on the calling thread). Ratios of medians. Each row's two solvers are measured
// interleaved (`interleaved`: alternating rounds, run.js), so neither gains from running first.
import { createSolver, Inertializer } from '../../dist/index.js';
import { DT, arena, paramValue, range, tracked, unitQuaternions, zeros } from './shared.js';

const THREADS = 2;
const CRITICAL_N = [16, 1000, 1048576];
const CHARACTERS = 2000;
const BONES = 60;
const INERTIALIZER_N = CHARACTERS * BONES;
const HALFLIFE = { uniform: 0.2, lo: 0.05, hi: 0.5 };
const BACKENDS = ['simd', `simd×${THREADS}`];

/** The threaded solver of the run, created with the suite (its workers park in Atomics.wait between calls; the vrm suite uses it too). */
export const threaded = await createSolver({ threads: THREADS, memoryBytes: 256 * 1024 * 1024 });

/** The solver of a row: the run's SIMD solver, or the threaded one. */
const solverOf = (solver, backend) => (backend === 'simd' ? solver : threaded);

/**
 * Small calls on both solvers before the first row: the two solvers run two wasm modules, so the
 * library's call sites become polymorphic once both have run, which costs a 16-element call about
 * 18 ns (8 %) on either solver. Warmed together, the rows compare the solvers, not the order they
 * ran in (measured: 236 and 235 ns a call interleaved; the first solver alone, before the other
 * had run, 218 ns).
 * @param {any} solver the run's SIMD solver
 */
function warmBoth(solver) {
  for (const s of [solver, threaded]) {
    const [x, v, g, q, h] = [1, 2, 3, 4, 5].map(() => s.alloc(16).fill(0.25));
    for (let i = 0; i < 20000; i++) {
      s.criticalSpringDamper(x, v, g, q, i % 2 ? 0.2 : h, DT);
      s.damper(x, g, 0.2, DT);
    }
    for (const a of [x, v, g, q, h]) s.free(a);
  }
}
let warmed = false;

function criticalTask(n, params) {
  return {
    kernel: 'criticalSpringDamper',
    params,
    n,
    backends: BACKENDS,
    interleaved: true,
    setup(solver, backend) {
      if (!warmed && backend === 'simd') {
        warmBoth(solver);
        warmed = true;
      }
      const s = solverOf(solver, backend);
      const memory = arena(s);
      const a = memory.arrays(n, { x: range(-1, 1), v: range(-1, 1), g: range(-1, 1), q: zeros() });
      const halflife = paramValue(HALFLIFE, params, 'halflife', n, memory.alloc);
      return { ...tracked(() => s.criticalSpringDamper(a.x, a.v, a.g, a.q, halflife, DT), [a.x, a.v]), dispose: memory.free };
    },
  };
}

function inertializerTask() {
  const n = INERTIALIZER_N;
  return {
    kernel: 'Inertializer.update',
    variant: `${CHARACTERS}×${BONES}`,
    params: 'per-element',
    n,
    backends: BACKENDS,
    interleaved: true,
    setup(solver, backend) {
      const s = solverOf(solver, backend);
      const memory = arena(s);
      const pose = (key) =>
        memory.arrays(n, {
          positions: range(-1, 1, 3, `${key}.p`),
          velocities: range(-2, 2, 3, `${key}.v`),
          rotations: unitQuaternions(`${key}.q`),
          angularVelocities: range(-2, 2, 3, `${key}.w`),
        });
      const [src, dst] = [pose('src'), pose('dst')];
      const halflife = paramValue(HALFLIFE, 'per-element', 'halflife', BONES);
      const inertializer = memory.own(new Inertializer(s, { count: CHARACTERS, bones: BONES, halflife }));
      const output = memory.arrays(n, { positions: zeros(3), velocities: zeros(3), rotations: zeros(4), angularVelocities: zeros(3) });
      const start = () => {
        inertializer.reset();
        inertializer.transition(src, dst);
      };
      start();
      return {
        ...tracked(() => inertializer.update(dst, undefined, DT, output), Object.values(output), { reset: start }),
        dispose: memory.free,
      };
    },
  };
}

export default {
  name: 'threads',
  sizes: ({ quick }) => (quick ? [] : [...CRITICAL_N, INERTIALIZER_N]),
  tasks(n) {
    if (n === INERTIALIZER_N) return [inertializerTask()];
    return ['per-element', 'uniform'].map((params) => criticalTask(n, params));
  },
  targets(t) {
    const lines = [];
    if (threaded.threads !== THREADS) lines.push(`threads: ${threaded.threads} ran, not ${THREADS}: ${threaded.threadsReason}`);
    /** @param {string} kernel @param {string} params @param {number} n @param {string | null} [variant] */
    const ratio = (kernel, params, n, variant = null) => {
      const one = t.find(kernel, params, 'simd', n, variant);
      const two = t.find(kernel, params, `simd×${THREADS}`, n, variant);
      if (!one || !two) return { value: null, noisy: false };
      return { value: one.nsPerElementP50 / two.nsPerElementP50, noisy: one.noisy || two.noisy };
    };
    /** @param {string} name @param {string} kernel @param {string} params @param {number} n @param {number} min @param {string | null} [variant] */
    const target = (name, kernel, params, n, min, variant = null) =>
      t.check({ name, ...ratio(kernel, params, n, variant), min, unit: '× one thread' });
    target(
      `${THREADS} threads ≥ 1.7× one at N = 2^20: criticalSpringDamper (per-element)`,
      'criticalSpringDamper',
      'per-element',
      1048576,
      1.7,
    );
    target(`${THREADS} threads ≥ 1.3× one at N = 2^20: criticalSpringDamper (uniform)`, 'criticalSpringDamper', 'uniform', 1048576, 1.3);
    target(
      `${THREADS} threads ≥ 1.7× one: Inertializer.update ${CHARACTERS}×${BONES} (per-bone halflife)`,
      'Inertializer.update',
      'per-element',
      INERTIALIZER_N,
      1.7,
      `${CHARACTERS}×${BONES}`,
    );
    for (const n of [1000, 16]) {
      for (const params of ['per-element', 'uniform']) {
        target(`${THREADS} threads ≥ 0.95× one at N = ${n}: criticalSpringDamper (${params})`, 'criticalSpringDamper', params, n, 0.95);
      }
    }
    return { header: `threads: createSolver({ threads: ${THREADS} }) against one thread, ratios of medians`, lines };
  },
  settings: { threads: THREADS, characters: CHARACTERS, bones: BONES, halflife: HALFLIFE },
};
