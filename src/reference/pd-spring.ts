/**
 * Plain float64 JavaScript reference of the PD spring ("damped spring") from
 * Huw Bowles, "Spring dynamics for production"
 * (http://www.huwbowles.com/spring-dynamics-production/).
 *
 * This file is the JS backend and the test oracle for the wasm kernels; it favours
 * clarity and accuracy over speed. All arithmetic is float64; results are stored
 * into the caller's arrays, so Float32Array storage rounds to float32 once per step
 * (Float64Array storage is accepted too and loses nothing — the tests use that).
 *
 * Model (source notation): the spring pulls `pos` towards `targetPos` and `vel`
 * towards `targetVel` with undamped angular frequency ω (`uaf`, rad/s) and damping
 * ratio ζ:
 *
 *     F = ω²·(targetPos − pos) + 2ζω·(targetVel − vel)        (unit mass, F = acceleration)
 *
 * i.e. the linear ODE x'' = s·(g − x) + d·(q − v) with s = ω², d = 2ζω, g = targetPos,
 * q = targetVel, both targets held constant over a step.
 *
 * Integrators (`options.integrator`):
 *  - 'explicit'      forward Euler: pos += vel·dt (old vel), vel += F·dt.
 *                    Unconditionally unstable for ζ = 0 (energy grows by 1 + (ωdt)² per step);
 *                    for ζ > 0 stable iff ωdt < 2ζ and (ωdt)² − 4ζ·ωdt + 4 > 0.
 *  - 'semi-implicit' symplectic Euler: vel += F·dt, then pos += vel·dt.
 *                    For ζ > 0 stable iff (ωdt)² + 4ζ·ωdt < 4; at ζ = 0 bounded (not convergent) for ωdt < 2.
 *  - 'implicit'      (default) Bowles' "stable PD" (Tan, Liu & Turk, "Stable Proportional-Derivative
 *                    Controllers"): the spring force uses the predicted position pos + dt·vel and the
 *                    damping is implicit:
 *                      F = ω²·(targetPos − (pos + dt·vel)) + 2ζω·(targetVel − vel)
 *                      vel += F·dt / (1 + dt·2ζω);  pos += vel·dt
 *                    NOTE: this is only *conditionally* stable. Its one-step map (targets 0) has
 *                    det = (1 − u²)/(1 + 2ζu), trace = (2 + 2ζu − 2u²)/(1 + 2ζu) with u = ωdt, and
 *                    the Jury conditions reduce to 3u² < 4 + 4ζu, i.e.
 *                      u < u* = (2ζ + 2·√(ζ² + 3)) / 3        (u* = 1.155 at ζ = 0, 2 at ζ = 1).
 *                    Example: 20 Hz (ω = 125.7), ζ = 0.5, dt = 1/60 → u = 2.09 > u* = 1.54: diverges.
 *                    Inside that region it converges, even at ζ = 0 (numerical damping).
 *  - 'exact'         closed-form transition of the same ODE for the step (targets held), exact
 *                    for any dt, any ω ≥ 0, ζ ≥ 0 (including ω = 0, ζ = 0, critical damping and
 *                    its neighbourhood). Unconditionally stable: converges for ζ > 0, conserves
 *                    ω²(pos − targetPos)² + vel² at ζ = 0.
 *
 * Exact transition (written so that s = 0 is never divided by and no equilibrium g + d·q/s is
 * formed): with φ the impulse response (φ(0) = 0, φ'(0) = 1) of e'' + d·e' + s·e = 0,
 *     xv = φ(dt), vv = φ'(dt), xx = vv + d·xv, vx = −s·xv, P = ∫0^dt φ,
 *     x' = g + xx·(x − g) + xv·v + (d·P)·q
 *     v' = vx·(x − g) + vv·v + (d·xv)·q
 * See `linearTransition` for how the coefficients are evaluated without cancellation.
 */

import type { FloatArray } from './float-array.js';

/**
 * A per-batch parameter: one number for every element, or one value per element.
 * @group PD
 */
export type PdParam = number | FloatArray;

/**
 * @group PD
 */
/**
 * @group PD
 */
export type PdIntegrator = 'explicit' | 'semi-implicit' | 'implicit' | 'exact';

/**
 * @group PD
 */
export interface PdSpringOptions {
  /** Integration scheme; default 'implicit' (Bowles' stable PD). */
  integrator?: PdIntegrator;
}

/**
 * Homogeneous transition of e'' + 2ζω·e' + ω²·e = 0 over `dt` plus the integral of the
 * impulse response: [e(dt), e'(dt)] = [[xx, xv], [vx, vv]]·[e(0), e'(0)], P = ∫0^dt xv(t) dt.
 * @group PD
 */
export interface LinearTransition {
  xx: number;
  xv: number;
  vx: number;
  vv: number;
  P: number;
}

/** Number of Taylor terms used when every root r of r² + d·r + s = 0 has |r|·dt ≤ 2. */
const TAYLOR_TERMS = 32;
/** Number of terms of the C(z), S(z) series used for |z| ≤ 1/4. */
const NEAR_CRITICAL_TERMS = 10;

/**
 * Exact transition coefficients for uaf ω ≥ 0, damping ratio ζ ≥ 0 and step dt ≥ 0.
 *
 * Dimensionless variables: u = ω·dt, τ = ζ·u (decay exponent), z = (s − d²/4)·dt² = u²·(1 − ζ²)
 * (z > 0 under-damped, z = 0 critical, z < 0 over-damped). With E = e^{−τ},
 * C(z) = cos √z (cosh √−z) and S(z) = sin √z / √z (sinh √−z / √−z):
 *     xv = dt·E·S,  xx = E·(C + τ·S),  vv = E·(C − τ·S),  P = dt²·(1 − xx)/u².
 * Regimes (chosen so that nothing cancels catastrophically and nothing divides by ~0):
 *  1. τ + √|z| ≤ 2 (both roots small: includes ω = 0, dt → 0): Taylor series of φ in dt from the
 *     recurrence φ^(n+2) = −d·φ^(n+1) − s·φ^(n); gives xx, xv, vv and P directly.
 *  2. |z| ≤ 1/4 (near critical, e.g. ζ = 1 ± 1e-6): power series of C and S in z — never divides by
 *     √z; here u² ≥ 2, so P = dt²(1 − xx)/u² is well conditioned.
 *  3. z > 1/4 (under-damped): cos/sin; u² ≥ z > 1/4, P as above.
 *  4. z < −1/4 (over-damped): exponentials of the two real roots, the slow exponent computed as
 *     κ = u²/(τ + √−z) (= τ − √−z without cancellation); P = dt²(1 − xx)/u² when u² ≥ 1/4, else the
 *     root form P = dt²·(g(−κ) − g(−(τ + √−z)))/(2√−z) with g(x) = expm1(x)/x.
 * @example
 * ```ts
 * import { linearTransition } from 'spring-solver/reference';
 * const { xx, xv, vx, vv } = linearTransition(20, 0.7, 1 / 60); // ω 20 rad/s, ζ 0.7, dt 1/60 s
 * ```
 * @group PD
 */
export function linearTransition(
  uaf: number,
  dampingRatio: number,
  dt: number,
  out: LinearTransition = { xx: 1, xv: 0, vx: 0, vv: 1, P: 0 },
): LinearTransition {
  const omega = uaf;
  const zeta = dampingRatio;
  const u = omega * dt;
  const tau = zeta * u;
  // (1 − ζ)(1 + ζ) instead of 1 − ζ² keeps z exactly 0 at ζ = 1 and relatively accurate near it.
  const z = u * u * ((1 - zeta) * (1 + zeta));
  const u2 = u * u;
  let xx: number;
  let m01h: number; // xv / dt
  let vv: number;
  let ph2 = NaN; // P / dt² (NaN = not yet computed)

  if (tau + Math.sqrt(Math.abs(z)) <= 2) {
    // Regime 1: Taylor series. α_n = φ^(n)(0)·dt^(n−1): α_0 = 0, α_1 = 1,
    // α_{n+2} = −2τ·α_{n+1} − u²·α_n (from φ'' = −d·φ' − s·φ, scaled by dt).
    let a0 = 0;
    let a1 = 1;
    let invFact = 1; // 1/n!
    vv = 0;
    m01h = 0;
    ph2 = 0;
    for (let n = 0; n < TAYLOR_TERMS; n++) {
      const t11 = a1 * invFact; // α_{n+1}/n!       → φ'(dt)
      const t01 = t11 / (n + 1); // α_{n+1}/(n+1)!  → φ(dt)/dt
      const tp = t01 / (n + 2); // α_{n+1}/(n+2)!   → P/dt²
      vv += t11;
      m01h += t01;
      ph2 += tp;
      const a2 = -2 * tau * a1 - u2 * a0;
      a0 = a1;
      a1 = a2;
      invFact /= n + 1;
      if (a0 === 0 && a1 === 0) break; // ω = 0: φ(t) = t exactly
    }
    xx = vv + 2 * tau * m01h; // xx = φ' + d·φ
  } else {
    let eC: number; // E·C
    let eS: number; // E·S
    if (Math.abs(z) <= 0.25) {
      // Regime 2: C(z) = Σ (−z)^k/(2k)!, S(z) = Σ (−z)^k/(2k+1)!.
      let c = 0;
      let s = 0;
      let term = 1; // (−z)^k/(2k)!
      for (let k = 0; k < NEAR_CRITICAL_TERMS; k++) {
        c += term;
        s += term / (2 * k + 1);
        term *= -z / ((2 * k + 1) * (2 * k + 2));
      }
      const e = Math.exp(-tau);
      eC = e * c;
      eS = e * s;
    } else if (z > 0) {
      // Regime 3: under-damped.
      const theta = Math.sqrt(z);
      const e = Math.exp(-tau);
      eC = e * Math.cos(theta);
      eS = (e * Math.sin(theta)) / theta;
    } else {
      // Regime 4: over-damped; roots −κ/dt and −(τ + y)/dt, written without overflow.
      const y = Math.sqrt(-z);
      const kappa = u2 / (tau + y);
      const e1 = Math.exp(-kappa);
      const e2 = Math.exp(-(tau + y));
      eC = 0.5 * (e1 + e2);
      eS = (e1 - e2) / (2 * y);
      if (u2 < 0.25) {
        ph2 = (expm1OverX(-kappa) - expm1OverX(-(tau + y))) / (2 * y);
      }
    }
    m01h = eS;
    xx = eC + tau * eS;
    vv = eC - tau * eS;
    // u² ≥ 1/4 in regimes 2–3 and in regime 4 unless the root form above was used.
    if (Number.isNaN(ph2)) ph2 = (1 - xx) / u2;
  }

  out.xx = xx;
  out.xv = dt * m01h;
  out.vx = -omega * omega * dt * m01h;
  out.vv = vv;
  out.P = dt * dt * ph2;
  return out;
}

/** g(x) = (e^x − 1)/x with g(0) = 1. */
function expm1OverX(x: number): number {
  return x === 0 ? 1 : Math.expm1(x) / x;
}

function paramAt(p: PdParam, i: number): number {
  return typeof p === 'number' ? p : (p[i] as number);
}

function checkParam(name: string, p: PdParam, n: number): void {
  if (typeof p === 'number') {
    if (!(p >= 0) || !Number.isFinite(p)) {
      throw new RangeError(`${name} must be a finite number >= 0, got ${p}`);
    }
    return;
  }
  if (p.length !== n) {
    throw new RangeError(`${name} has length ${p.length}, expected ${n}`);
  }
  for (let i = 0; i < n; i++) {
    const v = p[i] as number;
    if (!(v >= 0) || !Number.isFinite(v)) {
      throw new RangeError(`${name}[${i}] must be a finite number >= 0, got ${v}`);
    }
  }
}

function checkBatch(
  pos: FloatArray,
  vel: FloatArray,
  targetPos: FloatArray,
  targetVel: FloatArray,
  uaf: PdParam,
  dampingRatio: PdParam,
  dt: number,
): number {
  const n = pos.length;
  if (vel.length !== n || targetPos.length !== n || targetVel.length !== n) {
    throw new RangeError(
      `pos, vel, targetPos, targetVel must have the same length (got ${n}, ${vel.length}, ${targetPos.length}, ${targetVel.length})`,
    );
  }
  if (!(dt >= 0) || !Number.isFinite(dt)) {
    throw new RangeError(`dt must be a finite number >= 0, got ${dt}`);
  }
  checkParam('uaf', uaf, n);
  checkParam('dampingRatio', dampingRatio, n);
  return n;
}

/**
 * Advance a batch of PD springs by `dt`, updating `pos` and `vel` in place.
 *
 * @param pos          positions (read and written)
 * @param vel          velocities (read and written)
 * @param targetPos    target positions g (read only)
 * @param targetVel    target velocities q (read only)
 * @param uaf          undamped angular frequency ω in rad/s (≥ 0), scalar or per element
 * @param dampingRatio damping ratio ζ (≥ 0), scalar or per element
 * @param dt           step in seconds (≥ 0); dt = 0 leaves everything unchanged
 * @throws RangeError on length mismatch, negative/non-finite dt, uaf or dampingRatio
 * @example
 * ```ts
 * import { pdSpring } from 'spring-solver/reference';
 * const [pos, vel, targetPos, targetVel] = [new Float64Array(1), new Float64Array(1), new Float64Array([1]), new Float64Array(1)];
 * pdSpring(pos, vel, targetPos, targetVel, 20, 0.7, 1 / 60, { integrator: 'semi-implicit' }); // ω 20 rad/s, ζ 0.7, dt 1/60 s
 * ```
 * @group PD
 */
export function pdSpring(
  pos: FloatArray,
  vel: FloatArray,
  targetPos: FloatArray,
  targetVel: FloatArray,
  uaf: PdParam,
  dampingRatio: PdParam,
  dt: number,
  options: PdSpringOptions = {},
): void {
  const integrator = options.integrator ?? 'implicit';
  const n = checkBatch(pos, vel, targetPos, targetVel, uaf, dampingRatio, dt);
  if (dt === 0) return;
  switch (integrator) {
    case 'explicit':
    case 'semi-implicit': {
      // Bowles "basics": explicit Euler moves pos with the old vel; semi-implicit Euler updates
      // vel first and moves pos with the new one.
      const semiImplicit = integrator === 'semi-implicit';
      for (let i = 0; i < n; i++) {
        const omega = paramAt(uaf, i);
        const zeta = paramAt(dampingRatio, i);
        const x = pos[i] as number;
        const v = vel[i] as number;
        // Bowles: F = ω²·(targetPos − pos) + 2ζω·(targetVel − vel)
        const F = omega * omega * ((targetPos[i] as number) - x) + 2 * zeta * omega * ((targetVel[i] as number) - v);
        const vNew = v + F * dt;
        pos[i] = x + (semiImplicit ? vNew : v) * dt;
        vel[i] = vNew;
      }
      return;
    }
    case 'implicit':
      for (let i = 0; i < n; i++) {
        const omega = paramAt(uaf, i);
        const zeta = paramAt(dampingRatio, i);
        const x = pos[i] as number;
        const v = vel[i] as number;
        const vNew = stablePdVelocity(x, v, targetPos[i] as number, targetVel[i] as number, omega, zeta, dt);
        vel[i] = vNew;
        // Bowles stable PD: pos += vel·dt with the new vel
        pos[i] = x + vNew * dt;
      }
      return;
    case 'exact': {
      const T: LinearTransition = { xx: 1, xv: 0, vx: 0, vv: 1, P: 0 };
      let lastOmega = NaN;
      let lastZeta = NaN;
      for (let i = 0; i < n; i++) {
        const omega = paramAt(uaf, i);
        const zeta = paramAt(dampingRatio, i);
        if (omega !== lastOmega || zeta !== lastZeta) {
          linearTransition(omega, zeta, dt, T);
          lastOmega = omega;
          lastZeta = zeta;
        }
        const d = 2 * zeta * omega; // Bowles: damping coefficient 2ζω
        const g = targetPos[i] as number;
        const q = targetVel[i] as number;
        const e = (pos[i] as number) - g;
        const v = vel[i] as number;
        // closed form of x'' = ω²(g − x) + 2ζω(q − v) over dt (see linearTransition)
        pos[i] = g + T.xx * e + T.xv * v + d * T.P * q;
        vel[i] = T.vx * e + T.vv * v + d * T.xv * q;
      }
      return;
    }
    default:
      throw new RangeError(`unknown PD integrator '${String(integrator)}'`);
  }
}

/** Bowles / Tan et al. stable PD: new velocity vel + F_implicit·dt. */
function stablePdVelocity(x: number, v: number, g: number, q: number, omega: number, zeta: number, dt: number): number {
  // Bowles stable PD: F = ω²·(targetPos − (pos + dt·vel)) + 2ζω·(targetVel − vel)
  const F = omega * omega * (g - (x + dt * v)) + 2 * zeta * omega * (q - v);
  // Bowles stable PD: vel += F·dt / (1 + dt·2ζω)
  return v + (F * dt) / (1 + dt * 2 * zeta * omega);
}

/**
 * Bowles appendix B: the spring drives a rigid body it does not own.
 *
 * For every element i this writes exactly one value:
 *     vel[i] ← vel[i] + dt · F_implicit / (1 + dt·2ζω),
 *     F_implicit = ω²·(targetPos[i] − (pos[i] + dt·vel[i])) + 2ζω·(targetVel[i] − vel[i])
 * (the same velocity change as the 'implicit' integrator). `pos`, `targetPos` and `targetVel` are
 * only read; the caller's rigid-body integrator is expected to advance the position afterwards
 * (with pos += vel·dt the pair is identical to pdSpring(..., { integrator: 'implicit' })).
 * Same argument rules as pdSpring; dt = 0 writes nothing.
 * @example
 * ```ts
 * import { pdSpringRigidBody } from 'spring-solver/reference';
 * const [pos, vel, targetPos, targetVel] = [new Float64Array(1), new Float64Array(1), new Float64Array([1]), new Float64Array(1)];
 * pdSpringRigidBody(pos, vel, targetPos, targetVel, 20, 0.7, 1 / 60); // ω 20 rad/s, ζ 0.7, dt 1/60 s; writes vel
 * ```
 * @group PD
 */
export function pdSpringRigidBody(
  pos: FloatArray,
  vel: FloatArray,
  targetPos: FloatArray,
  targetVel: FloatArray,
  uaf: PdParam,
  dampingRatio: PdParam,
  dt: number,
): void {
  const n = checkBatch(pos, vel, targetPos, targetVel, uaf, dampingRatio, dt);
  if (dt === 0) return;
  for (let i = 0; i < n; i++) {
    vel[i] = stablePdVelocity(
      pos[i] as number,
      vel[i] as number,
      targetPos[i] as number,
      targetVel[i] as number,
      paramAt(uaf, i),
      paramAt(dampingRatio, i),
      dt,
    );
  }
}
