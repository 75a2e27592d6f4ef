/**
 * Stepping Holden's critical spring (simple / decay spring dampers, "Spring-It-On") toward a
 * goal computed per element, with the core exact transition (spring-transition.ts):
 * `x' = g + xx·(x − g) + xv·v`, `v' = vx·(x − g) + vv·v`. Shared by the composite springs and
 * inertialization.
 */
import { SpringMode, type Param } from '../core/types.js';
import { springTransition, type SpringTransition } from './spring-transition.js';
import { stiffnessAndDamping } from './spring.js';

/** The value of a parameter for element i. */
export function paramAt(p: Param, i: number): number {
  return typeof p === 'number' ? p : p[i];
}

/**
 * The transition over dt of the critical spring with halflife `scale·halflife` for element i;
 * computed once when the halflife is uniform.
 */
export function criticalTransitions(halflife: Param, dt: number, scale = 1): (i: number) => SpringTransition {
  const at = (h: number) => springTransition(...stiffnessAndDamping(SpringMode.Critical, scale * h, 0), dt);
  if (typeof halflife === 'number') {
    const m = at(halflife);
    return () => m;
  }
  return (i) => at(halflife[i]);
}

/** Steps element i of (x, v) toward goal g with transition m (Holden's simple_spring_damper_exact). */
export function simpleSpringStep(m: SpringTransition, x: Float32Array, v: Float32Array, i: number, g: number): void {
  const y = x[i] - g;
  const w = v[i];
  x[i] = g + m.xx * y + m.xv * w;
  v[i] = m.vx * y + m.vv * w;
}
