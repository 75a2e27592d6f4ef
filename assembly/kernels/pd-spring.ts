// Huw Bowles' PD spring ("Spring dynamics for production"): F = ω²·(targetPos − pos) +
// 2ζω·(targetVel − vel), the ODE x'' = s·(g − x) + d·(q − v) with s = ω², d = 2ζω, stepped by
// explicit, semi-implicit or stable-PD ("implicit") Euler, by the rigid-body velocity change of
// his appendix B, or exactly (the transition of spring/transition.ts). Every kernel takes
// (pos, vel, targetPos, targetVel, n, uaf, uafStride, zeta, zetaStride, dt); stride 0 broadcasts
// the parameter. The float64 reference is src/reference/pd-spring.ts.
import { springUniform } from './spring';
import { MODE_STIFFNESS_DAMPING } from '../spring/params';
import { springTransition, xx, xv, xq, vx, vv, vq } from '../spring/transition';
import { springTransitionX2, xxX2, xvX2, xqX2, vxX2, vvX2, vqX2 } from '../spring/transition-x2';
import { paramAt } from '../lanes/scalar';
import { paramX4 } from '../lanes/x4';
import { loadX2, storeX2, paramX2 } from '../lanes/x2';

const EXPLICIT = 0;
const SEMI_IMPLICIT = 1;
const IMPLICIT = 2;
const RIGID_BODY = 3;

export function pdSpringExplicit(
  pos: usize, vel: usize, targetPos: usize, targetVel: usize, n: i32, uaf: usize, uafStride: i32, zeta: usize, zetaStride: i32, dt: f64,
): void {
  integrate(EXPLICIT, pos, vel, targetPos, targetVel, n, uaf, uafStride, zeta, zetaStride, dt);
}

export function pdSpringSemiImplicit(
  pos: usize, vel: usize, targetPos: usize, targetVel: usize, n: i32, uaf: usize, uafStride: i32, zeta: usize, zetaStride: i32, dt: f64,
): void {
  integrate(SEMI_IMPLICIT, pos, vel, targetPos, targetVel, n, uaf, uafStride, zeta, zetaStride, dt);
}

export function pdSpringImplicit(
  pos: usize, vel: usize, targetPos: usize, targetVel: usize, n: i32, uaf: usize, uafStride: i32, zeta: usize, zetaStride: i32, dt: f64,
): void {
  integrate(IMPLICIT, pos, vel, targetPos, targetVel, n, uaf, uafStride, zeta, zetaStride, dt);
}

/** Appendix B: only vel is written (the implicit velocity change); pos is read. */
export function pdSpringRigidBody(
  pos: usize, vel: usize, targetPos: usize, targetVel: usize, n: i32, uaf: usize, uafStride: i32, zeta: usize, zetaStride: i32, dt: f64,
): void {
  integrate(RIGID_BODY, pos, vel, targetPos, targetVel, n, uaf, uafStride, zeta, zetaStride, dt);
}

/**
 * The Euler-type integrators. `kind` is a constant at every call site, so inlining folds the
 * integrator branches of the step functions away. The float64 path (stepScalar) is Bowles' order
 * of operations with s, d and the stable-PD factor c = dt/(1 + dt·d). The f32x4 path multiplies the
 * differences by coefficients that already contain dt (eulerCoefficients, stablePdCoefficients),
 * so that F = s·(g − x) + d·(q − v), which may exceed float32 where F·dt does not (ζ = 3.4e38), is
 * never formed. Uniform parameters: coefficients once per call in float64; per element: in f32x4.
 * Where a coefficient does not fit in float32 (uaf = 1e30: s·dt = 1.7e58) the elements take the
 * float64 path, as do all elements when dt does not (then every product with dt would be ∞ or 0).
 */
// @ts-ignore: decorator
@inline function integrate(
  kind: i32, pos: usize, vel: usize, g: usize, q: usize, n: i32, uaf: usize, uafStride: i32, zeta: usize, zetaStride: i32, dt: f64,
): void {
  if (dt == 0) return;
  const uniform = uafStride == 0 && zetaStride == 0;
  let w = paramAt(uaf, 0, 0);
  let z = paramAt(zeta, 0, 0);
  let s = w * w; // Bowles: stiffness ω²
  let d = 2 * z * w; // Bowles: damping 2ζω
  let c = dt / (1 + dt * d); // Bowles stable PD: the factor dt/(1 + dt·2ζω)
  let i = 0;
  if (ASC_FEATURE_SIMD && dt <= <f64>F32.MAX_VALUE) {
    const dtX4 = f32x4.splat(<f32>dt);
    if (uniform) {
      // a multiplies g − x (g − predicted), b multiplies q − v; see stepX4
      const a = kind == EXPLICIT || kind == SEMI_IMPLICIT ? s * dt : s * c;
      const b = kind == EXPLICIT || kind == SEMI_IMPLICIT ? d * dt : d * c;
      if (isFinite<f32>(<f32>a) && isFinite<f32>(<f32>b)) {
        const aX4 = f32x4.splat(<f32>a), bX4 = f32x4.splat(<f32>b);
        for (; i + 4 <= n; i += 4) stepX4(kind, pos, vel, g, q, i, aX4, bX4, dtX4);
      }
    } else {
      const one = f32x4.splat(1);
      const inf = f32x4.splat(Infinity);
      for (; i + 4 <= n; i += 4) {
        const wX4 = paramX4(uaf, uafStride, i);
        const zX4 = paramX4(zeta, zetaStride, i);
        const sdt = f32x4.mul(f32x4.mul(wX4, wX4), dtX4); // s·dt
        const ddt = f32x4.mul(f32x4.mul(f32x4.add(zX4, zX4), wX4), dtX4); // d·dt
        if (!i32x4.all_true(v128.and(f32x4.lt(sdt, inf), f32x4.lt(ddt, inf)))) {
          for (let k = i; k < i + 4; k++) stepScalarAt(kind, pos, vel, g, q, k, uaf, uafStride, zeta, zetaStride, dt);
          continue;
        }
        if (kind == EXPLICIT || kind == SEMI_IMPLICIT) {
          stepX4(kind, pos, vel, g, q, i, sdt, ddt, dtX4);
        } else {
          const inv = f32x4.div(one, f32x4.add(one, ddt)); // c/dt = 1/(1 + dt·d) ∈ (0, 1]
          stepX4(kind, pos, vel, g, q, i, f32x4.mul(sdt, inv), f32x4.mul(ddt, inv), dtX4);
        }
      }
    }
  }
  for (; i < n; i++) {
    if (uniform) stepScalar(kind, pos, vel, g, q, i, s, d, c, dt);
    else stepScalarAt(kind, pos, vel, g, q, i, uaf, uafStride, zeta, zetaStride, dt);
  }
}

// One element in float64, with its own parameters.
// @ts-ignore: decorator
@inline function stepScalarAt(
  kind: i32, pos: usize, vel: usize, g: usize, q: usize, i: i32, uaf: usize, uafStride: i32, zeta: usize, zetaStride: i32, dt: f64,
): void {
  const w = paramAt(uaf, uafStride, i);
  const z = paramAt(zeta, zetaStride, i);
  const d = 2 * z * w; // Bowles: damping 2ζω
  stepScalar(kind, pos, vel, g, q, i, w * w, d, dt / (1 + dt * d), dt);
}

// Four elements from i in f32x4: stepScalar's formulas with dt (or the stable-PD factor c) moved
// into the coefficients, F·dt = (s·dt)·(g − x) + (d·dt)·(q − v) and F·c = (s·c)·(g − predicted) +
// (d·c)·(q − v). Explicit and semi-implicit: a = s·dt, b = d·dt; stable PD: a = s·c, b = d·c
// (= dt·d/(1 + dt·d) < 1).
// @ts-ignore: decorator
@inline function stepX4(
  kind: i32, pos: usize, vel: usize, g: usize, q: usize, i: i32, a: v128, b: v128, dt: v128,
): void {
  const off = <usize>i << 2;
  const x = v128.load(pos + off);
  const v = v128.load(vel + off);
  const gi = v128.load(g + off);
  const dq = f32x4.sub(v128.load(q + off), v);
  if (kind == EXPLICIT || kind == SEMI_IMPLICIT) {
    const vNew = f32x4.add(v, f32x4.add(f32x4.mul(a, f32x4.sub(gi, x)), f32x4.mul(b, dq))); // vel += F·dt
    v128.store(pos + off, f32x4.add(x, f32x4.mul(kind == EXPLICIT ? v : vNew, dt)));
    v128.store(vel + off, vNew);
  } else {
    const predicted = f32x4.add(x, f32x4.mul(dt, v));
    const vNew = f32x4.add(v, f32x4.add(f32x4.mul(a, f32x4.sub(gi, predicted)), f32x4.mul(b, dq))); // vel += F·c
    v128.store(vel + off, vNew);
    if (kind == IMPLICIT) v128.store(pos + off, f32x4.add(x, f32x4.mul(vNew, dt)));
  }
}

// One element in float64.
// @ts-ignore: decorator
@inline function stepScalar(
  kind: i32, pos: usize, vel: usize, g: usize, q: usize, i: i32, s: f64, d: f64, c: f64, dt: f64,
): void {
  const off = <usize>i << 2;
  const x = <f64>load<f32>(pos + off);
  const v = <f64>load<f32>(vel + off);
  const gi = <f64>load<f32>(g + off);
  const qi = <f64>load<f32>(q + off);
  if (kind == EXPLICIT || kind == SEMI_IMPLICIT) {
    const F = s * (gi - x) + d * (qi - v); // Bowles: F = ω²(targetPos − pos) + 2ζω(targetVel − vel)
    const vNew = v + F * dt; // Bowles: vel += F·dt
    // Bowles: pos += vel·dt, with the old vel (explicit) or the new one (semi-implicit)
    store<f32>(pos + off, <f32>(x + (kind == EXPLICIT ? v : vNew) * dt));
    store<f32>(vel + off, <f32>vNew);
  } else {
    const F = s * (gi - (x + dt * v)) + d * (qi - v); // Bowles stable PD: F = ω²(targetPos − (pos + dt·vel)) + 2ζω(targetVel − vel)
    const vNew = v + F * c; // Bowles stable PD: vel += F·dt/(1 + dt·2ζω)
    store<f32>(vel + off, <f32>vNew);
    if (kind == IMPLICIT) store<f32>(pos + off, <f32>(x + vNew * dt)); // pos += vel·dt (new vel)
  }
}

/**
 * The exact step: the transition of x'' = s·(g − x) + d·(q − v) with s = ω², d = 2ζω (Bowles'
 * stiffness and damping) over dt. Uniform parameters are exactly springDamperStiffness; per
 * element, the transition and the step are computed in f64x2 and rounded once.
 */
export function pdSpringExact(
  pos: usize, vel: usize, g: usize, q: usize, n: i32, uaf: usize, uafStride: i32, zeta: usize, zetaStride: i32, dt: f64,
): void {
  if (dt == 0) return;
  if (uafStride == 0 && zetaStride == 0) {
    const w = paramAt(uaf, 0, 0);
    springUniform(pos, vel, g, q, n, MODE_STIFFNESS_DAMPING, w * w, 2 * paramAt(zeta, 0, 0) * w, dt);
    return;
  }
  let i = 0;
  if (ASC_FEATURE_SIMD) {
    const two = f64x2.splat(2);
    for (; i + 2 <= n; i += 2) {
      const w = paramX2(uaf, uafStride, i);
      springTransitionX2(f64x2.mul(w, w), f64x2.mul(f64x2.mul(two, paramX2(zeta, zetaStride, i)), w), dt);
      const gi = loadX2(g, i);
      const qi = loadX2(q, i);
      const e = f64x2.sub(loadX2(pos, i), gi);
      const v = loadX2(vel, i);
      // x' = g + xx·(x − g) + xv·v + xq·q,  v' = vx·(x − g) + vv·v + vq·q
      storeX2(pos, i, f64x2.add(gi, f64x2.add(f64x2.add(f64x2.mul(xxX2, e), f64x2.mul(xvX2, v)), f64x2.mul(xqX2, qi))));
      storeX2(vel, i, f64x2.add(f64x2.add(f64x2.mul(vxX2, e), f64x2.mul(vvX2, v)), f64x2.mul(vqX2, qi)));
    }
  }
  for (; i < n; i++) {
    const w = paramAt(uaf, uafStride, i);
    springTransition(w * w, 2 * paramAt(zeta, zetaStride, i) * w, dt);
    const off = <usize>i << 2;
    const gi = <f64>load<f32>(g + off);
    const qi = <f64>load<f32>(q + off);
    const e = <f64>load<f32>(pos + off) - gi;
    const v = <f64>load<f32>(vel + off);
    store<f32>(pos + off, <f32>(gi + xx * e + xv * v + xq * qi));
    store<f32>(vel + off, <f32>(vx * e + vv * v + vq * qi));
  }
}
