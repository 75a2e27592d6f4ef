// The data-movement floor for the benchmark: loads x, v, g, q and stores x, v like springDamper,
// with no arithmetic. `keep` is 0 at run time (x |= g & 0), so nothing changes, but the
// optimizer cannot drop the loads of g and q.
export function dataMovementFloor(x: usize, v: usize, g: usize, q: usize, n: i32, keep: i32): void {
  let i = 0;
  if (ASC_FEATURE_SIMD) {
    const mask = i32x4.splat(keep);
    for (; i + 4 <= n; i += 4) {
      const off = <usize>i << 2;
      v128.store(x + off, v128.or(v128.load(x + off), v128.and(v128.load(g + off), mask)));
      v128.store(v + off, v128.or(v128.load(v + off), v128.and(v128.load(q + off), mask)));
    }
  }
  for (; i < n; i++) {
    const off = <usize>i << 2;
    store<i32>(x + off, load<i32>(x + off) | (load<i32>(g + off) & keep));
    store<i32>(v + off, load<i32>(v + off) | (load<i32>(q + off) & keep));
  }
}
