// The Benchmark page: times one kernel on the SIMD, scalar wasm and JS backends at several N,
// in this browser, and charts nanoseconds per element and the speedup over JS.
import { createSolver, type Backend, type Solver } from 'spring-solver';
import '../common/style.css';
import { markReady, showError } from '../common/page.js';
import type { BenchDemoHook } from '../common/test-hooks.js';
import { BENCH_CASES, type BenchCase } from './cases.js';
import { buildCharts, formatCount, ratio } from './charts.js';
import { repeatedNsPerElement, type Spread } from './measure.js';

const BACKENDS: readonly Backend[] = ['js', 'wasm', 'simd'];
const SIZES = [1024, 16384, 262144];
/** ms of samples per run of a (backend, N), after calibration. */
const BUDGET_MS = 40;
/** Runs per (backend, N): the table shows their median and their range. */
const RUNS = 5;
/** Room for the largest N's 6 arrays on every backend. */
const MEMORY_BYTES = 32 * 1024 * 1024;

async function main(): Promise<void> {
  const controls = document.getElementById('controls')!;
  const status = document.getElementById('status')!;
  const table = document.getElementById('results') as HTMLTableElement;
  const charts = buildCharts(document.getElementById('charts')!, BACKENDS);

  const select = document.createElement('select');
  select.id = 'kernel';
  for (const benchCase of BENCH_CASES) select.add(new Option(benchCase.label, benchCase.id));
  const button = document.createElement('button');
  button.id = 'run';
  button.textContent = 'Run again';
  controls.append(select, button);

  const solvers = Object.fromEntries(
    await Promise.all(BACKENDS.map(async (b) => [b, await createSolver({ backend: b, memoryBytes: MEMORY_BYTES })])),
  ) as Record<Backend, Solver>;
  const published: BenchDemoHook = { results: [] };
  window.benchDemo = published;

  async function run(): Promise<void> {
    const benchCase = BENCH_CASES.find((c) => c.id === select.value)!;
    button.disabled = select.disabled = true;
    status.dataset.state = 'running';
    published.results = [];
    const ns = Object.fromEntries(BACKENDS.map((b) => [b, SIZES.map(() => null)])) as Record<Backend, (number | null)[]>;
    const spreads = Object.fromEntries(BACKENDS.map((b) => [b, SIZES.map(() => null)])) as Record<Backend, (Spread | null)[]>;
    for (const [i, n] of SIZES.entries()) {
      for (const backend of BACKENDS) {
        status.textContent = `Timing ${benchCase.id} on '${backend}' at N = ${formatCount(n)}…`;
        const spread = await timeCase(benchCase, solvers[backend], n);
        if (spread === null) return finish(NO_CLOCK);
        spreads[backend][i] = spread;
        ns[backend][i] = spread.median;
        published.results.push({ backend, n, nsPerElement: spread.median, min: spread.min, max: spread.max, runs: spread.runs });
        charts.update(SIZES, ns);
        showTable(table, spreads);
      }
    }
    const last = SIZES.length - 1;
    finish(`Done: at N = ${formatCount(SIZES[last]!)}, SIMD is ${ratio(ns.js[last], ns.simd[last])!.toFixed(1)}× faster than JS.`);
  }

  function finish(text: string): void {
    status.textContent = text;
    status.dataset.state = 'done';
    button.disabled = select.disabled = false;
  }

  button.addEventListener('click', () => void run().catch(showError));
  markReady();
  await run();
}

/** The page's end when performance.now() stands still (nsPerElement returned null). */
const NO_CLOCK =
  'Stopped: performance.now() did not advance while the kernels ran (a headless browser’s virtual time?), so nothing can be timed here.';

async function timeCase(benchCase: BenchCase, solver: Solver, n: number): Promise<Spread | null> {
  const { run, dispose } = benchCase.setup(solver, n);
  try {
    return await repeatedNsPerElement(run, n, BUDGET_MS, RUNS);
  } finally {
    dispose();
  }
}

/** Medians of RUNS runs with their range (min–max); the ratios are of the medians. */
function showTable(table: HTMLTableElement, spreads: Record<Backend, (Spread | null)[]>): void {
  const cell = (value: number | null | undefined, digits: number, suffix = '') =>
    value == null ? '…' : `${value.toFixed(digits)}${suffix}`;
  const spreadCell = (s: Spread | null | undefined) =>
    s == null ? '…' : `${s.median.toFixed(2)} (${s.min.toFixed(2)}–${s.max.toFixed(2)})`;
  const header = ['N', ...BACKENDS.map((b) => `${b} ns/element, median (min–max of ${RUNS})`), 'simd vs js', 'wasm vs js'];
  const rows = SIZES.map((n, i) => [
    formatCount(n),
    ...BACKENDS.map((b) => spreadCell(spreads[b][i])),
    cell(ratio(spreads.js[i]?.median, spreads.simd[i]?.median), 1, '×'),
    cell(ratio(spreads.js[i]?.median, spreads.wasm[i]?.median), 1, '×'),
  ]);
  table.replaceChildren(
    ...[header, ...rows].map((cells, r) => {
      const row = document.createElement('tr');
      for (const text of cells) {
        const element = document.createElement(r === 0 ? 'th' : 'td');
        element.textContent = text;
        row.append(element);
      }
      return row;
    }),
  );
}

main().catch(showError);
