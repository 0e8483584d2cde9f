// What the Enrich panel's "Keep enriching new rows" section and the server exchange (sidebar/ imports only this file
// of src/new-rows): the section's state (on or off, what it fills, when it last ran and what it found, what is next),
// the request turning it on or off, and research on new rows (its figures to confirm, what was confirmed, this
// month's reservations).
import type { TaskDepth } from '../api/types';
import type { OutputRequest } from '../research/launch/launch-request';

/** What one check of a sheet found and did. */
export interface NewRowsCheck {
  at: number;
  /** New rows found under the list. */
  added: number;
  /** Of them, rows that got their fields (or a "Not found" or a retry mark). */
  filled: number;
  /** Rows waiting for the service (looked up again at the next check). */
  waiting: number;
  /** Rows whose domain cell holds no domain (left alone). */
  invalid: number;
}

/** Why the checks cannot do their work (the service unreachable, a column renamed), and since when. */
export interface NewRowsProblem {
  text: string;
  since: number;
}

/** Research on new rows as the panel shows it: what its saver confirmed and this month's figures. */
export interface NewRowsResearchDto {
  template: string;
  depth: TaskDepth;
  /** The output's columns (status first). */
  headers: string[];
  creditsPerRow: number;
  monthlyLimit: number;
  /** Credits research on this sheet's new rows reserved this month (every row at its depth's full reservation). */
  reservedThisMonth: number;
  savedBy: string;
  confirmedAt: number;
  lastRun: { at: number; text: string } | null;
  /** Why no new row can be researched as things stand (the spending cap below a row, its payer's token), or null. */
  blocked: string | null;
}

export interface NewRowsDto {
  sheetName: string;
  /** The domain column ("A: Website", and its header) and the field columns the new rows get. */
  domainColumnLabel: string;
  domainHeader: string;
  headers: string[];
  since: number;
  lastCheckAt: number | null;
  /** When the next check is due (the timer runs it at its first tick after). */
  nextCheckAt: number;
  lastFound: NewRowsCheck | null;
  problem: NewRowsProblem | null;
  totals: { added: number; filled: number };
  research: NewRowsResearchDto | null;
}

export type NewRowsAnswer =
  | {
      ok: true;
      sheetName: string;
      /** The active sheet's setting, or null when it is off. */
      newRows: NewRowsDto | null;
      /** What runs the checks when it is not this user's timer, or why none can (then it is not saved). */
      timerNote: string | null;
      timeZone: string;
      /** The fields it would fill when turned on (the sheet's enriched columns), when it is off and can be. */
      wouldFill: string[];
    }
  | { ok: false; message: string };

/** Turns it on for the active sheet (its domain column as the Enrich panel shows it), or off. */
export interface NewRowsRequest {
  on: boolean;
  domainColumn?: number;
}

/** The figures to confirm before research on new rows is saved. */
export interface NewRowsResearchConfirm {
  creditsPerRow: number;
  monthlyLimit: number;
  /** Rows a month the limit holds at that depth. */
  rowsPerMonth: number;
}

export interface NewRowsResearchRequest {
  template: string;
  depth: TaskDepth;
  output: OutputRequest;
  monthlyLimit: number;
  /** The figures the user confirmed (the answer's `confirm`); null or different: answered with them to confirm. */
  confirmed: { creditsPerRow: number; monthlyLimit: number } | null;
}

export type NewRowsResearchAnswer =
  | { ok: true; message: string; confirm: NewRowsResearchConfirm | null; state: NewRowsAnswer }
  | { ok: false; message: string };
