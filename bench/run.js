// Benchmark of spring-solver: every kernel × backend × N, uniform and per-element parameters,
// against the JS backend and against the SIMD data-movement floor. See bench/README.md.
//
//   node bench/run.js              full run (a few minutes), writes bench/results/latest.json
//   node bench/run.js --quick      core kernels at N = 4096 and 65536 (~10 s)
//   node bench/run.js --filter critical   only kernels whose name contains "critical"
//   node bench/run.js --n 65536    only these N (comma-separated)
//
// Build first (`npm run build`): this imports ../dist/index.js.
import { Bench } from 'tinybench';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSolver } from '../dist/index.js';

const started = performance.now();

// ---------------------------------------------------------------------------------------------
// Options

const argv = process.argv.slice(2);
const QUICK = argv.includes('--quick');
const FILTER = optionValue('--filter')?.toLowerCase() ?? null;
const N_OPTION = optionValue('--n');

function optionValue(name) {
  const i = argv.indexOf(name);
  if (i < 0) return undefined;
  const value = argv[i + 1];
  if (value === undefined || value.startsWith('--')) {
    console.error(`${name} needs a value`);
    process.exit(2);
  }
  return value;
}

const ALL_N = [16, 256, 4096, 65536, 1048576];
const QUICK_N = [4096, 65536];
let sizes = QUICK ? QUICK_N : ALL_N;
if (N_OPTION !== undefined) {
  const wanted = N_OPTION.split(',').map(Number);
  const bad = wanted.filter((n) => !ALL_N.includes(n));
  if (bad.length) {
    console.error(`--n: ${bad.join(', ')} not in ${ALL_N.join(', ')}`);
    process.exit(2);
  }
  sizes = sizes.filter((n) => wanted.includes(n));
}

const DT = 1 / 60;
const MEMORY_BYTES = 256 * 1024 * 1024; // ≥ 9 arrays × 4 MiB at N = 2^20, with lots of room
const BACKENDS = ['js', 'wasm', 'simd'];
const COPY_PATH_N = 65536;

/**
 * Time budgets (ms) per task, by N: `time` measured, `warmup` before it; `minIterations` samples
 * at least (tinybench keeps sampling until both the time and the iteration count are met).
 * One sample is `reps` calls back to back (many at small N so the timer is not in the way).
 */
function budget(n, backend, isFloor) {
  let b;
  if (QUICK) b = { time: 150, warmup: 50, minIterations: 8 };
  else if (n <= 256) b = { time: 250, warmup: 80, minIterations: 16 };
  else if (n <= 4096) b = { time: 300, warmup: 100, minIterations: 16 };
  else if (n <= 65536) b = { time: 500, warmup: 150, minIterations: 16 };
  else b = { time: 800, warmup: 200, minIterations: 6 };
  // The JS backend at 2^20 takes 4–120 ms a call: few samples required, a longer budget for them.
  if (backend === 'js' && n >= 1048576) b = { ...b, time: QUICK ? b.time : 1500, minIterations: 3, warmupIterations: 1 };
  // Every SIMD row at this N is divided by the floor: give it twice the time.
  if (isFloor) b = { ...b, time: b.time * 2, warmup: b.warmup * 2 };
  return b;
}

/** Calls per sample: about 64 Ki elements per sample, 1..64 calls. */
function repsFor(n) {
  return Math.max(1, Math.min(64, Math.round(65536 / n)));
}

/**
 * Steps between state resets. A spring left alone converges to its goal and x − g would decay
 * into float32 subnormals (slow on some CPUs, and unrealistic); 64 steps at dt = 1/60 shrink
 * x − g by at most ~2^-43 (halflife 0.05 s), far from subnormal. Resets are not timed.
 */
const MAX_STEPS_BETWEEN_RESETS = 64;

// ---------------------------------------------------------------------------------------------
// Kernels and their parameters

const TWO_PI = 2 * Math.PI;
const FOUR_LN2 = 4 * Math.LN2;

/** Uniform parameter values (an under-damped 2 Hz spring with halflife 0.2 s) and per-element ranges. */
const UNIFORM = {
  halflife: 0.2,
  frequency: 2,
  dampingRatio: 0.7,
  stiffness: (TWO_PI * 2) ** 2,
  damping: FOUR_LN2 / 0.2,
};

const KERNELS = [
  { name: 'damper', params: ['halflife'], make: (s, a, p) => () => s.damper(a.x, a.g, p.halflife, DT) },
  {
    name: 'springDamper',
    params: ['frequency', 'halflife'],
    make: (s, a, p) => () => s.springDamper(a.x, a.v, a.g, a.q, p.frequency, p.halflife, DT),
  },
  {
    name: 'springDamperStiffness',
    params: ['stiffness', 'damping'],
    make: (s, a, p) => () => s.springDamperStiffness(a.x, a.v, a.g, a.q, p.stiffness, p.damping, DT),
  },
  {
    name: 'springDamperRatio',
    params: ['dampingRatio', 'halflife'],
    make: (s, a, p) => () => s.springDamperRatio(a.x, a.v, a.g, a.q, p.dampingRatio, p.halflife, DT),
  },
  {
    name: 'criticalSpringDamper',
    params: ['halflife'],
    make: (s, a, p) => () => s.criticalSpringDamper(a.x, a.v, a.g, a.q, p.halflife, DT),
  },
  {
    name: 'simpleSpringDamper',
    params: ['halflife'],
    make: (s, a, p) => () => s.simpleSpringDamper(a.x, a.v, a.g, p.halflife, DT),
  },
  {
    name: 'decaySpringDamper',
    params: ['halflife'],
    make: (s, a, p) => () => s.decaySpringDamper(a.x, a.v, p.halflife, DT),
  },
];

/** The (kernel, params) pairs this run measures. */
const QUICK_CASES = [
  ['criticalSpringDamper', 'uniform'],
  ['simpleSpringDamper', 'uniform'],
  ['springDamper', 'uniform'],
  ['springDamper', 'per-element'],
];
const cases = [];
for (const kernel of KERNELS) {
  for (const params of ['uniform', 'per-element']) {
    if (QUICK && !QUICK_CASES.some(([k, p]) => k === kernel.name && p === params)) continue;
    if (FILTER !== null && !kernel.name.toLowerCase().includes(FILTER)) continue;
    cases.push({ kernel, params });
  }
}
if (cases.length === 0) {
  console.error(`--filter ${FILTER}: no kernel matches (${KERNELS.map((k) => k.name).join(', ')})`);
  process.exit(2);
}

// ---------------------------------------------------------------------------------------------
// Data

/** mulberry32: a small seeded PRNG, so every run sees the same values. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function uniformArray(n, lo, hi, random) {
  const a = new Float32Array(n);
  for (let i = 0; i < n; i++) a[i] = lo + (hi - lo) * random();
  return a;
}

/** Initial state and per-element parameters for N elements (plain arrays; copied into each backend). */
function makeData(n) {
  const random = rng(0x5eed + n);
  const frequency = uniformArray(n, 0.5, 4, random);
  const halflife = uniformArray(n, 0.05, 1, random);
  const stiffness = new Float32Array(n);
  const damping = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    stiffness[i] = (TWO_PI * frequency[i]) ** 2;
    damping[i] = FOUR_LN2 / halflife[i];
  }
  return {
    x: uniformArray(n, -1, 1, random),
    v: uniformArray(n, -2, 2, random),
    g: uniformArray(n, -1, 1, random),
    q: uniformArray(n, -2, 2, random),
    params: { frequency, halflife, dampingRatio: uniformArray(n, 0.2, 3, random), stiffness, damping },
  };
}

const STATE = ['x', 'v', 'g', 'q'];

/** The data copied into arrays from `solver.alloc` (in place for the wasm backends). */
function allocData(solver, data) {
  const arrays = {};
  for (const name of STATE) {
    arrays[name] = solver.alloc(data.x.length);
    arrays[name].set(data[name]);
  }
  const params = {};
  for (const [name, values] of Object.entries(data.params)) {
    params[name] = solver.alloc(values.length);
    params[name].set(values);
  }
  return { arrays, params };
}

function freeData(solver, { arrays, params }) {
  for (const a of [...Object.values(arrays), ...Object.values(params)]) solver.free(a);
}

/** True when x and v are finite and of a sane size (the springs are stable: they must be). */
function stateBounded(arrays) {
  for (const name of ['x', 'v']) {
    const a = arrays[name];
    for (let i = 0; i < a.length; i++) if (!(Math.abs(a[i]) < 100)) return false;
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// Measurement

/**
 * Measures `call` (one kernel call over n elements) with tinybench. Each sample times `reps`
 * calls and reports the mean per call; `reset` restores the initial state between samples
 * (untimed) so the state never settles on the goal.
 */
function measureOnce(label, n, call, reset, budgetOptions) {
  const reps = repsFor(n);
  let steps = Infinity;
  const bench = new Bench({
    name: label,
    time: budgetOptions.time,
    iterations: budgetOptions.minIterations,
    warmup: true,
    warmupTime: budgetOptions.warmup,
    warmupIterations: budgetOptions.warmupIterations ?? Math.min(4, budgetOptions.minIterations),
    throws: true,
  });
  bench.add(
    label,
    () => {
      if (steps + reps > MAX_STEPS_BETWEEN_RESETS) {
        reset();
        steps = 0;
      }
      const t0 = performance.now();
      for (let r = 0; r < reps; r++) call();
      const elapsed = performance.now() - t0;
      steps += reps;
      return { overriddenDuration: elapsed / reps, overriddenIterationCost: elapsed };
    },
    { async: false },
  );
  const [task] = bench.runSync();
  const result = task.result;
  if (result.state !== 'completed') {
    throw new Error(`${label}: ${result.state}${result.error ? `: ${result.error.message}` : ''}`);
  }
  const latency = result.latency; // ms per call
  const perElement = (ms) => (ms * 1e6) / n;
  return {
    nsPerElement: perElement(latency.mean),
    nsPerElementP50: perElement(latency.p50),
    nsPerElementP75: perElement(latency.p75),
    nsPerElementMoe: perElement(latency.moe),
    rmePercent: latency.rme,
    samples: latency.samplesCount,
    callsPerSample: reps,
  };
}

/**
 * A result is noisy when its margin of error exceeds NOISY_RME % of the mean, or when the mean
 * exceeds the median by more than NOISY_SKEW (with thousands of samples the margin stays small
 * while a burst of load on another process inflates the mean). A noisy result is measured again,
 * up to MAX_ATTEMPTS times in all, keeping the fastest (load only ever adds time); a row still
 * noisy is flagged. On a 2-core machine, any other busy process causes this.
 */
const NOISY_RME = 10;
const NOISY_SKEW = 1.2;
const MAX_ATTEMPTS = 3;

const isNoisy = (s) => s.rmePercent > NOISY_RME || s.nsPerElement > NOISY_SKEW * s.nsPerElementP50;

function measure(label, n, call, reset, budgetOptions) {
  let best = null;
  let attempts = 0;
  while (attempts < MAX_ATTEMPTS && (best === null || isNoisy(best))) {
    attempts++;
    const stats = measureOnce(label, n, call, reset, budgetOptions);
    if (best === null || stats.nsPerElement < best.nsPerElement) best = stats;
  }
  return { ...best, attempts, noisy: isNoisy(best) };
}

// ---------------------------------------------------------------------------------------------
// Run

const solvers = {};
for (const backend of BACKENDS) {
  solvers[backend] = await createSolver(backend === 'js' ? { backend } : { backend, memoryBytes: MEMORY_BYTES });
  if (solvers[backend].backend !== backend) throw new Error(`asked for ${backend}, got ${solvers[backend].backend}`);
}
const floorKernel = solvers.simd.rawKernels.dataMovementFloor;

const rows = [];
const warnings = [];

console.log(
  `spring-solver benchmark (${QUICK ? 'quick' : 'full'}${FILTER ? `, filter "${FILTER}"` : ''}): ` +
    `node ${process.version}, ${os.cpus()[0]?.model ?? 'unknown CPU'} × ${os.cpus().length}, dt = 1/60`,
);

for (const n of sizes) {
  const data = makeData(n);
  const perBackend = {};
  for (const backend of BACKENDS) perBackend[backend] = allocData(solvers[backend], data);
  const resetOf = (arrays) => () => {
    arrays.x.set(data.x);
    arrays.v.set(data.v);
  };
  process.stdout.write(`N = ${n}: `);

  // The floor: the SIMD wasm loop that loads x, v, g, q and stores x, v with no arithmetic.
  {
    const a = perBackend.simd.arrays;
    const [px, pv, pg, pq] = [a.x.byteOffset, a.v.byteOffset, a.g.byteOffset, a.q.byteOffset];
    const stats = measure(`floor N=${n}`, n, () => floorKernel(px, pv, pg, pq, n, 0), resetOf(a), budget(n, 'simd', true));
    rows.push({ kernel: 'dataMovementFloor', params: 'none', backend: 'simd', arrays: 'alloc', n, ...stats, speedupVsJs: null, vsFloor: 1 });
    process.stdout.write('.');
  }

  for (const { kernel, params } of cases) {
    for (const backend of BACKENDS) {
      const { arrays, params: paramArrays } = perBackend[backend];
      const values = params === 'uniform' ? UNIFORM : paramArrays;
      const p = Object.fromEntries(kernel.params.map((name) => [name, values[name]]));
      const call = kernel.make(solvers[backend], arrays, p);
      const stats = measure(`${kernel.name} ${params} ${backend} N=${n}`, n, call, resetOf(arrays), budget(n, backend, false));
      if (!stateBounded(arrays)) warnings.push(`${kernel.name} ${params} ${backend} N=${n}: state not bounded`);
      rows.push({ kernel: kernel.name, params, backend, arrays: 'alloc', n, ...stats });
      process.stdout.write('.');

      // The copy path: the same call with plain Float32Arrays, copied through scratch in chunks.
      if (backend === 'simd' && kernel.name === 'springDamper' && params === 'uniform' && n === COPY_PATH_N) {
        const plain = {};
        for (const name of STATE) plain[name] = new Float32Array(data[name]);
        const copyCall = kernel.make(solvers.simd, plain, p);
        const copyStats = measure(`${kernel.name} ${params} simd plain N=${n}`, n, copyCall, resetOf(plain), budget(n, 'simd', false));
        if (!stateBounded(plain)) warnings.push(`${kernel.name} plain arrays N=${n}: state not bounded`);
        rows.push({ kernel: kernel.name, params, backend: 'simd', arrays: 'plain', n, ...copyStats });
        process.stdout.write('.');
      }
    }
  }
  for (const backend of BACKENDS) freeData(solvers[backend], perBackend[backend]);
  process.stdout.write('\n');
}

// Speedup over JS (same kernel, params, N, this run) and ratio to the floor (SIMD rows).
for (const row of rows) {
  if (row.kernel === 'dataMovementFloor') continue;
  const js = rows.find((r) => r.kernel === row.kernel && r.params === row.params && r.n === row.n && r.backend === 'js');
  row.speedupVsJs = js ? js.nsPerElement / row.nsPerElement : null;
  const floor = rows.find((r) => r.kernel === 'dataMovementFloor' && r.n === row.n);
  row.vsFloor = row.backend === 'simd' && floor ? row.nsPerElement / floor.nsPerElement : null;
}

// ---------------------------------------------------------------------------------------------
// Report

function fmt(value, digits = 3) {
  if (value === null || value === undefined || !Number.isFinite(value)) return '–';
  if (value >= 1000) return value.toFixed(0);
  return value.toPrecision(digits);
}

function printTable(list) {
  const header = ['kernel', 'params', 'backend', 'ns/elem', '±%', 'p75', '×JS', '×floor', 'samples'];
  const lines = list.map((r) => [
    r.kernel + (r.arrays === 'plain' ? ' [plain arrays]' : ''),
    r.params,
    r.backend,
    fmt(r.nsPerElement),
    fmt(r.rmePercent, 2) + (r.noisy ? '!' : ''),
    fmt(r.nsPerElementP75),
    r.speedupVsJs === null ? '' : `${fmt(r.speedupVsJs)}×`,
    r.vsFloor === null ? '' : `${fmt(r.vsFloor)}×`,
    String(r.samples),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const left = new Set([0, 1, 2]);
  const line = (cells) => cells.map((c, i) => (left.has(i) ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '─'.repeat(w)).join('  '));
  for (const l of lines) console.log(line(l));
}

const noisyRows = rows.filter((r) => r.noisy);
for (const r of noisyRows) {
  warnings.push(
    `noisy: ${r.kernel} ${r.params} ${r.backend}${r.arrays === 'plain' ? ' (plain arrays)' : ''} N=${r.n}: ` +
      `±${fmt(r.rmePercent, 2)}%, mean/median ${fmt(r.nsPerElement / r.nsPerElementP50)} after ${r.attempts} attempts (other load on the machine?)`,
  );
}

for (const n of sizes) {
  console.log(`\nN = ${n}`);
  printTable(rows.filter((r) => r.n === n));
}

// The issue's targets, computed from this run.
const checks = [];
function find(kernel, params, backend, n) {
  return rows.find((r) => r.kernel === kernel && r.params === params && r.backend === backend && r.n === n && r.arrays === 'alloc');
}
function checkSpeedup(kernel, params, min) {
  const row = find(kernel, params, 'simd', 65536);
  const name = `SIMD ≥ ${min}× JS at N = 65536: ${kernel} (${params})`;
  if (!row || row.speedupVsJs === null) return checks.push({ name, status: 'SKIP', value: null, target: min });
  const js = find(kernel, params, 'js', 65536);
  const noisy = row.noisy || Boolean(js?.noisy);
  checks.push({ name, status: row.speedupVsJs >= min ? 'PASS' : 'FAIL', value: row.speedupVsJs, target: min, unit: '×JS', noisy });
}
checkSpeedup('criticalSpringDamper', 'uniform', 5);
checkSpeedup('simpleSpringDamper', 'uniform', 5);
checkSpeedup('springDamper', 'uniform', 5);
checkSpeedup('springDamper', 'per-element', 3);
const info = [];
for (const kernel of KERNELS) {
  const name = `SIMD ≤ 1.5× floor at N = 1048576: ${kernel.name} (uniform)`;
  const row = find(kernel.name, 'uniform', 'simd', 1048576);
  if (!row || row.vsFloor === null) checks.push({ name, status: 'SKIP', value: null, target: 1.5 });
  else {
    const floor = rows.find((r) => r.kernel === 'dataMovementFloor' && r.n === 1048576);
    const noisy = row.noisy || floor.noisy;
    checks.push({ name, status: row.vsFloor <= 1.5 ? 'PASS' : 'FAIL', value: row.vsFloor, target: 1.5, unit: '×floor', noisy });
  }
  const varying = find(kernel.name, 'per-element', 'simd', 1048576);
  if (varying && varying.vsFloor !== null) info.push(`${kernel.name} (per-element): ${fmt(varying.vsFloor)}× floor`);
}

console.log('\nTargets');
const shown = checks.filter((c) => c.status !== 'SKIP');
for (const c of shown) console.log(`  ${c.status}  ${c.name}  (${fmt(c.value)}${c.unit})${c.noisy ? '  [noisy input: rerun]' : ''}`);
const skipped = checks.length - shown.length;
if (skipped) console.log(`  (${skipped} target(s) not measured in this run${QUICK ? ': --quick has no N = 1048576' : ''})`);
if (info.length) {
  console.log('  info, not a target (per-element rows also read 1–2 parameter arrays the floor does not):');
  for (const line of info) console.log(`        ${line}`);
}
for (const w of warnings) console.log(`WARNING: ${w}`);

// Results file: bench/results/latest.json for a full, unfiltered run; quick and filtered runs
// write their own (git-ignored) files so they never replace the full results.
const wallSeconds = (performance.now() - started) / 1000;
const cpus = os.cpus();
/** The commit measured (best effort: the working tree may differ from it). */
function gitCommit() {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: dirname(fileURLToPath(import.meta.url)), stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    return null;
  }
}
const result = {
  date: new Date().toISOString(),
  commit: gitCommit(),
  mode: QUICK ? 'quick' : 'full',
  filter: FILTER,
  sizes,
  wallSeconds,
  machine: {
    node: process.version,
    v8: process.versions.v8,
    os: `${os.type()} ${os.release()} (${os.platform()}-${os.arch()})`,
    cpu: cpus[0]?.model ?? 'unknown',
    cores: cpus.length,
    totalMemoryBytes: os.totalmem(),
  },
  settings: { dt: DT, memoryBytes: MEMORY_BYTES, uniform: UNIFORM, maxStepsBetweenResets: MAX_STEPS_BETWEEN_RESETS },
  rows,
  checks,
  warnings,
};
const resultsDir = join(dirname(fileURLToPath(import.meta.url)), 'results');
const fileName = FILTER !== null || N_OPTION !== undefined ? 'latest-partial.json' : QUICK ? 'latest-quick.json' : 'latest.json';
mkdirSync(resultsDir, { recursive: true });
writeFileSync(join(resultsDir, fileName), JSON.stringify(result, null, 2) + '\n');
console.log(`\nwrote bench/results/${fileName} (${rows.length} rows) in ${wallSeconds.toFixed(1)} s`);

for (const solver of Object.values(solvers)) solver.dispose();
