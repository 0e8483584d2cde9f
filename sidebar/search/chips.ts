// A chip input: type a value and press Enter (or comma) to add it, pick from suggestions (a datalist of values seen in
// results), remove a chip with its x button. Values are shown through textContent only.
import { h, replaceChildren } from '../ui/dom';

export interface ChipInput {
  element: HTMLElement;
  input: HTMLInputElement;
  values(): string[];
  setValues(values: string[]): void;
  setSuggestions(values: string[]): void;
}

let counter = 0;

export function chipInput(label: string, placeholder: string, onChange: () => void): ChipInput {
  const listId = `chips-${++counter}`;
  let values: string[] = [];
  const chips = h('div', { class: 'chips' });
  const datalist = h('datalist', { id: listId });
  const input = h('input', { type: 'text', placeholder, list: listId, 'aria-label': label });

  const render = (): void => {
    replaceChildren(
      chips,
      ...values.map((value) =>
        h(
          'span',
          { class: 'chip' },
          value,
          h(
            'button',
            { type: 'button', class: 'chip-remove', 'aria-label': `Remove ${value}`, onclick: () => remove(value) },
            '×',
          ),
        ),
      ),
    );
  };
  const remove = (value: string): void => {
    values = values.filter((existing) => existing !== value);
    render();
    onChange();
  };
  const add = (raw: string): void => {
    const value = raw.trim().replace(/\s+/g, ' ');
    input.value = '';
    if (value === '' || values.some((existing) => existing.toLowerCase() === value.toLowerCase())) return;
    values = [...values, value];
    render();
    onChange();
  };
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' || event.key === ',') {
      event.preventDefault();
      add(input.value);
    } else if (event.key === 'Backspace' && input.value === '' && values.length > 0) {
      remove(values[values.length - 1]);
    }
  });
  // Picking a datalist suggestion fires `input` with the full value: add it at once.
  input.addEventListener('input', (event) => {
    if ((event as InputEvent).inputType === 'insertReplacementText' || (event as InputEvent).inputType === undefined) {
      const options = Array.from(datalist.options).map((option) => option.value);
      if (options.includes(input.value)) add(input.value);
    }
  });
  input.addEventListener('blur', () => add(input.value));

  return {
    element: h('div', { class: 'chip-input' }, chips, input, datalist),
    input,
    values: () => [...values],
    setValues: (next) => {
      values = [...next];
      render();
    },
    setSuggestions: (suggestions) => replaceChildren(datalist, ...suggestions.map((value) => h('option', { value }))),
  };
}
