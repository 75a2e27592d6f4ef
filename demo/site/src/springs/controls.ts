/**
 * The Springs page's controls: a slider per parameter, the frame rate (30, 60, 144 Hz, all three
 * overlaid, or any dt from its slider), the automatic goal, and pause.
 */
import { slider } from '../common/page.js';
import { PARAM_SLIDERS, defaultParams, type SpringParams } from './params.js';

export const OVERLAY_RATES = [30, 60, 144] as const;

export interface ControlHandlers {
  /** Any parameter moved; `params` is the full current set. */
  onParams(params: SpringParams): void;
  /** The frame rate choice changed: the dts (s) of the traces to run. */
  onTimesteps(dts: number[]): void;
  onAutomatic(on: boolean): void;
  onPause(paused: boolean): void;
}

export interface Controls {
  params: SpringParams;
  timesteps: number[];
  /** Unticks "automatic goal" (the user took over the goal). */
  stopAutomatic(): void;
}

export function buildControls(parent: HTMLElement, handlers: ControlHandlers): Controls {
  const params = defaultParams();
  for (const spec of PARAM_SLIDERS) {
    slider(parent, { id: spec.key, ...spec }, (value) => {
      params[spec.key] = value;
      handlers.onParams({ ...params });
    });
  }

  const rateLabel = document.createElement('label');
  const rate = document.createElement('select');
  rate.id = 'rate';
  const choices: [string, string][] = [
    ['overlay', `${OVERLAY_RATES.join(' / ')} Hz overlaid`],
    ...OVERLAY_RATES.map((hz): [string, string] => [String(hz), `${hz} Hz`]),
    ['custom', 'dt from the slider'],
  ];
  for (const [value, text] of choices) rate.add(new Option(text, value));
  rateLabel.append('frame rate ', rate);
  parent.append(rateLabel);

  const autoLabel = document.createElement('label');
  const auto = document.createElement('input');
  Object.assign(auto, { type: 'checkbox', id: 'automatic', checked: true });
  auto.addEventListener('change', () => handlers.onAutomatic(auto.checked));
  autoLabel.append(auto, 'automatic goal');

  const controls: Controls = {
    params,
    timesteps: OVERLAY_RATES.map((hz) => 1 / hz),
    stopAutomatic: () => {
      auto.checked = false;
    },
  };
  const dt = slider(parent, { id: 'dt', label: 'dt', unit: 'ms', min: 2, max: 100, step: 0.1, value: 16.7 }, (ms) => {
    rate.value = 'custom';
    setTimesteps([ms / 1000]);
  });
  const setTimesteps = (dts: number[]) => {
    controls.timesteps = dts;
    handlers.onTimesteps(dts);
  };
  rate.addEventListener('change', () => {
    if (rate.value === 'overlay') return setTimesteps(OVERLAY_RATES.map((hz) => 1 / hz));
    if (rate.value === 'custom') return setTimesteps([Number(dt.input.value) / 1000]);
    const hz = Number(rate.value);
    dt.set(Number((1000 / hz).toFixed(1)));
    setTimesteps([1 / hz]);
  });

  const pause = document.createElement('button');
  pause.id = 'pause';
  pause.textContent = 'Pause';
  let paused = false;
  pause.addEventListener('click', () => {
    paused = !paused;
    pause.textContent = paused ? 'Resume' : 'Pause';
    handlers.onPause(paused);
  });
  parent.append(autoLabel, pause);
  return controls;
}
