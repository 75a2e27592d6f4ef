// Holden's exact damper: x ← g + (x − g)·exp(−ln2·dt / halflife) ("Spring-It-On", damper_exact,
// with true exp instead of fast_negexp and no eps: halflife 0 snaps x to g).
import { expX4 } from '../maths/x4';
import { paramAt } from '../lanes/scalar';
import { paramX4 } from '../lanes/x4';

const LN2: f64 = 0.6931471805599453;

export function damperUniform(x: usize, g: usize, n: i32, halflife: f64, dt: f64): void {
  if (dt == 0) return;
  const f = Math.exp((-LN2 * dt) / halflife);
  let i = 0;
  if (ASC_FEATURE_SIMD) {
    const fv = f32x4.splat(<f32>f);
    for (; i + 4 <= n; i += 4) applyX4(x, g, i, fv);
  }
  for (; i < n; i++) applyScalar(x, g, i, f);
}

export function damperVarying(x: usize, g: usize, n: i32, halflife: usize, halflifeStride: i32, dt: f64): void {
  if (dt == 0) return;
  let i = 0;
  // A dt that vanishes in float32 (below 2e-45 s) would make the argument −0/h, NaN at h = 0:
  // the float64 loop below handles it.
  if (ASC_FEATURE_SIMD && <f32>(-LN2 * dt) != 0) {
    // float32 is enough here: the factor's relative error ε moves x by ε·|x − g| (and the
    // argument's rounding by at most |u|·e^u·6e-8 ≤ 2.2e-8 of |x − g|); see docs/DECISIONS.md.
    const minusLn2Dt = f32x4.splat(<f32>(-LN2 * dt));
    for (; i + 4 <= n; i += 4) {
      const h = paramX4(halflife, halflifeStride, i);
      applyX4(x, g, i, expX4(f32x4.div(minusLn2Dt, h)));
    }
  }
  for (; i < n; i++) applyScalar(x, g, i, Math.exp((-LN2 * dt) / paramAt(halflife, halflifeStride, i)));
}

// @ts-ignore: decorator
@inline function applyX4(x: usize, g: usize, i: i32, f: v128): void {
  const off = <usize>i << 2;
  const gi = v128.load(g + off);
  v128.store(x + off, f32x4.add(gi, f32x4.mul(f32x4.sub(v128.load(x + off), gi), f)));
}

// @ts-ignore: decorator
@inline function applyScalar(x: usize, g: usize, i: i32, f: f64): void {
  const off = <usize>i << 2;
  const gi = <f64>load<f32>(g + off);
  store<f32>(x + off, <f32>(gi + (<f64>load<f32>(x + off) - gi) * f));
}
