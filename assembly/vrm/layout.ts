// The flat layout of the spring-bone kernel: its float64 arrays, declared once in
// src/reference/spring-bone-layout.ts (read by the reference and SpringBones too), and the
// accessors of those arrays.
export * from '../../src/reference/spring-bone-layout';

/** Element i (a float64) of the array at base. */
// @ts-ignore: decorator
@inline export function f(base: usize, i: i32): f64 {
  return load<f64>(base + (<usize>i << 3));
}
// @ts-ignore: decorator
@inline export function put(base: usize, i: i32, value: f64): void {
  store<f64>(base + (<usize>i << 3), value);
}
