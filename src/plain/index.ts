/**
 * Plain scalar helpers from Daniel Holden's "Spring-It-On", float64 numbers in and out:
 * spring energy, resonant frequency, piecewise interpolation and easing (with corrections noted
 * on each function).
 * @module
 */
export { springEnergy } from './energy.js';
export { resonantFrequency } from './resonance.js';
export { piecewiseInterpolation, type PositionVelocity } from './interpolation.js';
export { hermite, cubicEasing, smoothstep, smoothstepSolve, type SmoothstepFit } from './easing.js';
