/**
 * Following and continuing signals (Holden): extrapolation with a decaying velocity
 * ("Spring-It-On", extrapolate), dead blending ("Dead Blending") and the exact tracking spring
 * ("Spring-It-On", tracking_spring_update_exact). Kernels: assembly/kernels/signal.ts; float64
 * reference: src/reference/signal.ts.
 */
import { checkAndRun, checkNumber, read, written, type Kernel, type KernelHost, type Param, type ParamSpec } from '../core/contract.js';
import * as reference from '../reference/signal.js';

export interface SignalMethods {
  /**
   * Holden's extrapolate: continues (x, v) with a velocity that halves every `halflife` seconds:
   * y = ln2/halflife, x += v·(1 − e^{−y·dt})/y, v *= e^{−y·dt} (exact for any dt; halflife 0
   * stops at once: v = 0, x unchanged). x, v are updated in place.
   * @example
   * ```ts
   * import { createSolver } from 'spring-solver';
   * const solver = await createSolver();
   * const [x, v] = [solver.alloc(3), solver.alloc(3).fill(2)];
   * solver.extrapolate(x, v, 0.5, 1 / 60); // velocity halflife 0.5 s, dt 1/60 s
   * ```
   * @group Signal
   */
  extrapolate(x: Float32Array, v: Float32Array, halflife: Param, dt: number): void;
  /**
   * Holden's dead_blending_transition: at a switch away from the source (srcX, srcV), the
   * extrapolated state starts from it: extX = srcX, extV = srcV, extT = 0 (s since the switch).
   * @example
   * ```ts
   * import { createSolver } from 'spring-solver';
   * const solver = await createSolver();
   * const [extX, extV, extT] = [solver.alloc(3), solver.alloc(3), solver.alloc(3)];
   * const [srcX, srcV] = [solver.alloc(3).fill(1), solver.alloc(3)];
   * solver.deadBlendingTransition(extX, extV, extT, srcX, srcV); // at the switch away from src
   * ```
   * @group Signal
   */
  deadBlendingTransition(extX: Float32Array, extV: Float32Array, extT: Float32Array, srcX: Float32Array, srcV: Float32Array): void;
  /**
   * Holden's dead_blending_update: while extT < blendTime (s), the source is extrapolated by dt
   * (x += v·dt, or with `decayHalflife` the decaying extrapolate above), extT += dt, and
   * outX = lerp(extX, inX, α), α = smoothstep(extT/blendTime), smoothstep(t) = t²(3 − 2t) on
   * [0, 1]. Once extT ≥ blendTime, outX = inX and extX, extV, extT are left unchanged
   * (blendTime 0: outX = inX). extX, extV, extT are updated in place, outX written; outX may be
   * the very array inX.
   * @example
   * ```ts
   * import { createSolver } from 'spring-solver';
   * const solver = await createSolver();
   * const [extX, extV, extT, inX, outX] = [solver.alloc(3), solver.alloc(3), solver.alloc(3), solver.alloc(3).fill(1), solver.alloc(3)];
   * solver.deadBlendingUpdate(outX, extX, extV, extT, inX, 0.25, 1 / 60); // blend time 0.25 s, dt 1/60 s
   * ```
   * @group Signal
   */
  deadBlendingUpdate(
    outX: Float32Array,
    extX: Float32Array,
    extV: Float32Array,
    extT: Float32Array,
    inX: Float32Array,
    blendTime: Param,
    dt: number,
    decayHalflife?: Param,
  ): void;
  /**
   * Holden's exact tracking spring (tracking_spring_update_exact): follows a target signal
   * (targetX, its velocity targetV and acceleration targetA) as the gains would every `gainDt`
   * seconds, but exactly for any dt. With t0 = (1 − vGain)(1 − xGain),
   * t1 = aGain·(1 − vGain)(1 − xGain), t2 = vGain·(1 − xGain)/gainDt, t3 = xGain/gainDt², it is the
   * spring x'' = s·(targetX − x) + d·(q − v), s = t3, d = (1 − t0)/gainDt,
   * d·q = t2·targetV + t1·targetA, stepped with the core exact transition (zero gains and zero
   * stiffness are exact limits; Holden's q = d·q/(d + eps) is never formed). Gains are in [0, 1];
   * gainDt in [2^-60, 2^60] s. x, v are updated in place; `a` is written with the spring's acceleration
   * after the step, s·(targetX − x) − d·v + t2·targetV + t1·targetA (an output only).
   * @example
   * ```ts
   * import { createSolver } from 'spring-solver';
   * const solver = await createSolver();
   * const [x, v, a] = [solver.alloc(3), solver.alloc(3), solver.alloc(3)];
   * const [targetX, targetV, targetA] = [solver.alloc(3).fill(1), solver.alloc(3), solver.alloc(3)];
   * solver.trackingSpringUpdate(x, v, a, targetX, targetV, targetA, 0.1, 0.5, 0, 1 / 60, 1 / 60); // gains x 0.1, v 0.5, a 0; dt 1/60 s, gainDt 1/60 s
   * ```
   * @group Signal
   */
  trackingSpringUpdate(
    x: Float32Array,
    v: Float32Array,
    a: Float32Array,
    targetX: Float32Array,
    targetV: Float32Array,
    targetA: Float32Array,
    xGain: Param,
    vGain: Param,
    aGain: Param,
    dt: number,
    gainDt: number,
  ): void;
}

const GAIN_DT_MIN = 2 ** -60;
const GAIN_DT_MAX = 2 ** 60;

const EXTRAPOLATE: Kernel = {
  wasm: 'extrapolate',
  js: ([x, v], [halflife], [dt]) => reference.extrapolate(x!, v!, halflife, dt),
};

const DEAD_BLENDING_TRANSITION: Kernel = {
  wasm: 'deadBlendingTransition',
  js: ([extX, extV, extT, srcX, srcV]) => reference.deadBlendingTransition(extX!, extV!, extT!, srcX!, srcV!),
};

const DEAD_BLENDING_UPDATE: Kernel = {
  wasm: 'deadBlendingUpdate',
  js: ([outX, extX, extV, extT, inX], [blendTime, decayHalflife], [dt]) =>
    reference.deadBlendingUpdate(outX!, extX!, extV!, extT!, inX!, blendTime, dt, decayHalflife),
};

const TRACKING: Kernel = {
  wasm: 'trackingSpringUpdate',
  js: ([x, v, a, targetX, targetV, targetA], [xGain, vGain, aGain], [dt, gainDt]) =>
    reference.trackingSpringUpdate(x!, v!, a!, targetX!, targetV!, targetA!, xGain, vGain, aGain, dt, gainDt),
};

/** Rejects a gain above 1 (the range check of ≥ 0 and finite is checkCall's). */
function checkAtMostOne(method: string, name: string, gain: Param): void {
  if (typeof gain === 'number') {
    if (gain > 1) throw new RangeError(`${method}: ${name} is ${gain}; it must be in [0, 1]`);
  } else if (gain instanceof Float32Array) {
    for (let i = 0; i < gain.length; i++) {
      if (gain[i] > 1) throw new RangeError(`${method}: ${name}[${i}] is ${gain[i]}; it must be in [0, 1]`);
    }
  }
}

export const signalMethods: SignalMethods & ThisType<KernelHost> = {
  extrapolate(x, v, halflife, dt) {
    checkAndRun(this, 'extrapolate', EXTRAPOLATE, [written('x', x), written('v', v)], [['halflife', halflife, 'nonNegative']], dt, [dt]);
  },

  deadBlendingTransition(extX, extV, extT, srcX, srcV) {
    const arrays = [
      written('extX', extX),
      written('extV', extV),
      written('extT', extT),
      read('srcX', srcX, 1, ['extX', 'extV', 'extT']),
      read('srcV', srcV, 1, ['extV', 'extT']),
    ];
    checkAndRun(this, 'deadBlendingTransition', DEAD_BLENDING_TRANSITION, arrays, [], 0, []);
  },

  deadBlendingUpdate(outX, extX, extV, extT, inX, blendTime, dt, decayHalflife) {
    const arrays = [
      written('outX', outX),
      written('extX', extX),
      written('extV', extV),
      written('extT', extT),
      read('inX', inX, 1, ['outX']),
    ];
    const params: ParamSpec[] = [['blendTime', blendTime, 'nonNegative']];
    if (decayHalflife !== undefined) params.push(['decayHalflife', decayHalflife, 'nonNegative']);
    // Without a decay halflife the velocity never decays: halflife ∞ gives exactly x += v·dt.
    checkAndRun(this, 'deadBlendingUpdate', DEAD_BLENDING_UPDATE, arrays, params, dt, [dt], decayHalflife === undefined ? [Infinity] : []);
  },

  trackingSpringUpdate(x, v, a, targetX, targetV, targetA, xGain, vGain, aGain, dt, gainDt) {
    const method = 'trackingSpringUpdate';
    this.checkLive(method);
    checkNumber(method, 'gainDt', gainDt, 'positive');
    // s = xGain/gainDt² and d = (1 − t0)/gainDt must stay well inside float32 (the SIMD lanes):
    // gainDt in [2^-60, 2^60] (docs/DECISIONS.md, "Accepted ranges").
    if (!(gainDt >= GAIN_DT_MIN && gainDt <= GAIN_DT_MAX)) {
      throw new RangeError(`${method}: gainDt is ${gainDt}; it must be in [2^-60, 2^60] (${GAIN_DT_MIN} … ${GAIN_DT_MAX}) s`);
    }
    const gains: ParamSpec[] = [
      ['xGain', xGain, 'nonNegative'],
      ['vGain', vGain, 'nonNegative'],
      ['aGain', aGain, 'nonNegative'],
    ];
    for (const [name, gain] of gains) checkAtMostOne(method, name, gain);
    const arrays = [
      written('x', x),
      written('v', v),
      written('a', a),
      read('targetX', targetX, 1, ['x', 'v', 'a']),
      read('targetV', targetV, 1, ['x', 'v', 'a']),
      read('targetA', targetA, 1, ['x', 'v', 'a']),
    ];
    checkAndRun(this, method, TRACKING, arrays, gains, dt, [dt, gainDt]);
  },
};
