// The core spring kernels: every kernel × uniform / per-element parameters × backend × N, the
// data-movement floor and the copy-path row. See bench/README.md.
import { mulberry32 } from '../../tools/mulberry32.js';
import { PLAIN_LOOPS } from './plain-js.js';
import { DT, FOUR_LN2, TWO_PI, arena, tracked, uniformArray } from './shared.js';

const ALL_N = [16, 256, 4096, 65536, 1048576];
/** The quick run (`npm start`): one N, where the README's core table is, and no floor or copy-path row. */
const QUICK_N = [65536];
const COPY_PATH_N = 65536;

/** Uniform parameter values (an under-damped 2 Hz spring with halflife 0.2 s) and per-element ranges. */
const UNIFORM = {
  halflife: 0.2,
  frequency: 2,
  dampingRatio: 0.7,
  stiffness: (TWO_PI * 2) ** 2,
  damping: FOUR_LN2 / 0.2,
};

const KERNELS = [
  { name: 'damper', params: ['halflife'], make: (s, a, p) => () => s.damper(a.x, a.g, p.halflife, DT) },
  {
    name: 'springDamper',
    params: ['frequency', 'halflife'],
    make: (s, a, p) => () => s.springDamper(a.x, a.v, a.g, a.q, p.frequency, p.halflife, DT),
  },
  {
    name: 'springDamperStiffness',
    params: ['stiffness', 'damping'],
    make: (s, a, p) => () => s.springDamperStiffness(a.x, a.v, a.g, a.q, p.stiffness, p.damping, DT),
  },
  {
    name: 'springDamperRatio',
    params: ['dampingRatio', 'halflife'],
    make: (s, a, p) => () => s.springDamperRatio(a.x, a.v, a.g, a.q, p.dampingRatio, p.halflife, DT),
  },
  {
    name: 'criticalSpringDamper',
    params: ['halflife'],
    make: (s, a, p) => () => s.criticalSpringDamper(a.x, a.v, a.g, a.q, p.halflife, DT),
  },
  {
    name: 'simpleSpringDamper',
    params: ['halflife'],
    make: (s, a, p) => () => s.simpleSpringDamper(a.x, a.v, a.g, p.halflife, DT),
  },
  {
    name: 'decaySpringDamper',
    params: ['halflife'],
    make: (s, a, p) => () => s.decaySpringDamper(a.x, a.v, p.halflife, DT),
  },
];

/** The (kernel, params) pairs the quick run measures, each with the plain-JS loops of PLAIN_LOOPS. */
const QUICK_CASES = [
  ['criticalSpringDamper', 'uniform'],
  ['simpleSpringDamper', 'uniform'],
  ['springDamper', 'uniform'],
  ['springDamper', 'per-element'],
];

/** Initial state and per-element parameters for N elements (plain arrays; copied into each backend). */
function makeData(n) {
  const random = mulberry32(0x5eed + n); // seeded: every run sees the same values
  const frequency = uniformArray(n, 0.5, 4, random);
  const halflife = uniformArray(n, 0.05, 1, random);
  const stiffness = new Float32Array(n);
  const damping = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    stiffness[i] = (TWO_PI * frequency[i]) ** 2;
    damping[i] = FOUR_LN2 / halflife[i];
  }
  return {
    x: uniformArray(n, -1, 1, random),
    v: uniformArray(n, -2, 2, random),
    g: uniformArray(n, -1, 1, random),
    q: uniformArray(n, -2, 2, random),
    params: { frequency, halflife, dampingRatio: uniformArray(n, 0.2, 3, random), stiffness, damping },
  };
}

const STATE = ['x', 'v', 'g', 'q'];

/**
 * x, v, g, q (arrays from `alloc`, or plain Float32Arrays) and the named parameters (per-element arrays
 * from `alloc`, or UNIFORM); the state x, v is restored at each reset.
 */
function springSetup(solver, data, paramNames, mode, make, plain = false) {
  const memory = arena(solver);
  const own = plain ? (length) => new Float32Array(length) : memory.alloc;
  const arrays = Object.fromEntries(STATE.map((name) => [name, own(data.x.length)]));
  for (const name of STATE) arrays[name].set(data[name]);
  const p = {};
  for (const name of paramNames) {
    p[name] = mode === 'uniform' ? UNIFORM[name] : memory.alloc(data.x.length);
    if (mode !== 'uniform') p[name].set(data.params[name]);
  }
  return tracked(make(solver, arrays, p), [arrays.x, arrays.v], { dispose: memory.free });
}

/**
 * The quick run's plain-JS rows (backend 'plain-js'): the loops a user would write instead, on plain
 * Float32Arrays, so that every quick row has its ×plainJS (the full run has them in the callers suite).
 * @param {{ name: string, params: string[], make: Function }} kernel @param {string} params @param {number} n
 * @param {() => ReturnType<typeof makeData>} dataOf @returns {import('./shared.js').Task[]}
 */
function plainLoopTasks(kernel, params, n, dataOf) {
  const loops = /** @type {Record<string, Record<string, { uniform: Function, perElement: Function }>>} */ (PLAIN_LOOPS)[kernel.name];
  return Object.entries(loops ?? {}).map(([variant, loop]) => ({
    kernel: kernel.name,
    variant,
    params,
    n,
    backends: ['plain-js'],
    setup() {
      // The kernel's own call (same arguments), on an object whose method is the loop, over plain arrays.
      const plain = {
        [kernel.name]: params === 'uniform' ? loop.uniform : loop.perElement,
        alloc: (/** @type {number} */ length) => new Float32Array(length),
        free() {},
      };
      return springSetup(plain, dataOf(), kernel.params, params, kernel.make);
    },
  }));
}

export default {
  name: 'core',
  sizes: ({ quick }) => (quick ? QUICK_N : ALL_N),
  tasks(n, { quick }) {
    let data = null;
    const dataOf = () => (data ??= makeData(n));
    // The floor: the SIMD wasm loop that loads x, v, g, q and stores x, v with no arithmetic.
    const floor = {
      kernel: 'dataMovementFloor',
      params: 'none',
      n,
      backends: ['simd'],
      floor: true,
      setup(solver) {
        const floorKernel = solver.exports.dataMovementFloor;
        return springSetup(solver, dataOf(), [], 'none', (_s, a) => {
          const [px, pv, pg, pq] = [a.x.byteOffset, a.v.byteOffset, a.g.byteOffset, a.q.byteOffset];
          return () => floorKernel(px, pv, pg, pq, n, 0);
        });
      },
    };
    /** @type {import('./shared.js').Task[]} */
    const tasks = quick ? [] : [floor];
    for (const kernel of KERNELS) {
      for (const params of ['uniform', 'per-element']) {
        if (quick && !QUICK_CASES.some(([k, p]) => k === kernel.name && p === params)) continue;
        tasks.push({
          kernel: kernel.name,
          params,
          n,
          setup: (solver) => springSetup(solver, dataOf(), kernel.params, params, kernel.make),
        });
        if (quick) tasks.push(...plainLoopTasks(kernel, params, n, dataOf));
        // The copy path: the same call with plain Float32Arrays, copied through scratch in chunks.
        if (!quick && kernel.name === 'springDamper' && params === 'uniform' && n === COPY_PATH_N) {
          tasks.push({
            kernel: kernel.name,
            params,
            n,
            backends: ['simd'],
            arrays: 'plain',
            setup: (solver) => springSetup(solver, dataOf(), kernel.params, params, kernel.make, true),
          });
        }
      }
    }
    return tasks;
  },
  targets(t) {
    for (const kernel of ['criticalSpringDamper', 'simpleSpringDamper', 'springDamper'])
      t.speedup({ kernel, params: 'uniform', n: 65536, min: 5 });
    t.speedup({ kernel: 'springDamper', params: 'per-element', n: 65536, min: 3 });
    const lines = [];
    for (const kernel of KERNELS) {
      t.floorRatio({ kernel: kernel.name, n: 1048576, max: 1.5 });
      const varying = t.find(kernel.name, 'per-element', 'simd', 1048576);
      if (varying && varying.vsFloor !== null) lines.push(`${kernel.name} (per-element): ${t.fmt(varying.vsFloor)}× floor`);
    }
    return { header: 'per-element rows also read 1–2 parameter arrays the floor does not', lines };
  },
  settings: { uniform: UNIFORM },
};
