// The mapping dialog's autosave: the mapping is saved with the document a moment after each edit, at once by "Save
// mapping" and when the dialog closes, and counts as saved after a push or template save (the server saved it too).
// Its status line says which.
import { server, errorText } from '../bridge';
import { h } from '../ui/dom';
import { isRefusal } from '../../src/tables/contract';
import type { Model } from './host';

const AUTOSAVE_MS = 1500;

export class Autosave {
  private dirty = false;
  private timer: number | undefined;
  readonly status: HTMLElement;

  constructor(
    private readonly model: Model,
    loaded: boolean,
  ) {
    this.status = h(
      'span',
      { class: 'muted', id: 'tables-save-status', role: 'status' },
      loaded ? 'Saved mapping loaded' : 'New mapping',
    );
    window.addEventListener('pagehide', () => this.saveNow());
  }

  schedule(): void {
    this.dirty = true;
    this.status.textContent = 'Unsaved changes';
    window.clearTimeout(this.timer);
    this.timer = window.setTimeout(() => this.saveNow(), AUTOSAVE_MS);
  }

  /** "Save mapping": saves even when nothing changed since the last save. */
  saveAnyway(): void {
    this.dirty = true;
    this.saveNow();
  }

  saveNow(): void {
    window.clearTimeout(this.timer);
    if (!this.dirty) return;
    this.dirty = false;
    this.status.textContent = 'Saving...';
    server
      .saveTablesMapping({ sheetId: this.model.state.sheetId, drafts: this.model.drafts })
      .then((answer) => {
        if (isRefusal(answer)) {
          this.dirty = true;
          this.status.textContent = `Not saved: ${answer.message}`;
          return;
        }
        this.status.textContent = answer.saveError ?? (this.dirty ? 'Unsaved changes' : 'All changes saved');
      })
      .catch((error: unknown) => {
        this.dirty = true;
        this.status.textContent = `Not saved: ${errorText(error)}`;
      });
  }

  /** A push or template save also saved the mapping on the server. */
  savedByServer(saveError: string | null): void {
    window.clearTimeout(this.timer);
    this.dirty = false;
    this.status.textContent = saveError ?? 'All changes saved';
  }
}
