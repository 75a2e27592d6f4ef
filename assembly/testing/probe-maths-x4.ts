// Test hooks: apply the float32 polynomials of maths/x4.ts to arrays, so that their error can
// be measured against Math in test/wasm/simd-math-f32.test.ts. SIMD build only (they do nothing in the
// scalar build, which never uses maths/x4.ts). n is a multiple of 4; arrays are float32.
import { atanX4, atan2X4, sinOverXX4, cosX4, expX4 } from '../maths/x4';

/** out[i] = atan(x[i]). */
export function probeAtanF32(x: usize, output: usize, n: i32): void {
  if (ASC_FEATURE_SIMD) {
    for (let i = 0; i + 4 <= n; i += 4) {
      const off = <usize>i << 2;
      v128.store(output + off, atanX4(v128.load(x + off)));
    }
  }
}

/** out[i] = atan2(y[i], x[i]). */
export function probeAtan2F32(y: usize, x: usize, output: usize, n: i32): void {
  if (ASC_FEATURE_SIMD) {
    for (let i = 0; i + 4 <= n; i += 4) {
      const off = <usize>i << 2;
      v128.store(output + off, atan2X4(v128.load(y + off), v128.load(x + off)));
    }
  }
}

/** sinOverX[i] = sin(r)/r, cos[i] = cos(r) for |r[i]| ≤ π/2. */
export function probeSinCosF32(r: usize, sinOverXOutput: usize, cosOutput: usize, n: i32): void {
  if (ASC_FEATURE_SIMD) {
    for (let i = 0; i + 4 <= n; i += 4) {
      const off = <usize>i << 2;
      const v = v128.load(r + off);
      const r2 = f32x4.mul(v, v);
      v128.store(sinOverXOutput + off, sinOverXX4(r2));
      v128.store(cosOutput + off, cosX4(r2));
    }
  }
}

/** out[i] = exp(u[i]) (float32). */
export function probeExpF32(u: usize, output: usize, n: i32): void {
  if (ASC_FEATURE_SIMD) {
    for (let i = 0; i + 4 <= n; i += 4) {
      const off = <usize>i << 2;
      v128.store(output + off, expX4(v128.load(u + off)));
    }
  }
}
