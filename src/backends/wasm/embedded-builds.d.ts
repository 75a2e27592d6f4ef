// The types of dist/backends/wasm/embedded-builds.js, which scripts/build-embedded.mjs generates from the
// wasm builds (`npm run build:embedded`, after build:wasm): the two builds in base64.
export declare const SIMD_BASE64: string;
export declare const SCALAR_BASE64: string;
