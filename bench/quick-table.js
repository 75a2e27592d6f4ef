// The quick run's report (`node bench/run.js --quick`, the end of `npm start`): one line per kernel and
// parameters with every backend's median ns per element, the fastest plain-JS loop, and the SIMD ratios;
// then one line on the noise of the run, in place of a warning per row.

/**
 * @typedef {{ kernel: string, variant: string | null, params: string, backend: string, n: number, nsPerElement: number,
 *   rmePercent: number, noisy: boolean, speedupVsJs?: number | null, speedupVsPlainJs?: number | null }} QuickRow
 */

/**
 * The table's lines: one per (kernel, params) that has a SIMD row, in the order measured.
 * @param {QuickRow[]} rows @param {(value: number | null | undefined) => string} fmt
 * @returns {string[]}
 */
export function quickTable(rows, fmt) {
  const simdRows = rows.filter((r) => r.backend === 'simd' && r.variant === null);
  const of = (/** @type {QuickRow} */ simd, /** @type {string} */ backend) =>
    rows.find((r) => r.kernel === simd.kernel && r.params === simd.params && r.n === simd.n && r.backend === backend && r.variant === null);
  const fastestPlain = (/** @type {QuickRow} */ simd) =>
    rows
      .filter((r) => r.kernel === simd.kernel && r.params === simd.params && r.n === simd.n && r.backend === 'plain-js')
      .sort((a, b) => a.nsPerElement - b.nsPerElement)[0];
  const times = (/** @type {number | null | undefined} */ x) => (x === null || x === undefined ? '–' : `${fmt(x)}×`);
  const header = ['kernel', 'params', 'JS', 'scalar wasm', 'SIMD', 'fastest plain-JS loop', 'SIMD ×JS', 'SIMD ×plainJS'];
  const body = simdRows.map((simd) => {
    const plain = fastestPlain(simd);
    return [
      simd.kernel,
      simd.params,
      fmt(of(simd, 'js')?.nsPerElement),
      fmt(of(simd, 'wasm')?.nsPerElement),
      fmt(simd.nsPerElement),
      plain ? `${fmt(plain.nsPerElement)} (${(plain.variant ?? '').replace('plain-JS ', '')})` : '–',
      times(simd.speedupVsJs),
      times(simd.speedupVsPlainJs),
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((l) => /** @type {string} */ (l[i]).length)));
  const line = (/** @type {string[]} */ cells) =>
    cells.map((c, i) => (i < 2 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  return [line(header), widths.map((w) => '─'.repeat(w)).join('  '), ...body.map(line)];
}

/**
 * One line on the run's noise: the largest margin of error of a median, and the rows above the
 * threshold, named (the machine was busy: their ratios are rough).
 * @param {QuickRow[]} rows @param {number} thresholdPercent @param {(value: number) => string} fmt
 */
export function noiseLine(rows, thresholdPercent, fmt) {
  const largest = rows.reduce((worst, r) => (r.rmePercent > worst.rmePercent ? r : worst));
  const name = (/** @type {QuickRow} */ r) => `${r.kernel}${r.variant ? ` ${r.variant}` : ''} ${r.params} ${r.backend}`;
  const noisy = rows.filter((r) => r.noisy);
  if (noisy.length === 0) {
    return `Noise: every median within ±${fmt(largest.rmePercent)} % (95 % margin of error; largest: ${name(largest)}).`;
  }
  return (
    `Noise: ${noisy.length} of ${rows.length} medians above ±${thresholdPercent} % (${noisy.map((r) => `${name(r)} ±${fmt(r.rmePercent)} %`).join(', ')}): ` +
    'another process was busy; their ratios are rough, rerun for stable numbers.'
  );
}
