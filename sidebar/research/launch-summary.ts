// What the Launch tab shows before anything is sent: the brief's live preview for the first selected row, the cost
// estimate (rows asking the same question share one task: question-count.ts), the spending cap's room, and every
// problem that blocks the launch (the button stays disabled while any is left). Redrawn in place on each keystroke,
// without redrawing the whole panel.
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
} from '../../src/research/contract';
import { h, replaceChildren } from '../ui/dom';
import { output, state } from './state';
import { questionStands } from './launch-question';
import { questionCount } from './question-count';

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

/** Problems that block a launch, from the template, the output and the credits. */
function launchProblems(): { errors: string[]; estimate: ReturnType<typeof estimateCredits> | null } {
  const context = state.context;
  const errors = [...templateCheck().errors];
  const resolved = resolveOutput(output());
  if (!resolved.ok) errors.push(...resolved.errors);
  const parsed = context ? parseTemplate(state.template, context.headers) : null;
  if (resolved.ok && parsed?.ok && context)
    errors.push(...outputClashes(resolved.headers, context.headers, parsed.template.columns));
  const launched = launchedRows();
  if (!context || launched === 0) return { errors: [...errors, 'Select the rows to research'], estimate: null };
  // Rows asking the same question share one task: the server's count, once it answered for these rows and this brief.
  const count = parsed?.ok ? questionCount(context.sheetId, context.rows, state.template, refreshLaunchSummary) : null;
  const rows = count?.asking ?? launched;
  const tasks = count?.questions ?? launched;
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
  return { errors, estimate };
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
  const { errors, estimate } = launchProblems();
  const rows = launchedRows();
  const blank = state.context?.blankRows.length ?? 0;
  replaceChildren(
    summary,
    estimate
      ? h(
          'div',
          { class: 'muted', id: 'estimate' },
          `${estimateMessage({ ...estimate, fits: true })}${blank > 0 ? ` (${blank} blank row${blank === 1 ? '' : 's'} skipped)` : ''}. Each task costs 2 credits per agent that runs, at most ${estimate.perTask}; failed tasks are refunded.`,
        )
      : null,
    guardLine(),
    ...errors.map((error) => h('div', { class: 'inline-error' }, error)),
    guardFit(),
  );
  button.disabled = state.busy || errors.length > 0;
  button.textContent = state.busy ? 'Launching…' : `Research ${rows} row${rows === 1 ? '' : 's'}`;
}
