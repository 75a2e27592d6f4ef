/** The Benchmark page's two uPlot charts: ns per element against N, and the speedup over JS. */
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { Backend } from 'spring-solver';

export const BACKEND_COLORS: Record<Backend, string> = { js: '#f59e0b', wasm: '#10b981', simd: '#2563eb' };

const SIZE = { width: 480, height: 280 };
const POINTS = { show: true, size: 7 };

function chart(parent: HTMLElement, title: string, yLabel: string, logY: boolean, series: uPlot.Series[]): uPlot {
  return new uPlot(
    {
      // As wide as the page allows, up to SIZE.width (a phone is narrower).
      width: Math.min(SIZE.width, parent.clientWidth || SIZE.width),
      height: SIZE.height,
      title,
      legend: { live: false },
      scales: {
        x: { time: false, distr: 3, log: 2 },
        y: logY ? { distr: 3, log: 10 } : { range: (_u, _min, max) => [0, Math.max(2, max * 1.1)] },
      },
      axes: [
        { label: 'N (elements)', values: (_u, ticks) => ticks.map((t) => (t == null ? '' : formatCount(t))) },
        { label: yLabel, size: 60 },
      ],
      series: [{ label: 'N' }, ...series],
    },
    [[], ...series.map(() => [])],
    parent,
  );
}

export interface BenchCharts {
  /** Redraws; `ns[backend][i]` is the result at sizes[i], null while not measured. */
  update(sizes: number[], ns: Record<Backend, (number | null)[]>): void;
}

export function buildCharts(parent: HTMLElement, backends: readonly Backend[]): BenchCharts {
  const timing = chart(
    parent,
    'Time per element (lower is faster)',
    'ns / element',
    true,
    backends.map((b) => ({ label: b, stroke: BACKEND_COLORS[b], width: 2, points: POINTS })),
  );
  const fast = backends.filter((b) => b !== 'js');
  const speedup = chart(
    parent,
    'Speedup over the JS backend',
    '× faster than JS',
    false,
    fast.map((b) => ({ label: `${b} / js`, stroke: BACKEND_COLORS[b], width: 2, points: POINTS })),
  );
  return {
    update(sizes, ns) {
      timing.setData([sizes, ...backends.map((b) => ns[b])]);
      speedup.setData([sizes, ...fast.map((b) => sizes.map((_, i) => ratio(ns.js[i], ns[b][i])))]);
    },
  };
}

/** How many times faster `fast` is than `slow` (both ns per element), or null. */
export function ratio(slow: number | null | undefined, fast: number | null | undefined): number | null {
  return slow != null && fast != null && fast > 0 ? slow / fast : null;
}

export function formatCount(n: number): string {
  return n >= 1 << 20 ? `${n / (1 << 20)}Mi` : n >= 1024 ? `${n / 1024}Ki` : String(n);
}
