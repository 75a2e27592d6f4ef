/**
 * createSolver({ threads }): a threaded SIMD solver gives the single-thread SIMD solver's results
 * bit for bit, for every Solver method (the fuzz table's list, test/fuzz/table.ts), Inertializer.update
 * and prepared calls, with every call split (splitEverything) over sizes that are not multiples of
 * the 16-element blocks; and the option's checks, reasons and lifecycle. Node only: workers.
 */
import { describe, expect, it, vi } from 'vitest';
import { backgroundCalls, splitCalls, useThreadSolvers } from '../helpers/thread-solvers.js';
import { BoxGeometry, InstancedMesh, Matrix4, MeshBasicMaterial, Quaternion, Vector3 } from 'three';
import { createSolver, ForwardKinematics, Inertializer, springStrided, type Pose, type Solver } from '../../dist/index.js';
import { InstancedSprings } from '../../dist/three/index.js';
import { METHODS, type ArgKind } from '../fuzz/table.js';
import { logUniform, mulberry32, pick, uniform, type Rng } from '../helpers/random.js';

/** How many calls the solver's workers have shared (0 on one thread). */
/** The bits of a float array, to compare results exactly (NaN payloads and −0 included). */
function bits(array: Float32Array): Uint32Array {
  return new Uint32Array(array.buffer, array.byteOffset, array.length).slice();
}

type Layout = 'uniform' | 'perElement';

/** A drawn argument: an array's floats (copied into each solver), or a value passed as it is. */
type Drawn = { floats: Float32Array } | { value: unknown };

function drawArgument(rng: Rng, kind: ArgKind, n: number, count: number, layout: Layout): Drawn {
  const floats = (length: number, draw: () => number) => ({ floats: Float32Array.from({ length }, draw) });
  switch (kind.kind) {
    case 'in':
    case 'out':
      return floats(n * (kind.width === 'count' ? count : kind.width), () => uniform(rng, -10, 10));
    case 'param': {
      const draw = kind.rule === 'gain' ? () => rng() : kind.rule === 'slerpT' ? () => uniform(rng, 0, 2) : () => logUniform(rng, 0.01, 10);
      return layout === 'perElement' ? floats(n, draw) : { value: Math.fround(draw()) };
    }
    case 'dt':
      return { value: pick(rng, [1 / 60, 1 / 30, 0.25]) };
    case 'gainDt':
      return { value: 1 / 60 };
    case 'count':
      return { value: count };
    case 'pdOptions':
      return { value: { integrator: pick(rng, ['explicit', 'semi-implicit', 'implicit', 'exact'] as const) } };
  }
}

/** Runs `method` on `solver` with the drawn arguments (arrays from alloc, or plain); returns the bits of every array afterwards. */
function runOn(solver: Solver, method: string, drawn: Drawn[], placement: 'alloc' | 'plain'): Uint32Array[] {
  const arrays: Float32Array[] = [];
  const args = drawn.map((d) => {
    if (!('floats' in d)) return d.value;
    const array = placement === 'alloc' ? solver.alloc(d.floats.length) : new Float32Array(d.floats.length);
    array.set(d.floats);
    arrays.push(array);
    return array;
  });
  (solver as unknown as Record<string, (...a: unknown[]) => void>)[method]!(...args);
  const result = arrays.map(bits);
  if (placement === 'alloc') for (const a of arrays) solver.free(a);
  return result;
}

const solvers = useThreadSolvers();

/** Element counts: chunk boundaries inside a block of 4 if chunks were not whole blocks, a remainder, a call smaller than one chunk or block. */
const SIZES = [4133, 1037, 67, 5];

describe('threads: 2, every call split', () => {
  it('runs on two threads', () => {
    expect(solvers.threaded.threads).toBe(2);
    expect(solvers.threaded.threadsReason).toBe(null);
    expect(solvers.single.threads).toBe(1);
  });

  for (const [method, kinds] of Object.entries(METHODS)) {
    it(`${method}: the single-thread SIMD solver's bits, and split`, () => {
      const rng = mulberry32(method.length * 7919 + 20);
      for (const n of SIZES) {
        for (const layout of ['uniform', 'perElement'] as const) {
          for (const placement of ['alloc', 'plain'] as const) {
            const drawn = kinds.map(([, kind]) => drawArgument(rng, kind, n, 3, layout));
            const expected = runOn(solvers.single, method, drawn, placement);
            for (const solver of [solvers.threaded, solvers.workersOnly]) {
              const before = splitCalls(solver);
              const actual = runOn(solver, method, drawn, placement);
              const label = `${method} n ${n} ${layout} ${placement} ${solver === solvers.threaded ? 'caller and worker' : 'workers only'}`;
              expected.forEach((e, i) => expect(actual[i], `${label}: array ${i}`).toEqual(e));
              if (placement === 'alloc') expect(splitCalls(solver), `${label}: split`).toBeGreaterThan(before);
            }
          }
        }
      }
    });
  }
});

/** A pose of `bones` bones in solver memory, drawn from `rng` (unit rotations). */
function pose(solver: Solver, rng: Rng, bones: number): Pose {
  const fill = (width: number, draw: () => number) => {
    const a = solver.alloc(bones * width);
    for (let i = 0; i < a.length; i++) a[i] = draw();
    return a;
  };
  const rotations = fill(4, () => uniform(rng, -1, 1));
  for (let b = 0; b < bones; b++) {
    const r = rotations.subarray(4 * b, 4 * b + 4);
    const norm = Math.hypot(...r);
    for (let k = 0; k < 4; k++) r[k] /= norm;
  }
  const v = () => uniform(rng, -2, 2);
  return { positions: fill(3, v), rotations, velocities: fill(3, v), angularVelocities: fill(3, v) };
}

/** The bits of a pose's four arrays. */
function poseBits(p: Pose): Uint32Array[] {
  return [p.positions, p.rotations, p.velocities, p.angularVelocities].map(bits);
}

/** Transitions, then updates, a crowd on `solver`; the bits of every output. */
function crowdRun(solver: Solver, count: number, bones: number, rootBone: number | undefined, perBone: boolean): Uint32Array[][] {
  const rng = mulberry32(count * 31 + bones);
  const total = count * bones;
  const halflife = Float32Array.from({ length: bones }, () => logUniform(rng, 0.02, 0.5));
  const inertializer = new Inertializer(solver, { count, bones, halflife: 0.15, rootBone });
  const src = pose(solver, rng, total);
  const dst = pose(solver, rng, total);
  const out = pose(solver, rng, total);
  const perBoneHalflife = solver.alloc(bones);
  perBoneHalflife.set(halflife);
  inertializer.transition(src, dst);
  const results: Uint32Array[][] = [];
  for (const dt of [1 / 60, 1 / 30, 0]) {
    inertializer.update(dst, perBone ? perBoneHalflife : undefined, dt, out);
    results.push(poseBits(out));
  }
  inertializer.dispose();
  return results;
}

describe('threads: 2, Inertializer and prepared calls', () => {
  for (const [count, bones, rootBone, perBone] of [
    [37, 23, undefined, true],
    [37, 23, 0, false],
    [5, 60, 3, true],
  ] as const) {
    it(`Inertializer ${count} × ${bones}, root ${rootBone}, ${perBone ? 'per-bone' : 'one'} halflife: the same bits, split`, () => {
      const expected = crowdRun(solvers.single, count, bones, rootBone, perBone);
      for (const solver of [solvers.threaded, solvers.workersOnly]) {
        const before = splitCalls(solver);
        expect(crowdRun(solver, count, bones, rootBone, perBone)).toEqual(expected);
        expect(splitCalls(solver)).toBeGreaterThan(before);
      }
    });
  }

  it('ForwardKinematics, split by characters (each thread with its own scratch): the same bits', () => {
    // 1,001 characters of 25 bones: chunks long enough that the threads run theirs at the same time (a shared
    // scratch would mix their parents' matrices), the last character alone, not in a pair of lanes
    const run = (solver: Solver) => {
      const fk = new ForwardKinematics(solver, {
        count: 1001,
        parents: Array.from({ length: 25 }, (_, k) => (k % 12 === 0 ? -1 : k - 1 - (k % 3 === 2 ? 1 : 0))),
        inverseBindMatrices: Array.from({ length: 16 * 25 }, (_, i) => (i % 5 === 0 ? 1 : 0.01 * (i % 7))),
        scales: true,
      });
      fk.positions.forEach((_, i) => (fk.positions[i] = Math.sin(i)));
      fk.rotations.forEach((_, i) => (fk.rotations[i] = i % 4 === 3 ? 1 : 0.1 * Math.cos(i)));
      fk.scales!.forEach((_, i) => (fk.scales![i] = 1 + 0.5 * Math.sin(3 * i)));
      fk.roots.forEach((_, i) => (fk.roots[i] = i % 16 === 15 ? 1 : i % 4 === 3 ? 0 : Math.cos(0.7 * i)));
      fk.update();
      const out = [Array.from(fk.worldMatrices!), Array.from(fk.skinningMatrices!)];
      fk.dispose();
      return out;
    };
    const expected = run(solvers.single);
    for (const solver of [solvers.threaded, solvers.workersOnly]) {
      const before = splitCalls(solver);
      expect(run(solver)).toEqual(expected);
      expect(splitCalls(solver)).toBeGreaterThan(before);
    }
  });

  it('prepared calls (coefficients kept and applied, a replayed kernel): the same bits, split', () => {
    const run = (solver: Solver) => {
      const rng = mulberry32(2020);
      const n = 1037;
      const arrays = Array.from({ length: 6 }, () => {
        const a = solver.alloc(n);
        for (let i = 0; i < n; i++) a[i] = uniform(rng, -5, 5);
        return a;
      });
      const [x, v, g, q, h, xi] = arrays as [Float32Array, Float32Array, Float32Array, Float32Array, Float32Array, Float32Array];
      for (let i = 0; i < n; i++) h[i] = logUniform(rng, 0.01, 2);
      const critical = solver.prepare('criticalSpringDamper', x, v, g, q, h);
      const uniformSpring = solver.prepare('springDamper', x, v, g, q, 2, 0.3);
      const double = solver.prepare('doubleSpringDamper', x, v, xi, q, g, h);
      // kept coefficients in full (not the critical spring's compact ones): per-element frequency
      const general = solver.prepare('springDamper', xi, v, g, q, h, 0.3);
      const results: Uint32Array[] = [];
      // dt: computed, computed and kept, kept applied (twice), computed
      for (const dt of [1 / 60, 1 / 60, 1 / 60, 1 / 60, 1 / 30]) {
        critical(dt);
        uniformSpring(dt);
        double(dt);
        general(dt);
        results.push(...arrays.map(bits));
      }
      for (const p of [critical, uniformSpring, double, general]) p.dispose();
      return results;
    };
    const expected = run(solvers.single);
    for (const solver of [solvers.threaded, solvers.workersOnly]) {
      const before = splitCalls(solver);
      expect(run(solver)).toEqual(expected);
      expect(splitCalls(solver)).toBeGreaterThan(before);
    }
  });
});

describe('threads: 2, the strided and instance-matrix kernels of spring-solver/three', () => {
  /** InstancedSprings over `count` instances with rotations and scales: the matrices' and velocities' bits after 3 steps. */
  const instanced = (solver: Solver, count: number) => {
    const rng = mulberry32(count);
    const mesh = new InstancedMesh(new BoxGeometry(), new MeshBasicMaterial(), count);
    const [m, p, r, sc] = [new Matrix4(), new Vector3(), new Quaternion(), new Vector3()];
    for (let i = 0; i < count; i++) {
      p.set(uniform(rng, -5, 5), uniform(rng, -5, 5), uniform(rng, -5, 5));
      r.set(uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1)).normalize();
      sc.set(uniform(rng, 0.5, 2), uniform(rng, 0.5, 2), uniform(rng, 0.5, 2));
      mesh.setMatrixAt(i, m.compose(p, r, sc));
    }
    const springs = new InstancedSprings(solver, mesh, { halflife: 0.3, rotation: true, scale: true });
    for (const a of [springs.goals, springs.velocities, springs.scaleGoals]) for (let i = 0; i < a.length; i++) a[i] = uniform(rng, -3, 3);
    for (let i = 0; i < springs.rotationGoals.length; i++) springs.rotationGoals[i] = uniform(rng, -0.5, 0.5);
    const out: Uint32Array[] = [];
    for (let step = 0; step < 3; step++) {
      springs.update(1 / 60);
      out.push(bits(springs.matrices), bits(springs.velocities), bits(springs.rotations));
    }
    springs.dispose();
    return out;
  };

  it('InstancedSprings (the translation spring, the matrices composed): the same bits, split by instances', () => {
    for (const count of SIZES) {
      const expected = instanced(solvers.single, count);
      for (const solver of [solvers.threaded, solvers.workersOnly]) {
        const before = splitCalls(solver);
        expect(instanced(solver, count), `${count} instances`).toEqual(expected);
        // per step: translations, the quaternion spring, the scale spring, the composition
        expect(splitCalls(solver) - before, `${count} instances: split`).toBeGreaterThanOrEqual(3 * 4);
      }
    }
  });

  /** springStrided over `count` items of `width` floats, x every `stride` floats from 1, v packed, g and q strided: bits of every array after 3 steps. */
  const strided = (solver: Solver, count: number, width: number, stride: number) => {
    const rng = mulberry32(count * 31 + width);
    const fill = (length: number) => {
      const a = solver.alloc(length);
      for (let i = 0; i < length; i++) a[i] = uniform(rng, -5, 5);
      return a;
    };
    const [x, v, g, q] = [fill(count * stride + 1), fill(count * width), fill(count * stride), fill(count * stride)];
    const items = { x: { array: x, offset: 1, stride }, v: { array: v }, g: { array: g, stride }, q: { array: q, stride }, width, count };
    const out: Uint32Array[] = [];
    for (const params of [{ halflife: 0.2 }, { frequency: 2, halflife: 0.5 }, { stiffness: 40, damping: 0.5 }]) {
      springStrided(solver, items, params, 1 / 60);
      out.push(bits(x), bits(v));
    }
    for (const a of [x, v, g, q]) solver.free(a);
    return out;
  };

  for (const [width, stride] of [
    [1, 3],
    [2, 2],
    [4, 7],
  ] as const) {
    it(`springStrided, items of ${width} every ${stride} floats (the scalar loop): the same bits, split by items`, () => {
      for (const count of SIZES) {
        const expected = strided(solvers.single, count, width, stride);
        for (const solver of [solvers.threaded, solvers.workersOnly]) {
          const before = splitCalls(solver);
          expect(strided(solver, count, width, stride), `${count} items`).toEqual(expected);
          expect(splitCalls(solver) - before, `${count} items: split`).toBe(3);
        }
      }
    });
  }

  for (const stride of [16, 3]) {
    it(`springStrided, items of 3 every ${stride} floats (SIMD groups of 4 up to the call's last item): the same bits, split by items`, () => {
      // each chunk keeps the whole call's readable ends, so its groups are those of one call
      for (const count of SIZES) {
        const expected = strided(solvers.single, count, 3, stride);
        for (const solver of [solvers.threaded, solvers.workersOnly]) {
          const before = splitCalls(solver);
          expect(strided(solver, count, 3, stride), `${count} items`).toEqual(expected);
          expect(splitCalls(solver) - before, `${count} items: split`).toBe(3);
        }
      }
    });
  }
});

describe('a call begun in the background (ThreadPool.begin / finish)', () => {
  /** The threaded solver's pool, and its export `damperUniform` (x, g, n, halflife, dt: 4 bytes an element of x and g). */
  const poolOf = (solver: Solver) =>
    (
      solver as unknown as {
        threading: {
          pool: {
            job(name: string): number;
            begin(job: number, args: number[], advances: number[]): void;
            finish(): number;
            run(job: number, fn: (...a: number[]) => unknown, args: number[], advances: number[]): number;
          };
        };
      }
    ).threading.pool;
  const ADVANCES = [4, 4, -1, 0, 0];
  const arrays = (solver: Solver, n: number) => {
    const x = solver.alloc(n),
      g = solver.alloc(n);
    x.forEach((_, i) => (x[i] = Math.sin(i)));
    g.forEach((_, i) => (g[i] = Math.cos(3 * i)));
    return { x, g };
  };

  /**
   * On the threaded solvers: `during(solver, x, g)` runs between pool.begin of damperUniform(0.2, 1/60) over n
   * elements and pool.finish; x must then hold the single-thread solver's bits after the call and the `after`
   * calls of damper.
   */
  const begunCall = (during: (solver: Solver, x: Float32Array, g: Float32Array) => void, after: [number, number][]) => {
    const n = 20_011;
    const expected = arrays(solvers.single, n);
    for (const [halflife, dt] of [[0.2, 1 / 60], ...after] as const) solvers.single.damper(expected.x, expected.g, halflife, dt);
    for (const solver of [solvers.threaded, solvers.workersOnly]) {
      const pool = poolOf(solver);
      const { x, g } = arrays(solver, n);
      const before = backgroundCalls(solver);
      pool.begin(pool.job('damperUniform'), [x.byteOffset, g.byteOffset, n, 0.2, 1 / 60], ADVANCES);
      during(solver, x, g);
      pool.finish();
      expect(backgroundCalls(solver) - before).toBe(1);
      expect(bits(x)).toEqual(bits(expected.x));
      solver.free(x);
      solver.free(g);
    }
    solvers.single.free(expected.x);
    solvers.single.free(expected.g);
  };

  it("runs the kernel on the workers while the caller goes on: the single-thread solver's bits", () => {
    // the caller's own work meanwhile (nothing of x)
    begunCall(() => {
      let sum = 0;
      for (let i = 0; i < 1000; i++) sum += Math.sqrt(i);
      expect(sum).toBeGreaterThan(0);
    }, []);
  });

  it('a split call meanwhile first waits for the call begun', () => {
    // the same array again, split: it must see the first call's results
    begunCall((solver, x, g) => solver.damper(x, g, 0.3, 1 / 30), [[0.3, 1 / 30]]);
  });
});

describe('the worker', () => {
  it("repeats the control block's layout and the argument shifting's codes (its source cannot import them)", async () => {
    const layout = await import('../../dist/backends/wasm/threads/layout.js');
    const split = await import('../../dist/backends/wasm/threads/split.js');
    const { WORKER_SOURCE } = await import('../../dist/backends/wasm/threads/worker-source.js');
    const constant = (name: string) => {
      const match = new RegExp(`\\b${name} = (-?\\d+)`).exec(WORKER_SOURCE);
      return match ? Number(match[1]) : undefined;
    };
    const names = ['GEN', 'REMAINING', 'STOP', 'FAILED', 'NEXT', 'CHUNKS', 'CHUNK', 'JOB', 'ARGC', 'RESULT', 'ACTIVE', 'MAX_ARGS'] as const;
    for (const name of names) expect(constant(name), name).toBe(layout[name]);
    expect(constant('N_ARGUMENT')).toBe(split.N_ARGUMENT);
    expect(constant('PARAM_POINTER')).toBe(split.PARAM_POINTER);
    const below = constant('PER_THREAD_BELOW')!;
    expect([below, below + 1, -2].map(split.isPerThread)).toEqual([true, false, false]);
  });
});

describe('the control block', () => {
  it('has room for the arguments of the widest kernel export', async () => {
    const { readFile } = await import('node:fs/promises');
    const { MAX_ARGS } = await import('../../dist/backends/wasm/threads/layout.js');
    const declarations = await readFile(new URL('../../src/core/kernels.generated.ts', import.meta.url), 'utf8');
    const arities = [...declarations.matchAll(/export function (\w+)\(([^)]*)\)/g)].map(([, , list]) =>
      list!.trim() === '' ? 0 : list!.split(',').length,
    );
    expect(arities.length).toBeGreaterThan(50);
    expect(Math.max(...arities)).toBeLessThanOrEqual(MAX_ARGS);
  });
});

describe('the threaded build', () => {
  it("is the SIMD build's bytes with the memory import made shared: asc's --target simd-threads, byte for byte", async () => {
    const { readFile } = await import('node:fs/promises');
    const { sharedMemoryBuild } = await import('../../dist/backends/wasm/shared-build.js');
    const file = (name: string) => readFile(new URL(`../../dist/backends/wasm/spring-solver.${name}.wasm`, import.meta.url));
    const [simd, threads] = [await file('simd'), await file('simd-threads')];
    expect(Buffer.compare(Buffer.from(sharedMemoryBuild(simd)), threads)).toBe(0);
    const imports = WebAssembly.Module.imports(new WebAssembly.Module(threads)).map((i) => `${i.module}.${i.name}: ${i.kind}`);
    expect(imports.sort()).toEqual([
      'Math.acos: function',
      'Math.asin: function',
      'Math.atan2: function',
      'Math.sin: function',
      'env.memory: memory',
    ]);
    expect(() => sharedMemoryBuild(threads)).toThrow(/shared memory already/);
    expect(() => sharedMemoryBuild(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]))).toThrow(/not a WebAssembly module/);
  });
});

describe('createSolver({ threads })', () => {
  it('rejects a threads option that is not a whole number from 1 or "auto", naming it', async () => {
    for (const threads of [0, 1.5, -2, 66, Number.NaN]) {
      await expect(createSolver({ threads })).rejects.toThrow(RangeError);
      await expect(createSolver({ threads })).rejects.toThrow(/^createSolver: threads/);
    }
    for (const threads of ['2', null, true]) {
      await expect(createSolver({ threads: threads as never })).rejects.toThrow(TypeError);
      await expect(createSolver({ threads: threads as never })).rejects.toThrow(/^createSolver: threads/);
    }
  });

  it('threads: 1 (the default) starts no worker and has no reason', async () => {
    for (const options of [{}, { threads: 1 }]) {
      const solver = await createSolver(options);
      expect(solver.threads).toBe(1);
      expect(solver.threadsReason).toBe(null);
      expect((solver as unknown as { threading: unknown }).threading).toBe(null);
      expect((solver as unknown as { memoryBuffer: unknown }).memoryBuffer).toBeInstanceOf(ArrayBuffer);
      solver.dispose();
    }
  });

  it('spring-solver/embedded runs threads too, from its embedded SIMD build: the same bits', async () => {
    const embedded = await import('../../dist/embedded.js');
    const solver = await embedded.createSolver({ threads: 2, splitEverything: true });
    expect(solver.threads).toBe(2);
    const drawn = METHODS.springDamper!.map(([, kind]) => drawArgument(mulberry32(5), kind, 1037, 3, 'perElement'));
    expect(runOn(solver, 'springDamper', drawn, 'alloc')).toEqual(runOn(solvers.single, 'springDamper', drawn, 'alloc'));
    expect(splitCalls(solver)).toBe(1);
    solver.dispose();
  });

  it("'auto' runs the cores Node reports, at most 8", async () => {
    const { availableParallelism } = await import('node:os');
    const solver = await createSolver({ threads: 'auto' });
    expect(solver.threads).toBe(Math.min(availableParallelism(), 8));
    solver.dispose();
  });

  it('runs on one thread and says why when threads cannot run: warned once per reason, or thrown', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      for (let i = 0; i < 2; i++) {
        const solver = await createSolver({ threads: 2, backend: 'js' });
        expect(solver.threads).toBe(1);
        expect(solver.backend).toBe('js');
        expect(solver.threadsReason).toMatch(/SIMD backend only, and backend 'js' was asked for/);
        solver.dispose();
      }
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0]![0])).toMatch(
        /createSolver\(\{ threads: 2 \}\) runs on one thread: threads run on the SIMD backend only/,
      );
      // A build that does not instantiate on a shared memory (the scalar build's memory is not shared)
      const { readFile } = await import('node:fs/promises');
      const scalar = await readFile(new URL('../../dist/backends/wasm/spring-solver.scalar.wasm', import.meta.url));
      const solver = await createSolver({ threads: 2, wasm: { simdThreads: scalar }, onFallback: 'silent' });
      expect(solver.threads).toBe(1);
      expect(solver.backend).toBe('simd');
      expect(solver.threadsReason).toMatch(/^the threaded SIMD build failed to start: /);
      solver.dispose();
      expect(warn).toHaveBeenCalledTimes(1);
      // A compiled SIMD module cannot be given a shared memory
      const module = await WebAssembly.compile(
        await readFile(new URL('../../dist/backends/wasm/spring-solver.simd.wasm', import.meta.url)),
      );
      const fromModule = await createSolver({ threads: 2, wasm: { simd: module }, onFallback: 'silent' });
      expect(fromModule.threads).toBe(1);
      expect(fromModule.threadsReason).toMatch(/wasm.simd is a compiled WebAssembly.Module/);
      fromModule.dispose();
      await expect(createSolver({ threads: 2, backend: 'wasm', onFallback: 'throw' })).rejects.toThrow(
        /^createSolver: threads run on the SIMD backend only.*\(onFallback is 'throw'\)$/,
      );
    } finally {
      warn.mockRestore();
    }
  });

  it('a Node process with a threaded solver exits on its own; dispose() ends the workers', async () => {
    const { execFile } = await import('node:child_process');
    const index = new URL('../../dist/index.js', import.meta.url).href;
    const script = `
      const { createSolver } = await import(${JSON.stringify(index)});
      const solver = await createSolver({ threads: 2, splitEverything: true });
      const x = solver.alloc(4096), v = solver.alloc(4096), g = solver.alloc(4096), q = solver.alloc(4096);
      g.fill(1);
      solver.criticalSpringDamper(x, v, g, q, 0.1, 0.5);
      console.log(solver.threads, x[4095] > 0);
    `;
    const started = performance.now();
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, ['--input-type=module', '-e', script], { timeout: 20_000 }, (error, out) =>
        error ? reject(error) : resolve(out),
      ),
    );
    expect(stdout.trim()).toBe('2 true');
    expect(performance.now() - started).toBeLessThan(20_000);
    const solver = await createSolver({ threads: 2 });
    const pool = (solver as unknown as { threading: { pool: { disposed: boolean } } }).threading.pool;
    solver.dispose();
    expect(pool.disposed).toBe(true);
    expect(() => solver.alloc(1)).toThrow(TypeError);
  });
});
