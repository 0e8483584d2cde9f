// Account setup logic behind the Settings panel: verify a pasted token with GET /v1/user before saving it, report
// who is connected and their credits, remove the token, and share it (or stop sharing it) with this spreadsheet's
// formulas; stopping clears the formula lookups the document cache holds, so no formula shows a result after its
// token is gone. Pure: takes the settings stores, a client factory and the document cache.
import { noteTokenless, tokenlessPayers } from './payers';
import { noteDocumentChanged } from '../scheduler/changes';
import type { CachePort } from '../ports';
import type { ServiceClient, ServiceSettings } from '../api/client';
import { userMessage, type ApiError } from '../api/errors';
import type { User } from '../api/types';
import { validateBaseUrl } from '../api/url';
import { outsideAllowlist, URL_ALLOWLIST } from './url-allowlist';
import { clearCachedLookups } from '../companies/profile-cache';
import { DASHBOARD_URL } from '../shared/dashboard-url';
import {
  formulaTokenOwner,
  removeUserConnection,
  saveUserConnection,
  shareWithFormulas,
  stopSharingWithFormulas,
} from './settings';
import { DEFAULT_BASE_URL, formulaConnection, userConnection, type SettingsStores } from '../shared/connection';

export interface AccountSummary {
  email: string;
  availableCredits: number;
  /** Organization name, or null for a personal account. */
  organization: string | null;
}

export interface AccountState {
  /** A token is saved for this user. */
  connected: boolean;
  baseUrl: string;
  defaultBaseUrl: string;
  /** The URL prefixes this build may reach (its manifest's allowlist); empty: any HTTPS address. */
  urlAllowlist: string[];
  account: AccountSummary | null;
  /** Why the saved token could not be checked or a change was refused; null when all is well. */
  problem: string | null;
  /**
   * The problem is a refused change (the token or address just entered): the saved connection, and `account` when
   * it works, are unchanged, and the panel shows the problem beside the new token.
   */
  refusedChange: boolean;
  /** What the last action did besides (formula sharing stopped, or not on): a sentence for the panel, or null. */
  note: string | null;
  /** Where tokens are made and plans upgraded (this build's dashboard address), or '' when the build has none. */
  dashboardUrl: string;
  formulas: { shared: boolean; sharedBy: string | null; sharedByMe: boolean };
}

export type ClientFactory = (settings: ServiceSettings) => ServiceClient;

export interface AccountServiceOptions {
  /** The cache formula lookups are kept in (the document cache), cleared when formulas stop using a token. */
  formulaCache: CachePort;
  /** This build's URL allowlist (default: the one injected at build time). */
  urlAllowlist?: readonly string[];
  /** This build's dashboard address (default: the one injected at build time). */
  dashboardUrl?: string;
  /** The clock of this execution (when a token was removed). */
  now?: () => number;
}

const SHARE_LABEL = '"Let formulas in this spreadsheet use my token"';
export const NOTES = {
  removedSharing:
    'Formulas in this spreadsheet no longer use it either, and their cached results were cleared. ' +
    `After saving a token again, tick ${SHARE_LABEL} to turn them back on.`,
  notShared: `Formulas in this spreadsheet do not use your token: tick ${SHARE_LABEL} below to let them.`,
  stoppedSharing: 'Their cached results were cleared: formula cells show the token message when they next calculate.',
} as const;

function summarize(user: User): AccountSummary {
  return { email: user.email, availableCredits: user.available_credits, organization: user.organization_name ?? null };
}

/** Settings-panel wording for a failed token check: names the cause and what to do. */
export function connectionProblem(error: ApiError, baseUrl: string): string {
  switch (error.kind) {
    case 'unauthorized':
      return 'The service rejected this token (401). Copy it again from your dashboard and paste it here.';
    case 'network':
    case 'timeout':
      return `Could not reach ${baseUrl}. Check the service address under Advanced, or your connection, and try again.`;
    case 'not_found':
    case 'bad_response':
      return `No Sheet Scout service answered at ${baseUrl}. Check the service address under Advanced.`;
    case 'bad_base_url':
      return `Service address refused: ${error.reason}.`;
    default:
      return userMessage(error);
  }
}

export class AccountService {
  private readonly urlAllowlist: readonly string[];
  private readonly dashboardUrl: string;

  constructor(
    private readonly stores: SettingsStores,
    private readonly clientFor: ClientFactory,
    private readonly options: AccountServiceOptions,
  ) {
    this.urlAllowlist = options.urlAllowlist ?? URL_ALLOWLIST;
    this.dashboardUrl = options.dashboardUrl ?? DASHBOARD_URL;
  }

  /** Current state; checks the saved token against the service (its credits are live). */
  state(): AccountState {
    const connection = userConnection(this.stores);
    if (!connection.token) return this.describe(null, null);
    const result = this.clientFor(connection).getUser();
    return result.ok
      ? this.describe(summarize(result.value), null)
      : this.describe(null, connectionProblem(result.error, connection.baseUrl));
  }

  /**
   * Verifies the token (and optional base URL) with GET /v1/user; saves them only when the service accepts. A refused
   * change keeps the saved connection, and reports it (checked again) beside the problem.
   */
  save(token: string, baseUrlInput: string | undefined): AccountState {
    const trimmed = token.trim().replace(/^Bearer\s+/i, '');
    if (!trimmed) return this.refused('Paste your API token first.');
    const rawBaseUrl = (baseUrlInput ?? '').trim() || userConnection(this.stores).baseUrl || DEFAULT_BASE_URL;
    if (!rawBaseUrl) return this.refused('Enter the service address under Advanced.');
    const checked = validateBaseUrl(rawBaseUrl);
    if (!checked.ok) return this.refused(`Service address refused: ${checked.reason}.`);
    const outside = outsideAllowlist(checked.baseUrl, this.urlAllowlist);
    if (outside) return this.refused(`Service address refused: ${outside}.`);
    const result = this.clientFor({ baseUrl: checked.baseUrl, token: trimmed }).getUser();
    if (!result.ok) return this.refused(connectionProblem(result.error, checked.baseUrl));
    const previousToken = userConnection(this.stores).token;
    const wasSharedByMe =
      this.stores.document !== null &&
      previousToken !== null &&
      formulaConnection(this.stores.document).token === previousToken;
    saveUserConnection(this.stores, trimmed, checked.baseUrl);
    this.notePayer(result.value.email, null);
    if (wasSharedByMe && this.stores.document) {
      shareWithFormulas(this.stores.document, { token: trimmed, baseUrl: checked.baseUrl }, result.value.email);
    }
    const shared = formulaConnection(this.stores.document).token !== null;
    return this.describe(summarize(result.value), null, {
      note: this.stores.document && !shared ? NOTES.notShared : null,
    });
  }

  /**
   * Removes the token. The runs this user's timer pays for here (an account watch, research on new rows) cannot start
   * without it: who they were is noted (payers.ts), so their sections and Settings say so until a token is saved again.
   */
  remove(): AccountState {
    const wasShared = formulaConnection(this.stores.document).token;
    const connection = userConnection(this.stores);
    const user = connection.token ? this.clientFor(connection).getUser() : null;
    if (user?.ok) this.notePayer(user.value.email, this.options.now?.() ?? Date.now());
    removeUserConnection(this.stores);
    const stopped = wasShared !== null && formulaConnection(this.stores.document).token === null;
    if (stopped) clearCachedLookups(this.options.formulaCache);
    return this.describe(null, null, { note: stopped ? NOTES.removedSharing : null });
  }

  /** Lets this spreadsheet's formulas use the user's token, or stops it (clearing the formula lookups cached). */
  setFormulaSharing(enabled: boolean): AccountState {
    const document = this.stores.document;
    if (!document) return this.describe(null, 'Formulas can only share a token inside a spreadsheet.');
    if (!enabled) {
      stopSharingWithFormulas(document);
      clearCachedLookups(this.options.formulaCache);
      return { ...this.state(), note: NOTES.stoppedSharing };
    }
    const connection = userConnection(this.stores);
    if (!connection.token) return this.describe(null, 'Save a token first, then let formulas use it.');
    const result = this.clientFor(connection).getUser();
    if (!result.ok) return this.describe(null, connectionProblem(result.error, connection.baseUrl));
    shareWithFormulas(document, { token: connection.token, baseUrl: connection.baseUrl }, result.value.email);
    return this.describe(summarize(result.value), null);
  }

  /** Notes that the account `email` removed its token (at `at`), or saved one again (null); the panels follow. */
  private notePayer(email: string, at: number | null): void {
    const document = this.stores.document;
    if (!document || (at === null && !tokenlessPayers(document).has(email.toLowerCase()))) return;
    noteTokenless(document, email, at);
    noteDocumentChanged(document, at ?? this.options.now?.() ?? Date.now());
  }

  /** A refused token or address change: the saved connection is untouched and still shown when it works. */
  private refused(problem: string): AccountState {
    const connection = userConnection(this.stores);
    const current = connection.token ? this.clientFor(connection).getUser() : null;
    return this.describe(current?.ok ? summarize(current.value) : null, problem, { refusedChange: true });
  }

  private describe(
    account: AccountSummary | null,
    problem: string | null,
    extra: { refusedChange?: boolean; note?: string | null } = {},
  ): AccountState {
    const connection = userConnection(this.stores);
    const shared = formulaConnection(this.stores.document);
    return {
      connected: connection.token !== null,
      baseUrl: connection.baseUrl,
      defaultBaseUrl: DEFAULT_BASE_URL,
      urlAllowlist: [...this.urlAllowlist],
      account,
      problem,
      refusedChange: extra.refusedChange === true,
      note: extra.note ?? null,
      dashboardUrl: this.dashboardUrl,
      formulas: {
        shared: shared.token !== null,
        sharedBy: formulaTokenOwner(this.stores.document),
        sharedByMe: shared.token !== null && shared.token === connection.token,
      },
    };
  }
}
