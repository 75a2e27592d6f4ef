// Inertialization of values (Holden, "Motion-Matching": inertialize_transition /
// inertialize_update): at a transition the offset absorbs the jump between the source and the
// destination animation; afterwards it decays with the exact critical decay spring
// (decay_spring_damper_exact, the core transition via spring/critical.ts) and is added to
// the playing animation. The float64 reference is src/reference/inertialize.ts.
import { criticalTransition, criticalTransitionX4, splatCriticalTransition, simpleStepX4, simpleStep } from '../spring/critical';
import { paramAt } from '../lanes/scalar';
import { paramX4 } from '../lanes/x4';

/** off = (src + off) − dst, for values and velocities. */
export function inertializeTransition(offX: usize, offV: usize, srcX: usize, srcV: usize, dstX: usize, dstV: usize, n: i32): void {
  let i = 0;
  if (ASC_FEATURE_SIMD) {
    for (; i + 4 <= n; i += 4) {
      const off = <usize>i << 2;
      v128.store(offX + off, f32x4.sub(f32x4.add(v128.load(srcX + off), v128.load(offX + off)), v128.load(dstX + off)));
      v128.store(offV + off, f32x4.sub(f32x4.add(v128.load(srcV + off), v128.load(offV + off)), v128.load(dstV + off)));
    }
  }
  for (; i < n; i++) {
    const off = <usize>i << 2;
    store<f32>(offX + off, <f32>(<f64>load<f32>(srcX + off) + <f64>load<f32>(offX + off) - <f64>load<f32>(dstX + off)));
    store<f32>(offV + off, <f32>(<f64>load<f32>(srcV + off) + <f64>load<f32>(offV + off) - <f64>load<f32>(dstV + off)));
  }
}

/** The offset decays toward 0 by dt (halflife per element or uniform), then out = in + off. */
export function inertializeUpdate(
  outX: usize, outV: usize, offX: usize, offV: usize, inX: usize, inV: usize, n: i32,
  halflife: usize, halflifeStride: i32, dt: f64,
): void {
  const decay = dt != 0;
  const uniform = halflifeStride == 0;
  if (decay && uniform) criticalTransition(paramAt(halflife, 0, 0), dt);
  let i = 0;
  if (ASC_FEATURE_SIMD) {
    if (decay && uniform) splatCriticalTransition();
    const zero = f32x4.splat(0);
    for (; i + 4 <= n; i += 4) {
      const off = <usize>i << 2;
      if (decay) {
        if (!uniform) criticalTransitionX4(paramX4(halflife, halflifeStride, i), 1, dt);
        simpleStepX4(offX, offV, off, zero);
      }
      v128.store(outX + off, f32x4.add(v128.load(inX + off), v128.load(offX + off)));
      v128.store(outV + off, f32x4.add(v128.load(inV + off), v128.load(offV + off)));
    }
  }
  for (; i < n; i++) {
    const off = <usize>i << 2;
    if (decay) {
      if (!uniform) criticalTransition(paramAt(halflife, halflifeStride, i), dt);
      simpleStep(offX, offV, off, 0);
    }
    store<f32>(outX + off, load<f32>(inX + off) + load<f32>(offX + off));
    store<f32>(outV + off, load<f32>(inV + off) + load<f32>(offV + off));
  }
}
