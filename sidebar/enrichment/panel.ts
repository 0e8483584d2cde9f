// The enrichment panel: setup (domain column, fields with where each goes, "overwrite non-empty cells", preview counts,
// Start), then progress (bar, done / enriching / not found / invalid / errors / skipped, rate, ETA, the domains waiting
// for the service with a countdown to their next try, Cancel) while the panel drives the job chunk by chunk (each call
// one server execution; a trigger continues if the panel closes), then the summary. A paused job shows why and offers
// Resume; the domains a pause stopped wait for it and are not counted as errors. Below the setup, "Keep data fresh"
// (refresh-section.ts) refreshes rows enriched more than N days ago.
import type { EnrichOptions, EnrichPreview, EnrichProgress } from '../../src/enrichment/contract';
import { errorText, server } from '../bridge';
import { panelHeader } from '../ui/credits-badge';
import { h, message, replaceChildren } from '../ui/dom';
import { count, duration } from './format';
import { refreshSection } from './refresh-section';

const RETRY_AFTER_FAILURE_MS = 5000;
const MAX_FAILURES = 5;

export function mountEnrichPanel(root: HTMLElement): void {
  const body = h('div', { id: 'enrich-body' });
  replaceChildren(root, panelHeader('Enrich domains'), body);
  let options: EnrichOptions = {};
  let driving = false;
  let failures = 0;
  let countdown: number | undefined;

  const show = (...children: Array<Node | null>): void => replaceChildren(body, ...children);

  async function loadPreview(next: EnrichOptions = options): Promise<void> {
    options = next;
    show(h('p', { class: 'muted' }, 'Reading the sheet…'));
    try {
      const preview = await server.getEnrichmentPreview(options);
      if (preview.job && (preview.job.status === 'running' || preview.job.status === 'paused')) {
        renderProgress(preview.job);
        if (preview.job.status === 'running') void drive();
        return;
      }
      renderSetup(preview);
    } catch (error) {
      show(
        message('error', errorText(error)),
        h('div', { class: 'row' }, h('button', { type: 'button', onclick: () => void loadPreview() }, 'Try again')),
      );
    }
  }

  function renderSetup(preview: EnrichPreview): void {
    const last = preview.job ? lastRun(preview.job) : null;
    if (!preview.ok) {
      show(
        message('warn', preview.message),
        h('p', { class: 'muted' }, 'Select the column of company domains (or the whole sheet), then refresh.'),
        h(
          'div',
          { class: 'row' },
          h(
            'button',
            {
              type: 'button',
              id: 'enrich-refresh',
              onclick: () => void loadPreview({ fields: options.fields, overwrite: options.overwrite }),
            },
            'Use current selection',
          ),
        ),
        last,
      );
      return;
    }
    const column = h(
      'select',
      { id: 'enrich-column', 'aria-label': 'Domain column' },
      ...preview.columns.map((option) => {
        const element = h(
          'option',
          { value: String(option.column) },
          `${option.label} (${count(option.domains)} domains)`,
        );
        if (option.column === preview.domainColumn) element.selected = true;
        return element;
      }),
    );
    column.addEventListener(
      'change',
      () => void loadPreview({ ...currentChoice(), domainColumn: Number(column.value) }),
    );
    const boxes = preview.fields.map((field) => {
      const box = h('input', { type: 'checkbox', value: field.key, checked: field.checked, 'data-field': field.key });
      box.addEventListener('change', () => void loadPreview(currentChoice()));
      return h(
        'label',
        { class: 'check' },
        box,
        h('span', {}, field.header),
        field.target ? h('span', { class: 'target' }, field.target) : null,
      );
    });
    const overwrite = h('input', { type: 'checkbox', id: 'enrich-overwrite', checked: preview.overwrite });
    overwrite.addEventListener('change', () => void loadPreview(currentChoice()));
    const currentChoice = (): EnrichOptions => ({
      domainColumn: Number(column.value),
      fields: boxes
        .map((label) => label.querySelector('input') as HTMLInputElement)
        .filter((input) => input.checked)
        .map((input) => input.value),
      overwrite: overwrite.checked,
    });
    const start = h(
      'button',
      {
        type: 'button',
        class: 'primary',
        id: 'enrich-start',
        disabled: preview.toLookUp === 0 && preview.invalid === 0,
      },
      'Start',
    );
    start.addEventListener('click', () => void startJob(currentChoice(), start));
    show(
      h(
        'p',
        { class: 'muted' },
        `Sheet "${preview.sheetName}". Values are written next to each row (as values, not formulas).`,
      ),
      preview.note ? message('ok', preview.note) : null,
      h('label', { for: 'enrich-column' }, 'Domain column'),
      column,
      preview.hasHeaderRow ? null : message('warn', 'No header row found: one will be added above the data.'),
      h('label', {}, 'Fields to add (one column each; a column with the same header is reused)'),
      h('div', { class: 'fields' }, ...boxes),
      h('label', { class: 'check' }, overwrite, h('span', {}, 'Overwrite non-empty cells')),
      h('h2', {}, 'Preview'),
      h(
        'dl',
        { class: 'counts', id: 'enrich-preview' },
        h('dt', {}, 'Rows'),
        h('dd', {}, count(preview.rows)),
        h('dt', {}, 'Unique domains'),
        h('dd', {}, count(preview.uniqueDomains)),
        h('dt', {}, 'Blank'),
        h('dd', {}, count(preview.blank)),
        h('dt', {}, 'Invalid'),
        h('dd', {}, count(preview.invalid)),
        h('dt', {}, 'Already filled (skipped)'),
        h('dd', {}, count(preview.alreadyFilled)),
        h('dt', {}, 'Domains to look up'),
        h('dd', {}, `${count(preview.toLookUp)}${preview.cached > 0 ? ` (${count(preview.cached)} cached)` : ''}`),
        h('dt', {}, 'Cost'),
        h('dd', {}, '0 credits (lookups are free)'),
      ),
      h(
        'div',
        { class: 'row' },
        start,
        h(
          'button',
          {
            type: 'button',
            id: 'enrich-refresh',
            onclick: () => void loadPreview({ fields: currentChoice().fields, overwrite: overwrite.checked }),
          },
          'Use current selection',
        ),
      ),
      last,
      refreshSection(),
    );
  }

  function lastRun(job: EnrichProgress): HTMLElement {
    return h('details', {}, h('summary', {}, `Last run: ${job.status}`), summary(job));
  }

  async function startJob(choice: EnrichOptions, button: HTMLButtonElement): Promise<void> {
    button.disabled = true;
    try {
      const started = await server.startEnrichment(choice);
      if (!started.ok) {
        body.appendChild(message('error', started.message));
        button.disabled = false;
        return;
      }
      options = choice;
      renderProgress(started.progress);
      void drive();
    } catch (error) {
      body.appendChild(message('error', errorText(error)));
      button.disabled = false;
    }
  }

  function summary(progress: EnrichProgress): HTMLElement {
    const c = progress.counts;
    const rows: Array<[string, number | string]> = [
      ['Rows filled', c.written],
      ['Enriching (202)', progress.enriching],
      ['Not found', c.notFound],
      ['Invalid', progress.scope.invalid],
      ['Errors', c.errors],
      ...(progress.retrying > 0 ? [['Retrying after an error', progress.retrying] as [string, number]] : []),
      ...(progress.blocked > 0 ? [['Waiting for Resume', progress.blocked] as [string, number]] : []),
      ['Still enriching (marked)', c.gaveUp],
      ['Skipped: rows deleted', c.deleted],
      ['Skipped: already filled', progress.scope.alreadyFilled],
      ['Blank rows', progress.scope.blank],
    ];
    return h(
      'dl',
      { class: 'counts', id: 'enrich-counts' },
      ...rows.flatMap(([label, value]) => [
        h('dt', {}, label),
        h('dd', { 'data-count': label }, typeof value === 'number' ? count(value) : value),
      ]),
    );
  }

  /** The waiting domains and a live countdown to their next try. */
  function waitingLine(progress: EnrichProgress): HTMLElement | null {
    const waiting = progress.enriching + progress.retrying;
    if (waiting === 0 || progress.nextTrySeconds === null) return null;
    const nextTryAt = Date.now() + progress.nextTrySeconds * 1000;
    const when = h('span', { id: 'enrich-next-try' });
    const tick = (): void => {
      const left = Math.ceil((nextTryAt - Date.now()) / 1000);
      when.textContent = left > 0 ? `next try in ${duration(left)}` : 'trying again now';
    };
    tick();
    countdown = window.setInterval(tick, 1000);
    const what =
      progress.enriching > 0 ? `${plural(progress.enriching, 'domain')} still being enriched by the service` : '';
    const failed = progress.retrying > 0 ? `${plural(progress.retrying, 'failed lookup')} to retry` : '';
    return h(
      'p',
      { class: 'muted', id: 'enrich-waiting' },
      `Waiting: ${[what, failed].filter(Boolean).join(', ')}; `,
      when,
    );
  }

  function renderProgress(progress: EnrichProgress): void {
    window.clearInterval(countdown);
    const bar = h('div', { style: `width: ${progress.percent}%` });
    const running = progress.status === 'running';
    const paused = progress.status === 'paused';
    const statusText = running
      ? `${count(progress.resolvedDomains)} of ${count(progress.totalDomains)} domains`
      : progress.status === 'done'
        ? 'Done'
        : progress.status === 'cancelled'
          ? 'Cancelled'
          : 'Paused';
    const buttons = h('div', { class: 'row' });
    if (running)
      buttons.appendChild(h('button', { type: 'button', id: 'enrich-cancel', onclick: () => void cancel() }, 'Cancel'));
    if (paused) {
      buttons.appendChild(
        h('button', { type: 'button', class: 'primary', id: 'enrich-resume', onclick: () => void resume() }, 'Resume'),
      );
      buttons.appendChild(h('button', { type: 'button', id: 'enrich-cancel', onclick: () => void cancel() }, 'Cancel'));
    }
    if (!running && !paused)
      buttons.appendChild(
        h(
          'button',
          { type: 'button', class: 'primary', id: 'enrich-again', onclick: () => void loadPreview() },
          'Enrich again',
        ),
      );
    show(
      h(
        'p',
        { class: 'muted' },
        `Sheet "${progress.sheetName}", domains in ${progress.domainColumnLabel} → ${progress.headers.join(', ')}`,
      ),
      h(
        'div',
        {
          class: 'progress',
          id: 'enrich-progress',
          role: 'progressbar',
          'aria-valuemin': 0,
          'aria-valuemax': 100,
          'aria-valuenow': progress.percent,
        },
        bar,
      ),
      h(
        'div',
        { class: 'progress-line' },
        h('span', { id: 'enrich-status' }, statusText),
        h('span', { id: 'enrich-percent' }, `${progress.percent} %`),
      ),
      running
        ? h(
            'div',
            { class: 'progress-line' },
            h('span', {}, `${progress.rate} domains/s`),
            h('span', { id: 'enrich-eta' }, etaText(progress)),
          )
        : null,
      running ? waitingLine(progress) : null,
      progress.message ? message(paused ? 'warn' : 'ok', progress.message) : null,
      progress.busy ? h('p', { class: 'muted' }, 'Another run is working on this job; waiting…') : null,
      summary(progress),
      running
        ? h('p', { class: 'muted' }, 'You can close this panel: the job continues in the background (more slowly).')
        : null,
      buttons,
    );
  }

  async function drive(): Promise<void> {
    if (driving) return;
    driving = true;
    try {
      for (;;) {
        let progress: EnrichProgress | null;
        try {
          progress = await server.runEnrichmentChunk();
          failures = 0;
        } catch (error) {
          failures++;
          if (failures >= MAX_FAILURES) {
            body.appendChild(
              message(
                'error',
                `${errorText(error)}. The job continues in the background; reopen the panel to follow it.`,
              ),
            );
            return;
          }
          await wait(RETRY_AFTER_FAILURE_MS);
          continue;
        }
        if (!progress) return void loadPreview();
        renderProgress(progress);
        if (progress.nextStepInMs < 0) return;
        if (progress.nextStepInMs > 0) await wait(progress.nextStepInMs);
      }
    } finally {
      driving = false;
    }
  }

  async function cancel(): Promise<void> {
    try {
      const progress = await server.cancelEnrichment();
      if (progress) renderProgress(progress);
    } catch (error) {
      body.appendChild(message('error', errorText(error)));
    }
  }

  async function resume(): Promise<void> {
    try {
      const progress = await server.resumeEnrichment();
      if (progress) renderProgress(progress);
      void drive();
    } catch (error) {
      body.appendChild(message('error', errorText(error)));
    }
  }

  void loadPreview();
}

/** "ETA 8 s", or "ETA 8 s to 4 min" while domains wait for the service (the later figure if it takes every retry). */
function etaText(progress: EnrichProgress): string {
  const { etaSeconds, etaLatestSeconds } = progress;
  if (etaSeconds === null || etaLatestSeconds === null || duration(etaLatestSeconds) === duration(etaSeconds)) {
    return `ETA ${duration(etaSeconds)}`;
  }
  return `ETA ${duration(etaSeconds)} to ${duration(etaLatestSeconds)}`;
}

function plural(n: number, noun: string): string {
  return `${count(n)} ${noun}${n === 1 ? '' : 's'}`;
}

function wait(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
