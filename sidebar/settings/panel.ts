// Settings panel: paste and verify the API token, see who is connected and their credits, remove the token, let this
// spreadsheet's formulas use it, and (Advanced) change the service address. A refused change shows its reason beside
// the new token while the working connection stays shown; what an action did besides (formula sharing stopped) is
// said under it; without a token, links to the dashboard (where tokens are made and plans upgraded) when the build
// names one. Removing the token says which saved timer runs it pays for can no longer start. The sections follow
// changes made elsewhere (another editor's cap, the timer's runs) at the next poll.
import type { AccountState } from '../../src/account/contract';
import { isLocalSandbox, SANDBOX_HINTS } from '../../src/account/contract';
import { errorText, server } from '../bridge';
import { h, message, replaceChildren } from '../ui/dom';
import { panelHeader, refreshCredits } from '../ui/credits-badge';
import { requestBudgetSection } from './request-budget';
import { reloadSpendingGuard, spendingGuardSection } from './spending-guard';
import { followChanges } from '../ui/follow-changes';
import { keptSpreadsheetsSection } from './kept-spreadsheets';
import { spendingHistorySection } from './spending-history';
import { digestSection } from './digest';
import { installationCheckSection } from './installation-check';

let app: HTMLElement;
let busy = false;
let current: AccountState | null = null;

/** The token form: paste and verify (or replace), its refusal beside it, and the Advanced service address. */
function tokenForm(state: AccountState | null): HTMLElement {
  const tokenInput = h('input', {
    type: 'password',
    id: 'token',
    autocomplete: 'off',
    spellcheck: 'false',
    placeholder: 'Paste your API token',
  });
  const baseUrlInput = h('input', {
    type: 'url',
    id: 'base-url',
    value: state?.baseUrl ?? '',
    placeholder: 'https://…',
  });
  const saveButton = h(
    'button',
    { class: 'primary', id: 'save', type: 'submit' },
    state?.connected ? 'Replace token' : 'Verify and save',
  );
  return h(
    'form',
    {
      id: 'token-form',
      onsubmit: (event: Event) => {
        event.preventDefault();
        void act(
          () => server.saveAccountToken({ token: tokenInput.value, baseUrl: baseUrlInput.value }),
          'Token verified and saved.',
        );
      },
    },
    h('label', { for: 'token' }, state?.connected ? 'Replace the API token' : 'API token'),
    tokenInput,
    isLocalSandbox(state?.baseUrl) ? h('p', { class: 'muted', id: 'sandbox-tokens' }, SANDBOX_HINTS.token) : null,
    state?.problem && state.refusedChange ? h('div', { id: 'token-problem' }, message('error', state.problem)) : null,
    h('div', { class: 'row' }, saveButton),
    h(
      'details',
      { open: Boolean(state && !state.baseUrl) },
      h('summary', {}, 'Advanced'),
      h('label', { for: 'base-url' }, 'Service address (HTTPS; plain HTTP only for localhost)'),
      baseUrlInput,
      state?.urlAllowlist.length
        ? h(
            'p',
            { class: 'muted', id: 'base-url-allowlist' },
            `This deployment only reaches ${state.urlAllowlist.join(' or ')}`,
          )
        : null,
    ),
  );
}

/** Who is connected, their credits and organization, and "Remove token". */
function accountSection(state: AccountState | null): HTMLElement | null {
  return state?.account
    ? h(
        'section',
        { id: 'account' },
        h('h2', {}, 'Connected'),
        h(
          'dl',
          {},
          h('dt', {}, 'Email'),
          h('dd', { id: 'account-email' }, state.account.email),
          h('dt', {}, 'Credits'),
          h('dd', { id: 'account-credits' }, String(state.account.availableCredits)),
          h('dt', {}, 'Organization'),
          h('dd', { id: 'account-org' }, state.account.organization ?? 'personal account'),
        ),
        h(
          'div',
          { class: 'row' },
          h(
            'button',
            {
              id: 'remove',
              type: 'button',
              onclick: () => void act(() => server.removeAccountToken(), 'Token removed.', true),
            },
            'Remove token',
          ),
        ),
      )
    : null;
}

/** Whether this spreadsheet's formulas use this user's token (or whose they use). */
function sharingSection(state: AccountState | null): HTMLElement | null {
  return state?.connected
    ? h(
        'section',
        { id: 'formulas' },
        h('h2', {}, 'Formulas'),
        h(
          'label',
          { class: 'check' },
          h('input', {
            type: 'checkbox',
            id: 'share-formulas',
            checked: state.formulas.sharedByMe,
            onchange: (event: Event) => {
              const enabled = (event.target as HTMLInputElement).checked;
              void act(
                () => server.setFormulaTokenSharing(enabled),
                enabled ? 'Formulas in this spreadsheet now use your token.' : 'Formulas no longer use your token.',
              );
            },
          }),
          h('span', {}, 'Let formulas in this spreadsheet use my token'),
        ),
        h(
          'p',
          { class: 'muted' },
          'Every editor of this spreadsheet then runs =COMPANY_LOOKUP and the other formulas with your account. Untick to stop.',
        ),
        state.formulas.shared && !state.formulas.sharedByMe
          ? h(
              'p',
              { class: 'muted', id: 'shared-by' },
              `Formulas here use the token of ${state.formulas.sharedBy ?? 'another user'}.`,
            )
          : null,
      )
    : null;
}

/** Without a token: where tokens are made and plans upgraded, when the build names the dashboard. */
function dashboardLinks(state: AccountState | null): HTMLElement | null {
  return state && !state.connected && state.dashboardUrl
    ? h(
        'p',
        { class: 'muted', id: 'dashboard-links' },
        'No token yet? ',
        h(
          'a',
          { href: state.dashboardUrl, target: '_blank', rel: 'noopener', id: 'dashboard-token' },
          'Create one on the dashboard',
        ),
        '. Plans and credits: ',
        h(
          'a',
          { href: state.dashboardUrl, target: '_blank', rel: 'noopener', id: 'dashboard-upgrade' },
          'upgrade there',
        ),
        '.',
      )
    : null;
}

function render(
  state: AccountState | null,
  notice?: { kind: 'error' | 'ok' | 'warn'; text: string },
  problems: string[] = [],
): void {
  replaceChildren(
    app,
    panelHeader('Settings'),
    state === null ? h('p', { class: 'muted' }, 'Loading…') : null,
    notice ? message(notice.kind, notice.text) : null,
    problems.length > 0 ? h('div', { id: 'saved-runs' }, ...problems.map((text) => message('warn', text))) : null,
    state?.note ? h('div', { id: 'settings-note' }, message('warn', state.note)) : null,
    state?.problem && !state.refusedChange ? message('error', state.problem) : null,
    accountSection(state),
    dashboardLinks(state),
    state ? tokenForm(state) : null,
    sharingSection(state),
    state?.connected ? requestBudgetSection() : null,
    state?.connected ? spendingGuardSection() : null,
    state?.connected ? spendingHistorySection() : null,
    state?.connected ? digestSection(isLocalSandbox(state.baseUrl)) : null,
    state?.connected ? keptSpreadsheetsSection() : null,
    state ? installationCheckSection() : null,
  );
  for (const control of Array.from(app.querySelectorAll('button, input')))
    (control as HTMLButtonElement).disabled = busy;
}

/** Runs an account change; `runs`: then says which saved timer runs can no longer start (a token removed). */
async function act(call: () => Promise<AccountState>, success: string, runs = false): Promise<void> {
  busy = true;
  render(current);
  try {
    const state = await call();
    const problems = runs ? (await server.getSavedRunProblems().catch(() => ({ problems: [] }))).problems : [];
    current = state;
    busy = false;
    render(state, state.problem ? undefined : { kind: 'ok', text: success }, problems);
    await refreshCredits(state.account ?? (state.connected ? undefined : null));
  } catch (error) {
    busy = false;
    render(current, { kind: 'error', text: errorText(error) });
  }
}

export function mountSettingsPanel(element: HTMLElement): void {
  app = element;
  render(null);
  server
    .getAccountState()
    .then((state) => {
      current = state;
      render(state);
      void refreshCredits(state.account);
    })
    .catch((error) => render(current, { kind: 'error', text: errorText(error) }));
  followChanges(async () => {
    await Promise.all([reloadSpendingGuard(), keptSpreadsheetsSection.reload()]);
  });
}
