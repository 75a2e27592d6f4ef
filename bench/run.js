// Benchmark of spring-solver: every Solver method and batch class × backend × N, uniform and
// per-element parameters, against the JS backend (and, for the core kernels, against the SIMD
// data-movement floor). The rows come from the suites in bench/suites/. See bench/README.md.
//
//   node bench/run.js              full run, writes bench/results/latest.json (ignored) and summary.json
//   node bench/run.js --quick      four core kernels and the plain-JS loops at N = 65536, medians (~6 s)
//   node bench/run.js --suite quat         one suite (core, composite, quat, dynamics, three; comma-separated)
//   node bench/run.js --filter critical    only kernels whose name contains "critical"
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
import { DT } from './suites/shared.js';
import core from './suites/core.js';
import composite from './suites/composite.js';
import quat from './suites/quat.js';
import dynamics from './suites/dynamics.js';
import three from './suites/three-buffers.js';
import callers from './suites/callers.js';
import threeMixer from './suites/three.js';
import vrm from './suites/vrm.js';
import skeleton from './suites/skeleton.js';
import mixer from './suites/mixer.js';
import crowd from './suites/crowd.js';
import threads from './suites/threads.js';
import { noiseLine, quickTable } from './quick-table.js';

const started = performance.now();
const SUITES = [core, composite, quat, dynamics, callers, three, threeMixer, vrm, skeleton, mixer, crowd, threads];

// ---------------------------------------------------------------------------------------------
// Options

const argv = process.argv.slice(2);
const QUICK = argv.includes('--quick');
const FILTER = optionValue('--filter')?.toLowerCase() ?? null;
const N_OPTION = optionValue('--n');
const SUITE_OPTION = optionValue('--suite');

function optionValue(name) {
  const i = argv.indexOf(name);
  if (i < 0) return undefined;
  const value = argv[i + 1];
  if (value === undefined || value.startsWith('--')) fail(`${name} needs a value`);
  return value;
}

function fail(message) {
  console.error(message);
  process.exit(2);
}

let selected = QUICK ? [core] : SUITES;
if (SUITE_OPTION !== undefined) {
  const wanted = SUITE_OPTION.split(',');
  const bad = wanted.filter((name) => !SUITES.some((s) => s.name === name));
  if (bad.length) fail(`--suite: ${bad.join(', ')} not in ${SUITES.map((s) => s.name).join(', ')}`);
  selected = SUITES.filter((s) => wanted.includes(s.name));
  if (QUICK && selected.some((s) => s !== core)) fail('--quick runs the core suite only');
}

let sizeFilter = () => true;
if (N_OPTION !== undefined) {
  const wanted = N_OPTION.split(',').map(Number);
  const known = [...new Set(selected.flatMap((s) => s.sizes({ quick: false })))].sort((a, b) => a - b);
  const bad = wanted.filter((n) => !known.includes(n));
  if (bad.length) fail(`--n: ${bad.join(', ')} not in ${known.join(', ')}`);
  sizeFilter = (n) => wanted.includes(n);
}

const MEMORY_BYTES = 256 * 1024 * 1024; // ≥ 9 arrays × 4 MiB at N = 2^20, with lots of room
const BACKENDS = ['js', 'wasm', 'simd'];

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
// The plan: for each suite and N, the tasks (rows × backends) that pass --filter. A floor task
// is kept when some other task at its N is.

const label = (r) => r.kernel + (r.variant ? ` ${r.variant}` : '');
const plan = [];
for (const suite of selected) {
  for (const n of suite.sizes({ quick: QUICK }).filter(sizeFilter)) {
    let tasks = suite.tasks(n, { quick: QUICK });
    if (FILTER !== null) tasks = tasks.filter((t) => t.floor || label(t).toLowerCase().includes(FILTER));
    if (tasks.some((t) => !t.floor)) plan.push({ suite, n, tasks });
  }
}
if (plan.length === 0) {
  const names = new Set(
    selected.flatMap((s) =>
      s.sizes({ quick: QUICK }).flatMap((n) =>
        s
          .tasks(n, { quick: QUICK })
          .filter((t) => !t.floor)
          .map(label),
      ),
    ),
  );
  fail(
    FILTER === null
      ? 'nothing to run: --n selects no size of these suites'
      : `--filter ${FILTER}: no kernel matches (${[...names].join(', ')})`,
  );
}
const heading = ({ suite, n }) => (suite === core ? `N = ${n}` : `${suite.name}, N = ${n}`);

// ---------------------------------------------------------------------------------------------
// Measurement

/**
 * Measures `call` (one kernel call over n elements) with tinybench. Each sample times `reps`
 * calls and reports the mean per call; `reset` restores the initial state between samples
 * (untimed) so the state never settles on the goal. `before`, when given, runs before each call
 * outside its timing (the vrm suite's posing of the frame), timed apart: its median per call is
 * `beforeNsPerElementP50`.
 * @param {string} label @param {number} n @param {() => void} call @param {() => void} reset
 * @param {any} budgetOptions @param {(() => void) | null} [before]
 */
function measureOnce(label, n, call, reset, budgetOptions, before = null) {
  const reps = budgetOptions.reps ?? repsFor(n);
  let steps = Infinity;
  /** @type {number[]} */
  const beforeTimes = [];
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
      let elapsed = 0;
      if (before === null) {
        const t0 = performance.now();
        for (let r = 0; r < reps; r++) call();
        elapsed = performance.now() - t0;
      } else {
        for (let r = 0; r < reps; r++) {
          const b0 = performance.now();
          before();
          const t0 = performance.now();
          call();
          elapsed += performance.now() - t0;
          beforeTimes.push(t0 - b0);
        }
      }
      steps += reps;
      return { overriddenDuration: elapsed / reps, overriddenIterationCost: elapsed };
    },
    { async: false },
  );
  const [task] = bench.runSync();
  const result = task.result;
  if (result.state !== 'completed') {
    const error = /** @type {{ error?: Error }} */ (result).error;
    throw new Error(`${label}: ${result.state}${error ? `: ${error.message}` : ''}`);
  }
  const latency = result.latency; // ms per call
  /** @param {number | undefined} ms */
  const perElement = (ms) => ((ms ?? NaN) * 1e6) / n;
  return {
    // The quick run reports medians: a burst of load on another process moves the mean, not the median.
    nsPerElement: perElement(QUICK ? latency.p50 : latency.mean),
    nsPerElementP50: perElement(latency.p50),
    nsPerElementP75: perElement(latency.p75),
    nsPerElementMoe: perElement(latency.moe),
    rmePercent: QUICK ? medianRme(latency.mad ?? NaN, latency.p50 ?? NaN, latency.samplesCount) : latency.rme,
    samples: latency.samplesCount,
    callsPerSample: reps,
    // the samples' own (the warmup's come first)
    ...(before === null ? {} : { beforeNsPerElementP50: perElement(median(beforeTimes.slice(-latency.samplesCount * reps))) }),
  };
}

/**
 * The relative margin of error (95 %, in %) of a median, from the median absolute deviation: the
 * standard error of a median is √(π/2)·σ/√n, with σ ≈ 1.4826·MAD, robust to the few samples that
 * another process slowed down.
 * @param {number} mad @param {number} median @param {number} samples
 */
function medianRme(mad, median, samples) {
  return (100 * 1.96 * Math.sqrt(Math.PI / 2) * 1.4826 * mad) / (median * Math.sqrt(samples));
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

/** The quick run's rows are medians: noisy when the median's margin of error exceeds NOISY_RME. */
const isNoisy = (s) => s.rmePercent > NOISY_RME || (!QUICK && s.nsPerElement > NOISY_SKEW * s.nsPerElementP50);

/**
 * measureOnce until the result is not noisy (MAX_ATTEMPTS at most), keeping the fastest.
 * @param {string} label @param {number} n @param {() => void} call @param {() => void} reset
 * @param {any} budgetOptions @param {(() => void) | null} [before]
 */
function measure(label, n, call, reset, budgetOptions, before = null) {
  /** @type {ReturnType<typeof measureOnce> | null} */
  let best = null;
  let attempts = 0;
  while (attempts < MAX_ATTEMPTS && (best === null || isNoisy(best))) {
    attempts++;
    const stats = measureOnce(label, n, call, reset, budgetOptions, before);
    if (best === null || stats.nsPerElement < best.nsPerElement) best = stats;
  }
  const stats = /** @type {ReturnType<typeof measureOnce>} */ (best);
  return { ...stats, attempts, noisy: isNoisy(stats) };
}

/**
 * Rows measured together (`unitsOf`: a task with `interleaved: true`, as the threads suite's one
 * thread against the threaded solver, or the tasks sharing an `interleave` key) take
 * INTERLEAVED_ROUNDS alternating rounds of 1/INTERLEAVED_ROUNDS of the first row's budget each,
 * the order reversed every other round, so that no row gains from the order (caches, the CPU's
 * clock, another process's load). With `freshEachRound` (the vrm suite), every round sets its rows
 * up anew: each row's objects land elsewhere in memory each time, so that no row keeps a lucky or
 * unlucky placement for the whole run. A row's statistics are the medians of its rounds'. Attempts:
 * bestAttempt.
 */
const INTERLEAVED_ROUNDS = 6;
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

function measureInterleaved(labels, n, setups, budgetOptions, freshEachRound) {
  // a run per row, or (freshEachRound) a new one each round, the last one kept for the row's record
  const runs = setups.map((setup) => setup());
  const round = {
    ...budgetOptions,
    time: budgetOptions.time / INTERLEAVED_ROUNDS,
    warmup: budgetOptions.warmup / INTERLEAVED_ROUNDS,
  };
  return bestAttempt(runs, (attempt) => {
    /** @type {ReturnType<typeof measureOnce>[][]} */
    const rounds = runs.map(() => []);
    for (let r = 0; r < INTERLEAVED_ROUNDS; r++) {
      const order = runs.map((_, i) => (r % 2 ? runs.length - 1 - i : i));
      if (freshEachRound && (r > 0 || attempt > 1)) {
        for (const i of order) {
          runs[i].dispose();
          runs[i] = setups[i]();
        }
      }
      for (const i of order) rounds[i].push(measureOnce(labels[i], n, runs[i].call, runs[i].reset, round, runs[i].before ?? null));
    }
    return rounds.map((list) => {
      const of = (key) => median(list.map((s) => s[key]));
      return {
        nsPerElement: of('nsPerElement'),
        nsPerElementP50: of('nsPerElementP50'),
        nsPerElementP75: of('nsPerElementP75'),
        nsPerElementMoe: of('nsPerElementMoe'),
        rmePercent: of('rmePercent'),
        samples: list.reduce((sum, x) => sum + x.samples, 0),
        callsPerSample: list[0].callsPerSample,
        ...(list[0].beforeNsPerElementP50 === undefined ? {} : { beforeNsPerElementP50: of('beforeNsPerElementP50') }),
      };
    });
  });
}

/**
 * Rows measured call by call (a unit whose task sets `alternate`: the vrm suite at 100 avatars).
 * Each sweep takes one sample of every row in turn, the order reversed every other sweep, so that
 * all rows are timed within the same fraction of a second: this machine's speed moves by a third
 * over seconds, and rows timed in rounds of seconds apart (three-vrm's 100-avatar frame takes
 * 130 ms, its 20 frames a round 2.6 s) caught different speeds (docs/DECISIONS.md, "The vrm suite
 * alternates its rows frame by frame at 100 avatars"). Every `alternate.fresh` kept sweeps the rows
 * are set up anew (as `freshEachRound`), and the first ALTERNATE_WARM sweeps after each setup are
 * not kept. It ends once every row has `minIterations` samples. One call a sample (`reps` 1); a
 * task's `before` runs untimed before each call and is timed apart, as in measureOnce. Attempts as
 * measureInterleaved's.
 * @param {string[]} labels @param {number} n @param {(() => any)[]} setups @param {any} budgetOptions
 * @param {{ fresh: number }} alternate
 */
function measureAlternating(labels, n, setups, budgetOptions, alternate) {
  if ((budgetOptions.reps ?? 1) !== 1) throw new Error(`${labels[0]}: alternate needs reps 1`);
  const runs = setups.map((setup) => setup());
  return bestAttempt(runs, (attempt) => {
    /** @type {number[][]} */
    const times = runs.map(() => []);
    /** @type {number[][]} */
    const befores = runs.map(() => []);
    const steps = runs.map(() => Number.POSITIVE_INFINITY); // reset before the first call, as measureOnce
    for (let sweep = 0, kept = 0; kept < budgetOptions.minIterations; sweep++) {
      const since = sweep % (alternate.fresh + ALTERNATE_WARM);
      if (since === 0 && (sweep > 0 || attempt > 1)) {
        for (let i = 0; i < runs.length; i++) {
          runs[i].dispose();
          runs[i] = setups[i]();
          steps[i] = Number.POSITIVE_INFINITY;
        }
      }
      const keep = since >= ALTERNATE_WARM;
      for (let k = 0; k < runs.length; k++) {
        const i = sweep % 2 ? runs.length - 1 - k : k;
        const run = runs[i];
        if (++steps[i] > MAX_STEPS_BETWEEN_RESETS) {
          run.reset();
          steps[i] = 1;
        }
        const b0 = performance.now();
        run.before?.();
        const t0 = performance.now();
        run.call();
        const t1 = performance.now();
        if (keep) {
          times[i].push(t1 - t0);
          if (run.before) befores[i].push(t0 - b0);
        }
      }
      if (keep) kept++;
    }
    return times.map((list, i) => ({
      ...sampleStats(list, n),
      ...(runs[i].before ? { beforeNsPerElementP50: (median(befores[i]) * 1e6) / n } : {}),
    }));
  });
}
/** Sweeps after each setup of measureAlternating that are not kept: the first calls on new objects. */
const ALTERNATE_WARM = 3;

/**
 * A row's statistics from its samples (ms per call, one call each), as tinybench computes them:
 * mean, median and 75th percentile (linear interpolation), and the 95 % margin of error with the
 * normal approximation (the rows that use it keep 100 samples or more).
 * @param {number[]} samples @param {number} n
 */
function sampleStats(samples, n) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q) => {
    const x = (sorted.length - 1) * q;
    const lo = Math.floor(x);
    return lo === x ? sorted[lo] : sorted[lo] + (x - lo) * (sorted[lo + 1] - sorted[lo]);
  };
  const mean = sorted.reduce((sum, x) => sum + x, 0) / sorted.length;
  const variance = sorted.reduce((sum, x) => sum + (x - mean) ** 2, 0) / (sorted.length - 1);
  const moe = (1.96 * Math.sqrt(variance)) / Math.sqrt(sorted.length);
  const perElement = (ms) => (ms * 1e6) / n;
  return {
    nsPerElement: perElement(QUICK ? at(0.5) : mean),
    nsPerElementP50: perElement(at(0.5)),
    nsPerElementP75: perElement(at(0.75)),
    nsPerElementMoe: perElement(moe),
    rmePercent: (100 * moe) / mean,
    samples: sorted.length,
    callsPerSample: 1,
  };
}

/**
 * The attempts of rows measured together: `measureAttempt(attempt)` gives every row's statistics;
 * rows with a noisy one among them are measured again, as `measure` does, up to MAX_ATTEMPTS,
 * keeping the attempt whose rows' medians sum least (every row from the same attempt).
 * @param {any[]} runs @param {(attempt: number) => any[]} measureAttempt
 */
function bestAttempt(runs, measureAttempt) {
  /** @type {any[] | null} */
  let best = null;
  let attempts = 0;
  while (attempts < MAX_ATTEMPTS && (best === null || best.some((s) => s.noisy))) {
    attempts++;
    const stats = measureAttempt(attempts).map((s) => ({ ...s, noisy: isNoisy(s) }));
    const total = (list) => list.reduce((sum, x) => sum + x.nsPerElementP50, 0);
    if (best === null || total(stats) < total(best)) best = stats;
  }
  return { runs, stats: /** @type {any[]} */ (best).map((s) => ({ ...s, attempts })) };
}

// ---------------------------------------------------------------------------------------------
// Run

/** @type {Record<string, import('../dist/index.js').Solver>} */
const solvers = {};
for (const backend of /** @type {import('../dist/index.js').Backend[]} */ (BACKENDS)) {
  solvers[backend] = await createSolver(backend === 'js' ? { backend } : { backend, memoryBytes: MEMORY_BYTES });
  if (solvers[backend].backend !== backend) throw new Error(`asked for ${backend}, got ${solvers[backend].backend}`);
}

/**
 * One measured row: the task, the statistics, and the ratios computed after the run.
 * @typedef {{ suite: string, kernel: string, variant: string | null, params: string, backend: string, arrays: string, n: number,
 *   nsPerElement: number, nsPerElementP50: number, nsPerElementP75: number, nsPerElementMoe: number, rmePercent: number,
 *   samples: number, callsPerSample: number, attempts: number, noisy: boolean, beforeNsPerElementP50?: number,
 *   speedupVsJs?: number | null, speedupVsPlainJs?: number | null, vsFloor?: number | null }} Row
 */
/** @type {Row[]} */
const rows = [];
const warnings = [];

console.log(
  `spring-solver benchmark (${QUICK ? 'quick' : 'full'}${FILTER ? `, filter "${FILTER}"` : ''}` +
    `${SUITE_OPTION !== undefined ? `, suite ${selected.map((s) => s.name).join(', ')}` : ''}): ` +
    `node ${process.version}, ${os.cpus()[0]?.model ?? 'unknown CPU'} × ${os.cpus().length}, dt = 1/60`,
);

/**
 * The units a group's tasks are measured in: one (task, backend) pair alone, or pairs measured
 * together in alternating rounds (`measureInterleaved`): a task's backends when it sets
 * `interleaved: true`, or every backend of every task of the group that sets the same
 * `interleave` key (the vrm suite: three-vrm, SpringBones and the floor, so that a row's ratio to
 * another does not carry the drift of the machine between them).
 */
function unitsOf(tasks) {
  /** @type {{ task: any, backend: string }[][]} */
  const units = [];
  const together = new Map();
  for (const task of tasks) {
    const pairs = (task.backends ?? BACKENDS).map((backend) => ({ task, backend }));
    const key = task.interleave ?? (task.interleaved ? task : null);
    if (key === null) {
      for (const pair of pairs) units.push([pair]);
      continue;
    }
    if (!together.has(key)) {
      together.set(key, []);
      units.push(together.get(key));
    }
    together.get(key).push(...pairs);
  }
  return units;
}

for (const group of plan) {
  const { suite, n } = group;
  process.stdout.write(`${heading(group)}: `);
  const rowLabel = ({ task, backend }) => `${label(task)} ${task.params} ${backend} N=${n}`;
  // (a suite may set its own budget: calls of milliseconds)
  const budgetOf = ({ task, backend }) => ({ ...budget(n, backend, Boolean(task.floor)), ...task.budget });
  /** The row of a (task, backend) pair, once measured. */
  const record = ({ task, backend }, run, stats) => {
    const arrays = task.arrays ?? 'alloc';
    if (!run.bounded()) {
      warnings.push(`${label(task)}${arrays === 'plain' ? ' plain arrays' : ` ${task.params} ${backend}`} N=${n}: state not bounded`);
    }
    run.dispose();
    rows.push({
      suite: suite.name,
      kernel: task.kernel,
      variant: task.variant ?? null,
      params: task.params,
      backend,
      arrays,
      n,
      ...stats,
    });
    process.stdout.write('.');
  };
  for (const unit of unitsOf(group.tasks)) {
    const setup = ({ task, backend }) => task.setup(solvers[backend] ?? null, backend);
    if (unit.length === 1 && !unit[0].task.interleaved) {
      const run = setup(unit[0]);
      record(unit[0], run, measure(rowLabel(unit[0]), n, run.call, run.reset, budgetOf(unit[0]), run.before ?? null));
      continue;
    }
    const fresh = unit.some(({ task }) => task.freshEachRound === true);
    const alternate = unit.find(({ task }) => task.alternate)?.task.alternate ?? null;
    const labels = unit.map(rowLabel);
    const setups = unit.map((pair) => () => setup(pair));
    const { runs, stats } = alternate
      ? measureAlternating(labels, n, setups, budgetOf(unit[0]), alternate)
      : measureInterleaved(labels, n, setups, budgetOf(unit[0]), fresh);
    unit.forEach((pair, i) => record(pair, runs[i], stats[i]));
  }
  group.tasks = []; // their data can go
  process.stdout.write('\n');
}

// Speedup over JS (same suite, kernel, variant, params, N, this run) and ratio to the floor
// (SIMD rows of a suite with a floor: the core kernels).
/**
 * The fastest per-call plain-JS loop row of `row`'s suite, kernel, params and N.
 * @param {Row} row @returns {Row | null}
 */
function fastestPlain(row) {
  const loops = rows.filter(
    (r) =>
      r.suite === row.suite &&
      r.kernel === row.kernel &&
      r.params === row.params &&
      r.n === row.n &&
      r.backend === 'plain-js' &&
      r.variant !== 'plain-JS kept matrix',
  );
  return loops.reduce((/** @type {Row | null} */ best, r) => (best === null || r.nsPerElement < best.nsPerElement ? r : best), null);
}
const same = (a, b) => a.suite === b.suite && a.kernel === b.kernel && a.variant === b.variant && a.params === b.params && a.n === b.n;
for (const row of rows) {
  if (row.kernel === 'dataMovementFloor') {
    Object.assign(row, { speedupVsJs: null, vsFloor: 1 });
    continue;
  }
  const js = rows.find((r) => same(r, row) && r.backend === 'js');
  row.speedupVsJs = js && row.backend !== 'plain-js' ? js.nsPerElement / row.nsPerElement : null;
  // Against the fastest plain-JS loop of the same shape (callers suite; not the kept-matrix loop)
  const plain = fastestPlain(row);
  row.speedupVsPlainJs = plain && row.backend !== 'plain-js' ? plain.nsPerElement / row.nsPerElement : null;
  const floor = rows.find((r) => r.suite === row.suite && r.kernel === 'dataMovementFloor' && r.n === row.n);
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
  const header = ['kernel', 'params', 'backend', 'ns/elem', '±%', 'p75', '×JS', '×plainJS', '×floor', 'samples'];
  const lines = list.map((r) => [
    label(r) + (r.arrays === 'plain' ? ' [plain arrays]' : ''),
    r.params,
    r.backend,
    fmt(r.nsPerElement),
    fmt(r.rmePercent, 2) + (r.noisy ? '!' : ''),
    fmt(r.nsPerElementP75),
    r.speedupVsJs === null ? '' : `${fmt(r.speedupVsJs)}×`,
    r.speedupVsPlainJs === null || r.speedupVsPlainJs === undefined ? '' : `${fmt(r.speedupVsPlainJs)}×`,
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

if (QUICK) {
  // One table, one noise line (the full run's per-row warnings would repeat it on a busy machine).
  for (const group of plan) {
    console.log(`\n${heading(group)}: ns per element, medians`);
    const groupRows = rows.filter((r) => r.suite === group.suite.name && r.n === group.n);
    for (const line of quickTable(groupRows, fmt)) console.log(line);
  }
  console.log(noiseLine(rows, NOISY_RME, (x) => fmt(x, 2)));
} else {
  for (const r of rows.filter((row) => row.noisy)) {
    warnings.push(
      `noisy: ${label(r)} ${r.params} ${r.backend}${r.arrays === 'plain' ? ' (plain arrays)' : ''} N=${r.n}: ` +
        `±${fmt(r.rmePercent, 2)}%, mean/median ${fmt(r.nsPerElement / r.nsPerElementP50)} after ${r.attempts} attempts (other load on the machine?)`,
    );
  }
  for (const group of plan) {
    console.log(`\n${heading(group)}`);
    printTable(rows.filter((r) => r.suite === group.suite.name && r.n === group.n));
  }
}

// The targets, computed from this run: each suite adds its checks through `targets`
// and returns information lines (rows that are reported but are not targets).
const checks = [];
const info = [];
function find(kernel, params, backend, n, variant = null) {
  return rows.find(
    (r) =>
      r.kernel === kernel && r.variant === variant && r.params === params && r.backend === backend && r.n === n && r.arrays === 'alloc',
  );
}
function targetsOf(suite) {
  const add = (check) => checks.push({ suite: suite.name, ...check });
  const findIn = (kernel, params, backend, n, variant = null) =>
    rows.find(
      (r) =>
        r.suite === suite.name && r.kernel === kernel && r.variant === variant && r.params === params && r.backend === backend && r.n === n,
    );
  return {
    fmt,
    find,
    /** SIMD ≥ min× JS for this row; `where` names the size (default `N = n`). */
    speedup({ kernel, variant = null, params, n, min, where = `N = ${n}` }) {
      const row = find(kernel, params, 'simd', n, variant);
      const name = `SIMD ≥ ${min}× JS at ${where}: ${label({ kernel, variant })} (${params})`;
      if (!row || row.speedupVsJs === null || row.speedupVsJs === undefined) return add({ name, status: 'SKIP', value: null, target: min });
      const noisy = row.noisy || Boolean(find(kernel, params, 'js', n, variant)?.noisy);
      add({ name, status: row.speedupVsJs >= min ? 'PASS' : 'FAIL', value: row.speedupVsJs, target: min, unit: '×JS', noisy });
    },
    /** The SIMD speedup of a row that is not a target, as an information line (null if not measured). */
    speedupInfo({ kernel, variant = null, params, n }) {
      const row = find(kernel, params, 'simd', n, variant);
      if (!row || row.speedupVsJs === null) return null;
      return `${label({ kernel, variant })} (${params}) at N = ${n}: SIMD ${fmt(row.speedupVsJs)}× JS${row.noisy ? ' [noisy]' : ''}`;
    },
    /** A ratio the suite computed (null: not measured): PASS when ≤ max (or ≥ min). */
    check({ name, value, max, min, unit, noisy = false }) {
      if (value === null || value === undefined) return add({ name, status: 'SKIP', value: null, target: max ?? min });
      const pass = max !== undefined ? value <= max : value >= min;
      add({ name, status: pass ? 'PASS' : 'FAIL', value, target: max ?? min, unit, noisy });
    },
    /**
     * SIMD against the fastest plain-JS loop of the same shape: ≥ min× faster, or at most
     * maxSlowdown× slower.
     */
    vsPlain({ kernel, variant = null, params, n, min, maxSlowdown }) {
      const row = findIn(kernel, params, 'simd', n, variant);
      const what = `${label({ kernel, variant })} (${params})`;
      const name =
        min !== undefined
          ? `SIMD ≥ ${min}× the fastest plain-JS loop at N = ${n}: ${what}`
          : `SIMD ≤ ${maxSlowdown}× the time of the fastest plain-JS loop at N = ${n}: ${what}`;
      const plain = row ? fastestPlain(row) : null;
      if (!row || !plain) return add({ name, status: 'SKIP', value: null, target: min ?? maxSlowdown });
      const noisy = row.noisy || plain.noisy;
      if (min !== undefined) {
        const value = plain.nsPerElement / row.nsPerElement;
        return add({ name, status: value >= min ? 'PASS' : 'FAIL', value, target: min, unit: `× ${plain.variant}`, noisy });
      }
      const value = row.nsPerElement / plain.nsPerElement;
      add({
        name,
        status: value <= maxSlowdown ? 'PASS' : 'FAIL',
        value,
        target: maxSlowdown,
        unit: `× the time of ${plain.variant}`,
        noisy,
      });
    },
    /** row ≥ min× faster than `against` (each { kernel, variant, params, backend, n }). */
    ratio({ name, row, against, min }) {
      const a = findIn(row.kernel, row.params, row.backend, row.n, row.variant ?? null);
      const b = findIn(against.kernel, against.params, against.backend, against.n, against.variant ?? null);
      if (!a || !b) return add({ name, status: 'SKIP', value: null, target: min });
      const value = b.nsPerElement / a.nsPerElement;
      add({ name, status: value >= min ? 'PASS' : 'FAIL', value, target: min, unit: '×', noisy: a.noisy || b.noisy });
    },
    /** A SIMD row (any variant, params) ≤ max× the floor. */
    floorRatioOf({ kernel, variant = null, params, n, max }) {
      const name = `SIMD ≤ ${max}× floor at N = ${n}: ${label({ kernel, variant })} (${params})`;
      const row = findIn(kernel, params, 'simd', n, variant);
      const floor = rows.find((r) => r.suite === row?.suite && r.kernel === 'dataMovementFloor' && r.n === n);
      if (!row || !floor) return add({ name, status: 'SKIP', value: null, target: max });
      const value = row.nsPerElement / floor.nsPerElement;
      add({ name, status: value <= max ? 'PASS' : 'FAIL', value, target: max, unit: '×floor', noisy: row.noisy || floor.noisy });
    },
    /** A SIMD row against the fastest plain-JS loop, as an information line. */
    plainInfo({ kernel, variant = null, params, n }) {
      const row = findIn(kernel, params, 'simd', n, variant);
      if (!row || row.speedupVsPlainJs === null) return null;
      return `${label({ kernel, variant })} (${params}) at N = ${n}: SIMD ${fmt(row.speedupVsPlainJs)}× the fastest plain-JS loop`;
    },
    /** SIMD ≤ max× the floor (uniform parameters). */
    floorRatio({ kernel, n, max }) {
      const name = `SIMD ≤ ${max}× floor at N = ${n}: ${kernel} (uniform)`;
      const row = find(kernel, 'uniform', 'simd', n);
      const floor = find('dataMovementFloor', 'none', 'simd', n);
      if (!row || !floor || row.vsFloor === null || row.vsFloor === undefined)
        return add({ name, status: 'SKIP', value: null, target: max });
      const noisy = row.noisy || floor.noisy;
      add({ name, status: row.vsFloor <= max ? 'PASS' : 'FAIL', value: row.vsFloor, target: max, unit: '×floor', noisy });
    },
  };
}
for (const suite of selected) {
  const { header, lines } = suite.targets(targetsOf(suite));
  const measured = lines.filter(Boolean);
  if (measured.length) info.push({ header, lines: measured });
}

console.log('\nTargets');
const shown = checks.filter((c) => c.status !== 'SKIP');
for (const c of shown) console.log(`  ${c.status}  ${c.name}  (${fmt(c.value)}${c.unit})${c.noisy ? '  [noisy input: rerun]' : ''}`);
const skipped = checks.length - shown.length;
if (skipped) console.log(`  (${skipped} target(s) not measured in this run${QUICK ? ': --quick has no N = 1048576' : ''})`);
for (const { header, lines } of info) {
  console.log(`  info, not a target (${header}):`);
  for (const line of lines) console.log(`        ${line}`);
}
for (const w of warnings) console.log(`WARNING: ${w}`);

// Results file: bench/results/latest.json for a full, unfiltered run of every suite; quick and
// partial runs write their own (git-ignored) files so they never replace the full results.
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
const sizesOf = (suite) => plan.filter((g) => g.suite === suite).map((g) => g.n);
const result = {
  date: new Date().toISOString(),
  commit: gitCommit(),
  mode: QUICK ? 'quick' : 'full',
  filter: FILTER,
  sizes: [...new Set(plan.map((g) => g.n))].sort((a, b) => a - b),
  suites: Object.fromEntries(selected.map((s) => [s.name, { sizes: sizesOf(s), settings: s.settings }])),
  wallSeconds,
  machine: {
    node: process.version,
    v8: process.versions.v8,
    os: `${os.type()} ${os.release()} (${os.platform()}-${os.arch()})`,
    cpu: cpus[0]?.model ?? 'unknown',
    cores: cpus.length,
    totalMemoryBytes: os.totalmem(),
  },
  settings: { dt: DT, memoryBytes: MEMORY_BYTES, uniform: core.settings.uniform, maxStepsBetweenResets: MAX_STEPS_BETWEEN_RESETS },
  rows,
  checks,
  warnings,
};
const resultsDir = join(dirname(fileURLToPath(import.meta.url)), 'results');
const partial = FILTER !== null || N_OPTION !== undefined || SUITE_OPTION !== undefined;
const fileName = partial ? 'latest-partial.json' : QUICK ? 'latest-quick.json' : 'latest.json';
mkdirSync(resultsDir, { recursive: true });
writeFileSync(join(resultsDir, fileName), `${JSON.stringify(result, null, 2)}\n`);
console.log(`\nwrote bench/results/${fileName} (${rows.length} rows) in ${wallSeconds.toFixed(1)} s`);
// A full run also writes bench/results/summary.json, the small file the README's table comes
// from (committed; latest.json, with every statistic, is git-ignored).
if (!partial && !QUICK) {
  const round = (x) => (x === null || x === undefined ? null : Number(x.toPrecision(3)));
  const summary = {
    date: result.date,
    commit: result.commit,
    machine: `${result.machine.node}, ${result.machine.cpu} × ${result.machine.cores}`,
    dt: DT,
    rows: rows.map((r) => ({
      suite: r.suite,
      kernel: r.kernel,
      variant: r.variant,
      params: r.params,
      backend: r.backend,
      arrays: r.arrays,
      n: r.n,
      nsPerElement: round(r.nsPerElement),
      speedupVsJs: round(r.speedupVsJs),
      speedupVsPlainJs: round(r.speedupVsPlainJs),
      vsFloor: round(r.vsFloor),
      noisy: r.noisy,
    })),
    checks: checks.map((c) => ({
      suite: c.suite,
      name: c.name,
      status: c.status,
      value: round(c.value),
      unit: c.unit ?? null,
      noisy: Boolean(c.noisy),
    })),
  };
  writeFileSync(join(resultsDir, 'summary.json'), `${JSON.stringify(summary, null, 1)}\n`);
  console.log('wrote bench/results/summary.json');
}

for (const solver of Object.values(solvers)) solver.dispose();
