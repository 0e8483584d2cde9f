// The enrichment panel's progress view: the bar, the status and rate with the ETA, the domains waiting for the
// service with a live countdown to their next try, the counts, and Cancel / Resume / Enrich again by status.
import type { EnrichProgress } from '../../src/enrichment/contract';
import { h, message } from '../ui/dom';
import { count, duration, moment } from './format';

/** What the progress view's buttons do. */
export interface ProgressActions {
  cancel(): void;
  resume(): void;
  again(): void;
}

let countdown: number | undefined;

export function summary(progress: EnrichProgress): HTMLElement {
  const c = progress.counts;
  const rows: Array<[string, number | string]> = [
    ['Rows filled', c.written],
    ['Still being enriched by the service', progress.enriching],
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
  const failed =
    progress.retrying > 0
      ? `${plural(progress.retrying, 'lookup')} to try again` +
        (progress.retryCause ? ` (${progress.retryCause}; lookups cost 0 credits: nothing was charged)` : '')
      : '';
  return h(
    'p',
    { class: 'muted', id: 'enrich-waiting' },
    `Waiting: ${[what, failed].filter(Boolean).join(', ')}; `,
    when,
  );
}

function progressButtons(progress: EnrichProgress, actions: ProgressActions): HTMLElement {
  const buttons = h('div', { class: 'row' });
  const cancel = () => h('button', { type: 'button', id: 'enrich-cancel', onclick: () => actions.cancel() }, 'Cancel');
  if (progress.status === 'running') buttons.appendChild(cancel());
  else if (progress.status === 'paused') {
    buttons.appendChild(
      h('button', { type: 'button', class: 'primary', id: 'enrich-resume', onclick: () => actions.resume() }, 'Resume'),
    );
    buttons.appendChild(cancel());
  } else
    buttons.appendChild(
      h(
        'button',
        { type: 'button', class: 'primary', id: 'enrich-again', onclick: () => actions.again() },
        'Enrich again',
      ),
    );
  return buttons;
}

function statusText(progress: EnrichProgress): string {
  if (progress.status === 'running')
    return `${count(progress.resolvedDomains)} of ${count(progress.totalDomains)} domains`;
  return progress.status === 'done' ? 'Done' : progress.status === 'cancelled' ? 'Cancelled' : 'Paused';
}

function progressBar(progress: EnrichProgress): HTMLElement {
  return h(
    'div',
    {
      class: 'progress',
      id: 'enrich-progress',
      role: 'progressbar',
      'aria-valuemin': 0,
      'aria-valuemax': 100,
      'aria-valuenow': progress.percent,
    },
    h('div', { style: `width: ${progress.percent}%` }),
  );
}

/** The whole progress view of a job (the countdown of the previous view stops). */
export function progressView(progress: EnrichProgress, actions: ProgressActions): Array<HTMLElement | null> {
  window.clearInterval(countdown);
  const running = progress.status === 'running';
  const paused = progress.status === 'paused';
  return [
    h(
      'p',
      { class: 'muted' },
      `Sheet "${progress.sheetName}", domains in ${progress.domainColumnLabel} → ${progress.headers.join(', ')}`,
    ),
    progressBar(progress),
    h(
      'div',
      { class: 'progress-line' },
      h('span', { id: 'enrich-status' }, statusText(progress)),
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
    progress.waitingForRequestsUntil !== null
      ? message(
          'warn',
          `Sheet Scout has used today's requests: the job continues by itself around ` +
            `${moment(progress.waitingForRequestsUntil)}, as requests free up (the panel may be closed).`,
        )
      : null,
    progress.message ? message(paused ? 'warn' : 'ok', progress.message) : null,
    progress.busy ? h('p', { class: 'muted' }, 'Another run is working on this job; waiting…') : null,
    summary(progress),
    running
      ? h('p', { class: 'muted' }, 'You can close this panel: the job continues in the background (more slowly).')
      : null,
    progressButtons(progress, actions),
  ];
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
