// Reuse on request (issue 46), the pure decision: which earlier record answers a question (the same brief, depth and
// schema; bought here, finished within the period, its report readable), what the offer counts, and what a launch
// plans with the user's answer (use: a reused record per question, 0 credits; research again: paid, even over rows
// that hold a result; no answer: as before). The class of plans is checked seeded: every asking row is in exactly one
// group, the paid tasks are the questions without an earlier result, nothing reused counts against the cap or the
// spending history.
import fc from 'fast-check';
import type { TaskReport } from '../../../../src/api/types';
import { parseTemplate } from '../../../../src/research/brief/brief-template';
import type { LaunchSheet } from '../../../../src/research/launch/launch-sheet';
import { planLaunch, type LaunchPlanInput } from '../../../../src/research/launch/plan';
import { questionKey, questionsOf } from '../../../../src/research/launch/questions';
import {
  earlierResults,
  periodStart,
  questionKeys,
  researchedAt,
  reuseOffer,
  type EarlierResult,
  type SealedReports,
} from '../../../../src/research/launch/reuse';
import { DEFAULT_REUSE_DAYS, REUSE_PERIODS_DAYS } from '../../../../src/research/launch/launch-request';
import { FINISHED_KEPT_DAYS } from '../../../../src/research/contract';
import {
  entryToRow,
  rowToEntry,
  spendingOpenings,
  spendingOutcomes,
  statusText,
  type LedgerEntry,
  type OutputMapping,
} from '../../../../src/research/records/ledger';
import { chargedCredits } from '../../../../src/research/spending/spending-guard';
import { ledgerEntry } from '../fakes';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 30, 12);
const MAPPING: OutputMapping = { kind: 'report', statusHeader: 'Status', reportHeader: 'Report', sourcesHeader: null };
const SCHEMA = { type: 'object', properties: { a: { type: 'string' }, b: { type: 'number' } } } as const;

const report = (text: string): TaskReport => ({
  kind: 'markdown',
  markdown: text,
  sources: [],
  degradation_reasons: [],
});

/** A store that holds readable reports of `taskIds` (the others missing, or refused by their seal). */
const reportsOf = (taskIds: string[]): SealedReports & { asked: string[][] } => {
  const asked: string[][] = [];
  return {
    asked,
    getAll: (ids) => {
      asked.push([...ids]);
      return new Map(ids.filter((id) => taskIds.includes(id)).map((id) => [id, report(`report of ${id}`)]));
    },
  };
};

/** A finished record of `brief` bought `daysAgo` days before NOW. */
const done = (id: string, brief: string, daysAgo: number, overrides: Partial<LedgerEntry> = {}): LedgerEntry =>
  ledgerEntry(MAPPING, {
    id,
    taskId: `t-${id}`,
    state: 'done',
    brief,
    agents: 3,
    cost: 6,
    finishedAt: NOW - daysAgo * DAY,
    updatedAt: NOW - daysAgo * DAY,
    written: true,
    ...overrides,
  });

describe('the question key', () => {
  it('is the brief, the depth and the schema, whatever order the schema names its keys in', () => {
    const reordered = { properties: { b: { type: 'number' }, a: { type: 'string' } }, type: 'object' } as const;
    expect(questionKey('Research acme.com', 'medium', SCHEMA)).toBe(
      questionKey('Research acme.com', 'medium', reordered),
    );
    expect(questionKey('Research acme.com', 'medium', SCHEMA)).not.toBe(
      questionKey('Research acme.com', 'high', SCHEMA),
    );
    expect(questionKey('Research acme.com', 'medium', null)).not.toBe(
      questionKey('Research acme.com', 'medium', SCHEMA),
    );
    expect(questionKey('Research acme.com', 'medium', null)).not.toBe(questionKey('Research acme.co', 'medium', null));
  });

  it('offers periods no longer than the records are kept, 30 days first', () => {
    expect(REUSE_PERIODS_DAYS).toContain(DEFAULT_REUSE_DAYS);
    expect(Math.max(...REUSE_PERIODS_DAYS)).toBeLessThanOrEqual(FINISHED_KEPT_DAYS);
  });
});

describe('earlierResults', () => {
  const key = (brief: string) => questionKey(brief, 'medium', null);

  it('takes the newest result bought here within the period whose report the store gives back sealed', () => {
    const records = [
      done('old', 'Research a.com', 20),
      done('new', 'Research a.com', 2),
      done('newest-unreadable', 'Research a.com', 1),
      done('expired', 'Research b.com', 31),
      done('imported', 'Research c.com', 1, { imported: true }),
      done('failed', 'Research d.com', 1, { state: 'failed' }),
      done('deeper', 'Research e.com', 1, { depth: 'high' }),
      done('other', 'Research f.com', 1),
    ];
    const reports = reportsOf(['t-old', 't-new', 't-expired', 't-imported', 't-failed', 't-deeper', 't-other']);
    const keys = new Set(['a.com', 'b.com', 'c.com', 'd.com', 'e.com'].map((domain) => key(`Research ${domain}`)));
    const found = earlierResults(records, keys, periodStart(NOW, 30), reports);
    expect([...found.keys()]).toEqual([key('Research a.com')]);
    expect(found.get(key('Research a.com'))?.entry.id).toBe('new');
    expect(found.get(key('Research a.com'))?.report).toEqual(report('report of t-new'));
    // One read of the reports, of the candidates only (never the question nobody asked).
    expect(reports.asked).toHaveLength(1);
    expect(reports.asked[0]).not.toContain('t-other');
  });

  it('dates a reused result by its first research, so reusing does not extend the period', () => {
    const reused = done('r', 'Research a.com', 1, { reused: { from: 'first', researchedAt: NOW - 40 * DAY } });
    expect(researchedAt(reused)).toBe(NOW - 40 * DAY);
    const found = earlierResults([reused], new Set([key('Research a.com')]), periodStart(NOW, 30), reportsOf(['t-r']));
    expect(found.size).toBe(0);
  });

  it('counts the offer by rows and questions, with the oldest research date', () => {
    const questions = new Map([
      ['Research a.com', [2, 5]],
      ['Research b.com', [3]],
      ['Research c.com', [4, 6, 7]],
    ]);
    const keys = questionKeys(questions, 'medium', null);
    const earlier = earlierResults(
      [done('a', 'Research a.com', 3), done('c', 'Research c.com', 9)],
      new Set(keys.values()),
      periodStart(NOW, 14),
      reportsOf(['t-a', 't-c']),
    );
    expect(reuseOffer(questions, keys, earlier, 14)).toEqual({
      days: 14,
      rows: 5,
      questions: 2,
      oldest: NOW - 9 * DAY,
    });
  });
});

/** A sheet of Domain values (row i + 2 holds domains[i]) as launch-sheet.ts reads it, with these earlier results. */
function sheetOf(domains: string[], earlier: Map<string, EarlierResult>, finished = new Map<number, LedgerEntry[]>()) {
  const parsed = parseTemplate('Research {Domain}', ['Domain']);
  if (!parsed.ok) throw new Error('template');
  const rows = domains.map((_, i) => i + 2);
  const sheet: LaunchSheet = {
    sheetId: 1,
    errors: [],
    headers: ['Domain'],
    template: parsed.template,
    rows,
    values: domains.map((domain) => [domain]),
    keyRows: domains.map((domain) => [domain]),
    running: new Map(),
    launchers: { launcherOf: () => null },
    finished,
    ledger: [],
    spentByDay: {},
    tags: null,
    earlier,
    now: NOW,
  };
  return sheet;
}

const input = (reuse?: LaunchPlanInput['reuse']): LaunchPlanInput => ({
  sheetId: 1,
  rows: [],
  template: 'Research {Domain}',
  depth: 'medium',
  schema: null,
  mapping: MAPPING,
  rerun: false,
  again: false,
  ...(reuse ? { reuse } : {}),
});

const ids = () => {
  let n = 0;
  return () => `id${++n}`;
};

/** The earlier results of `domains` (each bought 3 days ago), by question key. */
function earlierFor(domains: string[]): Map<string, EarlierResult> {
  return new Map(
    domains.map((domain) => {
      const entry = done(`first-${domain}`, `Research ${domain}`, 3);
      return [questionKey(entry.brief, 'medium', null), { entry, report: report(domain) }];
    }),
  );
}

describe('planLaunch with the answer to the offer', () => {
  const domains = ['a.com', 'b.com', 'a.com', 'c.com', 'b.com', 'd.com'];

  it('use: one reused record per question with an earlier result, done, charged nothing; the rest paid', () => {
    const plan = planLaunch(
      sheetOf(domains, earlierFor(['a.com', 'b.com'])),
      input({ days: 30, use: true, tasks: 2 }),
      'me',
      ids(),
    );
    expect(plan.entries.map((entry) => entry.brief)).toEqual(['Research c.com', 'Research d.com']);
    expect(plan.reused.map((entry) => entry.brief)).toEqual(['Research a.com', 'Research b.com']);
    expect(plan.reused.map((entry) => plan.groups.get(entry.id))).toEqual([
      [2, 4],
      [3, 6],
    ]);
    for (const entry of plan.reused) {
      expect(entry).toMatchObject({
        state: 'done',
        cost: 0,
        agents: 0,
        written: false,
        taskId: `t-first-${entry.row.keyValues[0]}`,
      });
      expect(entry.reused).toEqual({ from: `first-${entry.row.keyValues[0]}`, researchedAt: NOW - 3 * DAY });
      expect(chargedCredits(entry)).toBe(0);
      expect(statusText(entry)).toBe('Reused (researched 2026-11-27)');
    }
  });

  it('research again: every question paid, rows holding a result too; no answer: those rows are left as researched', () => {
    const heldBy = done('held', 'Research a.com', 3);
    const finished = new Map([
      [2, [heldBy]],
      [4, [heldBy]],
    ]);
    const again = planLaunch(
      sheetOf(domains, earlierFor(['a.com']), finished),
      input({ days: 30, use: false, tasks: 4 }),
      'me',
      ids(),
    );
    expect(again.entries).toHaveLength(4);
    expect(again.reused).toHaveLength(0);
    expect(again.skippedDone).toEqual([]);
    const unanswered = planLaunch(sheetOf(domains, new Map(), finished), input(), 'me', ids());
    expect(unanswered.entries).toHaveLength(3);
    expect(unanswered.skippedDone.map((skipped) => skipped.row)).toEqual([2, 4]);
  });

  it('holds for the class of lists and earlier results (seeded)', () => {
    const lists = fc.record({
      domains: fc.array(fc.constantFrom('a.com', 'b.com', 'c.com', 'd.com', 'e.com', ''), {
        minLength: 1,
        maxLength: 30,
      }),
      bought: fc.subarray(['a.com', 'b.com', 'c.com', 'd.com', 'e.com']),
      use: fc.boolean(),
    });
    fc.assert(
      fc.property(lists, ({ domains: list, bought, use }) => {
        const sheet = sheetOf(list, earlierFor(bought));
        const plan = planLaunch(sheet, input({ days: 30, use, tasks: 99 }), 'me', ids());
        const asked = new Set(list.filter(Boolean));
        const reusable = [...asked].filter((domain) => bought.includes(domain));
        expect(plan.reused).toHaveLength(use ? reusable.length : 0);
        expect(plan.entries).toHaveLength(asked.size - plan.reused.length);
        // Every asking row is in exactly one group, its own question's.
        const grouped = [...plan.groups.values()].flat().sort((a, b) => a - b);
        expect(grouped).toEqual(sheet.rows.filter((_, i) => list[i] !== ''));
        for (const entry of [...plan.entries, ...plan.reused])
          for (const row of plan.groups.get(entry.id) ?? []) expect(entry.brief).toBe(`Research ${list[row - 2]}`);
        // Nothing reused is counted against the cap, charged in the history, or lost in the ledger's round trip.
        expect(plan.reused.reduce((sum, entry) => sum + chargedCredits(entry), 0)).toBe(0);
        for (const entry of plan.reused) {
          expect(spendingOutcomes({ ...entry, launch: 'L' }, undefined)).toEqual([]);
          expect(rowToEntry(entryToRow(entry))).toEqual(entry);
        }
        // The offer counts what the plan reuses.
        const questions = questionsOf(sheet.template, sheet.rows, sheet.values).questions;
        const offer = reuseOffer(questions, questionKeys(questions, 'medium', null), sheet.earlier, 30);
        expect(offer.questions).toBe(reusable.length);
        if (use)
          expect(offer.rows).toBe(
            plan.reused.reduce((sum, entry) => sum + (plan.groups.get(entry.id)?.length ?? 0), 0),
          );
      }),
      { seed: 46, numRuns: 300 },
    );
  });
});

describe("a launch's run in the spending history", () => {
  it('counts its reused rows and reserves only for the records it pays for, keyed by their place', () => {
    const run = { kind: 'launch' as const, startedBy: 'me', at: NOW };
    const paid = ledgerEntry(MAPPING, { id: 'p', launch: 'L', ordinal: 0, run });
    const reused = done('r', 'Research a.com', 0, {
      launch: 'L',
      run,
      row: { sheetId: 1, rowId: null, rowHint: 2, keyHeaders: ['Domain'], keyValues: ['a.com'], rows: 3 },
      reused: { from: 'first', researchedAt: NOW - DAY },
    });
    expect(spendingOpenings([paid, reused], [paid, reused])).toEqual([
      expect.objectContaining({ launch: 'L', records: [{ id: 'p', ordinal: 0 }], reused: 3, reservation: 10 }),
    ]);
    expect(spendingOpenings([reused], [reused])).toEqual([expect.objectContaining({ records: [], reused: 3 })]);
  });
});
