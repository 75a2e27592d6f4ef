/** What every demo page does at the edges: report a failure on the page, and say when it is ready. */

/** Shows an error in the page (and the console) instead of failing silently. */
export function showError(error: unknown): void {
  console.error(error);
  const box = document.createElement('p');
  box.className = 'error';
  box.textContent = `Error: ${error instanceof Error ? error.message : String(error)}`;
  document.querySelector('main')?.prepend(box);
}

/** Marks the page as drawn (`<body data-ready="true">`), which the browser tests wait for. */
export function markReady(): void {
  document.body.dataset.ready = 'true';
}

export interface Slider {
  input: HTMLInputElement;
  /** Moves the slider without calling its handler. */
  set(value: number): void;
}

/** A labelled range input with its value shown beside it; `onInput` gets the number. */
export function slider(
  parent: HTMLElement,
  spec: { id: string; label: string; unit: string; min: number; max: number; step: number; value: number },
  onInput: (value: number) => void,
): Slider {
  const label = document.createElement('label');
  const input = document.createElement('input');
  const output = document.createElement('output');
  Object.assign(input, {
    type: 'range',
    id: spec.id,
    min: String(spec.min),
    max: String(spec.max),
    step: String(spec.step),
    value: String(spec.value),
  });
  const show = () => (output.textContent = `${input.value} ${spec.unit}`.trim());
  input.addEventListener('input', () => {
    show();
    onInput(Number(input.value));
  });
  show();
  label.append(`${spec.label} `, input, output);
  parent.append(label);
  return {
    input,
    set(value) {
      input.value = String(value);
      show();
    },
  };
}
