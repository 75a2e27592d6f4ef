/**
 * What the fuzz tests know about every Solver method: the kind of each argument, in order. The
 * argument NAMES are read from the methods themselves (their source text) and must match this
 * table, and a Solver method without an entry fails the test (test/fuzz/solver.test.ts): a new
 * method, or a renamed or added argument, cannot be left out of the fuzzing.
 */

/** A Float32Array of `width` floats an element (`width: 'count'`: the characterPredict count). */
export interface ArrayKind {
  kind: 'out' | 'in';
  width: number | 'count';
}
/**
 * A parameter: a number or a Float32Array with one value per element. 'gain' is [0, 1];
 * 'slerpT' is [0, 1000] (quatSlerp's t: past 1000 its float32 error exceeds 6e-4 rad).
 * `optional`: may be left undefined (then the method's default).
 */
export interface ParamKind {
  kind: 'param';
  rule: 'nonNegative' | 'positive' | 'gain' | 'slerpT';
  optional?: boolean;
}
/** dt (s, finite, ≥ 0), a scalar > 0 (gainDt), a sample count, pdSpring's options. */
export interface ScalarKind {
  kind: 'dt' | 'gainDt' | 'count' | 'pdOptions';
}
export type ArgKind = ArrayKind | ParamKind | ScalarKind;

const out = (width: number | 'count' = 1): ArrayKind => ({ kind: 'out', width });
const inp = (width: number = 1): ArrayKind => ({ kind: 'in', width });
const nn: ParamKind = { kind: 'param', rule: 'nonNegative' };
const pos: ParamKind = { kind: 'param', rule: 'positive' };
const gain: ParamKind = { kind: 'param', rule: 'gain' };
const slerpT: ParamKind = { kind: 'param', rule: 'slerpT' };
const nnOptional: ParamKind = { kind: 'param', rule: 'nonNegative', optional: true };
const dt: ScalarKind = { kind: 'dt' };

/** Method → [argument name, kind][] in order. `substep` (a function argument) has its own fuzz. */
// biome-ignore format: a table, one method a line
export const METHODS: Record<string, [string, ArgKind][]> = {
  damper: [['x', out()], ['g', inp()], ['halflife', nn], ['dt', dt]],
  springDamper: [['x', out()], ['v', out()], ['g', inp()], ['q', inp()], ['frequency', nn], ['halflife', nn], ['dt', dt]],
  springDamperStiffness: [['x', out()], ['v', out()], ['g', inp()], ['q', inp()], ['stiffness', nn], ['damping', nn], ['dt', dt]],
  springDamperRatio: [['x', out()], ['v', out()], ['g', inp()], ['q', inp()], ['dampingRatio', pos], ['halflife', nn], ['dt', dt]],
  criticalSpringDamper: [['x', out()], ['v', out()], ['g', inp()], ['q', inp()], ['halflife', nn], ['dt', dt]],
  simpleSpringDamper: [['x', out()], ['v', out()], ['g', inp()], ['halflife', nn], ['dt', dt]],
  decaySpringDamper: [['x', out()], ['v', out()], ['halflife', nn], ['dt', dt]],
  doubleSpringDamper: [['x', out()], ['v', out()], ['xi', out()], ['vi', out()], ['g', inp()], ['halflife', nn], ['dt', dt]],
  timedSpringDamper: [
    ['x', out()], ['v', out()], ['xi', out()], ['g', inp()], ['tGoal', nn], ['halflife', nn], ['dt', dt], ['apprehension', nnOptional],
  ],
  velocitySpringDamper: [
    ['x', out()], ['v', out()], ['xi', out()], ['g', inp()], ['speed', nn], ['halflife', nn], ['dt', dt], ['apprehension', nnOptional],
  ],
  characterUpdate: [['x', out()], ['v', out()], ['a', out()], ['vGoal', inp()], ['halflife', nn], ['dt', dt]],
  characterPredict: [
    ['px', out('count')], ['pv', out('count')], ['pa', out('count')],
    ['x', inp()], ['v', inp()], ['a', inp()], ['vGoal', inp()], ['halflife', nn], ['dt', dt], ['count', { kind: 'count' }],
  ],
  inertializeTransition: [['offX', out()], ['offV', out()], ['srcX', inp()], ['srcV', inp()], ['dstX', inp()], ['dstV', inp()]],
  inertializeUpdate: [
    ['outX', out()], ['outV', out()], ['offX', out()], ['offV', out()], ['inX', inp()], ['inV', inp()], ['halflife', nn], ['dt', dt],
  ],
  extrapolate: [['x', out()], ['v', out()], ['halflife', nn], ['dt', dt]],
  deadBlendingTransition: [['extX', out()], ['extV', out()], ['extT', out()], ['srcX', inp()], ['srcV', inp()]],
  deadBlendingUpdate: [
    ['outX', out()], ['extX', out()], ['extV', out()], ['extT', out()], ['inX', inp()], ['blendTime', nn], ['dt', dt], ['decayHalflife', nnOptional],
  ],
  trackingSpringUpdate: [
    ['x', out()], ['v', out()], ['a', out()], ['targetX', inp()], ['targetV', inp()], ['targetA', inp()],
    ['xGain', gain], ['vGain', gain], ['aGain', gain], ['dt', dt], ['gainDt', { kind: 'gainDt' }],
  ],
  pdSpring: [
    ['pos', out()], ['vel', out()], ['targetPos', inp()], ['targetVel', inp()], ['uaf', nn], ['dampingRatio', nn], ['dt', dt],
    ['options', { kind: 'pdOptions' }],
  ],
  pdSpringRigidBody: [['pos', inp()], ['vel', out()], ['targetPos', inp()], ['targetVel', inp()], ['uaf', nn], ['dampingRatio', nn], ['dt', dt]],
  quatSimpleSpringDamper: [['q', out(4)], ['w', out(3)], ['qGoal', inp(4)], ['halflife', nn], ['dt', dt]],
  quatDecaySpringDamper: [['q', out(4)], ['w', out(3)], ['halflife', nn], ['dt', dt]],
  quatDamper: [['q', out(4)], ['qGoal', inp(4)], ['halflife', nn], ['dt', dt]],
  quatInertializeTransition: [['offQ', out(4)], ['offW', out(3)], ['srcQ', inp(4)], ['srcW', inp(3)], ['dstQ', inp(4)], ['dstW', inp(3)]],
  quatInertializeUpdate: [
    ['outQ', out(4)], ['outW', out(3)], ['offQ', out(4)], ['offW', out(3)], ['inQ', inp(4)], ['inW', inp(3)], ['halflife', nn], ['dt', dt],
  ],
  quatMul: [['out', out(4)], ['a', inp(4)], ['b', inp(4)]],
  quatInv: [['out', out(4)], ['q', inp(4)]],
  quatAbs: [['out', out(4)], ['q', inp(4)]],
  quatNormalize: [['out', out(4)], ['q', inp(4)]],
  quatRotate: [['out', out(3)], ['q', inp(4)], ['v', inp(3)]],
  quatToScaledAngleAxis: [['out', out(3)], ['q', inp(4)]],
  quatFromScaledAngleAxis: [['out', out(4)], ['v', inp(3)]],
  quatSlerp: [['out', out(4)], ['a', inp(4)], ['b', inp(4)], ['t', slerpT]],
};

/** Solver members that are not kernels: memory management, the fuzzed-apart substep, and prepare (test/core/prepare.test.ts). */
export const NOT_KERNELS = new Set(['alloc', 'free', 'dispose', 'substep', 'prepare']);

/** Internal members of the implementation (marked @internal; not part of the Solver interface). */
export const INTERNAL = new Set([
  'constructor',
  'isDisposed',
  'checkLive',
  'checkCall',
  'checkUsable',
  'runKernel',
  'firstInvalid',
  'runDamper',
  'runSpring',
  'spring',
  'owns',
  'perElement',
  'constantPointer',
  'marshal',
  'exports',
  'isUsable',
  'preparedSpring',
  'preparedDamper',
  'preparedKernel',
  'quickSpring',
  'quickRun',
  'quickDamper',
  'quickInput',
  'paramPointer',
]);

/** The parameter names of a function, from its source text (`name(a, b, c = 2) {`). */
export function parameterNames(fn: (...args: never[]) => unknown): string[] {
  const source = fn.toString();
  const open = source.indexOf('(');
  let depth = 0;
  let close = open;
  for (; close < source.length; close++) {
    if (source[close] === '(') depth++;
    else if (source[close] === ')' && --depth === 0) break;
  }
  return source
    .slice(open + 1, close)
    .split(',')
    .map((p) => p.split('=')[0].trim())
    .filter((p) => p.length > 0);
}

/** Every method of a solver object (own and inherited, the class's and the mixed-in families'). */
export function solverMethodNames(solver: object): string[] {
  const names = new Set<string>();
  for (let o = solver; o && o !== Object.prototype; o = Object.getPrototypeOf(o)) {
    for (const name of Object.getOwnPropertyNames(o)) {
      const descriptor = Object.getOwnPropertyDescriptor(o, name)!;
      if (typeof descriptor.value === 'function') names.add(name);
    }
  }
  return [...names].filter((name) => !INTERNAL.has(name));
}
