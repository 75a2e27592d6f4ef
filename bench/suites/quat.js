// Quaternion springs and rotation inertialization: quatSimpleSpringDamper,
// quatDecaySpringDamper, quatDamper and quatInertializeUpdate at 8192 and 65536 bones; the whole
// Inertializer.update (and transition) for 250 characters × 20 bones; quatInertializeTransition
// and the batched quaternion helpers at 65536. One element is one bone (a quaternion).
// Every Solver method of src/methods/{quat,quat-helpers}.ts. See bench/README.md.
import { Inertializer } from '../../dist/index.js';
import { DT, classTasks, methodTasks, paramValue, range, speedupTargets, tracked, unitQuaternions, zeros } from './shared.js';

const BONE_SIZES = [8192, 65536];
const HELPER_N = 65536;
const CHARACTERS = 250;
const BONES = 20;
const INERTIALIZER_N = CHARACTERS * BONES;

const Q = unitQuaternions();
const W = range(-2, 2, 3); // angular velocity, rad/s
const HALFLIFE = { uniform: 0.2, lo: 0.05, hi: 1 };
const T = { uniform: 0.5, lo: 0, hi: 1 };

/** @type {import('./shared.js').MethodSpec[]} */
const SPRINGS = [
  {
    kernel: 'quatSimpleSpringDamper',
    state: { q: Q, w: W },
    inputs: { qGoal: Q },
    params: { halflife: HALFLIFE },
    call: (s, a, p) => () => s.quatSimpleSpringDamper(a.q, a.w, a.qGoal, p.halflife, DT),
  },
  {
    kernel: 'quatDecaySpringDamper',
    state: { q: Q, w: W },
    params: { halflife: HALFLIFE },
    call: (s, a, p) => () => s.quatDecaySpringDamper(a.q, a.w, p.halflife, DT),
  },
  {
    kernel: 'quatDamper',
    state: { q: Q },
    inputs: { qGoal: Q },
    params: { halflife: HALFLIFE },
    call: (s, a, p) => () => s.quatDamper(a.q, a.qGoal, p.halflife, DT),
  },
  {
    kernel: 'quatInertializeUpdate',
    state: { outQ: zeros(4), outW: zeros(3), offQ: Q, offW: W },
    inputs: { inQ: Q, inW: W },
    params: { halflife: HALFLIFE },
    call: (s, a, p) => () => s.quatInertializeUpdate(a.outQ, a.outW, a.offQ, a.offW, a.inQ, a.inW, p.halflife, DT),
  },
];

/** A helper out = f(inputs) (`out` of `width` floats), measured at N = 65536 only. */
const helper = (kernel, width, inputs, call, params = {}) => ({ kernel, state: { out: zeros(width) }, inputs, params, call });

const HELPERS = [
  // Runs once at a switch; the angular velocity offsets grow a little with every call, hence the bound.
  {
    kernel: 'quatInertializeTransition',
    state: { offQ: Q, offW: W },
    inputs: { srcQ: Q, srcW: W, dstQ: Q, dstW: W },
    call: (s, a) => () => s.quatInertializeTransition(a.offQ, a.offW, a.srcQ, a.srcW, a.dstQ, a.dstW),
    bound: 1000,
  },
  helper('quatMul', 4, { a: Q, b: Q }, (s, a) => () => s.quatMul(a.out, a.a, a.b)),
  helper('quatInv', 4, { q: Q }, (s, a) => () => s.quatInv(a.out, a.q)),
  helper('quatAbs', 4, { q: Q }, (s, a) => () => s.quatAbs(a.out, a.q)),
  helper('quatNormalize', 4, { q: range(-1, 1, 4) }, (s, a) => () => s.quatNormalize(a.out, a.q)),
  helper('quatRotate', 3, { q: Q, v: W }, (s, a) => () => s.quatRotate(a.out, a.q, a.v)),
  helper('quatToScaledAngleAxis', 3, { q: Q }, (s, a) => () => s.quatToScaledAngleAxis(a.out, a.q)),
  helper('quatFromScaledAngleAxis', 4, { v: range(-3, 3, 3) }, (s, a) => () => s.quatFromScaledAngleAxis(a.out, a.v)),
  helper('quatSlerp', 4, { a: Q, b: Q }, (s, a, p) => () => s.quatSlerp(a.out, a.a, a.b, p.t), { t: T }),
];

/** A pose of n bones in solver memory: random positions, velocities, unit rotations, angular velocities. */
function randomPose(memory, n, name) {
  const fields = { positions: range(-1, 1, 3), velocities: range(-2, 2, 3), rotations: Q, angularVelocities: W };
  return memory.arrays(n, Object.fromEntries(Object.entries(fields).map(([field, spec]) => [field, { ...spec, key: `${name}.${field}` }])));
}

/**
 * The whole Inertializer for 250 characters × 20 bones with a root bone (as the crowd demo and
 * Motion-Matching use it): update (after one transition from a random pose to another; each reset
 * clears the offsets and transitions again) and transition (from zero offsets at each reset).
 * Per-element: one halflife per bone (20 values).
 */
function inertializerTasks() {
  const n = INERTIALIZER_N;
  const task = { variant: `${CHARACTERS}×${BONES}`, n };
  const make = (solver, mode, memory) => {
    const [src, dst] = [randomPose(memory, n, 'src'), randomPose(memory, n, 'dst')];
    const halflife = paramValue(HALFLIFE, mode, 'halflife', BONES);
    const inertializer = memory.own(new Inertializer(solver, { count: CHARACTERS, bones: BONES, halflife, rootBone: 0 }));
    return { src, dst, inertializer };
  };
  return [
    ...classTasks({ ...task, kernel: 'Inertializer.update', params: { halflife: HALFLIFE } }, (solver, mode, memory) => {
      const { src, dst, inertializer } = make(solver, mode, memory);
      const output = memory.arrays(n, { positions: zeros(3), velocities: zeros(3), rotations: zeros(4), angularVelocities: zeros(3) });
      const start = () => {
        inertializer.reset();
        inertializer.transition(src, dst);
      };
      start();
      return tracked(() => inertializer.update(dst, undefined, DT, output), Object.values(output), { reset: start });
    }),
    ...classTasks({ ...task, kernel: 'Inertializer.transition' }, (solver, _mode, memory) => {
      const { src, dst, inertializer } = make(solver, 'uniform', memory);
      const call = () => inertializer.transition(src, dst);
      return tracked(call, Object.values(inertializer.offsets), { bound: 1000, reset: () => inertializer.reset() });
    }),
  ];
}

export default {
  name: 'quat',
  sizes: ({ quick }) => (quick ? [] : [INERTIALIZER_N, ...BONE_SIZES]),
  tasks(n) {
    if (n === INERTIALIZER_N) return inertializerTasks();
    const tasks = SPRINGS.flatMap((spec) => methodTasks({ ...spec, n }));
    if (n === HELPER_N) tasks.push(...HELPERS.flatMap((spec) => methodTasks({ ...spec, n })));
    return tasks;
  },
  targets(t) {
    const lines = speedupTargets(t, [['quatInertializeUpdate']], { n: 8192, min: 4, where: 'N = 8192 bones' });
    const where = `${INERTIALIZER_N} bones (${CHARACTERS} characters × ${BONES})`;
    lines.push(...speedupTargets(t, [['Inertializer.update', `${CHARACTERS}×${BONES}`]], { n: INERTIALIZER_N, min: 4, where }));
    return { header: 'quat: per-element (per-bone) halflife; the uniform rows are the targets', lines };
  },
  settings: { uniform: { halflife: HALFLIFE.uniform, slerpT: T.uniform }, characters: CHARACTERS, bones: BONES, rootBone: 0 },
};
