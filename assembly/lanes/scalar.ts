// Element k of a float32 array at byte offset p, read as float64 and written back rounded.

// @ts-ignore: decorator
@inline export function f(p: usize, k: i32): f64 {
  return <f64>load<f32>(p + (<usize>k << 2));
}

// @ts-ignore: decorator
@inline export function put(p: usize, k: i32, value: f64): void {
  store<f32>(p + (<usize>k << 2), <f32>value);
}
