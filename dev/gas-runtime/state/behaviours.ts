// Behaviours Google does not document, each settable per project (README, "Undocumented behaviours"), and their
// defaults: what the services (ScriptApp, UrlFetchApp, the spreadsheet, the realm) read from the project's state.

/**
 * Behaviours Google does not document, each settable so that tests can run the add-in under every plausible one
 * (README, "Undocumented behaviours"); the defaults are the likeliest.
 */
export interface Behaviours {
  /** Whether getUserTriggers(spreadsheet) lists the time-driven triggers a script bound to it made. */
  userTriggersListTimeDriven: boolean;
  /**
   * Installable triggers: `run` (a published add-on, a bound script); a test deployment of an add-on supports none
   * (documented), but how it fails is not: `refused` (create() throws) or `never-fire` (made, never run).
   */
  installableTriggers: 'run' | 'refused' | 'never-fire';
  /**
   * Whether an add-on's time-driven trigger runs with its document active (getActive(), getDocumentProperties(),
   * getDocumentCache(), getDocumentLock()); `false`: they are null in it.
   */
  addOnTimerHasDocument: boolean;
  /** Whether Sheets gives a custom function's call the earlier result of the same call (same arguments) unrun. */
  reuseIdenticalFormulaResults: boolean;
  /**
   * Whether `eval` and `new Function` may build code at run time (neither a ban nor a limit is documented). Off by
   * default, so that nothing comes to depend on it: with it off, either throws `EvalError: Code generation from
   * strings disallowed for this context`.
   */
  codeFromStrings: boolean;
  /**
   * How many requests of one fetchAll Google runs at once (no cap is documented; a published benchmark shows them
   * concurrent, practitioners report 10 to 20 effective): null runs all at once, a number runs waves of that many
   * (the cost model's time, costs.ts).
   */
  fetchAllConcurrency: number | null;
  /**
   * A trigger of a user who has not granted a scope a newer version added: Google documents that it runs and "throws
   * an exception if the script attempts to call the unauthorized service" (`missing-scope`: a call whose scopes are
   * all ungranted throws); field reports read it as every authorized call failing (`any-scope`).
   */
  unauthorizedCalls: 'missing-scope' | 'any-scope';
}

export const DEFAULT_BEHAVIOURS: Behaviours = {
  userTriggersListTimeDriven: true,
  installableTriggers: 'run',
  addOnTimerHasDocument: true,
  reuseIdenticalFormulaResults: false,
  codeFromStrings: false,
  fetchAllConcurrency: null,
  unauthorizedCalls: 'missing-scope',
};
