// spring-solver kernels. Pointers are byte offsets into the imported memory, counts are
// element counts, parameter strides are 0 (broadcast) or 1 (per element).
export { heapBase, simdEnabled } from './memory';
export { MODE_FREQUENCY_HALFLIFE, MODE_STIFFNESS_DAMPING, MODE_RATIO_HALFLIFE, MODE_CRITICAL } from './spring-params';
export { damperUniform, damperVarying } from './damper';
export { springUniform, springVarying } from './spring';
export { firstInvalid } from './validate';
export { dataMovementFloor } from './floor';
export { probeExp, probeSinCos } from './math-probe';
