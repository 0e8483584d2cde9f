// The column mapping of one sheet: one draft per header of the sheet's header row, saying whether that column is
// pushed and as which column config (kind, name, key and the kind's own fields). Drafts are the editable, storable
// form (flat, so switching kinds in the dialog keeps what was typed); build.ts turns the included ones into the
// service's ColumnConfig values. Also the catalogue of kinds, agent types and output formats the dialog offers.
import type { ColumnKind, KnownAgentType, KnownOutputFormat } from '../api/types';

export interface AgentDraft {
  agentType: KnownAgentType;
  outputFormat: KnownOutputFormat;
  prompt: string;
  /** Choices of a `select` / `multiselect` output. */
  labels: string[];
  /** JSON text of the output schema of a `json` output. */
  outputSchema: string;
}

export interface ColumnDraft {
  /** The sheet header this draft belongs to (its identity: drafts follow headers, not column letters). */
  header: string;
  /** 1 for the first column with this header text, 2 for the second, ... (headers may repeat). */
  occurrence: number;
  include: boolean;
  kind: ColumnKind;
  name: string;
  key: string;
  agent: AgentDraft;
  /** criterion_grade */
  criterion: string;
  /** company_people_finder */
  roles: string[];
  maxResults: number | null;
  /** reverse_email_lookup: key of the column holding the e-mail address. */
  emailColumnKey: string;
  /** JSON object text of the fields of the unpublished kinds (besides kind, name, key). */
  extraJson: string;
}

export interface KindInfo {
  kind: ColumnKind;
  label: string;
  /** Which editor the dialog shows for the kind's own fields. */
  editor: 'none' | 'agent' | 'criterion' | 'people' | 'reverse_email' | 'json';
}

/** All 11 variants, in the order the dialog lists them. */
export const KINDS: readonly KindInfo[] = [
  { kind: 'input', label: 'Input', editor: 'none' },
  { kind: 'agent', label: 'Agent', editor: 'agent' },
  { kind: 'criterion_grade', label: 'Criterion grade', editor: 'criterion' },
  { kind: 'company_people_finder', label: 'People finder', editor: 'people' },
  { kind: 'email_finder', label: 'Email finder', editor: 'none' },
  { kind: 'phone_finder', label: 'Phone finder', editor: 'none' },
  { kind: 'reverse_email_lookup', label: 'Reverse email lookup', editor: 'reverse_email' },
  { kind: 'discovery_scores', label: 'Discovery scores', editor: 'json' },
  { kind: 'company_name', label: 'Company name', editor: 'json' },
  { kind: 'company_website', label: 'Company website', editor: 'json' },
  { kind: 'company_profile', label: 'Company profile', editor: 'json' },
];

export const AGENT_TYPES: readonly KnownAgentType[] = ['research_pro', 'research_reasoning', 'linkedin', 'llm'];

export const OUTPUT_FORMATS: readonly KnownOutputFormat[] = [
  'text',
  'url',
  'email',
  'select',
  'multiselect',
  'numeric',
  'money',
  'date',
  'phone',
  'grade',
  'json',
];

export function kindInfo(kind: string): KindInfo | undefined {
  return KINDS.find((info) => info.kind === kind);
}

export function emptyAgent(): AgentDraft {
  return { agentType: 'research_pro', outputFormat: 'text', prompt: '', labels: [], outputSchema: '' };
}

/** A draft with every field at its default; `key` is filled by the caller (it must be unique in the sheet). */
export function defaultDraft(header: string, occurrence: number, key: string, include: boolean): ColumnDraft {
  return {
    header,
    occurrence,
    include,
    kind: 'input',
    name: header,
    key,
    agent: emptyAgent(),
    criterion: '',
    roles: [],
    maxResults: null,
    emailColumnKey: '',
    extraJson: '',
  };
}

/** "Header" or "Header (2)" for the second column with the same header text: how rows are named in messages. */
export function draftLabel(draft: Pick<ColumnDraft, 'header' | 'occurrence'>): string {
  return draft.occurrence > 1 ? `${draft.header} (${draft.occurrence})` : draft.header;
}

/** Identity of a draft within a sheet's mapping. */
export function draftId(draft: Pick<ColumnDraft, 'header' | 'occurrence'>): string {
  return `${draft.occurrence}\u0000${draft.header}`;
}
