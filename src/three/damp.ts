/**
 * A few values, synchronously: exact springs and dampers on numbers, angles, `Vector3`,
 * `Euler` and `Quaternion`, one line per call (like maath's `easing.damp3(pos, target, 0.25, dt)`),
 * with no solver and no wasm: the float64 reference math (src/reference), so a step of dt equals
 * two steps of dt/2 (frame-rate independent).
 *
 * The springs are critical (Holden's simple_spring_damper_exact). Their velocity lives in a
 * WeakMap keyed by the object (and property name), read with {@link springVelocity} and
 * cleared with {@link resetSpring}.
 *
 * Max speed: the goal the spring follows (the "leader") moves toward the target in a straight
 * line at most at `maxSpeed` and stops on it; the value follows the leader with the same critical
 * spring, with the leader's velocity as its goal velocity q. Between the leader's start and its
 * arrival the leader moves linearly, so with y = x − leader the spring is the homogeneous
 * y'' = −s·y − d·y', stepped exactly; a step that contains the arrival is split at the arrival
 * time. So it stays exact under dt splitting. The value's own speed settles at maxSpeed; from
 * rest it overshoots it by at most e⁻² ≈ 13.5 % (critical response to a ramp). When the leader
 * stops on the target the value, still moving at about maxSpeed, passes it by a little (about
 * maxSpeed·halflife·0.1) before settling.
 */
import type { Euler, Quaternion, Vector3 } from 'three';
import { SpringMode } from '../core/types.js';
import { checkNumber, describe } from '../core/validate.js';
import { HELPERS_DT, warnLargeDt } from '../core/dt.js';
import { springTransition, type SpringTransition } from '../reference/spring-transition.js';
import { stiffnessAndDamping } from '../reference/spring.js';
import { abs, fromScaledAngleAxis, inv, mul, slerp, toScaledAngleAxis } from '../reference/quat.js';

/**
 * A target given as a three.js vector or any {x, y, z}.
 * @group Single values
 */
export interface Vector3Like {
  x: number;
  y: number;
  z: number;
}

interface State {
  /** Velocity (units/s; rad/s for angles and quaternions, as a scaled angle axis). */
  v: number[];
  /** The rate-limited goal (max speed only), null until a call with a finite maxSpeed. */
  leader: number[] | null;
}

const states = new WeakMap<object, Map<string, State>>();

function stateOf(object: object, key: string, size: number): State {
  let byKey = states.get(object);
  if (!byKey) {
    byKey = new Map();
    states.set(object, byKey);
  }
  let state = byKey.get(key);
  if (!state) {
    state = { v: new Array<number>(size).fill(0), leader: null };
    byKey.set(key, state);
  }
  return state;
}

/**
 * The velocity a spring helper keeps for `object` (and `key`, for {@link spring}); zeros before the first call.
 * @example
 * ```ts
 * import { Vector3 } from 'three';
 * import { spring3, springVelocity } from 'spring-solver/three';
 * const p = new Vector3();
 * spring3(p, new Vector3(1, 0, 0), 0.2, 1 / 60);
 * const [vx, vy, vz] = springVelocity(p); // units/s
 * ```
 * @group Single values
 */
export function springVelocity(object: object, key = ''): number[] {
  return [...(states.get(object)?.get(key)?.v ?? [0, 0, 0].slice(0, key === '' ? 3 : 1))];
}

/**
 * Forgets the velocity (and max-speed leader) of `object`: its next spring call starts at rest.
 * @example
 * ```ts
 * import { Vector3 } from 'three';
 * import { resetSpring, spring3 } from 'spring-solver/three';
 * const p = new Vector3();
 * spring3(p, new Vector3(1, 0, 0), 0.2, 1 / 60);
 * p.set(5, 0, 0); // teleported:
 * resetSpring(p); // its velocity is forgotten
 * ```
 * @group Single values
 */
export function resetSpring(object: object): void {
  states.delete(object);
}

function checkArgs(method: string, halflife: unknown, dt: unknown, maxSpeed: unknown): void {
  checkNumber(method, 'halflife', halflife, 'nonNegative');
  checkNumber(method, 'dt', dt, 'nonNegative');
  if (typeof maxSpeed !== 'number') throw new TypeError(`${method}: maxSpeed must be a number, got ${describe(maxSpeed)}`);
  if (!(maxSpeed > 0)) throw new RangeError(`${method}: maxSpeed is ${maxSpeed}; it must be > 0 (Infinity: no limit)`);
  // No solver here: one warning shared by these helpers (src/core/dt.ts).
  warnLargeDt(HELPERS_DT, method, dt as number);
}

function checkFinite(method: string, name: string, values: number[]): void {
  for (const value of values) {
    if (typeof value !== 'number') throw new TypeError(`${method}: ${name} must hold numbers, got ${describe(value)}`);
    if (!Number.isFinite(value)) throw new RangeError(`${method}: ${name} holds ${value}; it must be finite`);
  }
}

/** The homogeneous critical transition over t: [y, y'] ← [[xx, xv], [vx, vv]]·[y, y']. */
function critical(halflife: number, t: number): SpringTransition {
  return springTransition(...stiffnessAndDamping(SpringMode.Critical, halflife, 0), t);
}

/**
 * One exact step of the critical spring of x (velocity state.v) toward `target`, per component,
 * with the leader of the max-speed limit (see the module comment). x is updated in place.
 */
function step(x: number[], state: State, target: number[], halflife: number, dt: number, maxSpeed: number): void {
  if (dt === 0) return;
  const v = state.v;
  if (maxSpeed === Infinity) {
    state.leader = null;
    follow(x, v, target, null, critical(halflife, dt));
    return;
  }
  state.leader ??= [...x];
  const leader = state.leader;
  const distance = Math.hypot(...target.map((t, c) => t - leader[c]));
  const arrival = distance / maxSpeed; // seconds until the leader reaches the target
  const t1 = Math.min(dt, arrival);
  if (t1 > 0) {
    const q = target.map((t, c) => ((t - leader[c]) / distance) * maxSpeed);
    const moved = leader.map((l, c) => l + q[c] * t1);
    // y = x − leader(t) obeys y'' = −s·y − d·y' while the leader moves at q: exact over t1
    // (follow gives x = leader(0) + y(t1); the leader has moved by q·t1 meanwhile).
    follow(x, v, leader, q, critical(halflife, t1));
    for (let c = 0; c < x.length; c++) x[c] += q[c] * t1;
    if (t1 === arrival) for (let c = 0; c < x.length; c++) leader[c] = target[c];
    else for (let c = 0; c < x.length; c++) leader[c] = moved[c];
  }
  if (dt > t1) {
    for (let c = 0; c < x.length; c++) leader[c] = target[c];
    follow(x, v, target, null, critical(halflife, dt - t1));
  }
}

/**
 * x ← g + xx·(x − g) + xv·(v − q) + … in the frame moving at q: y = x − g, u = v − q,
 * y' = xx·y + xv·u, u' = vx·y + vv·u, then v = q + u'.
 */
function follow(x: number[], v: number[], g: number[], q: number[] | null, m: SpringTransition): void {
  for (let c = 0; c < x.length; c++) {
    const qc = q ? q[c] : 0;
    const y = x[c] - g[c];
    const u = v[c] - qc;
    x[c] = g[c] + m.xx * y + m.xv * u;
    v[c] = qc + m.vx * y + m.vv * u;
  }
}

/**
 * `a` wrapped into [−π, π).
 * @example
 * ```ts
 * import { wrapAngle } from 'spring-solver/three';
 * const a = wrapAngle(3 * Math.PI); // −π (rad): the same angle, wrapped into [−π, π)
 * ```
 * @group Single values
 */
export function wrapAngle(a: number): number {
  return a - 2 * Math.PI * Math.floor((a + Math.PI) / (2 * Math.PI));
}

/**
 * Springs the number `object[key]` toward `target` (critical, exact), keeping its velocity;
 * returns the new value. halflife and dt in seconds; maxSpeed (units/s) limits the goal's speed.
 * @example
 * ```ts
 * import { spring } from 'spring-solver/three';
 * const slider = { value: 0 };
 * spring(slider, 'value', 1, 0.15, 1 / 60); // target 1, halflife 0.15 s, dt 1/60 s; returns the new value
 * ```
 * @group Single values
 */
export function spring<K extends string>(
  object: Record<K, number>,
  key: K,
  target: number,
  halflife: number,
  dt: number,
  maxSpeed = Infinity,
): number {
  return springNumber('spring', object, key, target, halflife, dt, maxSpeed, false);
}

/**
 * {@link spring} for an angle (radians): the target is taken at its equivalent nearest the value
 * (the leader, with maxSpeed), so the spring turns the short way; the value is not wrapped.
 * @example
 * ```ts
 * import { Object3D } from 'three';
 * import { springAngle } from 'spring-solver/three';
 * const turret = new Object3D();
 * springAngle(turret.rotation, 'y', Math.PI, 0.2, 1 / 60); // target Math.PI rad, halflife 0.2 s, dt 1/60 s
 * ```
 * @group Single values
 */
export function springAngle<K extends string>(
  object: Record<K, number>,
  key: K,
  target: number,
  halflife: number,
  dt: number,
  maxSpeed = Infinity,
): number {
  return springNumber('springAngle', object, key, target, halflife, dt, maxSpeed, true);
}

function springNumber(
  method: string,
  object: Record<string, number>,
  key: string,
  target: number,
  halflife: number,
  dt: number,
  maxSpeed: number,
  angle: boolean,
): number {
  if (typeof object !== 'object' || object === null) throw new TypeError(`${method}: object must be an object, got ${describe(object)}`);
  if (typeof key !== 'string' || key === '') throw new TypeError(`${method}: key must be a property name, got ${describe(key)}`);
  checkArgs(method, halflife, dt, maxSpeed);
  checkFinite(method, `object.${key}`, [object[key]]);
  checkFinite(method, 'target', [target]);
  const state = stateOf(object, key, 1);
  const x = [object[key]];
  const from = state.leader && maxSpeed !== Infinity ? state.leader[0] : x[0];
  step(x, state, [angle ? from + wrapAngle(target - from) : target], halflife, dt, maxSpeed);
  object[key] = x[0];
  return x[0];
}

/**
 * Springs the vector `value` toward `target` (critical, exact, per axis), in place; maxSpeed limits the goal's speed (units/s).
 * @example
 * ```ts
 * import { PerspectiveCamera, Vector3 } from 'three';
 * import { spring3 } from 'spring-solver/three';
 * const camera = new PerspectiveCamera();
 * spring3(camera.position, new Vector3(0, 2, 5), 0.35, 1 / 60, 20); // halflife 0.35 s, dt 1/60 s, max speed 20 units/s
 * ```
 * @group Single values
 */
export function spring3(value: Vector3, target: Vector3Like, halflife: number, dt: number, maxSpeed = Infinity): Vector3 {
  const method = 'spring3';
  checkObject(method, 'value', value);
  checkObject(method, 'target', target);
  checkArgs(method, halflife, dt, maxSpeed);
  const x = [value.x, value.y, value.z];
  const g = [target.x, target.y, target.z];
  checkFinite(method, 'value', x);
  checkFinite(method, 'target', g);
  step(x, stateOf(value, '', 3), g, halflife, dt, maxSpeed);
  value.x = x[0];
  value.y = x[1];
  value.z = x[2];
  return value;
}

/**
 * Springs the Euler angles of `value` toward `target` (same order), each angle the short way
 * (see {@link springAngle}), in place. maxSpeed (rad/s) limits the goal's speed.
 * @example
 * ```ts
 * import { Euler, Object3D } from 'three';
 * import { springEuler } from 'spring-solver/three';
 * const head = new Object3D();
 * springEuler(head.rotation, new Euler(0.2, 1, 0), 0.2, 1 / 60); // halflife 0.2 s, dt 1/60 s
 * ```
 * @group Single values
 */
export function springEuler(value: Euler, target: Euler, halflife: number, dt: number, maxSpeed = Infinity): Euler {
  const method = 'springEuler';
  checkObject(method, 'value', value);
  checkObject(method, 'target', target);
  checkArgs(method, halflife, dt, maxSpeed);
  if (value.order !== target.order)
    throw new RangeError(`${method}: target.order is ${target.order}; it must be value.order (${value.order})`);
  const x = [value.x, value.y, value.z];
  checkFinite(method, 'value', x);
  checkFinite(method, 'target', [target.x, target.y, target.z]);
  const state = stateOf(value, '', 3);
  const from = state.leader && maxSpeed !== Infinity ? state.leader : x;
  const g = [target.x, target.y, target.z].map((t, c) => from[c] + wrapAngle(t - from[c]));
  step(x, state, g, halflife, dt, maxSpeed);
  value.set(x[0], x[1], x[2], value.order);
  return value;
}

/**
 * Springs the rotation `value` toward `target` on the shortest arc, in place (Holden's
 * simple_spring_damper_exact for quaternions, float64: src/reference/quat-spring.ts); the
 * angular velocity (rad/s, scaled angle axis) is kept. Stepped in the log map, it is exact
 * under dt splitting while the remaining rotation is below π.
 * @example
 * ```ts
 * import { Object3D, Quaternion, Vector3 } from 'three';
 * import { springQuat } from 'spring-solver/three';
 * const ship = new Object3D();
 * const target = new Quaternion().setFromAxisAngle(new Vector3(0, 1, 0), Math.PI / 2);
 * springQuat(ship.quaternion, target, 0.3, 1 / 60); // halflife 0.3 s, dt 1/60 s
 * ```
 * @group Single values
 */
export function springQuat(value: Quaternion, target: Quaternion, halflife: number, dt: number): Quaternion {
  const [q, g] = checkedRotations('springQuat', value, target, halflife, dt);
  if (dt === 0) return value;
  const w = stateOf(value, '', 3).v;
  // Spring-It-On: j0 = log(abs(q ⊗ g⁻¹)), j1 = w + j0·y, q = exp(e^{−y dt}(j0 + j1 dt)) ⊗ g, w = e^{−y dt}(w − j1·y·dt)
  const y = (2 * Math.LN2) / halflife;
  const eydt = Math.exp(-y * dt);
  if (halflife === 0 || eydt === 0) {
    value.set(g[0], g[1], g[2], g[3]);
    w.fill(0);
    return value;
  }
  const j0 = toScaledAngleAxis(abs(mul(q, inv(g))));
  const j1 = j0.map((j, c) => w[c] + j * y);
  const qn = mul(fromScaledAngleAxis(j0.map((j, c) => eydt * (j + j1[c] * dt))), g);
  for (let c = 0; c < 3; c++) w[c] = eydt * (w[c] - j1[c] * (y * dt));
  value.set(qn[0], qn[1], qn[2], qn[3]);
  return value;
}

/**
 * Exact damper (no velocity): `x + (target − x)·(1 − exp(−ln2·dt / halflife))`. Returns the new value.
 * @example
 * ```ts
 * import { damper } from 'spring-solver/three';
 * let opacity = 0;
 * opacity = damper(opacity, 1, 0.1, 1 / 60); // target 1, halflife 0.1 s, dt 1/60 s
 * ```
 * @group Single values
 */
export function damper(x: number, target: number, halflife: number, dt: number): number {
  checkArgs('damper', halflife, dt, Infinity);
  checkFinite('damper', 'x', [x]);
  checkFinite('damper', 'target', [target]);
  if (dt === 0) return x;
  return target + (x - target) * Math.exp((-Math.LN2 * dt) / halflife);
}

/**
 * Exact damper of a vector toward `target`, in place.
 * @example
 * ```ts
 * import { Object3D } from 'three';
 * import { damper3 } from 'spring-solver/three';
 * const marker = new Object3D();
 * damper3(marker.position, { x: 1, y: 0, z: 2 }, 0.1, 1 / 60); // halflife 0.1 s, dt 1/60 s
 * ```
 * @group Single values
 */
export function damper3(value: Vector3, target: Vector3Like, halflife: number, dt: number): Vector3 {
  checkObject('damper3', 'value', value);
  checkObject('damper3', 'target', target);
  checkArgs('damper3', halflife, dt, Infinity); // here too, so a dt error or warning names damper3
  value.x = damper(value.x, target.x, halflife, dt);
  value.y = damper(value.y, target.y, halflife, dt);
  value.z = damper(value.z, target.z, halflife, dt);
  return value;
}

/**
 * Exact damper of a rotation toward `target`, shortest arc: slerp by 1 − exp(−ln2·dt / halflife), in place.
 * @example
 * ```ts
 * import { Object3D, Quaternion } from 'three';
 * import { damperQuat } from 'spring-solver/three';
 * const arrow = new Object3D();
 * damperQuat(arrow.quaternion, new Quaternion(0, Math.SQRT1_2, 0, Math.SQRT1_2), 0.1, 1 / 60); // halflife 0.1 s, dt 1/60 s
 * ```
 * @group Single values
 */
export function damperQuat(value: Quaternion, target: Quaternion, halflife: number, dt: number): Quaternion {
  const [q, g] = checkedRotations('damperQuat', value, target, halflife, dt);
  if (dt === 0) return value;
  const alpha = 1 - Math.exp((-Math.LN2 * dt) / halflife);
  const r = alpha === 1 ? g : slerp(q, g, alpha);
  value.set(r[0], r[1], r[2], r[3]);
  return value;
}

function checkObject(method: string, name: string, value: unknown): void {
  if (typeof value !== 'object' || value === null) throw new TypeError(`${method}: ${name} must be an object, got ${describe(value)}`);
}

function checkUnit(method: string, name: string, q: number[]): void {
  const length = Math.hypot(...q);
  if (!(Math.abs(length - 1) < 1e-3)) throw new RangeError(`${method}: ${name} has length ${length}; it must be a unit quaternion`);
}

/** The checks of the rotation springs; returns value and target as [x, y, z, w] arrays. */
function checkedRotations(method: string, value: Quaternion, target: Quaternion, halflife: number, dt: number): [number[], number[]] {
  checkObject(method, 'value', value);
  checkObject(method, 'target', target);
  checkArgs(method, halflife, dt, Infinity);
  const q = [value.x, value.y, value.z, value.w];
  const g = [target.x, target.y, target.z, target.w];
  checkFinite(method, 'value', q);
  checkFinite(method, 'target', g);
  checkUnit(method, 'value', q);
  checkUnit(method, 'target', g);
  return [q, g];
}
