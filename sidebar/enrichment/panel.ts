// The enrichment panel: setup (setup-view.ts: domain column, fields with where each goes, "overwrite non-empty
// cells", preview counts, Start), then progress (progress-view.ts: bar, counts, rate, ETA, the domains waiting for the
// service with a countdown, Cancel) while the panel drives the job (each call one server execution of up to a minute,
// the start's included, followed meanwhile by a cheap progress call every few seconds; the timer continues if the
// panel closes), then the summary. A paused job shows why and offers Resume; the domains a
// pause stopped wait for it and are not counted as errors. Below the setup, "Keep data fresh" (refresh-section.ts)
// refreshes rows enriched more than N days ago, and "Keep enriching new rows" (sidebar/new-rows) fills rows added later.
import type { EnrichOptions, EnrichPreview, EnrichProgress } from '../../src/enrichment/contract';
import { errorText, server } from '../bridge';
import { panelHeader, refreshCredits } from '../ui/credits-badge';
import { h, message, replaceChildren } from '../ui/dom';
import { refreshSection } from './refresh-section';
import { newRowsSection, reloadNewRows } from '../new-rows/section';
import { reloadSchedule } from './schedule-view';
import { followChanges } from '../ui/follow-changes';
import { progressView, summary } from './progress-view';
import { setupView } from './setup-view';

const RETRY_AFTER_FAILURE_MS = 5000;
const MAX_FAILURES = 5;
/** While a call works on the job, the progress the job saved (every 10 s) is read this often. */
const PROGRESS_EVERY_MS = 5000;

function wait(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

class EnrichPanel {
  private options: EnrichOptions = {};
  private driving = false;
  private failures = 0;
  /** The latest preview asked for: an earlier answer arriving after it is dropped. */
  private previewSeq = 0;

  constructor(private readonly body: HTMLElement) {}

  private show(...children: Array<Node | null>): void {
    replaceChildren(this.body, ...children);
  }

  private showError(error: unknown): void {
    this.body.appendChild(message('error', errorText(error)));
  }

  /**
   * Asks for a preview of `next`. A change of choice (`keepView`) leaves the controls in place while the answer comes,
   * so a quick second click lands on them (and only the latest answer is shown).
   */
  async loadPreview(next: EnrichOptions = this.options, keepView = false): Promise<void> {
    this.options = next;
    const seq = ++this.previewSeq;
    if (!keepView) this.show(h('p', { class: 'muted' }, 'Reading the sheet…'));
    try {
      const preview = await server.getEnrichmentPreview(this.options);
      if (seq !== this.previewSeq) return;
      if (preview.job && (preview.job.status === 'running' || preview.job.status === 'paused')) {
        this.renderProgress(preview.job);
        if (preview.job.status === 'running') void this.drive();
        return;
      }
      this.renderSetup(preview);
    } catch (error) {
      if (seq !== this.previewSeq) return;
      this.show(
        message('error', errorText(error)),
        h(
          'div',
          { class: 'row' },
          h('button', { type: 'button', onclick: () => void this.loadPreview() }, 'Try again'),
        ),
      );
    }
  }

  private renderSetup(preview: EnrichPreview): void {
    const last = preview.job
      ? h(
          'details',
          { id: 'enrich-last-run' },
          h('summary', {}, `Last run on "${preview.job.sheetName}": ${preview.job.status}`),
          summary(preview.job),
        )
      : null;
    const actions = {
      preview: (options: EnrichOptions) => void this.loadPreview(options, true),
      start: (choice: EnrichOptions, button: HTMLButtonElement) => void this.startJob(choice, button),
      options: () => this.options,
    };
    this.show(...setupView(preview, actions, last, refreshSection()), preview.ok ? newRowsSection() : null);
  }

  /** Waits for a call that works on the job, showing the progress it saves meanwhile. */
  private async following<T>(call: Promise<T>): Promise<T> {
    let pending = true;
    const settled = call.finally(() => {
      pending = false;
    });
    void (async () => {
      for (;;) {
        await Promise.race([wait(PROGRESS_EVERY_MS), settled.catch(() => undefined)]);
        if (!pending) return;
        const progress = await server.getEnrichmentProgress().catch(() => null);
        if (pending && progress) this.renderProgress(progress);
      }
    })();
    return settled;
  }

  private renderProgress(progress: EnrichProgress): void {
    this.show(
      ...progressView(progress, {
        cancel: () => void this.cancel(),
        resume: () => void this.resume(),
        again: () => void this.loadPreview(),
      }),
    );
  }

  private async startJob(choice: EnrichOptions, button: HTMLButtonElement): Promise<void> {
    button.disabled = true;
    try {
      const started = await this.following(server.startEnrichment(choice));
      if (!started.ok) {
        this.body.appendChild(message('error', started.message));
        button.disabled = false;
        return;
      }
      // "Overwrite non-empty cells" holds for this run only: the next one asks afresh (the user's later edits stay).
      this.options = { ...choice, overwrite: false };
      this.renderProgress(started.progress);
      void this.drive();
    } catch (error) {
      this.showError(error);
      button.disabled = false;
    }
  }

  /** One chunk, retried after a failure; null when the service has no job any more; undefined to stop driving. */
  private async nextChunk(): Promise<EnrichProgress | null | undefined> {
    for (;;) {
      try {
        const progress = await this.following(server.runEnrichmentChunk());
        this.failures = 0;
        return progress;
      } catch (error) {
        if (++this.failures >= MAX_FAILURES) {
          this.body.appendChild(
            message(
              'error',
              `${errorText(error)}. The job continues in the background; reopen the panel to follow it.`,
            ),
          );
          return undefined;
        }
        await wait(RETRY_AFTER_FAILURE_MS);
      }
    }
  }

  private async drive(): Promise<void> {
    if (this.driving) return;
    this.driving = true;
    try {
      for (;;) {
        const progress = await this.nextChunk();
        if (progress === undefined) return;
        if (!progress) return void this.loadPreview();
        this.renderProgress(progress);
        if (progress.nextStepInMs < 0) return;
        if (progress.nextStepInMs > 0) await wait(progress.nextStepInMs);
      }
    } finally {
      this.driving = false;
    }
  }

  private async cancel(): Promise<void> {
    try {
      const progress = await server.cancelEnrichment();
      if (progress) this.renderProgress(progress);
    } catch (error) {
      this.showError(error);
    }
  }

  private async resume(): Promise<void> {
    try {
      const progress = await server.resumeEnrichment();
      if (progress) this.renderProgress(progress);
      void this.drive();
    } catch (error) {
      this.showError(error);
    }
  }
}

export function mountEnrichPanel(root: HTMLElement): void {
  const body = h('div', { id: 'enrich-body' });
  replaceChildren(root, panelHeader('Enrich domains'), body);
  void refreshCredits();
  void new EnrichPanel(body).loadPreview();
  // The timer's checks and runs, or another editor's panel: the schedule and the new rows show them at the next poll.
  followChanges(async () => {
    await Promise.all([reloadSchedule(), reloadNewRows()]);
  });
}
