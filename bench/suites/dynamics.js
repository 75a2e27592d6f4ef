// PD springs and second-order dynamics at N = 65536, constant dt as in a frame loop:
// pdSpring with each integrator, pdSpringRigidBody, SecondOrderDynamics.update with each method;
// plus, as information, substep (pdSpring 'explicit' in 4 substeps) and FixedStepper.advance
// (pdSpring 'implicit' at a fixed 1/120 s: 2 steps a frame, then the interpolation).
// Every Solver method of src/methods/pd-spring.ts and src/methods/substep.ts, and the classes of
// src/stateful/second-order-dynamics.ts and src/stateful/fixed-stepper.ts. See bench/README.md.
import { FixedStepper, SecondOrderDynamics } from '../../dist/index.js';
import { DT, TWO_PI, classTasks, fillSpec, methodTasks, paramValue, range, speedupTargets, tracked, uniformValues } from './shared.js';

const N = 65536;
const X = range(-1, 1);
const V = range(-2, 2);

/**
 * ω = 2π·f with f in [0.5, 4) Hz and ζ in [0.5, 1.5): every integrator is stable there at
 * dt = 1/60 (ω·dt ≤ 0.42; 'explicit' needs ω·dt < 2ζ and (ω·dt)² − 4ζ·ω·dt + 4 > 0).
 */
const PD = {
  uaf: { uniform: TWO_PI * 2, lo: TWO_PI * 0.5, hi: TWO_PI * 4 },
  dampingRatio: { uniform: 0.7, lo: 0.5, hi: 1.5 },
};
/** Under- to over-damped; r < 0 anticipates, r > 1 overshoots. */
const SECOND_ORDER = {
  f: { uniform: 2, lo: 0.5, hi: 4 },
  zeta: { uniform: 0.7, lo: 0.2, hi: 3 },
  r: { uniform: 1, lo: -1, hi: 2 },
};
const INTEGRATORS = ['explicit', 'semi-implicit', 'implicit', 'exact'];
const METHODS = ['euler-substep', 'clamped', 'pole-zero', 'exact'];
const SUBSTEPS = 4;
const FIXED_DT = DT / 2;

const PD_ARRAYS = { state: { pos: X, vel: V }, inputs: { targetPos: X, targetVel: V }, params: PD };

const pdSpring = (integrator) => ({
  kernel: 'pdSpring',
  variant: integrator,
  ...PD_ARRAYS,
  call: (s, a, p) => {
    const options = { integrator };
    return () => s.pdSpring(a.pos, a.vel, a.targetPos, a.targetVel, p.uaf, p.dampingRatio, DT, options);
  },
});

const RIGID_BODY = {
  kernel: 'pdSpringRigidBody',
  state: { vel: V },
  inputs: { pos: X, targetPos: X, targetVel: V },
  params: PD,
  call: (s, a, p) => () => s.pdSpringRigidBody(a.pos, a.vel, a.targetPos, a.targetVel, p.uaf, p.dampingRatio, DT),
};

const SUBSTEP = {
  kernel: 'substep',
  variant: `pdSpring explicit ×${SUBSTEPS}`,
  ...PD_ARRAYS,
  call: (s, a, p) => {
    const options = { maxDt: DT / SUBSTEPS };
    const explicit = { integrator: 'explicit' };
    const step = (h) => s.pdSpring(a.pos, a.vel, a.targetPos, a.targetVel, p.uaf, p.dampingRatio, h, explicit);
    return () => s.substep(DT, options, step);
  },
};

/**
 * SecondOrderDynamics.update with `method`: the input alternates between x0 and x0 + δ
 * (|δ| < 0.05), so the output keeps moving; y starts away from the input. Per-element: f, ζ and r
 * per channel (the wasm backends then keep coefficient planes, prepared once for the constant dt).
 */
function secondOrderTasks(method) {
  return classTasks({ kernel: 'SecondOrderDynamics.update', variant: method, n: N, params: SECOND_ORDER }, (solver, mode, memory) => {
    const { x0, x1 } = memory.arrays(N, { x0: X, x1: range(-0.05, 0.05) });
    for (let i = 0; i < N; i++) x1[i] += x0[i];
    const p = Object.fromEntries(Object.entries(SECOND_ORDER).map(([name, spec]) => [name, paramValue(spec, mode, name, N)]));
    const dynamics = memory.own(new SecondOrderDynamics(solver, p.f, p.zeta, p.r, x0, { method }));
    fillSpec(dynamics.y, X, 'y', N);
    fillSpec(dynamics.yd, V, 'yd', N);
    const inputs = [x0, x1];
    let k = 0;
    const update = () => {
      k ^= 1;
      return dynamics.update(DT, inputs[k]);
    };
    return tracked(update, [dynamics.xPrev, dynamics.y, dynamics.yd]);
  });
}

/** FixedStepper.advance(1/60) with a pdSpring 'implicit' step at fixedDt = 1/120. */
function fixedStepperTasks() {
  return classTasks({ kernel: 'FixedStepper.advance', variant: 'pdSpring implicit ×2', n: N, params: PD }, (solver, mode, memory) => {
    const a = memory.arrays(N, { pos: X, vel: V, targetPos: X, targetVel: V });
    const p = memory.params(N, PD, mode);
    const step = (pos, vel, h) => solver.pdSpring(pos, vel, a.targetPos, a.targetVel, p.uaf, p.dampingRatio, h);
    const stepper = memory.own(new FixedStepper(solver, N, FIXED_DT, step, { pos: a.pos, vel: a.vel }));
    const written = [stepper.currPos, stepper.currVel, stepper.prevPos, stepper.prevVel, stepper.pos, stepper.vel];
    return tracked(() => stepper.advance(DT), written);
  });
}

/** [kernel, variant] of the rows with a target (uniform parameters). */
/** @type {[string, string?][]} */
const TARGETED = [
  ...INTEGRATORS.map((integrator) => /** @type {[string, string]} */ (['pdSpring', integrator])),
  ['pdSpringRigidBody'],
  ...METHODS.map((method) => /** @type {[string, string]} */ (['SecondOrderDynamics.update', method])),
];

export default {
  name: 'dynamics',
  sizes: ({ quick }) => (quick ? [] : [N]),
  tasks(n) {
    return [
      ...[...INTEGRATORS.map(pdSpring), RIGID_BODY].flatMap((spec) => methodTasks({ ...spec, n })),
      ...METHODS.flatMap(secondOrderTasks),
      ...methodTasks({ ...SUBSTEP, n }),
      ...fixedStepperTasks(),
    ];
  },
  targets(t) {
    const lines = speedupTargets(t, TARGETED, { n: N, min: 4 });
    return { header: 'dynamics: per-element parameters; the uniform rows are the targets', lines };
  },
  settings: { uniform: uniformValues({ ...PD, ...SECOND_ORDER }), substeps: SUBSTEPS, fixedDt: FIXED_DT },
};
