// Inertializer.update for 5,000 bones (250 characters × 20, a root bone) with one halflife per
// bone: this build against the build of an earlier commit, both loaded in this one process and
// timed in alternation (SIMD backend). The earlier commit is checked out in a temporary git
// worktree and built there (`npm run build`, about 40 s).
//   node bench/compare-commit.js [ref]    ref: a commit (default: BASELINE below)
// Run after `npm run build`; `npm run bench` runs it after the suites.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { mulberry32 } from '../tools/mulberry32.js';

// The build the speed target of the per-bone update is measured against (2026-11-25, before the
// float32 spring step of the quaternion offsets).
const BASELINE = 'efe669c';
const TARGET = 1.5;
const CHARACTERS = 250;
const BONES = 20;
const DT = 1 / 60;
const ROUNDS = 30;
const CALLS = 50;

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const ref = process.argv[2] ?? BASELINE;

/** Builds `ref` in a temporary worktree; returns its directory. */
function buildCommit(commit) {
  const dir = mkdtempSync(join(tmpdir(), 'spring-solver-baseline-'));
  execFileSync('git', ['worktree', 'add', '--detach', dir, commit], { cwd: root, stdio: 'ignore' });
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  execFileSync('npm', ['run', 'build'], { cwd: dir, stdio: 'ignore' });
  return dir;
}

/** One Inertializer of the given build, after a transition between two random poses. */
async function setup(distIndex) {
  const { createSolver, Inertializer } = await import(pathToFileURL(distIndex).href);
  const solver = await createSolver({ backend: 'simd' });
  const random = mulberry32(7);
  const n = CHARACTERS * BONES;
  const pose = () => {
    const p = {
      positions: solver.alloc(3 * n),
      velocities: solver.alloc(3 * n),
      rotations: solver.alloc(4 * n),
      angularVelocities: solver.alloc(3 * n),
    };
    for (let i = 0; i < 3 * n; i++) {
      p.positions[i] = random() * 2 - 1;
      p.velocities[i] = random() * 4 - 2;
      p.angularVelocities[i] = random() * 4 - 2;
    }
    for (let i = 0; i < n; i++) {
      const q = [random() - 0.5, random() - 0.5, random() - 0.5, random() - 0.5];
      const length = Math.hypot(...q);
      for (let k = 0; k < 4; k++) p.rotations[4 * i + k] = q[k] / length;
    }
    return p;
  };
  const src = pose();
  const dst = pose();
  const out = pose();
  const halflife = new Float32Array(BONES).map(() => 0.05 + 0.3 * random());
  const inertializer = new Inertializer(solver, { count: CHARACTERS, bones: BONES, halflife, rootBone: 0 });
  const start = () => {
    inertializer.reset();
    inertializer.transition(src, dst);
  };
  return {
    /** ns per bone of CALLS updates after a fresh transition. */
    time() {
      start();
      const t0 = performance.now();
      for (let i = 0; i < CALLS; i++) inertializer.update(dst, undefined, DT, out);
      return ((performance.now() - t0) / CALLS / n) * 1e6;
    },
  };
}

const baselineDir = buildCommit(ref);
try {
  const builds = [
    { name: `baseline ${ref}`, bench: await setup(join(baselineDir, 'dist/index.js')) },
    { name: 'this build', bench: await setup(join(root, 'dist/index.js')) },
  ];
  const samples = builds.map(() => /** @type {number[]} */ ([]));
  for (let round = 0; round < ROUNDS; round++) builds.forEach((b, k) => samples[k].push(b.bench.time()));
  const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
  const [base, now] = samples.map(median);
  console.log(
    `Inertializer.update, ${CHARACTERS} × ${BONES} bones, halflife per bone, SIMD (median of ${ROUNDS} rounds of ${CALLS} calls):`,
  );
  builds.forEach((b, k) =>
    console.log(`  ${b.name.padEnd(20)} ${median(samples[k]).toFixed(2)} ns/bone (min ${Math.min(...samples[k]).toFixed(2)})`),
  );
  const ratio = base / now;
  console.log(`  ${ratio >= TARGET ? 'PASS' : 'FAIL'}  ≥ ${TARGET}× faster than ${ref}: ${ratio.toFixed(2)}×`);
} finally {
  execFileSync('git', ['worktree', 'remove', '--force', baselineDir], { cwd: root, stdio: 'ignore' });
  rmSync(baselineDir, { recursive: true, force: true });
}
