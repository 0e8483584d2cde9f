// Server functions of the Settings panel and the credits badge every panel shows (called via google.script.run),
// and the menu handler that opens the panel. Sharing the token with the formulas is the formulas' endpoint
// (functions/endpoints.ts: it enters their cells again).
import { appContext } from '../platform/app-context';
import type { AccountState } from './service';
import { accountContext } from './context';
import { userConnection } from '../shared/connection';
import { checkedRequest } from '../shared/request-check';
import { ACCOUNT_KIND, TOKEN_INPUT } from './requests';
import { REQUEST_BUDGET_KEYS, type AccountKind, type BudgetStatus } from '../platform/request-budget';
import { showPanel } from '../platform/panels';
import { timerHolders } from '../scheduler/adapters/triggers';
import { featureWords, keptBy, timerNextRun } from '../scheduler/timer-registry';
import { TIMER_FEATURES } from '../scheduler/features';
import { featureWake } from '../scheduler/timer';
import { activeSpreadsheet, spreadsheetTimeZone } from '../platform/spreadsheet';
import { currentAuthorizationNote } from '../scheduler/adapters/authorization';
import type { Credits, KeptSpreadsheets } from './contract';

/** Google's limit of triggers per user per script: for the add-on, spreadsheets with a timer. */
const TIMER_LIMIT = 20;

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

/**
 * Available credits and whose they are, for the badge in every panel (null when no token is set or the check failed),
 * and, while the user's timers wait for their authorization, since when and the link that gives it.
 */
export function getCredits(): Credits {
  const context = appContext();
  const waiting = currentAuthorizationNote(context.stores.user, context.clock.now());
  const authorization = waiting ? { timerAuthorization: waiting } : {};
  if (!userConnection(context.stores).token) return { availableCredits: null, email: null, ...authorization };
  const result = context.userClient({ retry: { budgetMs: 5000 } }).getUser();
  return result.ok
    ? { availableCredits: result.value.available_credits, email: result.value.email, ...authorization }
    : { availableCredits: null, email: null, ...authorization };
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

/**
 * Settings: the spreadsheets whose timers Sheet Scout keeps for this user, each work that keeps them with its next
 * time, and when each timer next runs. This spreadsheet's work is read from its own properties (as it is now); the
 * others' as their timers last noted it. And whether those timers wait for the user's authorization.
 */
export function getKeptSpreadsheets(): KeptSpreadsheets {
  const here = activeSpreadsheet().getId();
  const context = appContext();
  const now = context.clock.now();
  const document = context.documentStore();
  return {
    spreadsheets: timerHolders(context.stores.user).map((holder) => {
      const wakes =
        holder.id === here
          ? TIMER_FEATURES.map((feature) => [feature, featureWake({ document }, feature)] as const)
          : TIMER_FEATURES.map((feature) => [feature, holder.wakes?.[feature] ?? null] as const);
      const work = wakes
        .filter(([feature, wake]) => wake !== null || (!holder.wakes && holder.keeps.includes(feature)))
        .map(([feature, wake]) => ({
          feature,
          what: featureWords(feature),
          at: wake !== null && wake > now ? wake : null,
        }));
      return {
        name: holder.name,
        url: holder.url,
        keptBy: keptBy(holder),
        nextRunAt: holder.nextRunAt,
        here: holder.id === here,
        work,
        timerNextAt: timerNextRun(holder, now),
        cadence: holder.cadence ?? null,
      };
    }),
    limit: TIMER_LIMIT,
    authorization: currentAuthorizationNote(context.stores.user, now),
    timeZone: spreadsheetTimeZone(),
  };
}
