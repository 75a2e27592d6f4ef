/**
 * A dt that looks like milliseconds (≥ 1 s in a per-frame call) warns once per solver, naming the
 * call and the dt, and the call runs as it would without the warning; below 1 s nothing is said,
 * and createSolver({ warnLargeDt: false }) silences it (src/core/dt.ts). Every path family: an
 * ordinary method (the core springs' quick path, a family method through the full checks,
 * substep), a prepared step (a core spring's and a captured method's), the stateful objects'
 * updates and the three.js objects' updates. The solver-less three.js helpers share one warning
 * per page: test/three/large-dt-helpers*.test.ts.
 */
import { afterEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import {
  AnimationClip,
  AnimationMixer,
  BoxGeometry,
  BufferAttribute,
  InstancedMesh,
  MeshBasicMaterial,
  Object3D,
  VectorKeyframeTrack,
} from 'three';
import { createSolver, FixedStepper, Inertializer, SecondOrderDynamics, type Backend, type Pose, type Solver } from '../../dist/index.js';
import { AttributeSprings, InertializedMixer, InstancedSprings } from '../../dist/three/index.js';
import { BACKENDS } from '../helpers/backends.js';

const N = 7;

function message(method: string, dt: number, name = 'dt'): string {
  return (
    `spring-solver: ${method} got ${name} = ${dt}; ${name} is in seconds (1/60 ≈ 0.0167 for a 60 Hz frame). ` +
    'This warning is shown once per solver; silence it with createSolver({ warnLargeDt: false })'
  );
}

/** Silences console.warn for the test and records its calls. */
function watchWarnings(): MockInstance<typeof console.warn> {
  return vi.spyOn(console, 'warn').mockImplementation(() => {});
}

afterEach(() => {
  vi.restoreAllMocks();
});

/** x, v, g, q of n elements in `solver`'s memory, the same values on every solver. */
function springState(solver: Solver, n = N) {
  const [x, v, g, q] = [solver.alloc(n), solver.alloc(n), solver.alloc(n), solver.alloc(n)];
  for (let i = 0; i < n; i++) {
    x[i] = i - 3;
    v[i] = 0.5 * i;
    g[i] = 2 + i;
    q[i] = 0.25;
  }
  return { x, v, g, q };
}

/** One per-frame call of each path family on `solver`, with `dt`; returns what each call wrote. */
type PathCall = (solver: Solver, dt: number) => Float32Array[];

const PATHS: Record<string, { method: string; name?: string; call: PathCall }> = {
  'a core spring (quick path)': {
    method: 'criticalSpringDamper',
    call(solver, dt) {
      const { x, v, g, q } = springState(solver);
      solver.criticalSpringDamper(x, v, g, q, 0.4, dt);
      return [x, v];
    },
  },
  'the damper (quick path)': {
    method: 'damper',
    call(solver, dt) {
      const { x, g } = springState(solver);
      solver.damper(x, g, 0.4, dt);
      return [x];
    },
  },
  'a family method (full checks)': {
    method: 'extrapolate',
    call(solver, dt) {
      const { x, v } = springState(solver);
      solver.extrapolate(x, v, 0.4, dt);
      return [x, v];
    },
  },
  substep: {
    method: 'substep',
    call(solver, dt) {
      const { x, v, g, q } = springState(solver);
      solver.substep(dt, { maxDt: 0.5 }, (h) => solver.springDamper(x, v, g, q, 1.5, 0.4, h));
      return [x, v];
    },
  },
  'a prepared core spring': {
    method: 'springDamperRatio',
    call(solver, dt) {
      const { x, v, g, q } = springState(solver);
      const step = solver.prepare('springDamperRatio', x, v, g, q, 0.3, 0.4);
      step(dt);
      step.dispose();
      return [x, v];
    },
  },
  'a prepared captured method': {
    method: 'extrapolate',
    call(solver, dt) {
      const { x, v } = springState(solver);
      const step = solver.prepare('extrapolate', x, v, 0.4);
      step(dt);
      step.dispose();
      return [x, v];
    },
  },
  'Inertializer.update': {
    method: 'Inertializer.update',
    call(solver, dt) {
      const bones = 2;
      const pose = (): Pose => ({
        positions: solver.alloc(3 * bones),
        velocities: solver.alloc(3 * bones),
        rotations: solver.alloc(4 * bones),
        angularVelocities: solver.alloc(3 * bones),
      });
      const [a, b, out] = [pose(), pose(), pose()];
      for (let k = 0; k < bones; k++) {
        a.rotations[4 * k + 3] = b.rotations[4 * k + 3] = 1;
        b.positions[3 * k] = 1 + k;
        a.velocities[3 * k + 1] = 2;
      }
      const inertializer = new Inertializer(solver, { count: 1, bones, halflife: 3 });
      inertializer.transition(a, b);
      inertializer.update(b, undefined, dt, out);
      const written = [out.positions.slice(), out.rotations.slice()];
      inertializer.dispose();
      return written;
    },
  },
  'SecondOrderDynamics.update': {
    method: 'SecondOrderDynamics.update',
    call(solver, dt) {
      const dynamics = new SecondOrderDynamics(solver, 0.2, 0.5, 2, new Float32Array(N));
      const y = dynamics.update(dt, springState(solver).g).slice();
      const written = [y, dynamics.yd.slice()]; // y lags: the first update moves yd
      dynamics.dispose();
      return written;
    },
  },
  'FixedStepper.advance': {
    method: 'FixedStepper.advance',
    name: 'frameDt',
    call(solver, dt) {
      const goal = springState(solver).g;
      const stepper = new FixedStepper(solver, N, 0.25, (pos, vel, h) => solver.simpleSpringDamper(pos, vel, goal, 0.4, h), {
        maxUpdates: Infinity,
      });
      stepper.advance(dt);
      const written = [stepper.pos.slice(), stepper.vel.slice()];
      stepper.dispose();
      return written;
    },
  },
  'InstancedSprings.update': {
    method: 'InstancedSprings.update',
    call(solver, dt) {
      const springs = new InstancedSprings(solver, new InstancedMesh(new BoxGeometry(), new MeshBasicMaterial(), 3), { halflife: 0.4 });
      springs.goals.set([1, 2, 3, -1, -2, -3, 4, 5, 6]);
      springs.update(dt);
      const written = [springs.matrices.slice()];
      springs.dispose();
      return written;
    },
  },
  'InertializedMixer.update': {
    method: 'InertializedMixer.update',
    call(solver, dt) {
      const object = new Object3D();
      const mixer = new AnimationMixer(object);
      const clip = new AnimationClip('slide', 100, [new VectorKeyframeTrack('.position', [0, 100], [0, 0, 0, 100, 0, 0])]);
      mixer.clipAction(clip).play();
      const im = new InertializedMixer(solver, mixer, { halflife: 3 });
      mixer.clipAction(clip).time = 50;
      im.transition();
      im.update(dt);
      im.dispose();
      return [new Float32Array(object.position.toArray())];
    },
  },
  'AttributeSprings.update': {
    method: 'AttributeSprings.update',
    call(solver, dt) {
      const attribute = new BufferAttribute(solver.alloc(6), 3);
      const springs = new AttributeSprings(solver, attribute, { halflife: 0.4 });
      springs.goals.set([1, 2, 3, -1, -2, -3]);
      springs.update(dt);
      const written = [(attribute.array as Float32Array).slice()];
      springs.dispose();
      return written;
    },
  },
};

const CASES = Object.entries(PATHS).map(([label, path]) => [label, path] as const);

/** Runs `body` on fresh solvers of `backend`: one warning as usual, one silenced. */
async function withSolvers(backend: Backend, body: (warning: Solver, silenced: Solver) => void): Promise<void> {
  const warning = await createSolver({ backend, memoryBytes: 1 << 20 });
  const silenced = await createSolver({ backend, memoryBytes: 1 << 20, warnLargeDt: false });
  try {
    body(warning, silenced);
  } finally {
    warning.dispose();
    silenced.dispose();
  }
}

describe.each(BACKENDS.map((b) => [b] as const))('%s backend', (backend) => {
  it.each(CASES)(
    '%s: dt ≥ 1 s warns once per solver, naming the call and dt, and the call runs as it would silenced',
    async (_label, path) => {
      await withSolvers(backend, (warning, silenced) => {
        const warn = watchWarnings();
        const written = path.call(warning, 16.7);
        expect(warn.mock.calls).toEqual([[message(path.method, 16.7, path.name)]]);
        const expected = path.call(silenced, 16.7);
        expect(warn).toHaveBeenCalledTimes(1);
        expect(written).toEqual(expected);
        // The call did something: a step of 16.7 s is not the state it started from.
        expect(written).not.toEqual(path.call(silenced, 0));
        // Not again on this solver: not for the same call, another dt, or any other path.
        path.call(warning, 20);
        for (const other of Object.values(PATHS)) other.call(warning, 33.3);
        expect(warn).toHaveBeenCalledTimes(1);
      });
    },
  );

  it.each(CASES)('%s: no warning below 1 s (a 1 Hz frame, exactly 1 s, warns)', async (_label, path) => {
    await withSolvers(backend, (warning) => {
      const warn = watchWarnings();
      for (const dt of [0, 1 / 60, 0.1, 0.999_999]) path.call(warning, dt);
      expect(warn).not.toHaveBeenCalled();
      path.call(warning, 1);
      expect(warn.mock.calls).toEqual([[message(path.method, 1, path.name)]]);
    });
  });

  it('createSolver({ warnLargeDt: false }): no path warns', async () => {
    await withSolvers(backend, (_warning, silenced) => {
      const warn = watchWarnings();
      for (const path of Object.values(PATHS)) for (const dt of [1, 16.7, 1000]) path.call(silenced, dt);
      expect(warn).not.toHaveBeenCalled();
    });
  });

  it('characterPredict does not warn: its dt spaces the predicted samples, it is not a frame', async () => {
    await withSolvers(backend, (warning) => {
      const warn = watchWarnings();
      const { x, v, g } = springState(warning, 2);
      const [px, pv, pa] = [warning.alloc(8), warning.alloc(8), warning.alloc(8)];
      warning.characterPredict(px, pv, pa, x, v, new Float32Array(2), g, 0.4, 1.5, 4);
      expect(px[4 + 3]).not.toBe(px[4]); // it ran: sample 3 of character 1 is 4.5 s ahead of sample 0
      expect(warn).not.toHaveBeenCalled();
      // …and it leaves the solver's warning due for the per-frame calls.
      warning.extrapolate(x, v, 0.4, 1.5);
      expect(warn.mock.calls).toEqual([[message('extrapolate', 1.5)]]);
    });
  });
});

describe('createSolver({ warnLargeDt })', () => {
  it('must be a boolean', async () => {
    await expect(createSolver({ backend: 'js', warnLargeDt: 'no' as unknown as boolean })).rejects.toThrow(
      new TypeError('createSolver: warnLargeDt must be true or false, got string'),
    );
  });

  it('each solver warns once, on its own', async () => {
    const [a, b] = [await createSolver({ backend: 'js' }), await createSolver({ backend: 'js' })];
    const warn = watchWarnings();
    PATHS['a core spring (quick path)'].call(a, 16.7);
    PATHS['a core spring (quick path)'].call(a, 16.7);
    PATHS['a family method (full checks)'].call(b, 2);
    expect(warn.mock.calls).toEqual([[message('criticalSpringDamper', 16.7)], [message('extrapolate', 2)]]);
  });

  it('an invalid dt still throws, without a warning', async () => {
    const solver = await createSolver({ backend: 'js' });
    const warn = watchWarnings();
    const { x, v, g, q } = springState(solver);
    expect(() => solver.criticalSpringDamper(x, v, g, q, 0.4, Infinity)).toThrow(RangeError);
    expect(() => solver.prepare('damper', x, g, 0.4)(-16.7)).toThrow(RangeError);
    expect(() => solver.extrapolate(x, v, 0.4, '16.7' as unknown as number)).toThrow(TypeError);
    expect(warn).not.toHaveBeenCalled();
  });
});
