// The Springs page: every available model follows one goal, live, at one or three frame rates.
// Moving a slider or changing the frame rate replays the whole visible window with the new
// settings (from rest on the goal at its left edge), so the curve shows what they do at once.
import { createSolver } from 'spring-solver';
import '../common/style.css';
import { markReady, showError } from '../common/page.js';
import '../common/test-hooks.js';
import { buildControls } from './controls.js';
import { GoalTrack, snapDown } from './goal-track.js';
import { availableModels } from './models.js';
import { GOAL_STYLE, INTERMEDIATE_STYLE, PlotCard, valueStyle } from './plot-card.js';
import { Trace } from './trace.js';

/** s of history shown. */
const SPAN = 4;
/** s: the longest a frame may advance the clock (a hidden tab must not replay minutes). */
const MAX_FRAME = 0.1;

async function main(): Promise<void> {
  const solver = await createSolver();
  const goals = new GoalTrack();
  let clock = 0;
  let paused = false;
  let replay = true;

  const cards = availableModels(solver).map((model) => ({ card: new PlotCard(model, setGoal), traces: [] as Trace[] }));
  const controls = buildControls(document.getElementById('controls')!, {
    onParams: () => {
      replay = true;
    },
    onTimesteps: () => rebuildTraces(),
    onAutomatic: (on) => goals.setAutomatic(on, clock),
    onPause: (value) => {
      paused = value;
    },
  });
  document.getElementById('plots')!.append(...cards.map(({ card }) => card.element));

  function setGoal(value: number): void {
    controls.stopAutomatic();
    goals.setAutomatic(false, clock);
    goals.set(value, clock);
  }

  function rebuildTraces(): void {
    for (const entry of cards) {
      for (const trace of entry.traces) trace.dispose();
      entry.traces = controls.timesteps.map((dt) => new Trace(entry.card.model, entry.card.model.create(solver), dt));
      entry.card.rebuild(entry.traces);
    }
    showKey(controls.timesteps, backendNote(solver.backend, cards.length));
    replay = true;
  }

  function frame(delta: number): void {
    if (!paused) clock += Math.min(delta, MAX_FRAME);
    goals.runAutomatic(clock);
    const start = Math.max(0, snapDown(clock - SPAN));
    for (const { card, traces } of cards) {
      for (const trace of traces) {
        if (replay) trace.restart(start, goals, controls.params);
        trace.advanceTo(clock, goals, controls.params);
        trace.trim(clock - SPAN);
      }
      card.update(traces, Math.max(clock, SPAN), SPAN);
    }
    replay = false;
    goals.prune(clock - SPAN - 1);
  }

  rebuildTraces();
  let last = performance.now();
  const loop = (now: number) => {
    try {
      frame(Math.max(0, now - last) / 1000); // the first rAF time may precede `last`
    } catch (error) {
      showError(error);
      return;
    }
    last = now;
    markReady();
    requestAnimationFrame(loop);
  };
  requestAnimationFrame(loop);

  window.springsDemo = {
    models: cards.map(({ card }) => card.model.id),
    data: (id) => cards.find((c) => c.card.model.id === id)?.card.data ?? undefined,
  };
}

function backendNote(backend: string, models: number): string {
  return `${models} models on the '${backend}' backend.`;
}

/** The legend shared by every chart. */
function showKey(dts: readonly number[], note: string): void {
  const key = document.getElementById('key')!;
  const swatch = (stroke: string, text: string, dashed = false) => {
    const item = document.createElement('span');
    const mark = document.createElement('span');
    mark.className = 'swatch';
    mark.style.background = dashed ? `repeating-linear-gradient(90deg, ${stroke} 0 5px, transparent 5px 9px)` : stroke;
    item.append(mark, text);
    return item;
  };
  key.replaceChildren(
    note,
    ' ',
    swatch(GOAL_STYLE.stroke, 'goal'),
    swatch(INTERMEDIATE_STYLE.stroke, 'intermediate target', true),
    ...dts.map((dt) => {
      const style = valueStyle(dt, dts.length > 1);
      return swatch(style.stroke, style.label);
    }),
  );
}

main().catch(showError);
