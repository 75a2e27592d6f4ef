// Composite springs, the character controller, inertialization of values and the signal tools:
// doubleSpringDamper, timedSpringDamper, velocitySpringDamper, characterUpdate and
// inertializeUpdate at N = 4096, 65536, 2^20; characterPredict for 4096 characters × 16 samples;
// extrapolate, deadBlendingUpdate, trackingSpringUpdate and the two transitions at N = 65536.
// Every Solver method of src/methods/{composite,character,inertialize,signal}.ts. See bench/README.md.
import { DT, methodTasks, range, speedupTargets, uniformValues, zeros } from './shared.js';

const SIZES = [4096, 65536, 1048576];
const PREDICT_N = 4096;
const PREDICT_SAMPLES = 16;
const SIGNAL_N = 65536;

const X = range(-1, 1);
const V = range(-2, 2);

/** Uniform values, and the per-element ranges [lo, hi). */
const HALFLIFE = { uniform: 0.2, lo: 0.05, hi: 1 };
const PARAMS = {
  halflife: HALFLIFE,
  // Time left to the goal (held, not counted down: every step costs the same). Per element it
  // mixes both branches: leading the goal, and settling on g once dt + 2·halflife ≥ tGoal.
  tGoal: { uniform: 0.5, lo: 0, hi: 1 },
  speed: { uniform: 1, lo: 0.5, hi: 4 },
  // Longer than the 64 steps (1.07 s) between resets, so every timed call is mid-blend.
  blendTime: { uniform: 1.5, lo: 1.5, hi: 3 },
  xGain: { uniform: 0.1, lo: 0.02, hi: 0.5 },
  vGain: { uniform: 0.5, lo: 0.1, hi: 0.9 },
  aGain: { uniform: 0.5, lo: 0.1, hi: 0.9 },
};
const pick = (...names) => Object.fromEntries(names.map((name) => [name, PARAMS[name]]));

/** The spring-like kernels measured at every N, with their targets at N = 65536. */
/** @type {import('./shared.js').MethodSpec[]} */
const SPRINGS = [
  {
    kernel: 'doubleSpringDamper',
    state: { x: X, v: V, xi: X, vi: V },
    inputs: { g: X },
    params: pick('halflife'),
    call: (s, a, p) => () => s.doubleSpringDamper(a.x, a.v, a.xi, a.vi, a.g, p.halflife, DT),
  },
  {
    kernel: 'timedSpringDamper',
    state: { x: X, v: V, xi: range(-1, 1, 1, 'x') }, // xi starts at x
    inputs: { g: X },
    params: pick('tGoal', 'halflife'),
    call: (s, a, p) => () => s.timedSpringDamper(a.x, a.v, a.xi, a.g, p.tGoal, p.halflife, DT),
  },
  {
    kernel: 'velocitySpringDamper',
    state: { x: X, v: V, xi: range(-1, 1, 1, 'x') },
    inputs: { g: X },
    params: pick('speed', 'halflife'),
    call: (s, a, p) => () => s.velocitySpringDamper(a.x, a.v, a.xi, a.g, p.speed, p.halflife, DT),
  },
  {
    kernel: 'characterUpdate',
    state: { x: X, v: V, a: range(-4, 4) },
    inputs: { vGoal: V },
    params: pick('halflife'),
    call: (s, a, p) => () => s.characterUpdate(a.x, a.v, a.a, a.vGoal, p.halflife, DT),
  },
  {
    kernel: 'inertializeUpdate',
    state: { outX: zeros(), outV: zeros(), offX: X, offV: V },
    inputs: { inX: X, inV: V },
    params: pick('halflife'),
    call: (s, a, p) => () => s.inertializeUpdate(a.outX, a.outV, a.offX, a.offV, a.inX, a.inV, p.halflife, DT),
  },
];

const PREDICT = {
  kernel: 'characterPredict',
  variant: `×${PREDICT_SAMPLES}`,
  state: { px: zeros(PREDICT_SAMPLES), pv: zeros(PREDICT_SAMPLES), pa: zeros(PREDICT_SAMPLES) },
  inputs: { x: X, v: V, a: range(-4, 4), vGoal: V },
  params: pick('halflife'),
  call: (s, a, p) => () => s.characterPredict(a.px, a.pv, a.pa, a.x, a.v, a.a, a.vGoal, p.halflife, DT, PREDICT_SAMPLES),
};

/** Measured at N = 65536 only (no target). */
/** @type {import('./shared.js').MethodSpec[]} */
const SIGNALS = [
  {
    kernel: 'extrapolate',
    state: { x: X, v: V },
    params: pick('halflife'),
    call: (s, a, p) => () => s.extrapolate(a.x, a.v, p.halflife, DT),
  },
  {
    kernel: 'deadBlendingUpdate',
    state: { outX: zeros(), extX: X, extV: V, extT: range(0, 0.4) },
    inputs: { inX: X },
    params: pick('blendTime', 'halflife'),
    call: (s, a, p) => () => s.deadBlendingUpdate(a.outX, a.extX, a.extV, a.extT, a.inX, p.blendTime, DT, p.halflife),
  },
  {
    kernel: 'trackingSpringUpdate',
    state: { x: X, v: V, a: zeros() },
    inputs: { targetX: X, targetV: V, targetA: range(-4, 4) },
    params: pick('xGain', 'vGain', 'aGain'),
    call: (s, a, p) => () => s.trackingSpringUpdate(a.x, a.v, a.a, a.targetX, a.targetV, a.targetA, p.xGain, p.vGain, p.aGain, DT, DT),
    // a is the acceleration: stiffness xGain/gainDt² reaches 1800/s², so |a| reaches ~1400.
    bound: 1e4,
  },
  // The transitions run once at a switch; the offsets grow by (src − dst) a call here, hence the bound.
  {
    kernel: 'inertializeTransition',
    state: { offX: X, offV: V },
    inputs: { srcX: X, srcV: V, dstX: X, dstV: V },
    call: (s, a) => () => s.inertializeTransition(a.offX, a.offV, a.srcX, a.srcV, a.dstX, a.dstV),
    bound: 1000,
  },
  {
    kernel: 'deadBlendingTransition',
    state: { extX: zeros(), extV: zeros(), extT: zeros() },
    inputs: { srcX: X, srcV: V },
    call: (s, a) => () => s.deadBlendingTransition(a.extX, a.extV, a.extT, a.srcX, a.srcV),
  },
];

export default {
  name: 'composite',
  sizes: ({ quick }) => (quick ? [] : SIZES),
  tasks(n) {
    const tasks = SPRINGS.flatMap((spec) => methodTasks({ ...spec, n }));
    if (n === PREDICT_N) tasks.push(...methodTasks({ ...PREDICT, n }));
    if (n === SIGNAL_N) tasks.push(...SIGNALS.flatMap((spec) => methodTasks({ ...spec, n })));
    return tasks;
  },
  targets(t) {
    const lines = speedupTargets(
      t,
      SPRINGS.map((s) => [s.kernel]),
      { n: 65536, min: 4 },
    );
    lines.push(
      ...speedupTargets(t, [[PREDICT.kernel, PREDICT.variant]], {
        n: PREDICT_N,
        min: 4,
        where: `N = ${PREDICT_N} × ${PREDICT_SAMPLES} samples`,
      }),
    );
    return { header: 'composite: per-element parameters; the uniform rows are the targets', lines };
  },
  settings: { uniform: uniformValues(PARAMS), predictSamples: PREDICT_SAMPLES, trackingGainDt: DT },
};
