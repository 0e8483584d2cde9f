// The Settings panel's "Research spending cap" section: this spreadsheet's credit cap per day and per month for
// research launched from it (blank: no cap), what was spent and what is left, who set it and when. Anyone may set a
// cap or lower it; only the account that set it may raise or remove it (the server says so when refused). A cap a
// saved timer run does not fit (an account watch's run, a new row's research) says so with the figures when it is
// saved, and the section keeps saying so until it is resolved. One element kept across re-renders; read again when
// the cap or the saved runs changed elsewhere (unless a cap is being typed).
import type { SpendingGuardDto } from '../../src/research/contract';
import { errorText, server } from '../bridge';
import { h, message, replaceChildren } from '../ui/dom';
import { selfLoadingSection } from './self-loading';

const section = h('section', { id: 'spending-guard' });

/** What the section shows: the guard, and the saved runs that cannot start as things stand. */
interface Shown {
  guard: SpendingGuardDto;
  problems: string[];
}

let shown: Shown | null = null;
/** The note of the last save: kept while a reload shows the same cap, dropped once it changed elsewhere. */
let lastNote: { kind: 'ok' | 'error'; text: string } | undefined;

/** A whole number typed in a cap field, null for blank, NaN for anything else (the server explains). */
function capValue(input: HTMLInputElement): number | null {
  const text = input.value.trim();
  return text === '' ? null : /^\d+$/.test(text) ? Number(text) : Number.NaN;
}

function render(state: Shown | null, note?: { kind: 'ok' | 'error'; text: string }): void {
  const sameCap = JSON.stringify(state?.guard.cap ?? null) === JSON.stringify(shown?.guard.cap ?? null);
  lastNote = note ?? (sameCap ? lastNote : undefined);
  shown = state;
  const guard = state?.guard ?? null;
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
    lastNote ? message(lastNote.kind, lastNote.text) : null,
    state && state.problems.length > 0
      ? h('div', { id: 'cap-runs' }, ...state.problems.map((problem) => message('warn', problem)))
      : null,
  );
}

/** The guard and the saved runs' problems (none when they could not be read: the runs' own sections say so). */
async function load(): Promise<Shown> {
  const [guard, runs] = await Promise.all([
    server.getSpendingGuard(),
    server.getSavedRunProblems().catch(() => ({ problems: [] })),
  ]);
  return { guard, problems: runs.problems };
}

async function save(daily: number | null, monthly: number | null): Promise<void> {
  if (Number.isNaN(daily) || Number.isNaN(monthly)) {
    render(shown, { kind: 'error', text: 'A cap is a whole number of credits, or blank for none' });
    return;
  }
  try {
    const answer = await server.setSpendingGuard({ daily, monthly });
    const saved = daily === null && monthly === null ? 'No cap' : 'Cap saved';
    const runs = await server.getSavedRunProblems().catch(() => ({ problems: shown?.problems ?? [] }));
    render(
      { guard: answer.guard, problems: runs.problems },
      answer.ok ? { kind: 'ok', text: saved } : { kind: 'error', text: answer.message },
    );
  } catch (error) {
    render(await load().catch(() => null), { kind: 'error', text: errorText(error) });
  }
}

const getter = selfLoadingSection(section, {
  load,
  render,
  failed: (text) => render(null, { kind: 'error', text }),
});

/** The section (loads its state the first time it is shown). */
export const spendingGuardSection = getter;

/** Reads the section again after a change elsewhere, unless the user is typing a cap (their figures stay). */
export async function reloadSpendingGuard(): Promise<void> {
  const typing = ['cap-daily', 'cap-monthly'].some((id) => {
    const input = document.getElementById(id) as HTMLInputElement | null;
    const value = id === 'cap-daily' ? shown?.guard.cap.daily : shown?.guard.cap.monthly;
    return input !== null && input.value.trim() !== (value === null || value === undefined ? '' : String(value));
  });
  if (!typing) await getter.reload();
}
