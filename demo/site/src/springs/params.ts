/** The parameters every spring model may read, and the sliders that set them. */

export interface SpringParams {
  /** s */
  halflife: number;
  /** Hz */
  frequency: number;
  /** ζ, dimensionless */
  dampingRatio: number;
  /** t3ssel8r's initial response r, dimensionless */
  response: number;
  /** Holden's apprehension, in halflives */
  apprehension: number;
  /** units/s, for the velocity spring */
  speed: number;
  /** s, for the timed spring: how long after a goal change it should arrive */
  timeToGoal: number;
}

export interface SliderSpec {
  key: keyof SpringParams;
  label: string;
  unit: string;
  min: number;
  max: number;
  step: number;
  value: number;
}

export const PARAM_SLIDERS: readonly SliderSpec[] = [
  { key: 'halflife', label: 'halflife', unit: 's', min: 0.01, max: 1.5, step: 0.01, value: 0.2 },
  { key: 'frequency', label: 'frequency', unit: 'Hz', min: 0.1, max: 5, step: 0.05, value: 1.5 },
  // > 0: springDamperRatio needs a positive ratio (s = (d / 2ζ)²).
  { key: 'dampingRatio', label: 'damping ratio ζ', unit: '', min: 0.05, max: 2, step: 0.05, value: 0.5 },
  { key: 'response', label: 'response r', unit: '', min: -2, max: 3, step: 0.1, value: 1 },
  { key: 'apprehension', label: 'apprehension', unit: '', min: 0, max: 5, step: 0.1, value: 2 },
  { key: 'speed', label: 'speed', unit: '/s', min: 0.5, max: 10, step: 0.1, value: 3 },
  { key: 'timeToGoal', label: 'time to goal', unit: 's', min: 0.1, max: 2, step: 0.05, value: 0.6 },
];

export function defaultParams(): SpringParams {
  return Object.fromEntries(PARAM_SLIDERS.map((s) => [s.key, s.value])) as unknown as SpringParams;
}
