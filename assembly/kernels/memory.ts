// The memory is imported and sized once by the host (src/backends/wasm/wasm-solver.ts); kernels never
// allocate. Arrays are placed from heapBase() up by the host's allocator.

/** First free byte after the static data. */
export function heapBase(): usize {
  return __heap_base;
}

/** 1 when this build was compiled with SIMD. */
export function simdEnabled(): i32 {
  return ASC_FEATURE_SIMD ? 1 : 0;
}
