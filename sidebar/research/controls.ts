// Small form controls of the Research panel: a text input bound to a setter, and a radio button that redraws.
import { h } from '../ui/dom';
import { render } from './state';

export function input(
  value: string,
  onInput: (value: string) => void,
  attributes: Record<string, string> = {},
): HTMLInputElement {
  return h('input', {
    type: 'text',
    value,
    oninput: (event: Event) => onInput((event.target as HTMLInputElement).value),
    ...attributes,
  });
}

export function radio(id: string, name: string, checked: boolean, label: string, onChange: () => void): HTMLElement {
  return h(
    'label',
    { class: 'check', for: id },
    h('input', {
      type: 'radio',
      id,
      name,
      checked,
      onchange: () => {
        onChange();
        render();
      },
    }),
    label,
  );
}
