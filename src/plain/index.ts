/**
 * Plain scalar functions, float64 numbers in and out, no solver needed: parameter conversions
 * (halflife, damping, stiffness, frequency, t3ssel8r's f/ζ/r), and from Daniel Holden's
 * "Spring-It-On" spring energy, resonant frequency, piecewise interpolation and easing (with
 * corrections noted on each function).
 * @module
 */
export * from './conversions.js';
export { fzrToK, kToFzr, criticalTimestep, type KCoefficients, type FzrParameters } from './second-order-parameters.js';
export { springEnergy } from './energy.js';
export { resonantFrequency } from './resonance.js';
export { piecewiseInterpolation, type PositionVelocity } from './interpolation.js';
export { hermite, cubicEasing, smoothstep, smoothstepSolve, type SmoothstepFit } from './easing.js';
