// The benchmark's numbers in the docs, from bench/results/summary.json, the small file a full
// `npm run bench` writes and the repository keeps:
//   node bench/readme-tables.js              prints the tables of docs/benchmarks.md (every row and target)
//   node bench/readme-tables.js --how-fast   prints the README's "How fast" summary (a few headline ratios)
//   node bench/readme-tables.js --write      writes both into their generated blocks
// test/docs/readme-numbers.node.test.ts fails while either file and this output disagree.
import { readFileSync } from 'node:fs';
import { writeBlock } from '../tools/generated-block.js';

const summary = JSON.parse(readFileSync(new URL('./results/summary.json', import.meta.url), 'utf8'));
/** @typedef {{ suite: string, kernel: string, variant: string | null, params: string, backend: string, n: number, nsPerElement: number, speedupVsJs: number | null, speedupVsPlainJs: number | null, vsFloor: number | null, noisy: boolean }} Row */
/** @type {Row[]} */
const rows = summary.rows;

/** @param {number | null | undefined} x */
const num = (x) => (x === null || x === undefined ? '' : x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(x >= 1 ? 2 : 3));
/** @param {number | null | undefined} x */
const times = (x) => (x === null || x === undefined ? '' : `${num(x)}×`);

/**
 * @param {string} suite @param {string} kernel @param {string | null} variant @param {string} params
 * @param {string} backend @param {number} n
 */
function find(suite, kernel, variant, params, backend, n) {
  return rows.find(
    (r) => r.suite === suite && r.kernel === kernel && r.variant === variant && r.params === params && r.backend === backend && r.n === n,
  );
}

/** @param {string[]} header @param {string[][]} body */
function table(header, body) {
  return [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...body.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

const CORE = [
  'damper',
  'springDamper',
  'springDamperStiffness',
  'springDamperRatio',
  'criticalSpringDamper',
  'simpleSpringDamper',
  'decaySpringDamper',
];

/** @param {number} n */
function coreTable(n) {
  const body = [];
  for (const kernel of CORE) {
    for (const params of ['uniform', 'per-element']) {
      const simd = find('core', kernel, null, params, 'simd', n);
      if (!simd) continue;
      const js = find('core', kernel, null, params, 'js', n);
      const wasm = find('core', kernel, null, params, 'wasm', n);
      body.push([
        kernel,
        params,
        num(js?.nsPerElement),
        num(wasm?.nsPerElement),
        num(simd.nsPerElement),
        times(simd.speedupVsJs),
        times(simd.vsFloor),
      ]);
    }
  }
  return table(['kernel', 'params', 'JS', 'scalar wasm', 'SIMD', 'SIMD ×JS', 'SIMD ×floor'], body);
}

function callersTable() {
  const body = [];
  for (const n of [16, 65536, 1048576]) {
    for (const kernel of ['criticalSpringDamper', 'simpleSpringDamper', 'springDamper']) {
      for (const params of ['uniform', 'per-element']) {
        for (const variant of [null, 'prepared', 'prepared, dt varies']) {
          const simd = find('callers', kernel, variant, params, 'simd', n);
          if (!simd) continue;
          const plain = rows
            .filter(
              (r) =>
                r.suite === 'callers' &&
                r.kernel === kernel &&
                r.params === params &&
                r.backend === 'plain-js' &&
                r.n === n &&
                r.variant !== 'plain-JS kept matrix',
            )
            .sort((a, b) => a.nsPerElement - b.nsPerElement)[0];
          const call = variant === null ? 'ordinary' : variant === 'prepared' ? 'prepared, dt fixed' : 'prepared, dt varies';
          body.push([
            String(n),
            kernel,
            params,
            call,
            num(simd.nsPerElement),
            plain ? `${num(plain.nsPerElement)} (${plain.variant})` : '',
            times(simd.speedupVsPlainJs),
            times(simd.speedupVsJs),
            times(simd.vsFloor),
          ]);
        }
      }
    }
  }
  return table(
    ['N', 'kernel', 'params', 'call', 'SIMD ns/elem', 'fastest plain-JS ns/elem', 'SIMD ×plainJS', 'SIMD ×JS', 'SIMD ×floor'],
    body,
  );
}

function checksTable() {
  /** @type {{ suite: string, name: string, status: string, value: number | null, unit?: string, noisy?: boolean }[]} */
  const checks = summary.checks;
  return table(
    ['suite', 'target', 'measured', ''],
    checks.map((c) => [c.suite, c.name, `${num(c.value)}${c.unit ?? ''}${c.noisy ? ' (noisy)' : ''}`, c.status]),
  );
}

/**
 * The value of the one target of `suite` whose name contains `name`.
 * @param {string} suite @param {string} name
 */
function check(suite, name) {
  /** @type {{ suite: string, name: string, value: number | null }[]} */
  const found = summary.checks.filter((/** @type {{ suite: string, name: string }} */ c) => c.suite === suite && c.name.includes(name));
  if (found.length !== 1) throw new Error(`readme-tables: ${found.length} targets of ${suite} named "${name}"`);
  return found[0].value;
}

const run = `commit ${summary.commit.slice(0, 7)}, ${summary.date.slice(0, 10)}, Node ${summary.machine}`;

function tables() {
  return [
    `Full run of \`npm run bench\` (\`bench/results/summary.json\`, ${summary.date.slice(0, 10)}, commit ${summary.commit.slice(0, 7)}): Node ${summary.machine}; arrays from \`solver.alloc\`; dt = 1/60. ns per element (mean); every ratio is measured in the same run. ×plainJS: the fastest plain-JS loop a user would write from Holden's formulas (with \`Math.exp\` or his \`fast_negexp\`/\`fast_atan\`), its time over the row's. The floor is a SIMD kernel that only loads x, v, g, q and stores x, v.\n`,
    '**Core kernels, N = 65536**\n',
    coreTable(65536),
    '\n**Core kernels, N = 1048576**\n',
    coreTable(1048576),
    "\n**Real callers' shapes** (suite `callers`): one call at N = 16, per-element parameters, prepared calls with the coefficients kept (dt fixed) or recomputed (dt varies).\n",
    callersTable(),
    '\n**Every target, from the same run**\n',
    checksTable(),
  ].join('\n');
}

/** The README's summary: a few ratios a user asks about first, each against what they would use instead. */
function howFast() {
  const perElement = find('core', 'criticalSpringDamper', null, 'per-element', 'simd', 65536);
  const body = [
    ['`criticalSpringDamper`, 65,536 springs, a halflife each', 'the JS backend (the float64 reference)', perElement?.speedupVsJs],
    [
      'the same',
      "the fastest plain-JS loop of Holden's formulas",
      check('callers', 'fastest plain-JS loop at N = 65536: criticalSpringDamper (per-element)'),
    ],
    [
      'the same, prepared (`solver.prepare`, dt fixed)',
      "a plain-JS loop that keeps each spring's transition matrix",
      check('callers', 'kept-matrix loop at N = 65536: criticalSpringDamper'),
    ],
    ['`Inertializer.update`, 250 characters × 20 bones', 'the JS backend', check('quat', 'Inertializer.update 250×20')],
    [
      '`InstancedSprings.update`, 5,000 instances',
      'a plain-JS spring that writes the instance matrices',
      check('three-buffers', 'plain-JS spring'),
    ],
    [
      '`SkeletonBatch` fed by an `InertializedMixerGroup`, 1,000 characters',
      "three's `updateMatrixWorld()` and `skeleton.update()`",
      check('skeleton', 'SkeletonBatch.update, group ≥'),
    ],
    ['`SpringBones.update`, 10 avatars', "three-vrm's `manager.update` of each", check('vrm', '10 avatars: SpringBones.update')],
    ['`SpringBones.update`, 100 avatars', "three-vrm's `manager.update` of each", check('vrm', '100 avatars: SpringBones.update')],
    [
      '`criticalSpringDamper` on 2 threads, 2^20 springs, a halflife each',
      'the same on one thread',
      check('threads', '2 threads ≥ 1.7× one at N = 2^20: criticalSpringDamper (per-element)'),
    ],
  ].map(([what, against, value]) => [String(what), String(against), times(/** @type {number | null | undefined} */ (value))]);
  return [`Measured by the full benchmark (${run}), on the SIMD build:\n`, table(['what', 'against', 'faster'], body)].join('\n');
}

if (process.argv.includes('--write')) {
  writeBlock(new URL('../docs/benchmarks.md', import.meta.url), 'tables', tables());
  writeBlock(new URL('../README.md', import.meta.url), 'how-fast', howFast());
} else {
  console.log(process.argv.includes('--how-fast') ? howFast() : tables());
}
