import type uPlot from 'uplot';

/** Keeps a uPlot chart as wide as its box (at least 240 px) when the page's width changes (a phone turned, a window resized). */
export function followWidth(plot: uPlot, box: HTMLElement): void {
  new ResizeObserver(() => {
    const width = Math.max(240, box.clientWidth);
    if (width !== plot.width) plot.setSize({ width, height: plot.height });
  }).observe(box);
}
