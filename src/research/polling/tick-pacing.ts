// How often the open Research panels of a document may have a tick call the service. A panel polls every 15 s, and a
// tick usually costs a request per 100 pending tasks; but a document whose tasks lie behind thousands of newer ones
// (other spreadsheets, other tools) costs up to a request per task or list page. So the document keeps a note of its
// last tick (when, and the requests it sent), and the panels wait longer after an expensive one: open panels spend at
// most about PANEL_REQUESTS_PER_HOUR of the user's daily requests on a document. The timer's ticks are not paced.
// Pure.

/** Least time between two ticks from the panels. */
export const PANEL_TICK_GAP_MS = 15 * 1000;
/** Requests the panels of one document may spend polling in an hour (a thirtieth of a consumer account's day). */
export const PANEL_REQUESTS_PER_HOUR = 600;
const HOUR_MS = 60 * 60 * 1000;

export interface TickNote {
  /** When the tick started (ms). */
  at: number;
  /** Requests it sent. */
  requests: number;
}

/** The note as stored: JSON, or a bare time (the first versions noted only that). */
export function readTickNote(text: string | null): TickNote | null {
  if (!text) return null;
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'number') return { at: parsed, requests: 0 };
    const note = parsed as Partial<TickNote> | null;
    return note && typeof note.at === 'number' ? { at: note.at, requests: Number(note.requests) || 0 } : null;
  } catch {
    return null;
  }
}

export function tickNoteText(note: TickNote): string {
  return JSON.stringify(note);
}

/** When the panels may next have a tick call the service, after this one. */
export function nextPanelTick(note: TickNote): number {
  return note.at + Math.max(PANEL_TICK_GAP_MS, (note.requests / PANEL_REQUESTS_PER_HOUR) * HOUR_MS);
}
