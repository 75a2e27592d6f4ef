// The types of dist/backends/wasm/embedded-builds.js, which scripts/build-embedded.mjs generates: both wasm
// builds in base64, re-exported from embedded-simd.js and embedded-scalar.js.
export declare const SIMD_BASE64: string;
export declare const SCALAR_BASE64: string;
