/**
 * spring-solver/three: three.js integrations (three is an optional peer dependency; the main
 * entry never imports it).
 */
export { InertializedMixer, InertializedMixerGroup, type InertializedMixerOptions } from './inertialized-mixer.js';
