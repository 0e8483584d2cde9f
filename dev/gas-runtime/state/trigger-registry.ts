// The project's installable triggers (each owned by a user, belonging to a document, with its schedule): the state
// ScriptApp (services/script-app.ts) adds to and lists, and the project fires (project.ts).
import { GasError, Msg } from '../errors';

export type TriggerEventType = 'CLOCK' | 'ON_OPEN' | 'ON_EDIT' | 'ON_CHANGE' | 'ON_FORM_SUBMIT';

export interface TriggerInfo {
  id: string;
  handler: string;
  /** The user who created the trigger (it runs as them). */
  owner: string;
  eventType: TriggerEventType;
  source: 'CLOCK' | 'SPREADSHEETS';
  sourceId: string;
  /** Spreadsheet id of the document the trigger belongs to (created from, for time-driven ones); it runs there. */
  documentId: string;
  /** Recurring interval of a time-driven trigger. */
  intervalMs?: number;
  /** Next time (runtime clock) a time-driven trigger is due. */
  nextRunAt?: number;
  /** `after()`/`at()` triggers fire once; they stay listed (and count toward the limit) until deleted. */
  oneShot: boolean;
  spent: boolean;
}

export class TriggerRegistry {
  private readonly triggers: TriggerInfo[] = [];
  private nextId = 1;

  list(): TriggerInfo[] {
    return this.triggers.map((t) => ({ ...t }));
  }

  /** The live record (for the runtime to update after firing). */
  record(id: string): TriggerInfo | undefined {
    return this.triggers.find((t) => t.id === id);
  }

  add(trigger: Omit<TriggerInfo, 'id' | 'spent'>, limitPerUser: number): TriggerInfo {
    if (this.triggers.filter((t) => t.owner === trigger.owner).length >= limitPerUser)
      throw new GasError(Msg.tooManyTriggers);
    const record: TriggerInfo = { ...trigger, id: String(this.nextId++).padStart(19, '7'), spent: false };
    this.triggers.push(record);
    return record;
  }

  remove(id: string): void {
    const i = this.triggers.findIndex((t) => t.id === id);
    if (i >= 0) this.triggers.splice(i, 1);
  }

  /** Time-driven triggers whose time has come, earliest first. */
  due(now: number): TriggerInfo[] {
    return this.triggers
      .filter((t) => t.eventType === 'CLOCK' && !t.spent && t.nextRunAt !== undefined && t.nextRunAt <= now)
      .sort((a, b) => a.nextRunAt! - b.nextRunAt!);
  }

  /** Earliest time a time-driven trigger is due, or null. */
  nextDueAt(): number | null {
    const times = this.triggers
      .filter((t) => t.eventType === 'CLOCK' && !t.spent && t.nextRunAt !== undefined)
      .map((t) => t.nextRunAt!);
    return times.length ? Math.min(...times) : null;
  }
}
