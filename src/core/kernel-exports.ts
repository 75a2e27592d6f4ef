/**
 * The exports of assembly/index.ts (pointers are byte offsets), with the signatures asc itself
 * declares for them (kernels.generated.ts, from `asc --bindings raw`; regenerate with
 * `npm run build:wasm-types`): a name the wasm module does not export is not a key of KernelExports.
 *
 * The host uses the raw `instance.exports` (src/backends/wasm/load.ts), not asc's JS glue; the declared
 * types still hold for them because every kernel takes and returns numbers only: asc's glue
 * adapts just `usize` results (`>>> 0`) and `bool` arguments (`positive ? 1 : 0`), which the
 * JS-to-wasm conversion of a raw call also turns into the same i32. The MODE_* globals are
 * WebAssembly.Global objects whose `value` is the number.
 */
import type { instantiate } from './kernels.generated.js';

export type KernelExports = Awaited<ReturnType<typeof instantiate>>;
