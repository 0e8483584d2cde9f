// What Settings' "Check this installation" section and the server exchange (sidebar/ imports only this file of
// src/check): the last check's results, what the timer probe found since, and the switches in force.
import type { InstallationResult, TimerProbe } from '../shared/installation';

export type { InstallationResult, TimerProbe };

export interface InstallationCheckState {
  last: InstallationResult | null;
  /** The timer probe the last check asked for: asked only, or what its run found. */
  timer: TimerProbe | null;
  /** When a timer of this user last ran without its spreadsheet (Google's behaviour for add-ons here), or null. */
  documentlessAt: number | null;
  /** The menu item asked for the check: the section runs it when Settings opens. */
  requested: boolean;
  /** What the add-in uses now: fetchAll's width (null: not settled) and the start a timer run is booked with. */
  switches: { fetchAllWidth: number | null; timerStartMs: number };
}
