// The "Similar to a list" mode of the company search panel: the reference domains taken from the selected cells, how
// many results per reference and how many companies to write, the cost and limits before running (requests, the
// plan's depth, what is excluded: lookalike-plan.ts, the figures the server uses), and the run's summary (the new
// sheet, references not in the index or still enriching). Filters, exclude sources and columns are the panel's own.
import type { ResultColumnKey } from '../../src/search/contract';
import type { ExcludeEntry } from '../../src/search/contract';
import { FREE_DEPTH, PAID_DEPTH } from '../../src/search/contract';
import type { LookalikeAnswer, ReferenceList } from '../../src/search/contract';
import { describePlan, MAX_TOP, planLookalikeRun } from '../../src/search/contract';
import type { Failure } from '../../src/search/contract';
import type { FilterForm, SearchField } from '../../src/search/contract';
import { errorText, server } from '../bridge';
import { refreshCredits } from '../ui/credits-badge';
import { h, message, replaceChildren } from '../ui/dom';

const DEFAULT_PER_REFERENCE = 100;
const DEFAULT_TOP = 100;

/** What the list mode uses of the panel around it. */
export interface ListModeHost {
  /** The panel's filter form. */
  filters(): FilterForm;
  /** The exclude sources (oldest first), once a pending paste is counted. */
  excludeSources(): Promise<ExcludeEntry[]>;
  /** Every distinct domain of the exclude sources, as the server counted them. */
  excludedDomains(): string[];
  columns(): ResultColumnKey[];
  depth(): number;
  /** An error slot for a field, placed under its control. */
  slot(field: SearchField): HTMLElement;
  showProblems(failure: Pick<Failure, 'message' | 'problems'>): void;
  clearProblems(): void;
  setBusy(busy: boolean): void;
  isBusy(): boolean;
  /** After a write: the panel reloads its sheet lists. */
  afterWrite(): Promise<void>;
}

export interface ListMode {
  /** References and counts: shown above the panel's filters. */
  element: HTMLElement;
  /** Columns, cost and limits, the run button and its summary: shown below the exclude list. */
  runPart: HTMLElement;
  /** Where the panel's column chooser goes while this mode is shown. */
  columnsSlot: HTMLElement;
  /** Recomputes the cost and limits (after the references, counts, exclude list or depth changed). */
  refresh(): void;
  runButton: HTMLButtonElement;
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;
}

/** The run's summary lines: what was written, and each kind of reference that gave no list. */
function summaryOf(answer: Extract<LookalikeAnswer, { ok: true }>): HTMLElement[] {
  const { references } = answer;
  const lines: HTMLElement[] = [];
  const used = `${plural(references.used.length, 'reference')} searched, ${plural(answer.requests, 'request')}`;
  lines.push(
    answer.sheet
      ? message(
          'ok',
          `${plural(answer.written, 'company', 'companies')} written to "${answer.sheet.name}" (of ${answer.candidates.toLocaleString('en-US')} found; ${used}).`,
        )
      : message('warn', `No lookalikes to write (${used}).`),
  );
  if (answer.removedAfterCall > 0)
    lines.push(
      h(
        'div',
        { class: 'muted' },
        `${plural(answer.removedAfterCall, 'excluded company', 'excluded companies')} removed from the answers.`,
      ),
    );
  if (references.notFound.length > 0)
    lines.push(message('warn', `Not in the company index: ${references.notFound.join(', ')}`));
  if (references.enriching.length > 0)
    lines.push(message('warn', `Still enriching, run again in a few minutes: ${references.enriching.join(', ')}`));
  for (const failed of references.failed) lines.push(message('error', `${failed.reference}: ${failed.message}`));
  if (answer.warning) lines.push(message('warn', answer.warning));
  return lines;
}

/** What the selection gave as references: how many and from where, the first few, duplicates and non-domains. */
function referenceLines(references: ReferenceList): Array<HTMLElement | null> {
  const { domains, invalid } = references;
  return [
    domains.length > 0
      ? h('div', { class: 'count' }, `${plural(domains.length, 'reference')} from ${references.label}`)
      : null,
    domains.length > 0
      ? h('div', { class: 'muted' }, domains.slice(0, 5).join(', ') + (domains.length > 5 ? ', …' : ''))
      : null,
    references.duplicates > 0
      ? h('div', { class: 'muted' }, `${plural(references.duplicates, 'duplicate')} removed`)
      : null,
    invalid.length > 0
      ? message(
          'warn',
          `Not domains (left out): ${invalid.slice(0, 10).join(', ')}${invalid.length > 10 ? ` and ${invalid.length - 10} more` : ''}`,
        )
      : null,
    references.problem ? message('error', references.problem) : null,
  ];
}

class LookalikeListMode implements ListMode {
  private references: ReferenceList | null = null;
  private readonly referenceSummary = h('div', { id: 'list-references' });
  private readonly perReference = h('input', {
    type: 'number',
    id: 'list-per-reference',
    min: 1,
    step: 1,
    value: DEFAULT_PER_REFERENCE,
    'aria-label': 'Results per reference',
  });
  private readonly perReferenceHint = h('span', { class: 'muted' });
  private readonly top = h('input', {
    type: 'number',
    id: 'list-top',
    min: 1,
    max: MAX_TOP,
    step: 1,
    value: DEFAULT_TOP,
    'aria-label': 'Companies to write',
  });
  private readonly plan = h('ul', { id: 'list-plan', class: 'plan', 'aria-label': 'Cost and limits' });
  private readonly status = h('div', { id: 'list-status' });
  readonly columnsSlot = h('div', {});
  readonly runButton = h(
    'button',
    { type: 'button', id: 'list-run', class: 'primary', onclick: () => void this.run() },
    'Find lookalikes',
  );
  readonly element: HTMLElement;
  readonly runPart: HTMLElement;

  constructor(private readonly host: ListModeHost) {
    this.perReference.addEventListener('input', () => this.refresh());
    const useSelection = h(
      'button',
      { type: 'button', id: 'list-use-selection', onclick: () => void this.loadReferences() },
      'Use selection',
    );
    this.element = h(
      'div',
      { hidden: true, id: 'list-mode' },
      h('label', {}, 'Reference companies (up to 100)'),
      h('div', { class: 'muted' }, 'Select a column or range of domains in the sheet, e.g. your best customers.'),
      h('div', { class: 'row tight' }, useSelection),
      this.referenceSummary,
      host.slot('references'),
      h('label', { for: 'list-per-reference' }, 'Results per reference'),
      h('div', { class: 'row tight' }, this.perReference, this.perReferenceHint),
      host.slot('perReference'),
      h('label', { for: 'list-top' }, 'Companies to write (best first)'),
      h(
        'div',
        { class: 'row tight' },
        this.top,
        h('span', { class: 'muted' }, `up to ${MAX_TOP.toLocaleString('en-US')}`),
      ),
      host.slot('top'),
    );
    this.runPart = h(
      'div',
      { hidden: true, id: 'list-run-part' },
      h('label', {}, 'Columns of the new sheet (then Match score 0-100, Similar to)'),
      this.columnsSlot,
      h('h2', {}, 'Before you run'),
      this.plan,
      h(
        'div',
        { class: 'muted' },
        'Ranking: companies similar to more of your references come first ("similar to 4 of your 18"), then ' +
          'those ranked higher in their lists. Match score: 100 when every reference lists a company first.',
      ),
      h('div', { class: 'row' }, this.runButton),
      this.status,
    );
    this.refresh();
  }

  refresh(): void {
    const depth = this.host.depth();
    // A free plan learned for this token is said and planned for, not enforced (plans change).
    this.perReference.max = String(PAID_DEPTH);
    this.perReferenceHint.textContent =
      depth === FREE_DEPTH
        ? `up to ${PAID_DEPTH.toLocaleString('en-US')}; your plan returned ${FREE_DEPTH} last time`
        : `up to ${PAID_DEPTH.toLocaleString('en-US')}`;
    const domains = this.references?.domains ?? [];
    const referenceSet = new Set(domains);
    const others = this.host.excludedDomains().filter((domain) => !referenceSet.has(domain)).length;
    const lines =
      domains.length === 0
        ? ['Choose the references first']
        : describePlan(planLookalikeRun(domains.length, Number(this.perReference.value), others, depth));
    replaceChildren(this.plan, ...lines.map((line) => h('li', {}, line)));
  }

  private async loadReferences(): Promise<void> {
    try {
      this.references = await server.getLookalikeReferences();
      replaceChildren(this.referenceSummary, ...referenceLines(this.references));
    } catch (error) {
      replaceChildren(this.referenceSummary, message('error', errorText(error)));
    }
    this.refresh();
  }

  private async run(): Promise<void> {
    const { host, references, status } = this;
    if (host.isBusy()) return;
    host.clearProblems();
    if (!references || references.problem) {
      host.showProblems({
        message: references?.problem ?? 'Select the cells that hold your reference domains, then Use selection',
        problems: [],
      });
      return;
    }
    host.setBusy(true);
    replaceChildren(
      status,
      h('div', { class: 'muted' }, `Searching lookalikes of ${plural(references.domains.length, 'reference')}…`),
    );
    try {
      const answer = await server.runLookalikeSearch({
        references: references.domains,
        filters: { ...host.filters(), excludeDomains: [] },
        exclude: await host.excludeSources(),
        perReference: Number(this.perReference.value),
        top: Number(this.top.value),
        columns: host.columns(),
      });
      if (!answer.ok) {
        replaceChildren(status);
        return host.showProblems(answer);
      }
      void refreshCredits();
      replaceChildren(status, ...summaryOf(answer));
      status.scrollIntoView({ block: 'nearest' });
      if (answer.sheet) await host.afterWrite();
    } catch (error) {
      replaceChildren(status, message('error', errorText(error)));
    } finally {
      host.setBusy(false);
    }
  }
}

export function listMode(host: ListModeHost): ListMode {
  return new LookalikeListMode(host);
}
