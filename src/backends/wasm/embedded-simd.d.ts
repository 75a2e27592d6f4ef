// The types of dist/backends/wasm/embedded-simd.js, which scripts/build-embedded.mjs generates from the
// SIMD build (`npm run build:embedded`, after build:wasm): the build in base64.
export declare const SIMD_BASE64: string;
