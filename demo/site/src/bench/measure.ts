/**
 * Timing a kernel call in the browser. performance.now() is coarse in browsers (0.1 ms in
 * Chromium without cross-origin isolation), so calls are repeated back to back until a sample
 * lasts at least MIN_SAMPLE_MS; the result is the median sample divided by calls and elements.
 *
 * Every loop is bounded by a count as well as by time: under a headless browser's virtual time
 * (`--virtual-time-budget`, a paused test clock) performance.now() does not advance while a task
 * runs, and a loop waiting for it would never end. A sample of CLOCK_CHECK_ELEMENTS elements or
 * more that took 0 ms means that clock: the timing is then null.
 */

const MIN_SAMPLE_MS = 5;
/** Elements in one sample at most: ~5 ms of the fastest kernel (SIMD, ~0.3 ns per element). */
const MAX_SAMPLE_ELEMENTS = 1 << 24;
/** A sample this large takes ≥ 0.8 ms (≥ 0.2 ns per element): 0 ms means a clock that stands still. */
const CLOCK_CHECK_ELEMENTS = 1 << 22;
const MIN_SAMPLES = 5;
/** At 5 ms a sample, far beyond any budget the page uses; only reached if the clock misbehaves. */
const MAX_SAMPLES = 64;

/** Lets the page repaint between samples. */
const yieldToPage = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Median nanoseconds per element of `run` (one call over n elements), sampled for about budgetMs;
 * null when performance.now() does not advance while the calls run.
 */
export async function nsPerElement(run: () => void, n: number, budgetMs: number): Promise<number | null> {
  const maxReps = Math.max(1, Math.floor(MAX_SAMPLE_ELEMENTS / n));
  let reps = 1;
  for (;;) {
    const elapsed = timeCalls(run, reps); // also the warm-up
    if (elapsed === 0 && reps * n >= CLOCK_CHECK_ELEMENTS) return null;
    if (elapsed >= MIN_SAMPLE_MS || reps >= maxReps) break;
    reps = Math.min(maxReps, reps * Math.max(2, Math.ceil(MIN_SAMPLE_MS / Math.max(elapsed, 0.05))));
  }
  const samples: number[] = [];
  const until = performance.now() + budgetMs;
  while (samples.length < MIN_SAMPLES || (performance.now() < until && samples.length < MAX_SAMPLES)) {
    await yieldToPage();
    samples.push(timeCalls(run, reps));
  }
  samples.sort((a, b) => a - b);
  return (samples[samples.length >> 1]! * 1e6) / (reps * n);
}

function timeCalls(run: () => void, reps: number): number {
  const start = performance.now();
  for (let i = 0; i < reps; i++) run();
  return performance.now() - start;
}

/** The spread of repeated runs: each run is one nsPerElement median. */
export interface Spread {
  median: number;
  min: number;
  max: number;
  runs: number[];
}

/**
 * `runs` back-to-back runs of nsPerElement (each with budgetMs of samples): their median, min and
 * max; null when the clock does not advance (see nsPerElement).
 */
export async function repeatedNsPerElement(run: () => void, n: number, budgetMs: number, runs: number): Promise<Spread | null> {
  const results: number[] = [];
  for (let r = 0; r < runs; r++) {
    const result = await nsPerElement(run, n, budgetMs);
    if (result === null) return null;
    results.push(result);
  }
  const sorted = [...results].sort((a, b) => a - b);
  return { median: sorted[sorted.length >> 1]!, min: sorted[0]!, max: sorted[sorted.length - 1]!, runs: results };
}
