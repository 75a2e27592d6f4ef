// Times `npm start` part by part (each command of its script in package.json, run as npm runs it),
// `--runs n` times (default 3), and prints the seconds; with `--write` stores the runs and their medians
// in bench/results/start-time.json, which the README's `npm start` time comes from
// (test/docs/readme-numbers.node.test.ts checks it). Run it on the machine the README names, with the
// load it has:  node scripts/time-start.mjs --write
import { execFileSync, execSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const script = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).scripts.start;
const commands = script.split(' && ');
const runsOption = process.argv.indexOf('--runs');
const RUNS = runsOption < 0 ? 3 : Number(process.argv[runsOption + 1]);

/** @param {number[]} values */
const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? NaN;
const round = (/** @type {number} */ x) => Number(x.toFixed(1));

const runs = [];
for (let r = 0; r < RUNS; r++) {
  const loadAverage = round(os.loadavg()[0]);
  const parts = commands.map((command) => {
    const started = performance.now();
    execSync(command, { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
    return round((performance.now() - started) / 1000);
  });
  const seconds = round(parts.reduce((sum, s) => sum + s, 0));
  runs.push({ loadAverage, seconds, parts });
  console.log(
    `run ${r + 1}: ${seconds} s (${commands.map((c, i) => `${c}: ${parts[i]} s`).join(', ')}; load average ${loadAverage} before it)`,
  );
}
const result = {
  date: new Date().toISOString(),
  commit: execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root }).toString().trim(),
  machine: `${process.version}, ${os.cpus()[0]?.model ?? 'unknown CPU'} × ${os.cpus().length}`,
  commands,
  /** Medians over the runs: the whole, each command, the load average before a run. */
  seconds: median(runs.map((r) => r.seconds)),
  parts: commands.map((_, i) => median(runs.map((r) => r.parts[i] ?? NaN))),
  loadAverage: median(runs.map((r) => r.loadAverage)),
  runs,
};
console.log(
  `npm start: median ${result.seconds} s of ${RUNS} runs (${Math.min(...runs.map((r) => r.seconds))}–${Math.max(...runs.map((r) => r.seconds))} s)`,
);
if (process.argv.includes('--write')) {
  writeFileSync(new URL('../bench/results/start-time.json', import.meta.url), `${JSON.stringify(result, null, 1)}\n`);
  console.log('wrote bench/results/start-time.json');
}
