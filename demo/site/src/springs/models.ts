/**
 * The spring models the Springs page plots: one scalar spring each, stepped by the solver.
 * The list names every model the project has or is adding; `availableModels` keeps those the
 * built package actually has (a Solver method, or an export such as SecondOrderDynamics), so the
 * page shows whatever exists when it is built, and nothing that does not.
 */
import * as api from 'spring-solver';
import type { Solver } from 'spring-solver';
import type { SpringParams } from './params.js';

/** One running instance of a model on a single element. */
export interface ModelState {
  /** Puts the model at rest on `goal`, with the current parameters. */
  reset(goal: number, p: SpringParams): void;
  /** Advances dt seconds toward `goal`, held over the step. */
  step(goal: number, p: SpringParams, dt: number): void;
  /** The output plotted against the goal. */
  readonly value: number;
  /** The intermediate target of the composite springs; NaN for the others. */
  readonly intermediate: number;
  dispose(): void;
}

export interface SpringModel {
  id: string;
  label: string;
  /** Where the model comes from, for the card. */
  source: string;
  /** The parameters it reads. */
  uses: readonly (keyof SpringParams)[];
  /** True when a step is the exact solution for a goal held over it: every dt gives the same curve. */
  exact: boolean;
  hasIntermediate: boolean;
  isAvailable(solver: Solver): boolean;
  create(solver: Solver): ModelState;
}

/** The solver's arrays of one scalar spring (each of length 1), plus bookkeeping in plain numbers. */
interface Slots {
  x: Float32Array;
  v: Float32Array;
  xi: Float32Array;
  vi: Float32Array;
  g: Float32Array;
  q: Float32Array;
  /** The goal of the previous step (for models that react to a change). */
  lastGoal: number;
  /** Timed spring: seconds left until the goal. */
  tGoal: number;
}

interface ArrayModelSpec extends Omit<SpringModel, 'isAvailable' | 'create' | 'hasIntermediate'> {
  /** The Solver method it calls (its presence makes the model available). */
  method: string;
  hasIntermediate?: boolean;
  step(solver: Solver, s: Slots, p: SpringParams, dt: number): void;
  /** The plotted value; default x. */
  value?(s: Slots): number;
  /** Extra reset, after x = xi = goal and v = vi = 0. */
  reset?(s: Slots, p: SpringParams): void;
}

/** Solver methods beyond the core set, looked up by name since older builds lack them. */
type Dynamic = Record<string, (...args: unknown[]) => void>;
const call = (solver: Solver, method: string, ...args: unknown[]) => (solver as unknown as Dynamic)[method]!(...args);

function arrayModel(spec: ArrayModelSpec): SpringModel {
  const { method, step, value = (s: Slots) => s.x[0]!, reset, hasIntermediate = false, ...info } = spec;
  return {
    ...info,
    hasIntermediate,
    isAvailable: (solver) => typeof (solver as unknown as Dynamic)[method] === 'function',
    create(solver) {
      const arrays = ['x', 'v', 'xi', 'vi', 'g', 'q'].map(() => solver.alloc(1));
      const [x, v, xi, vi, g, q] = arrays as [Float32Array, Float32Array, Float32Array, Float32Array, Float32Array, Float32Array];
      const s: Slots = { x, v, xi, vi, g, q, lastGoal: 0, tGoal: 0 };
      return {
        reset(goal, p) {
          x[0] = xi[0] = g[0] = goal;
          v[0] = vi[0] = q[0] = 0;
          s.lastGoal = g[0]!; // compared with g[0] later: both float32
          s.tGoal = 0;
          reset?.(s, p);
        },
        step(goal, p, dt) {
          g[0] = goal;
          step(solver, s, p, dt);
          s.lastGoal = g[0]!;
        },
        get value() {
          return value(s);
        },
        get intermediate() {
          return hasIntermediate ? xi[0]! : NaN;
        },
        dispose() {
          for (const array of arrays) solver.free(array);
        },
      };
    },
  };
}

const HOLDEN = 'Holden, Spring-It-On';

function pdModel(integrator: 'explicit' | 'semi-implicit' | 'implicit' | 'exact'): SpringModel {
  return arrayModel({
    id: `pdSpring-${integrator}`,
    label: `pdSpring '${integrator}'`,
    source: 'Bowles, Spring dynamics for production; ω = 2π·frequency',
    uses: ['frequency', 'dampingRatio'],
    exact: integrator === 'exact',
    method: 'pdSpring',
    step: (solver, s, p, dt) => call(solver, 'pdSpring', s.x, s.v, s.g, s.q, 2 * Math.PI * p.frequency, p.dampingRatio, dt, { integrator }),
  });
}

type SecondOrderMethod = 'euler-substep' | 'clamped' | 'pole-zero' | 'exact';

/** The SecondOrderDynamics class as this page uses it (present in builds that export it). */
interface SecondOrderDynamicsLike {
  readonly y: Float32Array;
  update(dt: number, x: Float32Array): Float32Array;
  dispose(): void;
}
type SecondOrderDynamicsClass = new (
  solver: Solver,
  f: number,
  zeta: number,
  r: number,
  x0: Float32Array,
  options: { method: SecondOrderMethod },
) => SecondOrderDynamicsLike;

function secondOrderModel(method: SecondOrderMethod): SpringModel {
  const exports = api as unknown as { SecondOrderDynamics?: SecondOrderDynamicsClass };
  return {
    id: `secondOrder-${method}`,
    label: `SecondOrderDynamics '${method}'`,
    source: 't3ssel8r, Giving Personality to Procedural Animations using Math',
    uses: ['frequency', 'dampingRatio', 'response'],
    // Even 'exact' follows the input linearly interpolated between steps and estimates its
    // velocity by a difference over dt: a held goal looks different at each dt.
    exact: false,
    hasIntermediate: false,
    isAvailable: () => typeof exports.SecondOrderDynamics === 'function',
    create(solver) {
      const input = solver.alloc(1);
      let system: SecondOrderDynamicsLike | null = null;
      return {
        reset(goal, p) {
          system?.dispose();
          input[0] = goal;
          // Its parameters are fixed at construction: a new system for every reset.
          system = new exports.SecondOrderDynamics!(solver, p.frequency, p.dampingRatio, p.response, input, { method });
        },
        step(goal, _p, dt) {
          input[0] = goal;
          system!.update(dt, input);
        },
        get value() {
          return system!.y[0]!;
        },
        intermediate: NaN,
        dispose() {
          system?.dispose();
          solver.free(input);
        },
      };
    },
  };
}

export const MODELS: readonly SpringModel[] = [
  arrayModel({
    id: 'damper',
    label: 'damper',
    source: `${HOLDEN}: damper_exact`,
    uses: ['halflife'],
    exact: true,
    method: 'damper',
    step: (solver, s, p, dt) => solver.damper(s.x, s.g, p.halflife, dt),
  }),
  arrayModel({
    id: 'springDamper',
    label: 'springDamper',
    source: `${HOLDEN}: spring_damper_exact`,
    uses: ['frequency', 'halflife'],
    exact: true,
    method: 'springDamper',
    step: (solver, s, p, dt) => solver.springDamper(s.x, s.v, s.g, s.q, p.frequency, p.halflife, dt),
  }),
  arrayModel({
    id: 'springDamperStiffness',
    label: 'springDamperStiffness',
    source: `${HOLDEN}: stiffness (2π·frequency)², damping 4·ln2/halflife`,
    uses: ['frequency', 'halflife'],
    exact: true,
    method: 'springDamperStiffness',
    step: (solver, s, p, dt) =>
      solver.springDamperStiffness(s.x, s.v, s.g, s.q, api.frequencyToStiffness(p.frequency), api.halflifeToDamping(p.halflife), dt),
  }),
  arrayModel({
    id: 'springDamperRatio',
    label: 'springDamperRatio',
    source: `${HOLDEN}: damping-ratio form`,
    uses: ['dampingRatio', 'halflife'],
    exact: true,
    method: 'springDamperRatio',
    step: (solver, s, p, dt) => solver.springDamperRatio(s.x, s.v, s.g, s.q, p.dampingRatio, p.halflife, dt),
  }),
  arrayModel({
    id: 'criticalSpringDamper',
    label: 'criticalSpringDamper',
    source: `${HOLDEN}: critical_spring_damper_exact`,
    uses: ['halflife'],
    exact: true,
    method: 'criticalSpringDamper',
    step: (solver, s, p, dt) => solver.criticalSpringDamper(s.x, s.v, s.g, s.q, p.halflife, dt),
  }),
  arrayModel({
    id: 'simpleSpringDamper',
    label: 'simpleSpringDamper',
    source: `${HOLDEN}: simple_spring_damper_exact`,
    uses: ['halflife'],
    exact: true,
    method: 'simpleSpringDamper',
    step: (solver, s, p, dt) => solver.simpleSpringDamper(s.x, s.v, s.g, p.halflife, dt),
  }),
  arrayModel({
    id: 'decaySpringDamper',
    label: 'decaySpringDamper',
    source: `${HOLDEN}: decay_spring_damper_exact, on the offset from the goal`,
    uses: ['halflife'],
    exact: true,
    method: 'decaySpringDamper',
    // x is the offset from the goal, decaying to 0: a goal change adds the jump to it.
    reset: (s) => {
      s.x[0] = 0;
    },
    step: (solver, s, p, dt) => {
      s.x[0] = s.x[0]! + s.lastGoal - s.g[0]!;
      solver.decaySpringDamper(s.x, s.v, p.halflife, dt);
    },
    value: (s) => s.g[0]! + s.x[0]!,
  }),
  arrayModel({
    id: 'doubleSpringDamper',
    label: 'doubleSpringDamper',
    source: `${HOLDEN}: double_spring_damper`,
    uses: ['halflife'],
    exact: false,
    method: 'doubleSpringDamper',
    hasIntermediate: true,
    step: (solver, s, p, dt) => call(solver, 'doubleSpringDamper', s.x, s.v, s.xi, s.vi, s.g, p.halflife, dt),
  }),
  arrayModel({
    id: 'timedSpringDamper',
    label: 'timedSpringDamper',
    source: `${HOLDEN}: timed_spring_damper`,
    uses: ['halflife', 'timeToGoal', 'apprehension'],
    exact: false,
    method: 'timedSpringDamper',
    hasIntermediate: true,
    step: (solver, s, p, dt) => {
      if (s.g[0] !== s.lastGoal) {
        s.tGoal = p.timeToGoal; // a new goal: arrive in timeToGoal, starting from where x is
        s.xi[0] = s.x[0]!;
      }
      call(solver, 'timedSpringDamper', s.x, s.v, s.xi, s.g, s.tGoal, p.halflife, dt, p.apprehension);
      s.tGoal = Math.max(0, s.tGoal - dt);
    },
  }),
  arrayModel({
    id: 'velocitySpringDamper',
    label: 'velocitySpringDamper',
    source: `${HOLDEN}: velocity_spring_damper`,
    uses: ['halflife', 'speed', 'apprehension'],
    exact: false,
    method: 'velocitySpringDamper',
    hasIntermediate: true,
    step: (solver, s, p, dt) => call(solver, 'velocitySpringDamper', s.x, s.v, s.xi, s.g, p.speed, p.halflife, dt, p.apprehension),
  }),
  pdModel('explicit'),
  pdModel('semi-implicit'),
  pdModel('implicit'),
  pdModel('exact'),
  secondOrderModel('euler-substep'),
  secondOrderModel('clamped'),
  secondOrderModel('pole-zero'),
  secondOrderModel('exact'),
];

/** The models this build of the package provides. */
export function availableModels(solver: Solver): SpringModel[] {
  return MODELS.filter((model) => model.isAvailable(solver));
}
