// What the mapping dialog's side panels (push, template) share with the dialog: the model of the mapping and the
// dialog's steps they call (validate again, adopt a server answer and show the field it marks, run a call with a busy
// state and a result box).
import type { ColumnDraft, MappingIssue, TablesRefusal, TablesState } from '../../src/tables/contract';

export interface Model {
  state: TablesState;
  drafts: ColumnDraft[];
  letters: string[];
  /** Issues from the last server answer; cleared by the next edit. */
  serverIssues: MappingIssue[];
}

/** A server answer that carries the mapping as the server now has it. */
export interface MappingAnswer {
  drafts: ColumnDraft[];
  letters: string[];
  issues?: MappingIssue[];
  saveError: string | null;
}

export interface DialogHost {
  readonly model: Model;
  refreshValidation(): void;
  /** Takes the server's drafts and issues, and marks the mapping saved. */
  adopt(answer: MappingAnswer): void;
  /** The errors the dialog's own check of the mapping marks now. */
  markedErrors(): MappingIssue[];
  /** Brings the first field an answer marked with an error into view (it may be scrolled far out of it). */
  revealMarked(issues: readonly MappingIssue[]): void;
  /** Runs a server call with the buttons disabled and "Working..." in `into`; `done` gets the answer, unless refused. */
  call<T>(promise: Promise<T | TablesRefusal>, into: HTMLElement, done: (answer: T) => void): void;
}
