// The numbers of the README and docs/benchmarks.md are measured, not typed: each comes from a file the
// repository keeps, and this test fails when a page and its source disagree.
// - the benchmark tables of docs/benchmarks.md are the output of `node bench/readme-tables.js`, and the
//   README's "How fast" summary that of `node bench/readme-tables.js --how-fast` (bench/results/summary.json;
//   `--write` rewrites both);
// - the bundle sizes of docs/benchmarks.md are the output of `node scripts/readme-sizes.mjs`, and the
//   README's summary of them that of `--summary` (bench/results/sizes.json, from `node
//   scripts/measure-sizes.mjs --write`), and sizes.json's .wasm sizes are those of the build;
// - the README's `npm start` time is bench/results/start-time.json's (`node scripts/time-start.mjs --write`);
// - the benchmark numbers in the prose of both pages are summary.json's, to the digits shown (a range
//   over several runs must contain summary.json's run).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readBlock } from '../../tools/generated-block.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const README = readFileSync(`${root}README.md`, 'utf8');
const BENCHMARKS = readFileSync(`${root}docs/benchmarks.md`, 'utf8');
const PAGES = { 'README.md': README, 'docs/benchmarks.md': BENCHMARKS };
type Page = keyof typeof PAGES;
const json = (path: string) => JSON.parse(readFileSync(`${root}${path}`, 'utf8'));
const output = (script: string, ...args: string[]) => execFileSync(process.execPath, [script, ...args], { cwd: root }).toString();

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

/** The numbers `page` shows in the first match of `pattern` (its capture groups). */
function shown(pattern: RegExp, page: Page = 'docs/benchmarks.md'): string[] {
  const match = pattern.exec(PAGES[page]);
  expect(match, `${page} no longer says ${pattern}`).not.toBeNull();
  return match!.slice(1);
}

/** Half a unit of the last digit shown: "0.054" stands for [0.0535, 0.0545]. */
const halfDigit = (text: string) => 0.5 * 10 ** -(text.split('.')[1]?.length ?? 0) + 1e-12;

/** `text` is `value` rounded to the digits it shows. */
function expectShows(text: string, value: number): void {
  expect(Math.abs(Number(text) - value), `the page says ${text}, the source ${value}`).toBeLessThanOrEqual(halfDigit(text));
}

/** The range `lo`–`hi` (over several runs) contains `value`, to the digits shown. */
function expectRangeHolds(lo: string, hi: string, value: number): void {
  expect(value, `the page's range ${lo}–${hi}, the source ${value}`).toBeGreaterThanOrEqual(Number(lo) - halfDigit(lo));
  expect(value, `the page's range ${lo}–${hi}, the source ${value}`).toBeLessThanOrEqual(Number(hi) + halfDigit(hi));
}

/** The text of `page` between `<!-- name: … -->` and `<!-- end of name -->`. */
function generatedBlock(page: Page, name: string): string {
  const block = readBlock(PAGES[page], name);
  expect(block, `no generated ${name} block in ${page}`).not.toBeNull();
  return block!;
}

describe('the numbers of the README and docs/benchmarks.md', () => {
  it('the benchmark tables are `node bench/readme-tables.js` (bench/results/summary.json)', () => {
    expect(generatedBlock('docs/benchmarks.md', 'tables')).toBe(output('bench/readme-tables.js'));
  });

  it("the README's How fast summary is `node bench/readme-tables.js --how-fast` (bench/results/summary.json)", () => {
    expect(generatedBlock('README.md', 'how-fast')).toBe(output('bench/readme-tables.js', '--how-fast'));
  });

  it('the bundle sizes are `node scripts/readme-sizes.mjs` (bench/results/sizes.json), summed up in the README', () => {
    expect(generatedBlock('docs/benchmarks.md', 'sizes')).toBe(output('scripts/readme-sizes.mjs'));
    expect(generatedBlock('README.md', 'sizes-summary')).toBe(output('scripts/readme-sizes.mjs', '--summary'));
  });

  it('the README shows no benchmark table or target of its own: they are in docs/benchmarks.md', () => {
    expect(README).not.toMatch(/\| (PASS|FAIL) \|/);
    expect(README).not.toContain('Full run of `npm run bench`');
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
      'README.md',
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
    const [mixer] = shown(/a group update adds (-?[\d.]+)× of what the plain `mixer.update` calls cost in the run of the tables above/);
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
    const [loFloor, hiFloor] = shown(/moves between ([\d.]+)× and ([\d.]+)× the floor from run to run/);
    expectRangeHolds(loFloor!, hiFloor!, check('callers', 'SIMD ≤ 3× floor at N = 1048576: criticalSpringDamper prepared'));
    const [loVrm, hiVrm] = shown(
      /The `vrm` target at 100 avatars \(7×\) passes in \d+ of \d+ runs of the suite on [^(]+\(([\d.]+)–([\d.]+)×/,
    );
    expectRangeHolds(loVrm!, hiVrm!, check('vrm', '100 avatars: SpringBones.update'));
    const [instanced] = shown(/InstancedSprings.update [\d.]+× the packed kernel \([\d.]+× and ([\d.]+)× here\)/);
    expectShows(instanced!, check('three-buffers', 'the packed kernel'));
    const rates = shown(
      /differ from the 60 Hz run by ([\d.]+)×,\s+([\d.]+)×, ([\d.]+)× and ([\d.]+)× of what three-vrm's own runs differ/,
      'README.md',
    );
    rates.forEach((text, i) => expectShows(text, check('vrm', `fixedStep 1/60 at ${[30, 90, 120, 240][i]} Hz`)));
  });
});
