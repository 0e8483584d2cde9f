// The Settings panel's "Daily requests" section: requests used in the last 24 hours against the add-in's budget, and
// the choice of Google account kind that sets the budget (consumer 18,000 of Google's 20,000; Workspace 95,000 of
// 100,000), and what formulas may send (counted per spreadsheet, charged by Google to whoever recalculates them). One
// element kept across the panel's re-renders; it loads its own state.
import type { AccountKind, BudgetStatus } from '../../src/account/contract';
import { errorText, server } from '../bridge';
import { h, message, replaceChildren } from '../ui/dom';
import { selfLoadingSection } from './self-loading';

const section = h('section', { id: 'request-budget' });

function render(status: BudgetStatus | null, problem?: string): void {
  const select = h(
    'select',
    {
      id: 'request-budget-account',
      onchange: (event: Event) => void choose((event.target as HTMLSelectElement).value as AccountKind),
    },
    h('option', { value: 'consumer', selected: status?.account !== 'workspace' }, 'Personal (gmail.com)'),
    h('option', { value: 'workspace', selected: status?.account === 'workspace' }, 'Google Workspace'),
  );
  const allowance = status?.account === 'workspace' ? '95,000 requests a day' : '18,000 requests a day';
  replaceChildren(
    section,
    h('h2', {}, 'Daily requests'),
    status
      ? h(
          'p',
          { class: 'muted', id: 'request-budget-used' },
          `Requests today: ${status.used.toLocaleString('en-US')} of ${status.limit.toLocaleString('en-US')}`,
        )
      : h('p', { class: 'muted' }, 'Loading…'),
    status?.message ? message(status.spent ? 'error' : 'warn', status.message) : null,
    problem ? message('error', problem) : null,
    h('label', { for: 'request-budget-account' }, 'Your Google account'),
    select,
    h('div', { class: 'muted', id: 'request-budget-allowance' }, allowance),
    h(
      'p',
      { class: 'muted' },
      'Google limits the web requests of all your scripts together; Sheet Scout keeps a margin for your other scripts.',
    ),
    h(
      'p',
      { class: 'muted', id: 'request-budget-formulas' },
      `Formulas count apart: each spreadsheet's formulas may send ${status?.account === 'workspace' ? '5,000' : '2,000'} ` +
        'requests a day. Google charges them to whoever is editing when they recalculate, together with that ' +
        "person's other work. Refresh pending lookups and Enrich count as your own requests.",
    ),
  );
}

async function choose(kind: AccountKind): Promise<void> {
  try {
    render(await server.setRequestBudgetAccount(kind));
  } catch (error) {
    render(null, errorText(error));
  }
}

/** The section (loads its state the first time it is shown). */
export const requestBudgetSection = selfLoadingSection(section, {
  load: () => server.getRequestBudget(),
  render,
  failed: (problem) => render(null, problem),
});
