// The quick benchmark that ends `npm start` (`node bench/run.js --quick`): one short table with a
// ×plainJS for every row (the plain-JS loops run in the quick run too), and the noise of the run in
// one line, never as a warning per row. Reads dist/ (npm run build).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

it('node bench/run.js --quick prints one table with SIMD ×plainJS filled and one noise line', () => {
  const out = execFileSync(process.execPath, ['bench/run.js', '--quick'], { cwd: root, timeout: 50_000 }).toString();
  const lines = out.split('\n');
  const header = lines.findIndex((line) =>
    /^kernel +params +JS +scalar wasm +SIMD +fastest plain-JS loop +SIMD ×JS +SIMD ×plainJS$/.test(line),
  );
  expect(header, out).toBeGreaterThan(0);
  const rows = lines.slice(
    header + 2,
    lines.findIndex((line, i) => i > header && line.startsWith('Noise:')),
  );
  // criticalSpringDamper, simpleSpringDamper, springDamper uniform, springDamper per-element
  expect(rows, out).toHaveLength(4);
  for (const row of rows) expect(row, 'a row ends with SIMD ×JS and ×plainJS').toMatch(/ \d[\d.]*× +\d[\d.]*×$/);
  expect(lines.filter((line) => line.startsWith('Noise:'))).toHaveLength(1);
  expect(lines.filter((line) => line.startsWith('WARNING: noisy'))).toEqual([]);
}, 60_000);
