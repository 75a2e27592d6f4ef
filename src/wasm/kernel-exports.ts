/** The functions and constants exported by assembly/index.ts (pointers are byte offsets). */
export interface KernelExports {
  heapBase(): number;
  simdEnabled(): number;
  MODE_FREQUENCY_HALFLIFE: WebAssembly.Global;
  MODE_STIFFNESS_DAMPING: WebAssembly.Global;
  MODE_RATIO_HALFLIFE: WebAssembly.Global;
  MODE_CRITICAL: WebAssembly.Global;
  damperUniform(x: number, g: number, n: number, halflife: number, dt: number): void;
  damperVarying(x: number, g: number, n: number, halflife: number, halflifeStride: number, dt: number): void;
  springUniform(x: number, v: number, g: number, q: number, n: number, mode: number, p0: number, p1: number, dt: number): void;
  springVarying(
    x: number, v: number, g: number, q: number, n: number, mode: number,
    p0: number, p0Stride: number, p1: number, p1Stride: number, dt: number,
  ): void;
  firstInvalid(p: number, n: number, positive: number): number;
  dataMovementFloor(x: number, v: number, g: number, q: number, n: number, keep: number): void;
  probeExp(input: number, output: number, n: number): void;
  probeSinCos(input: number, sinOutput: number, cosOutput: number, n: number): void;
}
