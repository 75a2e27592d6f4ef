/**
 * Holden's spring character controller ("Spring-It-On": spring_character_update and
 * spring_character_predict), exact with true exp. Kernels: assembly/kernels/character.ts; float64
 * reference: src/reference/character.ts.
 */
import { checkAndRun, checkNumber, read, written, type Kernel, type KernelHost, type Param } from '../core/contract.js';
import * as reference from '../reference/character.js';

/**
 * The most samples per character of one characterPredict call: a call copies arrays outside
 * the solver's memory through scratch slots of 16384 floats, whole characters at a time.
 */
export const MAX_PREDICT_SAMPLES = 16384;

export interface CharacterMethods {
  /**
   * Holden's spring_character_update, exact: the velocity v (units/s) is a critical spring toward
   * vGoal whose derivative is the acceleration a (units/s²), and the position x is its exact
   * time integral. With y = 2·ln2/halflife, j0 = v − vGoal, j1 = a + j0·y, e = e^{−y·dt}:
   * x' = x + vGoal·dt + j0·(1 − e)/y + j1·(1 − e − y·dt·e)/y², v' = vGoal + e·(j0 + j1·dt),
   * a' = e·(a − j1·y·dt) (evaluated without cancellation as y·dt → 0). halflife 0: v = vGoal,
   * a = 0, x += vGoal·dt. x, v, a are updated in place; vGoal is read.
   * @example
   * ```ts
   * import { createSolver } from 'spring-solver';
   * const solver = await createSolver();
   * const [x, v, a, vGoal] = [solver.alloc(3), solver.alloc(3), solver.alloc(3), solver.alloc(3)];
   * vGoal.set([0, 0, 1.5]); // walk forward at 1.5 units/s
   * solver.characterUpdate(x, v, a, vGoal, 0.2, 1 / 60); // halflife 0.2 s, dt 1/60 s
   * ```
   * @group Character
   */
  characterUpdate(x: Float32Array, v: Float32Array, a: Float32Array, vGoal: Float32Array, halflife: Param, dt: number): void;
  /**
   * Holden's spring_character_predict: for each of the N characters (x, v, a, vGoal of length N),
   * `count` future samples at times k·dt, k = 0 … count − 1, each the closed form of
   * characterUpdate over k·dt from the current state (sample 0 is the current state). Layout,
   * character-major: sample k of character c is px[c·count + k] (likewise pv, pa), so px, pv, pa
   * have N·count floats. count is a whole number from 1 to 16384; the state is not modified.
   * @example
   * ```ts
   * import { createSolver } from 'spring-solver';
   * const solver = await createSolver();
   * const [x, v, a, vGoal] = [solver.alloc(1), solver.alloc(1), solver.alloc(1), solver.alloc(1).fill(1.5)];
   * const count = 4; // samples at 0, 0.2, 0.4, 0.6 s
   * const [px, pv, pa] = [solver.alloc(count), solver.alloc(count), solver.alloc(count)];
   * solver.characterPredict(px, pv, pa, x, v, a, vGoal, 0.2, 0.2, count); // halflife 0.2 s, dt between samples 0.2 s
   * ```
   * @group Character
   */
  characterPredict(
    px: Float32Array,
    pv: Float32Array,
    pa: Float32Array,
    x: Float32Array,
    v: Float32Array,
    a: Float32Array,
    vGoal: Float32Array,
    halflife: Param,
    dt: number,
    count: number,
  ): void;
}

const UPDATE: Kernel = {
  wasm: 'characterUpdate',
  js: ([x, v, a, vGoal], [halflife], [dt]) => reference.characterUpdate(x!, v!, a!, vGoal!, halflife, dt),
};

const PREDICT: Kernel = {
  wasm: 'characterPredict',
  js: ([x, v, a, vGoal, px, pv, pa], [halflife], [dt, count]) =>
    reference.characterPredict(px!, pv!, pa!, x!, v!, a!, vGoal!, halflife, dt, count),
};

export const characterMethods: CharacterMethods & ThisType<KernelHost> = {
  characterUpdate(x, v, a, vGoal, halflife, dt) {
    const arrays = [written('x', x), written('v', v), written('a', a), read('vGoal', vGoal, 1, ['x', 'v', 'a'])];
    checkAndRun(this, 'characterUpdate', UPDATE, arrays, [['halflife', halflife, 'nonNegative']], dt, [dt]);
  },

  characterPredict(px, pv, pa, x, v, a, vGoal, halflife, dt, count) {
    this.checkLive('characterPredict');
    checkNumber('characterPredict', 'count', count, 'positive');
    if (!Number.isInteger(count) || count > MAX_PREDICT_SAMPLES) {
      throw new RangeError(`characterPredict: count is ${count}; it must be a whole number from 1 to ${MAX_PREDICT_SAMPLES}`);
    }
    const arrays = [
      read('x', x),
      read('v', v),
      read('a', a),
      read('vGoal', vGoal),
      written('px', px, count),
      written('pv', pv, count),
      written('pa', pa, count),
    ];
    checkAndRun(this, 'characterPredict', PREDICT, arrays, [['halflife', halflife, 'nonNegative']], dt, [dt, count]);
  },
};
