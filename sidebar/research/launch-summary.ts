// What the Launch tab shows before anything is sent: the brief's live preview for the first selected row, the cost
// estimate (rows asking the same question share one task: question-count.ts), the offer of earlier results and its
// answer (the estimate counts what the answer pays for), the spending cap's room, and every problem that blocks the
// launch (the button stays disabled while any is left, or while the offer waits for its answer). Redrawn in place on
// each keystroke, without redrawing the whole panel.
//
// The offer of earlier results (issue 46, reuse on request): when questions the selected rows ask were bought in this
// spreadsheet within the period the user picks (7, 14 or 30 days; 30 first), the tab says how many rows, since when,
// and what each answer costs: use those results (0 credits, the rest paid) or research them again (all paid). The
// launch waits for the answer (nothing is reused, or paid for those questions, before the user says which), and a new
// offer (other rows, brief, depth, output or period) asks again. The answer goes with the launch with the tasks its
// preview counted, so the server sends nothing if that would pay for more.
import {
  briefLength,
  counted,
  estimateCredits,
  estimateMessage,
  outputClashes,
  parseTemplate,
  renderBrief,
  reservationFor,
  resolveOutput,
  BRIEF_MAX_LENGTH,
  REUSE_PERIODS_DAYS,
  type QuestionCountDto,
  type ReuseChoice,
  type ReuseOffer,
} from '../../src/research/contract';
import { h, replaceChildren } from '../ui/dom';
import { output, state } from './state';
import { questionStands } from './launch-question';
import { countKey, questionCount } from './question-count';
import { radio } from './controls';

/** The parts of the Launch tab redrawn in place, set by the tab when it draws; and its "launch what fits" action. */
export const launchView = {
  summary: null as HTMLElement | null,
  button: null as HTMLButtonElement | null,
  template: null as HTMLElement | null,
  launchFitting: (): void => undefined,
};

function templateCheck(): { errors: string[]; preview: string | null; note: string | null } {
  const context = state.context;
  if (!context) return { errors: [], preview: null, note: null };
  const parsed = parseTemplate(state.template, context.headers);
  if (!parsed.ok) return { errors: parsed.errors, preview: null, note: null };
  if (!context.firstRow) return { errors: [], preview: null, note: 'Select rows to see a preview' };
  const domains = context.firstRowDomains;
  const rendered = renderBrief(parsed.template, context.firstRow, (column) => domains?.[column - 1] ?? null);
  if (rendered.kind === 'empty')
    return { errors: [], preview: null, note: `Row ${context.rows[0]}: the brief is empty, this row will be skipped` };
  if (rendered.kind === 'too_long')
    return {
      errors: [`Row ${context.rows[0]}: the brief has ${rendered.length} characters; the limit is ${BRIEF_MAX_LENGTH}`],
      preview: null,
      note: null,
    };
  return {
    errors: [],
    preview: rendered.brief,
    note: `${briefLength(rendered.brief)} / ${BRIEF_MAX_LENGTH} characters (row ${context.rows[0]})`,
  };
}

/** The selected rows a launch researches: blank rows are skipped (an empty brief), so they cost nothing. */
function launchedRows(): number {
  const context = state.context;
  return context ? context.rows.length - context.blankRows.length : 0;
}

/** The count request of the selected rows with the brief, depth, output and period as they are. */
function countRequest(sheetId: number, rows: number[]) {
  return { sheetId, rows, template: state.template, depth: state.depth, output: output(), days: state.reuseDays };
}

/** The offer of earlier results the server made for the rows as they are now, or null. */
export function currentOffer(): OfferView | null {
  const context = state.context;
  if (!context || !parseTemplate(state.template, context.headers).ok) return null;
  const request = countRequest(context.sheetId, context.rows);
  return offerOf(countKey(request), questionCount(request, refreshLaunchSummary));
}

/** Problems that block a launch, from the template, the output and the credits; and the offer, if any. */
function launchProblems(): {
  errors: string[];
  estimate: ReturnType<typeof estimateCredits> | null;
  offer: OfferView | null;
} {
  const context = state.context;
  const errors = [...templateCheck().errors];
  const resolved = resolveOutput(output());
  if (!resolved.ok) errors.push(...resolved.errors);
  const parsed = context ? parseTemplate(state.template, context.headers) : null;
  if (resolved.ok && parsed?.ok && context)
    errors.push(...outputClashes(resolved.headers, context.headers, parsed.template.columns));
  const launched = launchedRows();
  if (!context || launched === 0)
    return { errors: [...errors, 'Select the rows to research'], estimate: null, offer: null };
  // Rows asking the same question share one task: the server's count, once it answered for these rows and this brief;
  // with the offer of earlier results answered, what the answer pays for.
  const request = countRequest(context.sheetId, context.rows);
  const count = parsed?.ok ? questionCount(request, refreshLaunchSummary) : null;
  const offer = offerOf(countKey(request), count);
  const answer = offer ? answerTo(offer) : null;
  const paid = offer && answer !== null ? paidWith(offer, answer) : null;
  const rows = paid?.rows ?? count?.asking ?? launched;
  const tasks = paid?.tasks ?? count?.questions ?? launched;
  const estimate = estimateCredits(state.depth, tasks, state.credits, rows);
  if (!estimate.fits) errors.push(estimateMessage(estimate));
  const guard = context.guard;
  const needed = tasks * reservationFor(state.depth);
  if (guard.left !== null && needed > guard.left) {
    const what = tasks < rows ? counted(tasks, 'task') : counted(rows, 'row');
    errors.push(
      `Over this spreadsheet's spending cap: ${what} ${tasks === 1 ? 'reserves' : 'reserve'} ${counted(needed, 'credit')}, ${guard.left} left`,
    );
  }
  return { errors, estimate, offer };
}

/** The spending cap's room, when this spreadsheet has a cap. */
function guardLine(): HTMLElement | null {
  const guard = state.context?.guard;
  if (!guard || guard.left === null) return null;
  const caps = [
    guard.cap.daily === null ? null : `${guard.spentToday} of ${guard.cap.daily} today`,
    guard.cap.monthly === null ? null : `${guard.spentThisMonth} of ${guard.cap.monthly} this month`,
  ].filter(Boolean);
  return h(
    'div',
    { class: 'muted', id: 'spending-cap' },
    `Spending cap: ${counted(guard.left, 'credit')} left (${caps.join(', ')} spent)`,
  );
}

/**
 * Over the cap: a button that launches only the first rows that fit (the refusal is among the launch problems). None
 * while the last launch's question about these rows stands: its figure already is what fits.
 */
function guardFit(): HTMLElement | null {
  const guard = state.context?.guard;
  const rows = launchedRows();
  if (!guard || guard.left === null || rows === 0) return null;
  if (questionStands(state.launched, state.context?.rows ?? [])) return null;
  const fit = Math.min(rows, Math.floor(guard.left / reservationFor(state.depth)));
  if (fit >= rows || fit === 0) return null;
  return h(
    'div',
    { class: 'row', id: 'over-cap' },
    h(
      'button',
      { type: 'button', id: 'launch-fitting', onclick: () => launchView.launchFitting() },
      fit === 1 ? 'Launch the first row that fits' : `Launch the first ${fit} rows that fit`,
    ),
  );
}

/** Redraws the brief's preview, the estimate and the problems, and enables the button when nothing blocks. */
export function refreshLaunchSummary(): void {
  if (launchView.template) {
    const check = templateCheck();
    replaceChildren(
      launchView.template,
      ...check.errors.map((error) => h('div', { class: 'inline-error', role: 'alert' }, error)),
      check.preview !== null ? h('div', { class: 'preview', id: 'brief-preview' }, check.preview) : null,
      check.note ? h('div', { class: 'muted' }, check.note) : null,
    );
  }
  const { summary, button } = launchView;
  if (!summary || !button) return;
  const { errors, estimate, offer } = launchProblems();
  const rows = launchedRows();
  const blank = state.context?.blankRows.length ?? 0;
  const waiting = offer !== null && answerTo(offer) === null;
  replaceChildren(
    summary,
    offer ? offerSection(offer, refreshLaunchSummary) : null,
    estimate
      ? h(
          'div',
          { class: 'muted', id: 'estimate' },
          estimate.tasks === 0
            ? 'Nothing to pay for: every question takes its earlier result (0 credits).'
            : `${estimateMessage({ ...estimate, fits: true })}${blank > 0 ? ` (${blank} blank row${blank === 1 ? '' : 's'} skipped)` : ''}. Each task costs 2 credits per agent that runs, at most ${estimate.perTask}; failed tasks are refunded.`,
        )
      : null,
    guardLine(),
    ...errors.map((error) => h('div', { class: 'inline-error' }, error)),
    guardFit(),
  );
  button.disabled = state.busy || errors.length > 0 || waiting;
  button.textContent = state.busy ? 'Launching…' : `Research ${rows} row${rows === 1 ? '' : 's'}`;
}

/** An offer the server made for the request of `key`, with the count it came with. */
export interface OfferView {
  key: string;
  offer: ReuseOffer;
  asking: number;
  questions: number;
}

/** The offer in a count, when there is one (some rows ask a question bought within the period). */
export function offerOf(key: string, count: QuestionCountDto): OfferView | null {
  if (!count?.reusable || count.reusable.rows === 0) return null;
  return { key, offer: count.reusable, asking: count.asking, questions: count.questions };
}

/** The user's answer to this offer (true: use the results), or null while they have not answered it. */
export function answerTo(view: OfferView): boolean | null {
  return state.reuseAnswer?.key === view.key ? state.reuseAnswer.use : null;
}

/** What a launch pays for with each answer: the rows and tasks left after the reused ones, or all of them. */
export function paidWith(view: OfferView, use: boolean): { rows: number; tasks: number } {
  return use
    ? { rows: view.asking - view.offer.rows, tasks: view.questions - view.offer.questions }
    : { rows: view.asking, tasks: view.questions };
}

/** The answer a launch sends, or null (no offer, or not answered). */
export function launchAnswer(view: OfferView | null): ReuseChoice | null {
  const use = view ? answerTo(view) : null;
  if (!view || use === null) return null;
  return { days: view.offer.days, use, tasks: paidWith(view, use).tasks };
}

const shortDate = (ms: number) =>
  new Date(ms).toLocaleDateString(undefined, { day: 'numeric', month: 'short', year: 'numeric' });

/** "2 tasks, up to 20 credits" at the panel's depth. */
const cost = (tasks: number) =>
  `${counted(tasks, 'task')}, up to ${counted(tasks * reservationFor(state.depth), 'credit')}`;

/** The period's selector: changing it asks for a new count (redrawn by `redraw`). */
function periodSelect(redraw: () => void): HTMLElement {
  return h(
    'select',
    {
      id: 'reuse-days',
      'aria-label': 'Period',
      onchange: (event: Event) => {
        state.reuseDays = Number((event.target as HTMLSelectElement).value);
        redraw();
      },
    },
    ...REUSE_PERIODS_DAYS.map((days) =>
      h('option', { value: days, selected: days === state.reuseDays }, `the last ${days} days`),
    ),
  );
}

/** The offer, its two answers with their costs, and the period it counts over. */
export function offerSection(view: OfferView, redraw: () => void): HTMLElement {
  const { offer } = view;
  // "This row asks a question", "These 4 rows ask 2 questions", "3 of these 5 rows ask 2 questions".
  const which = offer.rows === view.asking ? 'These' : `${offer.rows} of these`;
  const these =
    view.asking === 1
      ? 'This row asks a question'
      : `${which} ${view.asking} rows ${offer.rows === 1 ? 'asks' : 'ask'} ${counted(offer.questions, 'question')}`;
  const rest = paidWith(view, true);
  const since = offer.oldest === null ? '' : `The oldest was researched on ${shortDate(offer.oldest)}. `;
  const answer = (use: boolean) => () => {
    state.reuseAnswer = { key: view.key, use };
  };
  return h(
    'div',
    { id: 'reuse-offer', class: 'offer' },
    h('div', {}, `${these} researched in this spreadsheet in`),
    periodSelect(redraw),
    h('div', { class: 'muted' }, `${since}Use those results, or research them again?`),
    radio(
      'reuse-use',
      'reuse',
      answerTo(view) === true,
      `Use those results: 0 credits for ${counted(offer.rows, 'row')}` +
        (rest.tasks > 0 ? `; the other ${counted(rest.rows, 'row')}: ${cost(rest.tasks)}` : ''),
      answer(true),
    ),
    radio('reuse-again', 'reuse', answerTo(view) === false, `Research again: ${cost(view.questions)}`, answer(false)),
  );
}
