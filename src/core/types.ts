/**
 * Which implementation runs the kernels: SIMD WebAssembly, scalar WebAssembly, or the JS reference.
 * @group Setup
 */
export type Backend = 'simd' | 'wasm' | 'js';

/**
 * A parameter: one value for every element, or one value per element.
 * @group Setup
 */
export type Param = number | Float32Array;

/**
 * How a spring's two parameters map to stiffness s and damping d.
 * The numbers are shared with the wasm kernels (`assembly/spring/params.ts`).
 * @group Core springs
 */
export const SpringMode = {
  /** p0 = frequency (Hz), p1 = halflife (s): s = (2π·f)², d = 4·ln2/halflife. */
  FrequencyHalflife: 0,
  /** p0 = stiffness s (1/s²), p1 = damping d (1/s). */
  StiffnessDamping: 1,
  /** p0 = damping ratio ζ, p1 = halflife (s): d = 4·ln2/halflife, s = (d / 2ζ)². */
  RatioHalflife: 2,
  /** p0 = halflife (s), p1 unused: d = 4·ln2/halflife, s = d²/4. */
  Critical: 3,
} as const;
export type SpringMode = (typeof SpringMode)[keyof typeof SpringMode];
