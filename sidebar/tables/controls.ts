// The small form controls of the mapping dialog's column cards: selects (one whose options are recomputed when it
// is opened), a caption that names its column for screen readers, and text insertion at a textarea's cursor.
import { h } from '../ui/dom';

export function select<T extends string>(
  options: ReadonlyArray<{ value: T; label: string; disabled?: boolean }>,
  current: string,
  onChange: (value: T) => void,
): HTMLSelectElement {
  const element = h('select', { onchange: () => onChange(element.value as T) });
  for (const option of options) {
    const node = h('option', { value: option.value, disabled: option.disabled === true }, option.label);
    if (option.value === current) node.selected = true;
    element.appendChild(node);
  }
  return element;
}

/** A select whose options are recomputed each time it is opened (other columns' keys may have changed). */
export function liveSelect(
  options: () => Array<{ value: string; label: string; disabled?: boolean }>,
  current: string,
  onChange: (value: string) => void,
): HTMLSelectElement {
  const element = select(options(), current, onChange);
  const refill = () => {
    const value = element.value;
    element.textContent = '';
    for (const option of options())
      element.appendChild(h('option', { value: option.value, disabled: option.disabled === true }, option.label));
    element.value = value;
  };
  element.addEventListener('focus', refill);
  element.addEventListener('mousedown', refill);
  return element;
}

/** A caption above a control; the control's accessible name says which column it belongs to ("Prompt of Research"). */
export function labelled(text: string, control: HTMLElement, header: string, className?: string): HTMLElement {
  control.setAttribute('aria-label', `${text.replace(/ \(.*\)$/, '')} of ${header}`);
  return h('div', { class: className }, h('label', {}, text), control);
}

/** Inserts text at the cursor of a textarea and reports the new value. */
export function insertAtCursor(area: HTMLTextAreaElement, text: string): string {
  const start = area.selectionStart ?? area.value.length;
  const end = area.selectionEnd ?? area.value.length;
  area.value = area.value.slice(0, start) + text + area.value.slice(end);
  area.selectionStart = area.selectionEnd = start + text.length;
  area.focus();
  return area.value;
}
