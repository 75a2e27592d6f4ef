// The Benchmark page (demo/site/bench.html) under a headless browser's virtual time: Chromium's
// `--headless --virtual-time-budget=… --dump-dom`, where performance.now() stands still while a task
// runs and only timers move it. The page must reach its finished state (#status data-state="done")
// and say why it has no timings, instead of calibrating forever against a clock that never moves.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../helpers/chromium-launch.js';
import { startDemoSite, type DemoSite } from '../helpers/demo-site.js';

const run = promisify(execFile);
/** Virtual ms the page gets; the fixed page is done after a few (one calibration and no sample). */
const VIRTUAL_BUDGET_MS = 20_000;
/** Real time for Chromium to start, run and dump (about 2 s measured); a page that never ends is killed. */
const REAL_TIMEOUT_MS = 40_000;

let site: DemoSite;

beforeAll(async () => {
  site = await startDemoSite();
});

afterAll(async () => {
  await site?.close();
});

/** The DOM Chromium dumps once the page has used up the virtual time budget. */
async function dumpUnderVirtualTime(page: string): Promise<string> {
  const { stdout } = await run(
    CHROMIUM_PATH,
    [...CHROMIUM_ARGS, '--headless', `--virtual-time-budget=${VIRTUAL_BUDGET_MS}`, '--dump-dom', `${site.url}${page}`],
    { timeout: REAL_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 },
  ).catch((error: { killed?: boolean; message: string }) => {
    if (!error.killed) throw error;
    return { stdout: '' };
  });
  // Killed at the timeout, Chromium exits without dumping anything.
  if (!stdout.includes('</html>')) throw new Error(`${page} did not finish within ${REAL_TIMEOUT_MS} ms of real time under virtual time`);
  return stdout;
}

describe('demo site under virtual time', () => {
  it('Benchmark: finishes, and says performance.now() did not advance', { timeout: REAL_TIMEOUT_MS + 20_000 }, async () => {
    const dom = await dumpUnderVirtualTime('bench.html');
    const status = /<p class="note" id="status" data-state="(\w+)">([^<]*)</.exec(dom);
    expect(status, 'no #status in the dumped DOM').not.toBeNull();
    expect(status![1]).toBe('done');
    expect(status![2]).toMatch(/performance\.now\(\) did not advance/);
    expect(dom).not.toContain('class="error"');
  });
});
