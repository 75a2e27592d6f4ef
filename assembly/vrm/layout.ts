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

/**
 * Element i (a whole number stored as float64, |x| < 2³¹) as i32: the low 32 bits of x + 1.5·2⁵², whose ulp is 1,
 * so the sum is exact and its mantissa's low bits are x in two's complement. Instead of `<i32>`'s trapping conversion,
 * whose range check V8 puts before every collider's address: 0.92–0.95× the kernel's time (docs/DECISIONS.md).
 */
// @ts-ignore: decorator
@inline export function int(base: usize, i: i32): i32 {
  return <i32>reinterpret<i64>(f(base, i) + 6755399441055744.0);
}
