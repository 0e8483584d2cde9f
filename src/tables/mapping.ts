// Lines a saved mapping up with the sheet's current header row: a saved draft follows its header (text + occurrence)
// wherever the column moved; headers seen for the first time get default drafts; saved drafts whose header is gone
// are kept aside (a header renamed back finds its settings again). Also reads drafts sent by the dialog, which are
// untrusted input, into well-formed ColumnDraft values.
import type { ColumnKind, KnownAgentType, KnownOutputFormat } from '../api/types';
import { AGENT_TYPES, KINDS, OUTPUT_FORMATS, defaultDraft, draftId, emptyAgent, type ColumnDraft } from './model';
import { uniqueKey } from './keys';

export interface AlignedMapping {
  /** One draft per non-blank header, in sheet column order. */
  drafts: ColumnDraft[];
  /** columns[i] is the 1-based sheet column of drafts[i]. */
  columns: number[];
  /** Saved drafts whose header is not in the sheet any more. */
  missing: ColumnDraft[];
  /** Whether a saved mapping existed. */
  saved: boolean;
}

/**
 * Builds the sheet's drafts. Without a saved mapping every column starts skipped, as an input (the user includes
 * the few they map; the dialog has "Include all"); with one, headers it does not know are added skipped too, so a
 * new column never slips into a push unnoticed.
 */
export function alignDrafts(headers: readonly string[], saved: readonly ColumnDraft[] | null): AlignedMapping {
  const savedById = new Map((saved ?? []).map((draft) => [draftId(draft), draft]));
  const taken = new Set((saved ?? []).map((draft) => draft.key));
  const seen = new Map<string, number>();
  const drafts: ColumnDraft[] = [];
  const columns: number[] = [];
  const used = new Set<string>();
  headers.forEach((raw, index) => {
    const header = raw.trim();
    if (header === '') return;
    const occurrence = (seen.get(header) ?? 0) + 1;
    seen.set(header, occurrence);
    const id = draftId({ header, occurrence });
    const existing = savedById.get(id);
    drafts.push(existing ? { ...existing } : defaultDraft(header, occurrence, uniqueKey(header, taken), false));
    columns.push(index + 1);
    used.add(id);
  });
  const missing = (saved ?? []).filter((draft) => !used.has(draftId(draft)));
  return { drafts, columns, missing, saved: saved !== null };
}

// --- Reading drafts from untrusted JSON (the dialog, or a stored value written by an older version) ---

const MAX_TEXT = 50000;

function text(value: unknown, fallback = ''): string {
  return typeof value === 'string' ? value.slice(0, MAX_TEXT) : fallback;
}

function textList(value: unknown): string[] {
  return Array.isArray(value)
    ? value.filter((item): item is string => typeof item === 'string').map((item) => item.slice(0, 1000))
    : [];
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], fallback: T): T {
  return typeof value === 'string' && (allowed as readonly string[]).includes(value) ? (value as T) : fallback;
}

/** A well-formed draft from untrusted JSON, or null when it has no header. Unknown values fall back to defaults. */
export function readDraft(raw: unknown): ColumnDraft | null {
  if (raw === null || typeof raw !== 'object') return null;
  const value = raw as Record<string, unknown>;
  const header = text(value.header).trim();
  if (header === '') return null;
  const occurrence =
    typeof value.occurrence === 'number' && Number.isInteger(value.occurrence) && value.occurrence > 0
      ? value.occurrence
      : 1;
  const agentRaw =
    value.agent !== null && typeof value.agent === 'object' ? (value.agent as Record<string, unknown>) : {};
  const defaults = emptyAgent();
  const maxResults = value.maxResults;
  return {
    header,
    occurrence,
    include: value.include === true,
    kind: oneOf<ColumnKind>(
      value.kind,
      KINDS.map((info) => info.kind),
      'input',
    ),
    name: text(value.name, header),
    key: text(value.key),
    agent: {
      agentType: oneOf<KnownAgentType>(agentRaw.agentType, AGENT_TYPES, defaults.agentType),
      outputFormat: oneOf<KnownOutputFormat>(agentRaw.outputFormat, OUTPUT_FORMATS, defaults.outputFormat),
      prompt: text(agentRaw.prompt),
      labels: textList(agentRaw.labels),
      outputSchema: text(agentRaw.outputSchema),
    },
    criterion: text(value.criterion),
    roles: textList(value.roles),
    maxResults: typeof maxResults === 'number' && Number.isFinite(maxResults) ? maxResults : null,
    emailColumnKey: text(value.emailColumnKey),
    extraJson: text(value.extraJson),
  };
}

/** Reads a list of drafts; entries without a header are dropped, and a repeated identity keeps its first entry. */
export function readDrafts(raw: unknown): ColumnDraft[] {
  if (!Array.isArray(raw)) return [];
  const seen = new Set<string>();
  const drafts: ColumnDraft[] = [];
  for (const item of raw) {
    const draft = readDraft(item);
    if (!draft || seen.has(draftId(draft))) continue;
    seen.add(draftId(draft));
    drafts.push(draft);
  }
  return drafts;
}
