/**
 * Float64 reference of Holden's signal followers: extrapolation with a decaying velocity
 * ("Spring-It-On", extrapolate), dead blending ("Dead Blending": dead_blending_transition /
 * dead_blending_update) and the exact tracking spring ("Spring-It-On",
 * tracking_spring_update_exact). State arrays are updated in place.
 */
import type { Param } from '../core/types.js';
import { springTransition } from './spring-transition.js';
import { paramAt } from './critical.js';
import { phi1 } from './exp-integrals.js';

/** The decay of a velocity with halflife over dt: v' = e·v, x' = x + c·v. */
interface Decay {
  e: number;
  c: number;
}

/**
 * y = ln2/halflife (the velocity halves every halflife), e = e^{−y·dt},
 * c = (1 − e)/y = dt·φ1(y·dt). halflife 0: e = c = 0; halflife ∞: e = 1, c = dt; dt = 0: e = 1, c = 0.
 */
function decay(halflife: number, dt: number): Decay {
  if (dt === 0) return { e: 1, c: 0 };
  const u = (Math.LN2 / halflife) * dt;
  return { e: Math.exp(-u), c: dt * phi1(u) };
}

/** One Decay per element, computed once when the halflife is uniform. */
function decays(halflife: Param, dt: number): (i: number) => Decay {
  if (typeof halflife === 'number') {
    const d = decay(halflife, dt);
    return () => d;
  }
  return (i) => decay(halflife[i], dt);
}

/**
 * extrapolate: x += v·(1 − e^{−y·dt})/y, v *= e^{−y·dt}, y = ln2/halflife (halflife 0: v = 0).
 * @example
 * ```ts
 * import { extrapolate } from 'spring-solver/reference';
 * const [x, v] = [new Float32Array(1), new Float32Array([2])];
 * extrapolate(x, v, 0.5, 1 / 60); // halflife 0.5 s, dt 1/60 s
 * ```
 * @group Signal
 */
export function extrapolate(x: Float32Array, v: Float32Array, halflife: Param, dt: number): void {
  if (dt === 0) return;
  const d = decays(halflife, dt);
  for (let i = 0; i < x.length; i++) {
    const { e, c } = d(i);
    x[i] += c * v[i];
    v[i] *= e;
  }
}

/**
 * dead_blending_transition: the extrapolated state starts from the source: extX = srcX, extV = srcV, extT = 0.
 * @example
 * ```ts
 * import { deadBlendingTransition } from 'spring-solver/reference';
 * const [extX, extV, extT] = [new Float32Array(1), new Float32Array(1), new Float32Array(1)];
 * deadBlendingTransition(extX, extV, extT, new Float32Array([1]), new Float32Array([0.5]));
 * ```
 * @group Signal
 */
export function deadBlendingTransition(
  extX: Float32Array,
  extV: Float32Array,
  extT: Float32Array,
  srcX: Float32Array,
  srcV: Float32Array,
): void {
  extX.set(srcX);
  extV.set(srcV);
  extT.fill(0);
}

/** smoothstep(t) = t²·(3 − 2t) with t clamped to [0, 1] (NaN counts as 1). */
function smoothstep(ratio: number): number {
  let t = ratio < 1 ? ratio : 1;
  t = t > 0 ? t : 0;
  return t * t * (3 - 2 * t);
}

/**
 * dead_blending_update: while extT < blendTime, (extX, extV) is extrapolated by dt (x += v·dt, or
 * with decayHalflife the decaying extrapolate), extT += dt and
 * outX = lerp(extX, inX, smoothstep(extT/blendTime)); otherwise outX = inX and the extrapolated
 * state is left as it is (so extT stays ≥ blendTime).
 * @example
 * ```ts
 * import { deadBlendingUpdate } from 'spring-solver/reference';
 * const [extX, extV, extT, inX, outX] = [new Float32Array(1), new Float32Array(1), new Float32Array(1), new Float32Array([1]), new Float32Array(1)];
 * deadBlendingUpdate(outX, extX, extV, extT, inX, 0.25, 1 / 60); // blend time 0.25 s, dt 1/60 s
 * ```
 * @group Signal
 */
export function deadBlendingUpdate(
  outX: Float32Array,
  extX: Float32Array,
  extV: Float32Array,
  extT: Float32Array,
  inX: Float32Array,
  blendTime: Param,
  dt: number,
  decayHalflife: Param = Infinity,
): void {
  const d = decays(decayHalflife, dt);
  for (let i = 0; i < outX.length; i++) {
    const bt = paramAt(blendTime, i);
    if (!(extT[i] < bt)) {
      outX[i] = inX[i];
      continue;
    }
    const { e, c } = d(i);
    extX[i] += c * extV[i];
    extV[i] *= e;
    extT[i] += dt;
    const alpha = smoothstep(extT[i] / bt);
    outX[i] = (1 - alpha) * extX[i] + alpha * inX[i];
  }
}

/**
 * tracking_spring_update_exact: with t0 = (1 − vGain)(1 − xGain), t1 = aGain·(1 − vGain)(1 − xGain),
 * t2 = vGain·(1 − xGain)/gainDt, t3 = xGain/gainDt², the spring x'' = s·(g − x) + d·(q − v) with
 * s = t3, d = (1 − t0)/gainDt, g = targetX, d·q = t2·targetV + t1·targetA, stepped exactly by dt.
 * The forcing d·q enters through P = ∫₀^dt xv = xq/d (dt²/2 when d = 0, where gains in [0, 1]
 * force s = 0), so zero gains are exact. `a` receives the acceleration after the step,
 * s·(g − x') − d·v' + d·q (also at dt = 0, where x and v are unchanged).
 * @example
 * ```ts
 * import { trackingSpringUpdate } from 'spring-solver/reference';
 * const [x, v, a] = [new Float32Array(1), new Float32Array(1), new Float32Array(1)];
 * const [tx, tv, ta] = [new Float32Array([1]), new Float32Array(1), new Float32Array(1)];
 * trackingSpringUpdate(x, v, a, tx, tv, ta, 0.1, 0.5, 0, 1 / 60, 1 / 60); // gains x 0.1, v 0.5, a 0; dt 1/60 s, gainDt 1/60 s
 * ```
 * @group Signal
 */
export function trackingSpringUpdate(
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
): void {
  const at = (i: number) => tracking(paramAt(xGain, i), paramAt(vGain, i), paramAt(aGain, i), dt, gainDt);
  const uniform = typeof xGain === 'number' && typeof vGain === 'number' && typeof aGain === 'number' ? at(0) : null;
  for (let i = 0; i < x.length; i++) {
    const { m, P, s, d, t1, t2 } = uniform ?? at(i);
    const dq = t2 * targetV[i] + t1 * targetA[i];
    const y = x[i] - targetX[i];
    const yNext = m.xx * y + m.xv * v[i] + P * dq;
    const vNext = m.vx * y + m.vv * v[i] + m.xv * dq;
    x[i] = targetX[i] + yNext;
    v[i] = vNext;
    a[i] = dq - s * yNext - d * vNext;
  }
}

/** The tracking spring's s, d, t1, t2, its transition over dt and P = ∫₀^dt xv. */
function tracking(xGain: number, vGain: number, aGain: number, dt: number, gainDt: number) {
  const t0 = (1 - vGain) * (1 - xGain);
  const t1 = aGain * (1 - vGain) * (1 - xGain);
  const t2 = (vGain * (1 - xGain)) / gainDt;
  const s = xGain / (gainDt * gainDt); // t3
  const d = (1 - t0) / gainDt;
  const m = springTransition(s, d, dt);
  return { m, P: d > 0 ? m.xq / d : 0.5 * dt * dt, s, d, t1, t2 };
}
