/**
 * The published declarations pass a consumer's strict type check: the package packed as
 * `npm publish` would ship it, installed into a temporary project (three and @types/three linked
 * from this repository's node_modules), and a file importing every entry point checked by this
 * repository's TypeScript with `--strict --module nodenext`, without `skipLibCheck`, so every
 * `.d.ts` it reaches in dist/ is checked too (docs/DECISIONS.md, "Declarations without stripInternal").
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packTarball, root } from '../helpers/pack.js';

const run = promisify(execFile);

/** The consumer: every entry point, a few of their types, and two calls its types must reject. */
const CONSUMER = `
import {
  createSolver,
  halflifeToDamping,
  Inertializer,
  SpringMode,
  type Backend,
  type OnFallback,
  type Solver,
  type SolverOptions,
} from 'spring-solver';
import { createSolver as createEmbeddedSolver } from 'spring-solver/embedded';
import { damper, quat, type FloatArray } from 'spring-solver/reference';
import { parseBvh, bvhLocalRotations, type Bvh } from 'spring-solver/bvh';
import { InstancedSprings, spring3, type InstancedSpringsOptions, type Vector3Like } from 'spring-solver/three';
import { SpringBones, type SpringBoneManager, type SpringBonesOptions } from 'spring-solver/vrm';
import { BoxGeometry, InstancedMesh, MeshBasicMaterial, Vector3 } from 'three';

const onFallback: OnFallback = 'silent';
const options: SolverOptions = { backend: 'js', onFallback };
const solver: Solver = await createSolver(options);
const backend: Backend = solver.backend;
const [x, v, g, q] = [solver.alloc(3), solver.alloc(3), solver.alloc(3), solver.alloc(3)];
solver.criticalSpringDamper(x, v, g, q, 0.1, 1 / 60);
solver.springDamper(x, v, g, q, 2, 0.2, 1 / 60);
const step = solver.prepare('criticalSpringDamper', x, v, g, q, 0.1);
step(1 / 60);
step.dispose();
// @ts-expect-error: dt is a number
solver.damper(x, g, 0.1, '1/60');

const embedded: Solver = await createEmbeddedSolver({ backend: 'js' });
const mode: SpringMode = SpringMode.Critical;
const damping: number = halflifeToDamping(0.1);

const reference: FloatArray = new Float32Array(3);
damper(reference, new Float32Array(3), 0.1, 1 / 60);
const identity = quat.identity;

const bvh: Bvh = parseBvh('HIERARCHY');
const rotations: Float32Array = bvhLocalRotations(bvh);
// @ts-expect-error: parseBvh takes the file's text
parseBvh(42);

const mesh = new InstancedMesh(new BoxGeometry(), new MeshBasicMaterial(), 4);
const springsOptions: InstancedSpringsOptions<true, false> = { rotation: true, halflife: 0.2 };
const springs = new InstancedSprings(solver, mesh, springsOptions);
const rotationGoals: Float32Array = springs.rotationGoals;
const target: Vector3Like = { x: 1, y: 2, z: 3 };
const position: Vector3 = spring3(new Vector3(), target, 0.1, 1 / 60);

declare const manager: SpringBoneManager; // a three-vrm VRMSpringBoneManager fits it
const bonesOptions: SpringBonesOptions = { fixedStep: 1 / 60 };
const bones = new SpringBones(solver, [manager], bonesOptions);
// @ts-expect-error: dt is a number
bones.update('1/60');

export { backend, embedded, mode, damping, identity, rotations, rotationGoals, position, Inertializer, bones };
`;

/** The entry points' declarations, and those that stripInternal once left contradicting each other. */
const DECLARATIONS = [
  'dist/index.d.ts',
  'dist/embedded.d.ts',
  'dist/vrm/index.d.ts',
  'dist/reference/index.d.ts',
  'dist/bvh/index.d.ts',
  'dist/three/index.d.ts',
  'dist/base/solver.d.ts',
  'dist/backends/wasm/wasm-solver.d.ts',
];

/** The compilers the consumer is checked with: the repository's TypeScript 5.9 and the newest, 7 (native; devDependency `typescript7`). */
const COMPILERS = [
  { name: 'TypeScript 5.9', bin: 'node_modules/typescript/bin/tsc', version: /^Version 5\.9\./ },
  { name: 'TypeScript 7', bin: 'node_modules/typescript7/bin/tsc', version: /^Version 7\./ },
];

describe('the published declarations in a consumer project', () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'spring-solver-consumer-'));
    const installed = join(dir, 'node_modules', 'spring-solver');
    await mkdir(installed, { recursive: true });
    await mkdir(join(dir, 'node_modules', '@types'));
    await run('tar', ['-xzf', packTarball(dir), '-C', installed, '--strip-components=1']);
    await symlink(join(root, 'node_modules', 'three'), join(dir, 'node_modules', 'three'), 'dir');
    await symlink(join(root, 'node_modules', '@types', 'three'), join(dir, 'node_modules', '@types', 'three'), 'dir');
    await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    await writeFile(join(dir, 'main.ts'), CONSUMER);
  }, 120_000);

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it.each(COMPILERS)(
    'type-checks with --strict --module nodenext and no skipLibCheck ($name): 0 errors',
    async ({ bin, version }) => {
      const tsc = join(root, bin);
      const flags = ['--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--listFiles', 'main.ts'];
      const { stdout } = await run(process.execPath, [tsc, '--version']);
      expect(stdout).toMatch(version);
      const result = await run(process.execPath, [tsc, ...flags], { cwd: dir, maxBuffer: 1 << 26 }).then(
        ({ stdout }) => ({ code: 0, stdout }),
        (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
      );
      const lines = result.stdout.split('\n');
      expect(lines.filter((line) => / error TS\d+:/.test(line))).toEqual([]);
      expect(result.code).toBe(0);
      // The declarations were read from the installed package, not skipped or found elsewhere.
      const listed = lines.map((line) => line.replaceAll('\\', '/'));
      for (const file of DECLARATIONS) {
        expect(listed.some((line) => line.endsWith(`/node_modules/spring-solver/${file}`))).toBe(true);
      }
    },
    180_000,
  );
});
