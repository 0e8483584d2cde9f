// The Settings panel's "Research spending cap" section: this spreadsheet's credit cap per day and per month for
// research launched from it (blank: no cap), what was spent and what is left, who set it and when. Anyone may set a
// cap or lower it; only the account that set it may raise or remove it (the server says so when refused). One element
// kept across re-renders.
import type { SpendingGuardDto } from '../../src/research/contract';
import { errorText, server } from '../bridge';
import { h, message, replaceChildren } from '../ui/dom';
import { selfLoadingSection } from './self-loading';

const section = h('section', { id: 'spending-guard' });
let shown: SpendingGuardDto | null = null;

/** A whole number typed in a cap field, null for blank, NaN for anything else (the server explains). */
function capValue(input: HTMLInputElement): number | null {
  const text = input.value.trim();
  return text === '' ? null : /^\d+$/.test(text) ? Number(text) : Number.NaN;
}

function render(guard: SpendingGuardDto | null, note?: { kind: 'ok' | 'error'; text: string }): void {
  shown = guard;
  const field = (id: string, value: number | null | undefined) =>
    h('input', {
      type: 'text',
      id,
      inputmode: 'numeric',
      placeholder: 'No cap',
      value: value === null || value === undefined ? '' : String(value),
      disabled: guard === null,
    }) as HTMLInputElement;
  const daily = field('cap-daily', guard?.cap.daily);
  const monthly = field('cap-monthly', guard?.cap.monthly);
  replaceChildren(
    section,
    h('h2', {}, 'Research spending cap'),
    h('p', { class: 'muted' }, 'Credits research launched from this spreadsheet may use. Off when blank.'),
    h('label', { for: 'cap-daily' }, 'Per day'),
    daily,
    h('label', { for: 'cap-monthly' }, 'Per month'),
    monthly,
    guard
      ? h(
          'p',
          { class: 'muted', id: 'cap-spent' },
          `Spent today ${guard.spentToday}, this month ${guard.spentThisMonth}${guard.left === null ? '' : `; ${guard.left} left`}`,
        )
      : h('p', { class: 'muted' }, 'Loading…'),
    guard?.editNote ? h('p', { class: 'muted', id: 'cap-owner' }, guard.editNote) : null,
    guard
      ? h(
          'button',
          { type: 'button', id: 'cap-save', onclick: () => void save(capValue(daily), capValue(monthly)) },
          'Save cap',
        )
      : null,
    note ? message(note.kind, note.text) : null,
  );
}

async function save(daily: number | null, monthly: number | null): Promise<void> {
  if (Number.isNaN(daily) || Number.isNaN(monthly)) {
    render(shown, { kind: 'error', text: 'A cap is a whole number of credits, or blank for none' });
    return;
  }
  try {
    const answer = await server.setSpendingGuard({ daily, monthly });
    const saved = daily === null && monthly === null ? 'No cap' : 'Cap saved';
    render(answer.guard, answer.ok ? { kind: 'ok', text: saved } : { kind: 'error', text: answer.message });
  } catch (error) {
    render(await server.getSpendingGuard().catch(() => null), { kind: 'error', text: errorText(error) });
  }
}

/** The section (loads its state the first time it is shown). */
export const spendingGuardSection = selfLoadingSection(section, {
  load: () => server.getSpendingGuard(),
  render,
  failed: (text) => render(null, { kind: 'error', text }),
});
