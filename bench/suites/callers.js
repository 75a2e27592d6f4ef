// Real callers' shapes: per-element parameters, small batches and prepared calls of
// the critical, simple and general springs, against the plain-JS loops a user would write
// instead (plain-js.js). Backend 'plain-js' rows run those loops on plain Float32Arrays.
import { DT, FOUR_LN2, arena, tracked, uniformArray } from './shared.js';
import { PLAIN_LOOPS, keptMatrixLoop } from './plain-js.js';
import { mulberry32 } from '../../tools/mulberry32.js';

const ALL_N = [16, 65536, 1048576];
const QUICK_N = [16, 65536];
const BIG = 1048576;
const UNIFORM = { halflife: 0.2, frequency: 2 };
const PLAIN = 'plain-js';

/**
 * @typedef {{ x: Float32Array, v: Float32Array, g: Float32Array, q: Float32Array,
 *   params: { halflife: Float32Array, frequency: Float32Array } }} Data
 * @typedef {Record<string, number | Float32Array>} Params
 * @typedef {{ x: Float32Array, v: Float32Array, g: Float32Array, q: Float32Array }} State
 */

/** The methods: their parameters, the ordinary call, and the arguments of prepare. */
const KERNELS = [
  {
    name: 'criticalSpringDamper',
    params: ['halflife'],
    /** @type {(a: State, p: Params) => unknown[]} */
    args: (a, p) => [a.x, a.v, a.g, a.q, p.halflife],
  },
  {
    name: 'simpleSpringDamper',
    params: ['halflife'],
    /** @type {(a: State, p: Params) => unknown[]} */
    args: (a, p) => [a.x, a.v, a.g, p.halflife],
  },
  {
    name: 'springDamper',
    params: ['frequency', 'halflife'],
    /** @type {(a: State, p: Params) => unknown[]} */
    args: (a, p) => [a.x, a.v, a.g, a.q, p.frequency, p.halflife],
  },
];

/** @param {number} n @returns {Data} */
function makeData(n) {
  const random = mulberry32(0xca11 + n);
  return {
    x: uniformArray(n, -1, 1, random),
    v: uniformArray(n, -2, 2, random),
    g: uniformArray(n, -1, 1, random),
    q: uniformArray(n, -2, 2, random),
    params: { halflife: uniformArray(n, 0.05, 1, random), frequency: uniformArray(n, 0.5, 4, random) },
  };
}

/**
 * State and parameters in the solver's memory (`solver` given) or in plain Float32Arrays.
 * @param {any} solver @param {Data} data @param {string[]} names @param {string} mode
 */
function setupArrays(solver, data, names, mode) {
  const memory = solver ? arena(solver) : null;
  const own = memory ? memory.alloc : (/** @type {number} */ length) => new Float32Array(length);
  const n = data.x.length;
  /** @type {State} */
  const a = { x: own(n), v: own(n), g: own(n), q: own(n) };
  for (const k of /** @type {const} */ (['x', 'v', 'g', 'q'])) a[k].set(data[k]);
  /** @type {Params} */
  const p = {};
  for (const name of names) {
    const value = mode === 'uniform' ? UNIFORM[/** @type {'halflife' | 'frequency'} */ (name)] : own(n);
    if (value instanceof Float32Array) value.set(data.params[/** @type {'halflife' | 'frequency'} */ (name)]);
    p[name] = value;
  }
  return { a, p, free: memory ? memory.free : () => {} };
}

export default {
  name: 'callers',
  /** @param {{ quick: boolean }} o */
  sizes: ({ quick }) => (quick ? QUICK_N : ALL_N),
  /** @param {number} n @param {{ quick: boolean }} _options */
  tasks(n, _options) {
    /** @type {Data | null} */
    let data = null;
    const dataOf = () => (data ??= makeData(n));
    /** @type {any[]} */
    const tasks = [
      {
        kernel: 'dataMovementFloor',
        params: 'none',
        n,
        backends: ['simd'],
        floor: true,
        /** @param {any} solver */
        setup(solver) {
          const floorKernel = solver.exports.dataMovementFloor;
          const { a, free } = setupArrays(solver, dataOf(), [], 'none');
          return {
            ...tracked(() => floorKernel(a.x.byteOffset, a.v.byteOffset, a.g.byteOffset, a.q.byteOffset, n, 0), [a.x, a.v]),
            dispose: free,
          };
        },
      },
    ];
    for (const kernel of KERNELS) {
      for (const params of ['uniform', 'per-element']) {
        const common = { kernel: kernel.name, params, n };
        if (n !== BIG) {
          // The ordinary call
          tasks.push({
            ...common,
            /** @param {any} solver */
            setup(solver) {
              const { a, p, free } = setupArrays(solver, dataOf(), kernel.params, params);
              const args = [...kernel.args(a, p), DT];
              const method = solver[kernel.name];
              return { ...tracked(() => method.apply(solver, args), [a.x, a.v]), dispose: free };
            },
          });
          // The loops a user would write instead
          const loops = /** @type {Record<string, Record<string, { uniform: Function, perElement: Function }>>} */ (PLAIN_LOOPS)[
            kernel.name
          ];
          for (const [variant, loop] of Object.entries(loops)) {
            const fn = params === 'uniform' ? loop.uniform : loop.perElement;
            tasks.push({
              ...common,
              variant,
              backends: [PLAIN],
              setup() {
                const { a, p } = setupArrays(null, dataOf(), kernel.params, params);
                const args = [...kernel.args(a, p), DT];
                return { ...tracked(() => fn(...args), [a.x, a.v]), dispose: () => {} };
              },
            });
          }
        }
        // Prepared: fixed dt (per-element coefficients kept), and dt changing every call
        for (const variant of ['prepared', 'prepared, dt varies']) {
          if (variant !== 'prepared' && params === 'uniform') continue;
          tasks.push({
            ...common,
            variant,
            backends: n === BIG ? ['simd'] : ['simd', 'wasm', 'js'],
            /** @param {any} solver */
            setup(solver) {
              const { a, p, free } = setupArrays(solver, dataOf(), kernel.params, params);
              const step = solver.prepare(kernel.name, ...kernel.args(a, p));
              let flip = false;
              const varying = variant !== 'prepared';
              const alternate = () => {
                flip = !flip;
                return step(flip ? DT : DT * (1 + 2 ** -20));
              };
              const call = varying ? alternate : () => step(DT);
              return {
                ...tracked(call, [a.x, a.v]),
                dispose: () => {
                  step.dispose();
                  free();
                },
              };
            },
          });
        }
      }
    }
    // The loop that keeps each element's transition (the competitor of a prepared call)
    if (n !== BIG) {
      tasks.push({
        kernel: 'criticalSpringDamper',
        variant: 'plain-JS kept matrix',
        params: 'per-element',
        n,
        backends: [PLAIN],
        setup() {
          const { a, p } = setupArrays(null, dataOf(), ['halflife'], 'per-element');
          const loop = keptMatrixLoop(n);
          loop.fillCritical(/** @type {Float32Array} */ (p.halflife), DT);
          return { ...tracked(() => loop.apply(a.x, a.v, a.g, a.q), [a.x, a.v]), dispose: () => {} };
        },
      });
    }
    return tasks;
  },
  /** @param {any} t */
  targets(t) {
    const lines = [];
    for (const kernel of ['criticalSpringDamper', 'simpleSpringDamper']) {
      t.vsPlain({ kernel, params: 'per-element', n: 65536, min: 3 });
    }
    t.vsPlain({ kernel: 'springDamper', params: 'per-element', n: 65536, min: 4 });
    t.floorRatioOf({ kernel: 'criticalSpringDamper', variant: 'prepared', params: 'per-element', n: BIG, max: 3 });
    t.ratio({
      name: 'SIMD prepared (coefficients kept) ≥ 4× the plain-JS kept-matrix loop at N = 65536: criticalSpringDamper (per-element)',
      row: { kernel: 'criticalSpringDamper', variant: 'prepared', params: 'per-element', backend: 'simd', n: 65536 },
      against: { kernel: 'criticalSpringDamper', variant: 'plain-JS kept matrix', params: 'per-element', backend: PLAIN, n: 65536 },
      min: 4,
    });
    for (const params of ['per-element', 'uniform']) {
      t.vsPlain({ kernel: 'criticalSpringDamper', variant: 'prepared', params, n: 16, maxSlowdown: 2 });
      t.vsPlain({ kernel: 'criticalSpringDamper', params, n: 16, maxSlowdown: 4 });
    }
    for (const kernel of KERNELS) {
      const line = t.plainInfo({ kernel: kernel.name, variant: 'prepared, dt varies', params: 'per-element', n: 65536 });
      if (line) lines.push(line);
    }
    return { header: 'against the fastest plain-JS loop of the same shape', lines };
  },
  settings: { uniform: UNIFORM, fourLn2: FOUR_LN2 },
};
