// The types of dist/backends/wasm/embedded-scalar.js, which scripts/build-embedded.mjs generates from the
// scalar build (`npm run build:embedded`, after build:wasm): the build in base64.
export declare const SCALAR_BASE64: string;
