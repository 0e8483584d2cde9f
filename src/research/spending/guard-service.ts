// The spreadsheet's research spending cap: what the panels show (what is left under it, who set it and who may change
// it how) and the change itself. The cap is kept in the document's properties with its owner; the ledger tells what
// was spent. Its days and months are counted in a time zone kept there too (the spreadsheet's when spending was first
// counted, or when the cap's owner last set it), so that an editor changing the spreadsheet's time zone (File >
// Settings) cannot move spending out of today or this month.
import { noteDocumentChanged } from '../../scheduler/changes';
import type { Research } from '../context';
import type { SpendingGuardAnswer, SpendingGuardDto } from '../contract';
import type { KeyValueStore } from '../../ports';
import { formulaTokenOwner } from '../../account/settings';
import { userMessage } from '../../api/errors';
import { guardRoom, NO_CAP, readCap, type SpendingCap } from './spending-guard';
import { capCalendar, countCapInSpreadsheetZone } from './calendar';
import { formatInSpreadsheetZone } from '../../platform/spreadsheet';

const GUARD_KEY = 'sheetscout.research.cap';

/**
 * The cap as stored in the document's properties, with who owns it: the Sheet Scout account (e-mail) that set it, and
 * the last change by anyone else (who may only lower it). A cap saved before owners were kept has no owner.
 */
interface CapRecord extends SpendingCap {
  setBy?: string | null;
  setAt?: number | null;
  changedBy?: string | null;
  changedAt?: number | null;
}

function storedRecord(document: KeyValueStore): CapRecord | null {
  try {
    const parsed: unknown = JSON.parse(document.get(GUARD_KEY) ?? 'null');
    if (!parsed || typeof parsed !== 'object') return null;
    const cap = readCap(parsed as SpendingCap);
    if (typeof cap === 'string') return null;
    const record = parsed as CapRecord;
    const text = (value: unknown) => (typeof value === 'string' && value ? value : null);
    const time = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : null);
    return {
      ...cap,
      setBy: text(record.setBy),
      setAt: time(record.setAt),
      changedBy: text(record.changedBy),
      changedAt: time(record.changedAt),
    };
  } catch {
    return null;
  }
}

export function storedCap(document: KeyValueStore): SpendingCap {
  const record = storedRecord(document);
  return record ? { daily: record.daily, monthly: record.monthly } : NO_CAP;
}

/** Whether `next` is no looser than `current` on both caps (blank is no cap: looser than any number). */
function isLowering(current: SpendingCap, next: SpendingCap): boolean {
  const noLooser = (now: number | null, then: number | null) => now === null || (then !== null && then <= now);
  return noLooser(current.daily, next.daily) && noLooser(current.monthly, next.monthly);
}

const sameAccount = (a: string | null | undefined, b: string) => !!a && a.toLowerCase() === b.toLowerCase();

/** The owner of the cap: who set it, or for a cap saved before owners were kept, who shares a token with formulas. */
function ownerOf(record: CapRecord, document: KeyValueStore): string | null {
  return record.setBy ?? formulaTokenOwner(document);
}

/** Who set the cap and when, and who may change it how, as the panels say it. */
function ownershipNote(record: CapRecord | null, document: KeyValueStore): string | null {
  if (!record) return null;
  const owner = ownerOf(record, document);
  const date = (ms: number | null | undefined) => (ms ? ` on ${formatInSpreadsheetZone(ms, 'd MMM yyyy')}` : '');
  const lowered =
    record.changedBy && !sameAccount(record.changedBy, owner ?? '')
      ? ` Lowered by ${record.changedBy}${date(record.changedAt)}.`
      : '';
  return owner
    ? `Set by ${owner}${date(record.setAt)}.${lowered} Anyone may lower it; only ${owner} may raise or remove it.`
    : `Anyone may lower it; whoever raises or removes it next owns it.${lowered}`;
}

/** The spending guard as the panels show it. */
export function guardDto(r: Research): SpendingGuardDto {
  const document = r.document;
  const record = storedRecord(document);
  const cap = record ? { daily: record.daily, monthly: record.monthly } : NO_CAP;
  const room = guardRoom(
    cap,
    r.deps.ledger.load(),
    r.context.clock.now(),
    capCalendar(document),
    r.deps.ledger.spentByDay(),
  );
  return {
    ...room,
    owner: record ? ownerOf(record, document) : null,
    editNote: ownershipNote(record, document),
  };
}

/**
 * Sets (or clears, with nulls) the cap. Anyone may set a cap where there is none (they own it) or lower one; only its
 * owner (the Sheet Scout account that set it) may raise or remove it. The account is the one the editor's token
 * belongs to (GET /v1/user): who pays for the research, and what the panels show.
 */
export function changeSpendingGuard(
  r: Research,
  request: { daily: number | null; monthly: number | null },
): SpendingGuardAnswer {
  const current = guardDto(r);
  const cap = readCap(request);
  if (typeof cap === 'string') return { ok: false, message: cap, guard: current };
  const account = r.deps.client.getUser();
  if (!account.ok)
    return {
      ok: false,
      message: `The cap records who changed it: connect your Sheet Scout account first (${userMessage(account.error)})`,
      guard: current,
    };
  const email = account.value.email;
  const now = r.context.clock.now();
  const record = storedRecord(r.document);
  const removing = cap.daily === null && cap.monthly === null;
  let next: CapRecord | null;
  if (!record) next = removing ? null : { ...cap, setBy: email, setAt: now };
  else if (!removing && isLowering(record, cap)) {
    const owned = sameAccount(ownerOf(record, r.document), email);
    next = owned ? { ...record, ...cap } : { ...record, ...cap, changedBy: email, changedAt: now };
  } else {
    const owner = ownerOf(record, r.document);
    if (owner && !sameAccount(owner, email))
      return {
        ok: false,
        message: `Only ${owner}, who set this cap, may ${removing ? 'remove' : 'raise'} it: you may lower it.`,
        guard: current,
      };
    next = removing ? null : { ...cap, setBy: email, setAt: now };
  }
  // The owner setting the cap (not another editor lowering it) counts its days in the spreadsheet's zone from now on.
  if (next && next.setAt === now) countCapInSpreadsheetZone(r.document);
  if (next) r.document.set(GUARD_KEY, JSON.stringify(next));
  else r.document.remove(GUARD_KEY);
  noteDocumentChanged(r.document, now);
  return { ok: true, guard: guardDto(r) };
}
