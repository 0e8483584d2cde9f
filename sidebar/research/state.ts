// The Research panel's one typed state (what the user typed and chose, and what the server last answered), the output
// request it stands for, and the one render the tabs call after changing it (the shell in panel.ts registers it).
import type { TaskDepth } from '../../src/api/types';
import type {
  HistoryItemDto,
  ReportDto,
  ResearchContextDto,
  ResearchStatusDto,
  WriteToRowResponse,
} from '../../src/research/contract';
import { DEFAULT_REUSE_DAYS, type FieldSpec, type OutputRequest } from '../../src/research/contract';
import { errorText, server } from '../bridge';
import { refreshCredits } from '../ui/credits-badge';
import type { LeftToDecide } from './launch-question';
import { forgetQuestionCount } from './question-count';

export interface FieldRow extends FieldSpec {
  column: string;
}

export interface PanelState {
  context: ResearchContextDto | null;
  credits: number | null;
  template: string;
  depth: TaskDepth;
  outputKind: 'report' | 'fields';
  statusHeader: string;
  reportHeader: string;
  sourcesMode: 'column' | 'note';
  sourcesHeader: string;
  fieldsMode: 'builder' | 'paste';
  fields: FieldRow[];
  schemaText: string;
  pastedColumns: Record<string, string>;
  rerun: boolean;
  /** The period the offer of earlier results counts over (reuse-offer.ts), and the user's answer to the offer made. */
  reuseDays: number;
  reuseAnswer: { key: string; use: boolean } | null;
  tab: 'launch' | 'tasks' | 'report';
  notice: { kind: 'error' | 'ok' | 'warn'; text: string; details?: string[] } | null;
  busy: boolean;
  status: ResearchStatusDto | null;
  history: { page: number; items: HistoryItemDto[]; hasMore: boolean; error: string | null } | null;
  report: ReportDto | null;
  /** The unconfirmed record whose "Send anyway" awaits a second click (it may pay twice). */
  confirmingSend: string | null;
  /**
   * The last launch's answer, shown under the launch button (where the user is looking), with what it left for the
   * user to decide (rows already researched, or running another account's research: one question, launch-question.ts).
   */
  launched:
    | ({
        kind: 'error' | 'ok' | 'warn';
        text: string;
        details: string[];
        sheetId: number;
        rows: number[];
        statusHeader: string;
      } & LeftToDecide)
    | null;
  /** The answer to "Write to selected row", shown in the task's own entry (with its question, if any). */
  written: {
    taskId: string;
    answer: WriteToRowResponse;
    confirmed: { otherCompany: boolean; taskOutput: boolean };
  } | null;
}

export const state: PanelState = {
  context: null,
  credits: null,
  template: 'Research {A}: what it does, customers, funding and recent news',
  depth: 'medium',
  outputKind: 'report',
  statusHeader: 'Research status',
  reportHeader: 'Research report',
  sourcesMode: 'column',
  sourcesHeader: 'Research sources',
  fieldsMode: 'builder',
  fields: [{ name: 'summary', type: 'string', required: true, evidence: false, column: 'summary' }],
  schemaText: '',
  pastedColumns: {},
  rerun: false,
  reuseDays: DEFAULT_REUSE_DAYS,
  reuseAnswer: null,
  tab: 'launch',
  notice: null,
  busy: false,
  status: null,
  history: null,
  report: null,
  confirmingSend: null,
  launched: null,
  written: null,
};

let renderer: () => void = () => undefined;

/** Draws the panel again from the state (registered once by the shell). */
export function render(): void {
  renderer();
}

export function setRenderer(draw: () => void): void {
  renderer = draw;
}

export function output(): OutputRequest {
  if (state.outputKind === 'report') {
    return {
      kind: 'report',
      statusHeader: state.statusHeader,
      reportHeader: state.reportHeader,
      sourcesHeader: state.sourcesMode === 'note' ? null : state.sourcesHeader,
    };
  }
  if (state.fieldsMode === 'paste') {
    return {
      kind: 'fields',
      statusHeader: state.statusHeader,
      schemaText: state.schemaText,
      columns: state.pastedColumns,
    };
  }
  return {
    kind: 'fields',
    statusHeader: state.statusHeader,
    fields: state.fields.map(({ column: _column, ...field }) => field),
    columns: Object.fromEntries(
      state.fields.map((field) => [field.name.trim(), field.column.trim() || field.name.trim()]),
    ),
  };
}

function applySaved(saved: ResearchContextDto['saved']): void {
  if (!saved) return;
  state.template = saved.template;
  state.depth = saved.depth;
  const out = saved.output;
  state.statusHeader = out.statusHeader;
  state.outputKind = out.kind;
  if (out.kind === 'report') {
    state.reportHeader = out.reportHeader;
    state.sourcesMode = out.sourcesHeader === null ? 'note' : 'column';
    if (out.sourcesHeader) state.sourcesHeader = out.sourcesHeader;
  } else if (out.schemaText) {
    state.fieldsMode = 'paste';
    state.schemaText = out.schemaText;
    state.pastedColumns = out.columns ?? {};
  } else if (out.fields) {
    state.fieldsMode = 'builder';
    state.fields = out.fields.map((field) => ({ ...field, column: out.columns?.[field.name] ?? field.name }));
  }
}

/**
 * Reads the selection, the sheet's headers and the credits (and counts the rows' questions again); the first time, the
 * panel's saved settings too.
 */
export async function loadContext(): Promise<void> {
  forgetQuestionCount();
  try {
    const [context, credits] = await Promise.all([server.getResearchContext(), server.getCredits()]);
    const first = state.context === null;
    state.context = context;
    state.credits = credits.availableCredits;
    void refreshCredits(credits);
    if (first) applySaved(context.saved);
  } catch (error) {
    state.notice = { kind: 'error', text: errorText(error) };
  }
  render();
}
