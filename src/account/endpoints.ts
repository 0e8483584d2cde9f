// Server functions of the Settings panel and the credits badge every panel shows (called via google.script.run),
// and the menu handler that opens the panel.
import { appContext } from '../platform/app-context';
import type { AccountState } from './service';
import { accountContext } from './context';
import { userConnection } from './settings';
import { checkedRequest } from '../shared/request-check';
import { ACCOUNT_KIND, SHARING, TOKEN_INPUT } from './requests';
import { REQUEST_BUDGET_KEYS, type AccountKind, type BudgetStatus } from '../platform/request-budget';
import { showPanel } from '../platform/panels';

/** Menu: Extensions > Sheet Scout > Settings... */
export function showSettingsPanel(): void {
  showPanel('Settings', 'Sheet Scout settings');
}

export function getAccountState(): AccountState {
  return accountContext().state();
}

export function saveAccountToken(input: { token: string; baseUrl?: string }): AccountState {
  const { token, baseUrl } = checkedRequest<{ token: string; baseUrl?: string }>(TOKEN_INPUT, input, 'token');
  return accountContext().save(token, baseUrl);
}

export function removeAccountToken(): AccountState {
  return accountContext().remove();
}

export function setFormulaTokenSharing(enabled: boolean): AccountState {
  return accountContext().setFormulaSharing(checkedRequest<boolean>(SHARING, enabled, 'sharing'));
}

/** Available credits for the badge in every panel; null when no token is set or the check failed. */
export function getCredits(): { availableCredits: number | null } {
  const context = appContext();
  if (!userConnection(context.stores).token) return { availableCredits: null };
  const result = context.userClient({ retry: { budgetMs: 5000 } }).getUser();
  return { availableCredits: result.ok ? result.value.available_credits : null };
}

/** The acting user's daily request budget: requests in the last 24 hours, the limit, and the warning near it. */
export function getRequestBudget(): BudgetStatus {
  return appContext().requestBudget.status();
}

/** Settings: the user's Google account kind, which sets the daily request budget (consumer 18,000, Workspace 95,000). */
export function setRequestBudgetAccount(kind: AccountKind): BudgetStatus {
  checkedRequest<AccountKind>(ACCOUNT_KIND, kind, 'account kind');
  const context = appContext();
  if (kind === 'workspace') context.stores.user.set(REQUEST_BUDGET_KEYS.account, 'workspace');
  else context.stores.user.remove(REQUEST_BUDGET_KEYS.account);
  return appContext().requestBudget.status();
}
