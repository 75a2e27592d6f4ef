/**
 * Timing a kernel call in the browser. performance.now() is coarse in browsers (0.1 ms in
 * Chromium without cross-origin isolation), so calls are repeated back to back until a sample
 * lasts at least MIN_SAMPLE_MS; the result is the median sample divided by calls and elements.
 */

const MIN_SAMPLE_MS = 5;
const MAX_REPS = 1 << 16;

/** Lets the page repaint between samples. */
const yieldToPage = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** Median nanoseconds per element of `run` (one call over n elements), sampled for about budgetMs. */
export async function nsPerElement(run: () => void, n: number, budgetMs: number): Promise<number> {
  let reps = 1;
  for (;;) {
    const elapsed = timeCalls(run, reps); // also the warm-up
    if (elapsed >= MIN_SAMPLE_MS || reps >= MAX_REPS) break;
    reps = Math.min(MAX_REPS, reps * Math.max(2, Math.ceil(MIN_SAMPLE_MS / Math.max(elapsed, 0.05))));
  }
  const samples: number[] = [];
  const until = performance.now() + budgetMs;
  while (samples.length < 5 || performance.now() < until) {
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

/** `runs` back-to-back runs of nsPerElement (each with budgetMs of samples): their median, min and max. */
export async function repeatedNsPerElement(run: () => void, n: number, budgetMs: number, runs: number): Promise<Spread> {
  const results: number[] = [];
  for (let r = 0; r < runs; r++) results.push(await nsPerElement(run, n, budgetMs));
  const sorted = [...results].sort((a, b) => a - b);
  return { median: sorted[sorted.length >> 1]!, min: sorted[0]!, max: sorted[sorted.length - 1]!, runs: results };
}
