/**
 * One model's card on the Springs page: a uPlot chart of the goal, the value of each trace (one
 * per frame rate) and the intermediate target of the composite springs, over the last few
 * seconds. Pressing or dragging in the chart reports the goal under the pointer.
 */
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { PlotData } from '../common/test-hooks.js';
import type { SpringModel } from './models.js';
import type { Trace } from './trace.js';

/** The goal stays within ±1; over- and undershoot have room up to ±1.6. */
export const Y_RANGE: [number, number] = [-1.6, 1.6];
const HEIGHT = 170;
/** px: the chart fills its card, but no narrower than this. */
const MIN_WIDTH = 280;

/** The look of a trace's value line, by frame rate: coarse thick and under, fine thin and on top. */
export function valueStyle(dt: number, overlaid: boolean): { stroke: string; width: number; label: string } {
  const hz = Math.round(1 / dt);
  const label = `value ${Math.abs(1 / dt - hz) < 1e-6 ? `${hz} Hz` : `dt ${(dt * 1000).toFixed(1)} ms`}`;
  if (!overlaid) return { stroke: '#2563eb', width: 2, label };
  if (hz <= 30) return { stroke: '#f59e0b', width: 5, label };
  if (hz <= 60) return { stroke: '#10b981', width: 3, label };
  return { stroke: '#2563eb', width: 1.25, label };
}
export const GOAL_STYLE = { stroke: '#64748b', width: 2 };
export const INTERMEDIATE_STYLE = { stroke: '#c026d3', width: 1.5, dash: [5, 4] };

export class PlotCard {
  readonly element: HTMLElement;
  private plot: uPlot | null = null;
  private readonly badge: HTMLElement;
  private readonly chart: HTMLElement;
  private pressed = false;

  constructor(
    readonly model: SpringModel,
    onGoal: (value: number) => void,
  ) {
    this.element = document.createElement('article');
    this.element.className = 'card';
    this.element.dataset.model = model.id;
    const title = document.createElement('h2');
    // Non-breaking hyphens: on a phone 'euler-substep' wraps as a whole, not at its hyphen.
    title.textContent = model.label.replaceAll('-', '\u2011');
    this.badge = document.createElement('span');
    title.append(this.badge);
    const source = document.createElement('div');
    source.className = 'source';
    source.textContent = `${model.source} · ${model.uses.join(', ')}`;
    this.chart = document.createElement('div');
    this.element.append(title, source, this.chart);
    this.setDiverged(false);

    const goalAt = (event: MouseEvent) => {
      if (!this.plot) return;
      const value = this.plot.posToVal(event.offsetY, 'y');
      onGoal(Math.max(-1, Math.min(1, value)));
    };
    this.chart.addEventListener('mousedown', (event) => {
      if (!(event.target as HTMLElement).classList.contains('u-over')) return;
      this.pressed = true;
      goalAt(event);
    });
    this.chart.addEventListener('mousemove', (event) => this.pressed && goalAt(event));
    window.addEventListener('mouseup', () => (this.pressed = false));
    new ResizeObserver(() => this.plot?.setSize({ width: this.width(), height: HEIGHT })).observe(this.chart);
  }

  /** Recreates the chart for these traces (their number or rates changed). */
  rebuild(traces: readonly Trace[]): void {
    this.plot?.destroy();
    const overlaid = traces.length > 1;
    const series: uPlot.Series[] = [
      {},
      { label: 'goal', ...GOAL_STYLE, paths: uPlot.paths.stepped!({ align: 1 }), points: { show: false } },
    ];
    for (const trace of coarseFirst(traces)) series.push({ ...valueStyle(trace.dt, overlaid), points: { show: false } });
    // Last, so the thick value lines do not hide it.
    if (this.model.hasIntermediate) series.push({ label: 'intermediate', ...INTERMEDIATE_STYLE, points: { show: false } });
    this.plot = new uPlot(
      {
        width: this.width(),
        height: HEIGHT,
        legend: { show: false },
        cursor: { drag: { x: false, y: false }, points: { show: false } },
        scales: { x: { time: false }, y: { range: Y_RANGE } },
        axes: [{ size: 28, values: (_u, ticks) => ticks.map((t) => `${t.toFixed(0)} s`) }, { size: 36 }],
        series,
      },
      [[], ...series.slice(1).map(() => [])],
      this.chart,
    );
  }

  /** Redraws from the traces' samples, showing [end − span, end] (s). */
  update(traces: readonly Trace[], end: number, span: number): void {
    if (!this.plot) return;
    const finest = traces.reduce((a, b) => (b.dt < a.dt ? b : a));
    const tables: uPlot.AlignedData[] = [
      [finest.t, finest.goal],
      ...coarseFirst(traces).map((trace): uPlot.AlignedData => [trace.t, trace.value]),
    ];
    if (this.model.hasIntermediate) tables.push([finest.t, finest.intermediate]);
    const data = uPlot.join(tables);
    this.plot.batch(() => {
      this.plot!.setData(data, false);
      this.plot!.setScale('x', { min: end - span, max: end });
    });
    this.setDiverged(traces.some((trace) => trace.divergences > 0));
  }

  /** The plotted data, as uPlot holds it (for the browser tests). */
  get data(): PlotData | undefined {
    return this.plot?.data as PlotData | undefined;
  }

  private width(): number {
    return Math.max(MIN_WIDTH, this.chart.clientWidth);
  }

  private setDiverged(diverged: boolean): void {
    const { exact } = this.model;
    this.badge.className = `badge${diverged ? ' diverged' : exact ? '' : ' approximate'}`;
    this.badge.textContent = diverged ? 'diverged: restarted' : exact ? 'exact at any dt' : 'depends on dt';
  }
}

/** Largest dt first: drawn first, so the finer curves lie on top. */
function coarseFirst(traces: readonly Trace[]): Trace[] {
  return [...traces].sort((a, b) => b.dt - a.dt);
}
