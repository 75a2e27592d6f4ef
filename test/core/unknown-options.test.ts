/**
 * An option that does not exist (a typo such as `halfLife`, or a key of another set of parameters)
 * is refused with a TypeError naming the function or class called and the key, by every function
 * and class of the core that takes an object of options, before anything is allocated or written
 * (issue 27, "Nothing silent"). A key set to undefined gives nothing and is accepted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createSolver,
  FixedStepper,
  ForwardKinematics,
  Inertializer,
  SecondOrderDynamics,
  springStrided,
  type Solver,
} from '../../dist/index.js';
import { expectRefused } from '../helpers/refused.js';

let solver: Solver;
beforeAll(async () => {
  solver = await createSolver({ backend: 'simd' });
});
afterAll(() => solver.dispose());

describe('a key that is not an option', () => {
  it('createSolver and its wasm sources', async () => {
    await expect(createSolver({ backend: 'js', warnLargeDT: false } as never)).rejects.toThrow(
      /^createSolver: options\.warnLargeDT is not an option; the options are backend, memoryBytes, wasm, threads/,
    );
    await expect(createSolver({ backend: 'js', wasm: { simdThread: 'x' } } as never)).rejects.toThrow(
      /^createSolver: options\.wasm\.simdThread is not an option; the options are simd, scalar, simdThreads/,
    );
    await expect(createSolver({ backend: 'js', wasm: { simdThread: 'x' } } as never)).rejects.toThrow(TypeError);
    // undefined gives nothing: accepted
    (await createSolver({ backend: 'js', threadz: undefined } as never)).dispose();
  });

  it('the stateful classes: nothing allocated when refused', () => {
    const x = solver.alloc(4);
    const probe = () => {
      const a = solver.alloc(1);
      solver.free(a);
      return a.byteOffset; // the next free place: the same when a refused constructor allocated nothing
    };
    const free = probe();
    expectRefused(
      () => new Inertializer(solver, { count: 1, bones: 2, halflife: 0.1, rootbone: 0 } as never),
      'Inertializer',
      /options\.rootbone is not an option; the options are count, bones, halflife, rootBone/,
      TypeError,
    );
    expectRefused(
      () => new SecondOrderDynamics(solver, 1, 1, 0, x, { mehtod: 'exact' } as never),
      'SecondOrderDynamics',
      /options\.mehtod is not an option; the options are method/,
      TypeError,
    );
    expectRefused(
      () => new FixedStepper(solver, 4, 1 / 60, () => {}, { maxUpdate: 4 } as never),
      'FixedStepper',
      /options\.maxUpdate is not an option/,
      TypeError,
    );
    expectRefused(
      () => new ForwardKinematics(solver, { count: 1, parents: [-1], worldMatrix: true } as never),
      'ForwardKinematics',
      /options\.worldMatrix is not an option/,
      TypeError,
    );
    expectRefused(
      () => new ForwardKinematics(solver, [-1] as never),
      'ForwardKinematics',
      /options must be an object, got an Array/,
      TypeError,
    );
    expect(probe()).toBe(free);
    solver.free(x);
  });

  it('substep, pdSpring, prepare and springStrided: a typo, a key of another set of parameters; nothing written', () => {
    const steps: number[] = [];
    expectRefused(
      () => solver.substep(0.1, { maxDT: 0.01 } as never, (h) => steps.push(h)),
      'substep',
      /options\.maxDT is not an option/,
      TypeError,
    );
    expect(steps).toEqual([]);
    const [pos, vel, target, targetVel] = [0, 1, 2, 3].map(() => solver.alloc(2).fill(1));
    pos!.set([0, 5]);
    expectRefused(
      () => solver.pdSpring(pos!, vel!, target!, targetVel!, 10, 1, 1 / 60, { integration: 'explicit' } as never),
      'pdSpring',
      /options\.integration is not an option; the options are integrator/,
      TypeError,
    );
    expect(Array.from(pos!)).toEqual([0, 5]);
    expectRefused(
      () =>
        (solver.prepare as (...args: unknown[]) => unknown)(
          { method: 'criticalSpringDamper', itemsize: 3 },
          pos!,
          vel!,
          target!,
          targetVel!,
          0.1,
        ),
      'prepare',
      /options\.itemsize is not an option; the options are method, itemSize/,
      TypeError,
    );
    const items = { x: { array: pos! }, v: { array: vel! }, g: { array: target! }, width: 1, count: 2 };
    expectRefused(
      () => springStrided(solver, items, { halflife: 0.2, frequncy: 3 } as never, 1 / 60),
      'springStrided',
      /params\.frequncy is not an option; the options are halflife/,
      TypeError,
    );
    expectRefused(
      () => springStrided(solver, items, { stiffness: 10, damping: 1, halflife: 0.2 } as never, 1 / 60),
      'springStrided',
      /params\.halflife is not an option; the options are stiffness, damping/,
      TypeError,
    );
    expectRefused(
      () => springStrided(solver, { ...items, x: { array: pos!, strid: 2 } } as never, { halflife: 0.2 }, 1 / 60),
      'springStrided',
      /items\.x\.strid is not an option; the options are array, offset, stride/,
      TypeError,
    );
    expectRefused(
      () => springStrided(solver, { ...items, goal: items.g } as never, { halflife: 0.2 }, 1 / 60),
      'springStrided',
      /items\.goal is not an option/,
      TypeError,
    );
    expect(Array.from(pos!)).toEqual([0, 5]);
    expect(Array.from(vel!)).toEqual([1, 1]);
    for (const a of [pos, vel, target, targetVel]) solver.free(a!);
  });
});
