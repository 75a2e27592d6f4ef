// One element at a time: element k of a float32 array at byte offset p, read as float64 and
// written back rounded, and per-element parameters. Used by the scalar build and the tails.

/**
 * Parameter of element i: stride 1 reads one value per element, stride 0 broadcasts the single
 * value at the pointer (a uniform parameter mixed with a per-element one).
 */
// @ts-ignore: decorator
@inline export function paramAt(p: usize, stride: i32, i: i32): f64 {
  return <f64>load<f32>(p + ((<usize>(i * stride)) << 2));
}

// @ts-ignore: decorator
@inline export function readF32(p: usize, k: i32): f64 {
  return <f64>load<f32>(p + (<usize>k << 2));
}

// @ts-ignore: decorator
@inline export function writeF32(p: usize, k: i32, value: f64): void {
  store<f32>(p + (<usize>k << 2), <f32>value);
}
