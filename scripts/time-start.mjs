// Times `npm start` part by part (each command of its script in package.json, run as npm runs it) and
// prints the seconds; with `--write` stores them in bench/results/start-time.json, which the README's
// `npm start` time comes from (test/docs/readme-numbers.node.test.ts checks it). Run it on the machine
// the README names, with the load it has:  node scripts/time-start.mjs --write
import { execFileSync, execSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const script = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).scripts.start;
const loadBefore = os.loadavg()[0];

const parts = [];
for (const command of script.split(' && ')) {
  const started = performance.now();
  execSync(command, { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  parts.push({ command, seconds: Number(((performance.now() - started) / 1000).toFixed(1)) });
  console.log(`${command}: ${parts.at(-1)?.seconds} s`);
}
const seconds = Number(parts.reduce((sum, p) => sum + p.seconds, 0).toFixed(1));
console.log(`npm start: ${seconds} s (load average ${loadBefore.toFixed(2)} before it, ${os.cpus().length} cores)`);

if (process.argv.includes('--write')) {
  const result = {
    date: new Date().toISOString(),
    commit: execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root }).toString().trim(),
    machine: `${process.version}, ${os.cpus()[0]?.model ?? 'unknown CPU'} × ${os.cpus().length}`,
    loadAverageBefore: Number(loadBefore.toFixed(2)),
    seconds,
    parts,
  };
  writeFileSync(new URL('../bench/results/start-time.json', import.meta.url), `${JSON.stringify(result, null, 1)}\n`);
  console.log('wrote bench/results/start-time.json');
}
