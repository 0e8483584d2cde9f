// What the panels and the server exchange about the document's background work (sidebar/ imports only this file of
// src/background): the saved timer runs that cannot happen as things stand, and the stamp an open panel polls to
// follow changes made elsewhere (the menu, another editor's panel, the timer).

/** The saved timer runs of this spreadsheet that cannot start as things stand: one sentence each, with the figures. */
export interface SavedRunProblems {
  problems: string[];
}

/** How often an open panel polls the change stamp (the Research panel's poll's pace). */
export const CHANGE_POLL_MS = 15_000;
