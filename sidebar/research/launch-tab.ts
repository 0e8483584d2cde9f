// The Launch tab: the selection, the brief template with its header chips, the depth, the output section, "Re-run",
// the summary and the launch button; the launch itself, its answer under the button with "Show in sheet", and the
// credits and spending cap read again after spending; last, the account watch of the selected rows (watch-section.ts).
import type { TaskDepth } from '../../src/api/types';
import { depthDetail, depthLabel, DEPTHS, BRIEF_MAX_LENGTH } from '../../src/research/contract';
import { errorText, server } from '../bridge';
import { h, message } from '../ui/dom';
import { refreshCredits } from '../ui/credits-badge';
import { currentOffer, launchAnswer, launchView, refreshLaunchSummary } from './launch-summary';
import { forgetQuestionCount } from './question-count';
import { launchQuestion, rowsPhrase, type QuestionAnswer } from './launch-question';
import { outputSection } from './output-section';
import { loadContext, output, render, state } from './state';
import { pollLoop } from './tasks-tab';
import { loadWatch, watchSection } from './watch-section';

/**
 * Launches the selected rows; `answer` launches the rows a launch asked about, although they already hold a result
 * or run another account's research (the user answered "Research again" with its cost and whose tasks in view).
 */
async function launch(fitToCap = false, answer?: QuestionAnswer): Promise<void> {
  const context = state.context;
  if (!context || state.busy) return;
  state.busy = true;
  refreshLaunchSummary();
  const rows = answer?.rows ?? context.rows;
  // The answer to the offer of earlier results goes with the launch of the selected rows (not with a question's).
  const reuse = answer ? null : launchAnswer(currentOffer());
  const request = {
    template: state.template,
    depth: state.depth,
    output: output(),
    rerun: state.rerun || (answer?.replacing.length ?? 0) > 0,
    again: answer !== undefined,
    ...(answer && answer.replacing.length > 0 ? { replacing: answer.replacing } : {}),
    sheetId: context.sheetId,
    rows,
    fitToCap,
    ...(reuse ? { reuse } : {}),
  };
  try {
    const response = await server.launchResearch(request);
    forgetQuestionCount();
    const details = [
      ...response.errors.slice(1),
      ...response.failed.map((f) => `Row ${f.row}: ${f.message}`),
      ...response.tooLong.map((t) => `Row ${t.row}: brief of ${t.length} characters is over ${BRIEF_MAX_LENGTH}`),
      ...(response.skippedRunning.length
        ? [`Already running (tick "Re-run" to start again): ${rowsPhrase(response.skippedRunning)}`]
        : []),
      ...(response.skippedEmpty.length ? [`Empty brief: ${rowsPhrase(response.skippedEmpty)}`] : []),
      ...(response.overCap.length ? [`Left out by the spending cap: ${rowsPhrase(response.overCap)}`] : []),
    ];
    const kind = response.ok ? (response.failed.length || response.question ? 'warn' : 'ok') : 'error';
    const skipped = new Set([...response.skippedEmpty, ...response.skippedRunning]);
    for (const { row } of [...response.skippedDone, ...response.othersRunning]) skipped.add(row);
    state.launched = {
      kind,
      text: response.message,
      details,
      sheetId: context.sheetId,
      rows: rows.filter((row) => !skipped.has(row)),
      statusHeader: output().statusHeader,
      researched: response.skippedDone,
      othersRunning: response.othersRunning,
      question: response.question,
      depth: request.depth,
    };
    if (response.ok) {
      void refreshSpentCredits();
      void refreshGuard();
    }
    void pollLoop.pollNow();
  } catch (error) {
    state.launched = {
      kind: 'error',
      text: errorText(error),
      details: [],
      sheetId: context.sheetId,
      rows: [],
      statusHeader: '',
      researched: [],
      othersRunning: [],
      question: null,
      depth: request.depth,
    };
  } finally {
    state.busy = false;
    render();
    document.getElementById('launch-result')?.scrollIntoView({ block: 'nearest' });
  }
}

/** After a launch, or a change elsewhere (the cap saved in Settings, the timer's runs): the cap's room as it now is. */
export async function refreshGuard(): Promise<void> {
  try {
    const guard = await server.getSpendingGuard();
    if (state.context) state.context = { ...state.context, guard };
    refreshLaunchSummary();
  } catch {
    // The next reopening shows it.
  }
}

/** After spending: the badge and the cost line ("of N available") both show the credits left. */
async function refreshSpentCredits(): Promise<void> {
  try {
    const credits = await server.getCredits();
    state.credits = credits.availableCredits;
    void refreshCredits(credits);
    refreshLaunchSummary();
  } catch {
    void refreshCredits();
  }
}

/** "Show in sheet": selects the status cells of the launched rows. */
async function showLaunchedRows(): Promise<void> {
  const launched = state.launched;
  if (!launched) return;
  try {
    const result = await server.showResearchRows({
      sheetId: launched.sheetId,
      rows: launched.rows,
      statusHeader: launched.statusHeader,
    });
    if (!result.ok) state.launched = { ...launched, kind: 'error', text: result.message, details: [] };
  } catch (error) {
    state.launched = { ...launched, kind: 'error', text: errorText(error), details: [] };
  }
  render();
}

/** The launch's answer under the button, with "Show in sheet" when rows were launched. */
function launchResult(): HTMLElement | null {
  const launched = state.launched;
  if (!launched) return null;
  return h(
    'div',
    { id: 'launch-result' },
    message(launched.kind, launched.text),
    ...launched.details.map((line) => h('div', { class: 'muted' }, line)),
    launched.rows.length > 0 && launched.kind !== 'error'
      ? h(
          'div',
          { class: 'row' },
          h('button', { type: 'button', id: 'show-in-sheet', onclick: () => void showLaunchedRows() }, 'Show in sheet'),
        )
      : null,
    launchQuestion(launched, (yes) => void launch(false, yes)),
  );
}

function insertPlaceholder(textarea: HTMLTextAreaElement, header: string): void {
  const token = `{${header}}`;
  const start = textarea.selectionStart ?? textarea.value.length;
  const end = textarea.selectionEnd ?? start;
  textarea.value = textarea.value.slice(0, start) + token + textarea.value.slice(end);
  state.template = textarea.value;
  textarea.focus();
  refreshLaunchSummary();
}

/** The brief: its textarea, a chip per header that inserts its placeholder, and the live check under it. */
function briefSection(): HTMLElement[] {
  const textarea = h(
    'textarea',
    {
      id: 'brief',
      'aria-label': 'Brief',
      oninput: (e: Event) => {
        state.template = (e.target as HTMLTextAreaElement).value;
        refreshLaunchSummary();
      },
    },
    state.template,
  ) as HTMLTextAreaElement;
  launchView.template = h('div', { id: 'template-check' });
  return [
    h('label', { for: 'brief' }, "Brief: {Header} or {A} inserts the row's value"),
    h(
      'div',
      { class: 'muted', id: 'brief-help' },
      'A domain, URL or e-mail address goes in as its domain (https://www.acme.fr/ → acme.fr); {Header:raw} inserts the cell as it is.',
    ),
    textarea,
    h(
      'div',
      { class: 'chips' },
      ...(state.context?.headers ?? [])
        .filter((header) => header.trim())
        .slice(0, 20)
        .map((header) =>
          h('button', { type: 'button', onclick: () => insertPlaceholder(textarea, header) }, `{${header}}`),
        ),
    ),
    launchView.template,
  ];
}

function depthSection(): HTMLElement[] {
  const depthSelect = h(
    'select',
    {
      id: 'depth',
      onchange: (e: Event) => {
        state.depth = (e.target as HTMLSelectElement).value as TaskDepth;
        render();
      },
    },
    ...DEPTHS.map((depth) => h('option', { value: depth, selected: depth === state.depth }, depthLabel(depth))),
  );
  return [
    h('label', { for: 'depth' }, 'Depth'),
    depthSelect,
    h('div', { class: 'muted', id: 'depth-detail' }, depthDetail(state.depth)),
  ];
}

function selectionLine(): HTMLElement {
  const context = state.context;
  const rows = context?.rows ?? [];
  const rowText =
    rows.length === 0
      ? 'No data rows selected'
      : `${rows.length} row${rows.length === 1 ? '' : 's'} selected on ${context?.sheetName} (${rows[0]}${rows.length > 1 ? `–${rows[rows.length - 1]}` : ''})`;
  return h(
    'div',
    { class: 'row' },
    h('span', { id: 'selection' }, rowText),
    h(
      'button',
      {
        type: 'button',
        id: 'use-selection',
        onclick: () => {
          void loadContext();
          void loadWatch();
        },
      },
      'Use current selection',
    ),
  );
}

export function launchTab(): HTMLElement {
  launchView.summary = h('div', { id: 'launch-summary' });
  launchView.button = h(
    'button',
    { class: 'primary', id: 'launch', type: 'button', onclick: () => void launch() },
    'Research',
  );
  launchView.launchFitting = () => void launch(true);
  const rerun = h(
    'label',
    { class: 'check' },
    h('input', {
      type: 'checkbox',
      id: 'rerun',
      checked: state.rerun,
      onchange: (e: Event) => {
        state.rerun = (e.target as HTMLInputElement).checked;
      },
    }),
    'Re-run rows that already have a running task',
  );
  const tab = h(
    'section',
    {},
    selectionLine(),
    ...briefSection(),
    ...depthSection(),
    outputSection(),
    rerun,
    launchView.summary,
    h('div', { class: 'row' }, launchView.button),
    launchResult(),
    watchSection(),
  );
  refreshLaunchSummary();
  return tab;
}
