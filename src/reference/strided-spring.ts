/**
 * Float64 reference (and JS backend) of the strided spring: the spring family of ./spring.ts on
 * data that lives in strided layouts. Item i of an operand is the `width` floats from
 * `offset + i·stride` of its array; x and v are updated in place, g or q null mean 0.
 */
import type { SpringMode } from '../core/types.js';
import { springTransition } from './spring-transition.js';
import { stiffnessAndDamping } from './spring.js';

/**
 * A strided operand: item i is array[offset + i·stride + c], c < width.
 * @group Core springs
 */
export interface StridedOperand {
  array: Float32Array;
  offset: number;
  stride: number;
}

/**
 * `x'' = s·(g − x) + d·(q − v)` stepped exactly by dt over `count` items of `width` floats (uniform parameters).
 * @example
 * ```ts
 * import { SpringMode } from 'spring-solver';
 * import { springStrided } from 'spring-solver/reference';
 * const x = new Float32Array(60), v = new Float32Array(30), g = new Float32Array(30).fill(1); // 10 items of 3
 * const [xs, vs, gs] = [{ array: x, offset: 0, stride: 6 }, { array: v, offset: 0, stride: 3 }, { array: g, offset: 0, stride: 3 }];
 * springStrided(SpringMode.Critical, xs, vs, gs, null, 10, 3, 0.2, 0, 1 / 60); // count 10, width 3, halflife 0.2 s, dt 1/60 s
 * ```
 * @group Core springs
 */
export function springStrided(
  mode: SpringMode,
  x: StridedOperand,
  v: StridedOperand,
  g: StridedOperand | null,
  q: StridedOperand | null,
  count: number,
  width: number,
  p0: number,
  p1: number,
  dt: number,
): void {
  if (dt === 0) return;
  const m = springTransition(...stiffnessAndDamping(mode, p0, p1), dt);
  for (let i = 0; i < count; i++) {
    for (let c = 0; c < width; c++) {
      const xi = x.offset + i * x.stride + c;
      const vi = v.offset + i * v.stride + c;
      const gi = g ? g.array[g.offset + i * g.stride + c] : 0;
      const qi = q ? q.array[q.offset + i * q.stride + c] : 0;
      const y = x.array[xi] - gi;
      const vel = v.array[vi];
      x.array[xi] = gi + m.xx * y + m.xv * vel + m.xq * qi;
      v.array[vi] = m.vx * y + m.vv * vel + m.vq * qi;
    }
  }
}
