// "Also research new rows" in the Enrich panel's new-rows section: the brief, depth and monthly limit, results in the
// Status, Report and Sources columns; "Check cost" asks the server for the figures (credits a row, the month's limit
// and the rows it holds), which the user confirms before anything is saved; once saved, what was confirmed, by whom,
// this month's reservations and the last launch, what stands in the way of its launches (the spending cap, its payer's
// token) until it is resolved, and Stop. Service text is shown as text.
import type { NewRowsAnswer, NewRowsDto, NewRowsResearchAnswer } from '../../src/new-rows/contract';
import { DEPTHS, depthLabel, type OutputRequest } from '../../src/research/contract';
import type { TaskDepth } from '../../src/api/types';
import { errorText, server } from '../bridge';
import { h, message, replaceChildren } from '../ui/dom';
import { inSpreadsheetZone } from '../ui/spreadsheet-time';

const OUTPUT: OutputRequest = {
  kind: 'report',
  statusHeader: 'Status',
  reportHeader: 'Report',
  sourcesHeader: 'Sources',
};

/** What research on new rows does now, with Stop. */
function savedView(
  setting: NewRowsDto,
  timeZone: string,
  rerender: (answer: NewRowsAnswer) => void,
): Array<HTMLElement | null> {
  const research = setting.research;
  if (!research) return [];
  const stop = h('button', { type: 'button', id: 'new-rows-research-stop' }, 'Stop researching');
  const out = h('div', {});
  stop.addEventListener('click', () => {
    stop.disabled = true;
    server.stopNewRowsResearch().then(
      (answer) => (answer.ok ? rerender(answer.state) : replaceChildren(out, message('warn', answer.message))),
      (error) => replaceChildren(out, message('error', errorText(error))),
    );
  });
  return [
    h(
      'p',
      { id: 'new-rows-research-status' },
      `New rows are researched ("${research.template}", ${research.depth}): up to ${research.creditsPerRow} credits a ` +
        `row, at most ${research.monthlyLimit} credits a month, paid by ${research.savedBy}.`,
    ),
    research.blocked ? h('div', { id: 'new-rows-research-blocked' }, message('error', research.blocked)) : null,
    h(
      'p',
      { class: 'muted', id: 'new-rows-research-month' },
      `This month: ${research.reservedThisMonth} of ${research.monthlyLimit} credits reserved. Results go to ` +
        `${research.headers.join(', ')}; the research spending cap counts them.`,
    ),
    research.lastRun
      ? h(
          'p',
          { class: 'muted' },
          `Last ${inSpreadsheetZone(research.lastRun.at, timeZone)}: ${research.lastRun.text.replace(/[.]?$/, '.')}`,
        )
      : null,
    h('div', { class: 'row' }, stop),
    out,
  ];
}

/** The form that asks for the figures and saves once they are confirmed. */
function form(setting: NewRowsDto, rerender: (answer: NewRowsAnswer) => void): Array<HTMLElement | null> {
  const brief = h('textarea', { id: 'new-rows-brief', 'aria-label': 'Brief' }) as HTMLTextAreaElement;
  brief.value = `Research {${setting.domainHeader}}: what it does, customers, funding and recent news`;
  const depth = h(
    'select',
    { id: 'new-rows-depth', 'aria-label': 'Depth' },
    ...DEPTHS.map((value) => h('option', { value }, depthLabel(value))),
  ) as HTMLSelectElement;
  const limit = h('input', {
    type: 'number',
    id: 'new-rows-limit',
    min: '1',
    value: '100',
    'aria-label': 'Monthly limit in credits',
  }) as HTMLInputElement;
  const check = h('button', { type: 'button', id: 'new-rows-research-check' }, 'Check cost');
  const out = h('div', { id: 'new-rows-research-out' });
  const request = (confirmed: { creditsPerRow: number; monthlyLimit: number } | null) => ({
    template: brief.value,
    depth: depth.value as TaskDepth,
    output: OUTPUT,
    monthlyLimit: Number(limit.value),
    confirmed,
  });
  const show = (answer: NewRowsResearchAnswer) => {
    if (!answer.ok) return replaceChildren(out, message('warn', answer.message));
    if (!answer.confirm) return rerender(answer.state);
    const figures = answer.confirm;
    const save = h(
      'button',
      { type: 'button', class: 'primary', id: 'new-rows-research-save' },
      `Research new rows, up to ${figures.monthlyLimit} credits a month`,
    );
    save.addEventListener('click', () => {
      save.disabled = true;
      server
        .saveNewRowsResearch(request(figures))
        .then(show, (error) => replaceChildren(out, message('error', errorText(error))));
    });
    replaceChildren(
      out,
      h(
        'p',
        { id: 'new-rows-research-cost' },
        `Up to ${figures.creditsPerRow} credits a row, at most ${figures.monthlyLimit} credits a month ` +
          `(${figures.rowsPerMonth} rows); rows past that wait for next month. Paid from your account; the ` +
          "spreadsheet's research spending cap counts it.",
      ),
      h('div', { class: 'row' }, save),
    );
  };
  check.addEventListener('click', () => {
    replaceChildren(out, h('p', { class: 'muted' }, 'Checking…'));
    server
      .saveNewRowsResearch(request(null))
      .then(show, (error) => replaceChildren(out, message('error', errorText(error))));
  });
  return [
    h('p', { class: 'muted' }, 'Each new row researched once, with this brief; results in Status, Report, Sources.'),
    h('label', { for: 'new-rows-brief' }, 'Brief'),
    brief,
    h('label', { for: 'new-rows-depth' }, 'Depth'),
    depth,
    h('label', { for: 'new-rows-limit' }, 'Monthly limit (credits)'),
    limit,
    h('div', { class: 'row' }, check),
    out,
  ];
}

/** The research part of the section: what runs, or the form (folded until opened). */
export function researchBlock(
  setting: NewRowsDto,
  timeZone: string,
  rerender: (answer: NewRowsAnswer) => void,
): HTMLElement {
  const body = setting.research ? savedView(setting, timeZone, rerender) : form(setting, rerender);
  return h(
    'details',
    { id: 'new-rows-research', open: setting.research !== null },
    h('summary', {}, 'Also research new rows (credits)'),
    ...body,
  );
}
