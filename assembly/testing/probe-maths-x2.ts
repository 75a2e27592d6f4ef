// Test hooks: apply the vectorised math of maths/x2.ts to arrays, so that its error can be
// measured against Math in test/wasm/simd-math-f64.test.ts. SIMD build only (they do nothing in the
// scalar build, which never uses maths/x2.ts).
import { expX2, sinCosX2, cosOut } from '../maths/x2';

/** out[i] = exp(in[i]) for n (even) float64 values. */
export function probeExp(input: usize, output: usize, n: i32): void {
  if (ASC_FEATURE_SIMD) {
    for (let i = 0; i + 2 <= n; i += 2) {
      const off = <usize>i << 3;
      v128.store(output + off, expX2(v128.load(input + off)));
    }
  }
}

/** sinOut[i] = sin(in[i]), cosOut[i] = cos(in[i]) for n (even) float64 values. */
export function probeSinCos(input: usize, sinOutput: usize, cosOutput: usize, n: i32): void {
  if (ASC_FEATURE_SIMD) {
    for (let i = 0; i + 2 <= n; i += 2) {
      const off = <usize>i << 3;
      v128.store(sinOutput + off, sinCosX2(v128.load(input + off)));
      v128.store(cosOutput + off, cosOut);
    }
  }
}
