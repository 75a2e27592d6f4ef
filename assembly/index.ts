// spring-solver kernels: every export of the files below is a wasm export, typed for the host by
// src/core/kernel-exports.ts from the declarations asc generates. Pointers are byte offsets into
// the imported memory, counts are element counts, parameter strides are 0 (broadcast) or 1 (per
// element). A file listed here exports kernels only; what kernels share lives in spring/, quat/,
// lanes/ and maths/.
export * from './kernels/memory';
export * from './kernels/damper';
export * from './kernels/spring';
export * from './kernels/validate';
export * from './kernels/composite';
export * from './kernels/character';
export * from './kernels/inertialize';
export * from './kernels/signal';
export * from './kernels/pd-spring';
export * from './kernels/second-order';
export * from './kernels/quat';
export * from './kernels/quat-batch';
export * from './kernels/root-anchor';
export * from './kernels/pose-inertialize';
export * from './kernels/strided-spring';
export * from './kernels/spring-per-element';
export * from './kernels/instance-matrix';
export * from './kernels/spring-bones';
export * from './kernels/skeleton';
export * from './kernels/mixer-sampling';
export * from './kernels/pose-gather';

// For the tests and the benchmark only: the maths probes and the data-movement floor.
export * from './testing/floor';
export * from './testing/probe-maths-x2';
export * from './testing/probe-maths-x4';
