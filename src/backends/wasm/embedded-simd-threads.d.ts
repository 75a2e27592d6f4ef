// The types of dist/backends/wasm/embedded-simd-threads.js, which scripts/build-embedded.mjs generates from the
// threaded SIMD build (`npm run build:embedded`, after build:wasm): the build in base64.
export declare const SIMD_THREADS_BASE64: string;
