// The README's numbers are measured, not typed: each comes from a file the repository keeps, and
// this test fails when the README and its source disagree.
// - the benchmark tables are the output of `node bench/readme-tables.js` (bench/results/summary.json);
// - the bundle sizes are the output of `node scripts/readme-sizes.mjs` (bench/results/sizes.json,
//   from `node scripts/measure-sizes.mjs --write`), and sizes.json's .wasm sizes are those of the build;
// - the `npm start` time is bench/results/start-time.json's (`node scripts/time-start.mjs --write`);
// - the benchmark numbers in the prose are summary.json's, to the digits the README shows (a range
//   over several runs must contain summary.json's run).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const README = readFileSync(`${root}README.md`, 'utf8');
const json = (path: string) => JSON.parse(readFileSync(`${root}${path}`, 'utf8'));
const output = (script: string) => execFileSync(process.execPath, [script], { cwd: root }).toString();

interface Summary {
  rows: { suite: string; kernel: string; variant: string | null; backend: string; nsPerElement: number }[];
  checks: { suite: string; name: string; value: number | null }[];
}
const summary: Summary = json('bench/results/summary.json');
const sizes = json('bench/results/sizes.json');
const start = json('bench/results/start-time.json');

/** The value of the check of `suite` whose name contains `name`. */
function check(suite: string, name: string): number {
  const found = summary.checks.filter((c) => c.suite === suite && c.name.includes(name));
  expect(found, `${suite}: one check named "${name}"`).toHaveLength(1);
  return found[0]!.value!;
}

/** ns per element of the row of `suite` whose kernel is `kernel`, on SIMD. */
function row(suite: string, kernel: string): number {
  const found = summary.rows.filter((r) => r.suite === suite && r.kernel === kernel && r.backend === 'simd');
  expect(found, `${suite}: one SIMD row ${kernel}`).toHaveLength(1);
  return found[0]!.nsPerElement;
}

/** The numbers the README shows in the first match of `pattern` (its capture groups). */
function shown(pattern: RegExp): string[] {
  const match = pattern.exec(README);
  expect(match, `the README no longer says ${pattern}`).not.toBeNull();
  return match!.slice(1);
}

/** Half a unit of the last digit shown: "0.054" stands for [0.0535, 0.0545]. */
const halfDigit = (text: string) => 0.5 * 10 ** -(text.split('.')[1]?.length ?? 0) + 1e-12;

/** `text` is `value` rounded to the digits it shows. */
function expectShows(text: string, value: number): void {
  expect(Math.abs(Number(text) - value), `README says ${text}, the source ${value}`).toBeLessThanOrEqual(halfDigit(text));
}

/** The range `lo`–`hi` (over several runs) contains `value`, to the digits shown. */
function expectRangeHolds(lo: string, hi: string, value: number): void {
  expect(value, `README's range ${lo}–${hi}, the source ${value}`).toBeGreaterThanOrEqual(Number(lo) - halfDigit(lo));
  expect(value, `README's range ${lo}–${hi}, the source ${value}`).toBeLessThanOrEqual(Number(hi) + halfDigit(hi));
}

/** The README's text between `<!-- name: … -->` and `<!-- end of name -->`. */
function generatedBlock(name: string): string {
  const match = new RegExp(`<!-- ${name}: [^\\n]*-->\\n([\\s\\S]*?)<!-- end of ${name} -->`).exec(README);
  expect(match, `no generated ${name} block in the README`).not.toBeNull();
  return match![1]!;
}

describe('README numbers', () => {
  it('the benchmark tables are `node bench/readme-tables.js` (bench/results/summary.json)', () => {
    const tables = output('bench/readme-tables.js').trimEnd();
    const at = README.indexOf(tables.slice(0, tables.indexOf('(')));
    expect(at, 'the README has no "Full run of `npm run bench`" tables').toBeGreaterThanOrEqual(0);
    expect(README.slice(at, at + tables.length)).toBe(tables);
  });

  it('the bundle sizes are `node scripts/readme-sizes.mjs` (bench/results/sizes.json)', () => {
    expect(generatedBlock('sizes')).toBe(output('scripts/readme-sizes.mjs'));
  });

  it('bench/results/sizes.json holds the sizes of the built .wasm files', () => {
    for (const build of ['simd', 'scalar']) {
      const bytes = readFileSync(`${root}dist/backends/wasm/spring-solver.${build}.wasm`);
      expect({ bytes: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length }, `${build}: rerun measure-sizes --write`).toEqual(
        sizes.wasm[build],
      );
    }
  });

  it('the `npm start` time is bench/results/start-time.json', () => {
    const [total, load, runs, fastest, slowest, ...parts] = shown(
      /`npm start` takes about ([\d.]+) s on a 2-core machine at load average ([\d.]+) \(the median of (\d+) runs, ([\d.]+)–([\d.]+) s\): ([\d.]+) s of build, ([\d.]+) s of crowd demo and ([\d.]+) s of quick benchmark/,
    );
    const totals: number[] = start.runs.map((r: { seconds: number }) => r.seconds);
    expectShows(total!, start.seconds);
    expectShows(load!, start.loadAverage);
    expect(Number(runs)).toBe(totals.length);
    expectShows(fastest!, Math.min(...totals));
    expectShows(slowest!, Math.max(...totals));
    parts.forEach((part, i) => expectShows(part, start.parts[i]));
  });

  it('the prose numbers of the benchmark are summary.json', () => {
    const [mixer] = shown(/a group update adds ([\d.]+)× of what the plain `mixer.update` calls cost in the run of the tables above/);
    expectShows(mixer!, check('three-mixer', 'InertializedMixerGroup.update adds'));

    const [packed, plain, trs, translation] = shown(
      /takes ([\d.]+)× the time of the\s+packed kernel alone and runs ([\d.]+)× faster than a plain-JS spring[^;]*; with\s+rotation and scale springs it takes ([\d.]+) ns an instance against ([\d.]+) ns/,
    );
    expectShows(packed!, check('three-buffers', 'the packed kernel'));
    expectShows(plain!, check('three-buffers', 'plain-JS spring'));
    expectShows(trs!, row('three-buffers', 'InstancedSprings.update T·R·S'));
    expectShows(translation!, row('three-buffers', 'InstancedSprings.update'));

    const [lo10, hi10] = shown(/10 avatars ([\d.]+)–([\d.]+)× faster than three-vrm's own/);
    expectRangeHolds(lo10!, hi10!, check('vrm', '10 avatars: SpringBones.update'));
    const [lo100, hi100] = shown(/100 avatars ([\d.]+)–([\d.]+)× \(/);
    expectRangeHolds(lo100!, hi100!, check('vrm', '100 avatars: SpringBones.update'));
    const [loFloor, hiFloor] = shown(/stays above 3× the floor in every run \(([\d.]+)–([\d.]+)×\)/);
    expectRangeHolds(loFloor!, hiFloor!, check('callers', 'SIMD ≤ 3× floor at N = 1048576: criticalSpringDamper prepared'));
    const [loVrm, hiVrm] = shown(/The `vrm` target at 100 avatars fails in every run \(([\d.]+)–([\d.]+)×\)/);
    expectRangeHolds(loVrm!, hiVrm!, check('vrm', '100 avatars: SpringBones.update'));
    const [instanced] = shown(/InstancedSprings.update [\d.]+× the packed kernel \([\d.]+× and ([\d.]+)× here\)/);
    expectShows(instanced!, check('three-buffers', 'the packed kernel'));
    const rates = shown(/differ from the 60 Hz run by ([\d.]+)×,\s+([\d.]+)×, ([\d.]+)× and ([\d.]+)× of what three-vrm's own runs differ/);
    rates.forEach((text, i) => expectShows(text, check('vrm', `fixedStep 1/60 at ${[30, 90, 120, 240][i]} Hz`)));
  });
});
