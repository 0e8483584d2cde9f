// Where the search panel says what went wrong: an error slot under each control (the server's checkSpec problems and
// the service's 422 details land under the control that caused them, which is marked and focused), and the status
// line under the search button.
import type { Failure, SearchField } from '../../src/search/contract';
import { h, message, replaceChildren } from '../ui/dom';

export type FailureShown = Pick<Failure, 'message' | 'problems'>;

export class Problems {
  private readonly slots = new Map<SearchField, HTMLElement>();
  private controls: Partial<Record<SearchField, HTMLElement>> = {};
  readonly status = h('div', { id: 'search-status' });

  constructor(private readonly root: HTMLElement) {}

  /** The error slot of a field, to place under its control. */
  slot(field: SearchField): HTMLElement {
    const element = h('div', { class: 'field-error', 'data-field': field, role: 'alert' });
    this.slots.set(field, element);
    return element;
  }

  /** The control each field's problem marks (and the first one focuses). */
  setControls(controls: Partial<Record<SearchField, HTMLElement>>): void {
    this.controls = controls;
  }

  clear(): void {
    for (const element of this.slots.values()) element.textContent = '';
    this.root.querySelectorAll('.invalid').forEach((element) => element.classList.remove('invalid'));
  }

  show(failure: FailureShown): void {
    this.clear();
    let focused = false;
    for (const problem of failure.problems) {
      const target = this.slots.get(problem.field);
      if (!target || problem.field === 'form') continue;
      target.textContent = target.textContent ? `${target.textContent}; ${problem.message}` : problem.message;
      const control = this.controls[problem.field];
      control?.classList.add('invalid');
      if (!focused && control && 'focus' in control) {
        control.focus();
        focused = true;
      }
    }
    this.showStatus('error', failure.message);
  }

  showStatus(kind: 'error' | 'ok' | 'warn', text: string): void {
    replaceChildren(this.status, message(kind, text));
  }

  /** A muted line (what is being done), or nothing. */
  showNote(text: string | null): void {
    replaceChildren(this.status, text ? h('div', { class: 'muted' }, text) : null);
  }

  /** The answer's warning, or nothing. */
  showWarning(text: string | null): void {
    replaceChildren(this.status, text ? message('warn', text) : null);
  }
}
