/**
 * Whether this engine supports fixed-width SIMD: validates the smallest module that uses a
 * v128 instruction, `(func (result v128) i32.const 0 i8x16.splat)`.
 */
const SIMD_PROBE = new Uint8Array([
  0x00,
  0x61,
  0x73,
  0x6d,
  0x01,
  0x00,
  0x00,
  0x00, // magic, version
  0x01,
  0x05,
  0x01,
  0x60,
  0x00,
  0x01,
  0x7b, // type section: () -> v128
  0x03,
  0x02,
  0x01,
  0x00, // function section: one function of type 0
  0x0a,
  0x08,
  0x01,
  0x06,
  0x00,
  0x41,
  0x00,
  0xfd,
  0x0f,
  0x0b, // code: i32.const 0, i8x16.splat, end
]);

/**
 * True when this engine has WebAssembly (the 'wasm' backend can run).
 * @example
 * ```ts
 * import { wasmSupported } from 'spring-solver';
 * console.log(wasmSupported() ? 'WebAssembly runs here' : 'the JS backend only');
 * ```
 * @group Setup
 */
export function wasmSupported(): boolean {
  return typeof WebAssembly === 'object' && typeof WebAssembly.validate === 'function';
}

/**
 * True when this engine validates fixed-width SIMD WebAssembly (the 'simd' backend can run).
 * @example
 * ```ts
 * import { createSolver, simdSupported } from 'spring-solver';
 * const solver = await createSolver({ backend: simdSupported() ? 'simd' : 'js' });
 * ```
 * @group Setup
 */
export function simdSupported(): boolean {
  return wasmSupported() && WebAssembly.validate(SIMD_PROBE);
}
