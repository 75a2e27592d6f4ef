/**
 * The float64 JS reference implementation of every model: the JS backend, and the oracle the
 * wasm backends are tested against. Importable as `spring-solver/reference`.
 * @module
 */
export * from './spring.js';
export { springTransition, type SpringTransition } from './spring-transition.js';
