/**
 * Every JavaScript and TypeScript block of README.md runs as written. Each fence is preceded by a
 * marker that says what it is: `<!-- block: run -->` (a whole program), `<!-- block: run, prelude
 * "name" -->` (a fragment completed by a declared prelude below, never by hand; `then "name"` adds
 * an epilogue that calls what the block defines), or `<!-- block: summary -->` (a list of signatures,
 * not a program). Blocks run against the packed package, as a user's project has it: `npm pack`'s
 * tarball unpacked into the node_modules of a consumer folder outside the repository (so that no
 * self-reference reaches the repository's own dist/), with three and three-vrm, the peer
 * dependencies, linked beside it. A TypeScript block is type-checked (tsc --strict) and then run,
 * compiled by esbuild. Node only.
 *
 * The one substitution: a block that loads a model as a browser does, `loader.loadAsync('models/…')`,
 * takes the prelude "node glTF loading". Node's fetch reads no local file and Node decodes no image, so
 * that prelude makes GLTFLoader's `loadAsync` read the repository's copy of the file (FILES below) and
 * parse it with its images left out (test/fixtures/gltf-node.js); the block's loader, its plugins
 * (VRMLoaderPlugin), and the scene, skins, clips and VRM they make are otherwise as in a browser.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { transform } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, typeCheck } from '../helpers/typecheck.js';
import { packTarball } from '../helpers/pack.js';

const run = promisify(execFile);
const DIR = await mkdtemp(join(tmpdir(), 'spring-solver-readme-'));
/** A repository file as an import specifier the consumer folder can use. */
const repo = (path: string): string => pathToFileURL(join(ROOT, path)).href;

/** Declared preludes: what a fragment assumes (a solver, arrays, a scene…), defined once here. */
const PRELUDES: Record<string, string> = {
  'import createSolver': `import { createSolver } from 'spring-solver';`,
  arrays: `import { createSolver } from 'spring-solver';
const solver = await createSolver();
const n = 12; // four vec3
const [x, v, g, q, pos, vel, goal] = Array.from({ length: 7 }, () => solver.alloc(n));
g.fill(1);
const halflife = 0.2;
const dt = 1 / 60;
const halflifePerBone = solver.alloc(n / 3).fill(0.15); // one per vec3`,
  'instanced mesh': `import { BoxGeometry, InstancedMesh, MeshNormalMaterial, Quaternion, Vector3 } from 'three';
import { createSolver } from 'spring-solver';
import { InstancedSprings } from 'spring-solver/three';
const solver = await createSolver();
const mesh = new InstancedMesh(new BoxGeometry(), new MeshNormalMaterial(), 100);
const up = new Vector3(0, 1, 0);
const dt = 1 / 60;`,
  camera: `import { Object3D, PerspectiveCamera, Vector3 } from 'three';
const camera = new PerspectiveCamera();
const goal = new Vector3(1, 2, 3);
const target = new Object3D();
target.position.set(0, 1, 0);`,
  mixer: `import { AnimationClip, AnimationMixer, Object3D, VectorKeyframeTrack } from 'three';
const box = new Object3D();
const clip = new AnimationClip('walk', 2, [new VectorKeyframeTrack('.position', [0, 2], [0, 0, 0, 4, 0, 0])]);
const mixer = new AnimationMixer(box);
const action = mixer.clipAction(clip).play();
const dt = 1 / 60;`,
  'node glTF loading': `import { GLTFLoader as NodeGLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { loadGlb } from '${repo('test/fixtures/gltf-node.js')}';
// the models the README's blocks load, as the repository keeps them
const FILES = { 'models/Fox.glb': '${repo('data/fox/Fox.glb')}', 'models/avatar.vrm': '${repo('test/fixtures/vrm/tiny-avatar.vrm')}' };
NodeGLTFLoader.prototype.loadAsync = function (url) {
  if (!(url in FILES)) throw new Error(\`the README's test has no file for \${url}\`);
  return loadGlb(this, new URL(FILES[url]));
};`,
  'skinned crowd': `import { readFileSync } from 'node:fs';
import { buildSkinnedCrowd } from '${repo('test/fixtures/skinned-crowd.js')}';
// 100 clones of a skinned character (the pirouette capture with a capsule skin), each with its own mixer
const bvh = readFileSync(new URL('${repo('data/pirouette.bvh')}'), 'utf8');
const { characters } = buildSkinnedCrowd(bvh, 100);
const meshes = characters.map((c) => c.mesh);
const mixers = characters.map((c) => c.mixer);`,
};

/** Epilogues: a call of what a block defines, and a line that shows it ran. */
const EPILOGUES: Record<string, string> = {
  'frame, print springs': `frame(1 / 60);\nconsole.log('frame ran', springs.matrices.length);`,
  'frame, print camera': `frame(1 / 60);\nconsole.log('frame ran', camera.position.toArray().join(' '));`,
  'frame, print bones': `frame(1 / 60);\nconsole.log('frame ran', bones.jointCount);`,
  'frame, print batch': `frame(1 / 60);\nconsole.log('frame ran', batch.meshes.length, meshes[0].skeleton.boneMatrices[12]);`,
  'frame, print skins': `frame(1 / 60);\nconsole.log('frame ran', skins.meshes.length, meshes[0].skeleton.boneMatrices[12], sword.matrixWorld.elements[12]);`,
  'frame, print foxes': `frame(1 / 60);\nconsole.log('frame ran', batch.meshes.length, foxes[0].mesh.skeleton.boneMatrices[12]);`,
};

interface Block {
  line: number;
  language: 'js' | 'ts';
  kind: 'run' | 'summary';
  prelude: string | null;
  epilogue: string | null;
  code: string;
}

const MARKER = /^<!-- block: (run|summary)(?:, prelude "([^"]+)")?(?:, then "([^"]+)")? -->$/;

/** The README's js/ts blocks with their markers; a block without one is reported by the test. */
function blocks(readme: string): { found: Block[]; unmarked: number[] } {
  const lines = readme.split('\n');
  const found: Block[] = [];
  const unmarked: number[] = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = /^```(js|ts)$/.exec(lines[i]!);
    if (!fence) continue;
    const end = lines.indexOf('```', i + 1);
    const marker = MARKER.exec(lines[i - 1] ?? '');
    if (!marker) unmarked.push(i + 1);
    else {
      found.push({
        line: i + 1,
        language: fence[1] as 'js' | 'ts',
        kind: marker[1] as 'run' | 'summary',
        prelude: marker[2] ?? null,
        epilogue: marker[3] ?? null,
        code: lines.slice(i + 1, end).join('\n'),
      });
    }
    i = end;
  }
  return { found, unmarked };
}

const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
const { found, unmarked } = blocks(readme);
const runnable = found.filter((b) => b.kind === 'run');
const source = (b: Block) => [b.prelude ? PRELUDES[b.prelude] : '', b.code, b.epilogue ? EPILOGUES[b.epilogue] : ''].join('\n');
const file = (b: Block, ext: string) => join(DIR, `line-${b.line}.${ext}`);
/** What each block printed, by line. */
const outputs = new Map<number, string>();

describe('README.md code blocks', () => {
  beforeAll(async () => {
    // the consumer folder: the tarball unpacked as node_modules/spring-solver; linked beside it, the peer
    // dependencies and the bundlers whose configurations the README shows
    const modules = join(DIR, 'node_modules');
    await mkdir(join(modules, 'spring-solver'), { recursive: true });
    for (const scope of ['@pixiv', '@types']) await mkdir(join(modules, scope), { recursive: true });
    await run('tar', ['-xzf', packTarball(DIR), '-C', join(modules, 'spring-solver'), '--strip-components=1']);
    for (const peer of ['three', '@types/three', '@pixiv/three-vrm-springbone', '@pixiv/three-vrm', 'vite', 'webpack'])
      await symlink(join(ROOT, 'node_modules', peer), join(modules, peer));
  }, 120_000);

  afterAll(() => rm(DIR, { recursive: true, force: true }));

  it('every js/ts block says what it is, with known preludes and epilogues, and most run', () => {
    expect(unmarked).toEqual([]);
    for (const b of found) {
      if (b.prelude) expect(Object.keys(PRELUDES), `line ${b.line}`).toContain(b.prelude);
      if (b.epilogue) expect(Object.keys(EPILOGUES), `line ${b.line}`).toContain(b.epilogue);
    }
    expect(runnable.length).toBeGreaterThanOrEqual(10);
  });

  it('the TypeScript blocks type-check (tsc --strict, module nodenext)', async () => {
    const ts = runnable.filter((b) => b.language === 'ts');
    expect(ts.length).toBeGreaterThan(0);
    for (const b of ts) await writeFile(file(b, 'mts'), `${source(b)}\nexport {};\n`);
    const result = await typeCheck(
      DIR,
      ts.map((b) => file(b, 'mts')),
    );
    expect(result).toBe('');
  }, 120_000);

  it.each(runnable.map((b) => [b.line, b] as const))(
    'the block at line %i runs',
    async (_line, b) => {
      const js = b.language === 'ts' ? (await transform(source(b), { loader: 'ts', format: 'esm' })).code : source(b);
      await writeFile(file(b, 'mjs'), js);
      const { stdout, stderr } = await run(process.execPath, [file(b, 'mjs')], { cwd: ROOT, timeout: 60_000 });
      expect(stderr).toBe('');
      outputs.set(b.line, stdout.trim());
    },
    90_000,
  );

  it('the blocks that load models ran on the files: 400 Foxes skinned, 3 avatars of 14 spring joints', () => {
    const loading = runnable.filter((block) => block.prelude === 'node glTF loading');
    expect(loading.map((block) => outputs.get(block.line))).toEqual([
      expect.stringMatching(/^frame ran 400 -?\d+(\.\d+)?(e[-+]\d+)?$/),
      'frame ran 42',
    ]);
  });

  it('the quick start prints the backend and a value', () => {
    const quickStart = runnable[0]!;
    expect(quickStart.code).toContain("from 'spring-solver'");
    expect(outputs.get(quickStart.line)).toMatch(/^(simd|wasm|js) 0\.0229\d+$/);
  });
});
