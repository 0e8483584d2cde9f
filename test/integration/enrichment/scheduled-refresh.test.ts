// Scheduled refresh (issue 27) through the built bundle in the emulator's published add-on mode (one hourly timer per
// document) against the sandbox on a shared manual clock, with every panel closed: a weekly schedule set in the Enrich
// panel runs on its day at 06:00 in the spreadsheet's time zone, rewrites only the changed cells with their notes, keeps
// the value the user typed over an enriched cell, leaves its summary and the next run for the panel, keeps the timer
// while the schedule exists and removes it when the schedule stops.
import type { GasRuntime } from '../../../dev/gas-runtime';
import type { EnrichProgress, RefreshScheduleAnswer, StartResult } from '../../../src/enrichment/contract';
import { sandboxSuite } from '../harness';
import { advance, runtimeFor, SHEET } from '../research/harness';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const world = sandboxSuite({ clock: 'manual' });

const timers = (rt: GasRuntime) => rt.triggers.list().filter((t) => t.eventType === 'CLOCK');

describe('scheduled refresh (integration, add-on mode)', () => {
  it('runs weekly with the panels closed: changed cells with notes, the user edit kept, a summary and the next run', async () => {
    const companies = (
      await world.control.call<Array<{ domain: string; name: string; employee_count: string }>>(
        'GET',
        '/_sandbox/companies?limit=20&enriched=true',
      )
    )
      .filter((company) => company.employee_count !== '10001+')
      .slice(0, 3);
    const rows = [['Domain'], ...companies.map((c) => [c.domain])];
    const rt = await runtimeFor(world, rows, 'sbx_pro_token', { addOn: true });
    const sheet = rt.spreadsheet.sheet(SHEET);
    rt.spreadsheet.selection = { sheet, rect: { row: 1, column: 1, numRows: 4, numColumns: 1 } };

    // Not enriched yet: no schedule.
    const refused = rt.run<RefreshScheduleAnswer>('setRefreshSchedule', [{ cadence: 'weekly', weekday: 1, days: 0 }], {
      kind: 'sidebar',
    });
    expect(refused).toEqual({
      ok: false,
      message: 'Nothing on "Accounts" was enriched yet: enrich it first, then schedule it.',
    });

    const started = rt.run<StartResult>('startEnrichment', [{ fields: ['company_name', 'employee_count'] }], {
      kind: 'sidebar',
    });
    expect(started).toMatchObject({ ok: true });
    let progress: EnrichProgress | null = null;
    for (let step = 0; step < 10 && progress?.status !== 'done'; step++)
      progress = rt.run<EnrichProgress>('runEnrichmentChunk', [], { kind: 'sidebar' });
    expect(progress).toMatchObject({ status: 'done' });
    expect(timers(rt)).toHaveLength(0);

    // Every Monday, all the data (older than 0 days).
    const set = rt.run<RefreshScheduleAnswer>('setRefreshSchedule', [{ cadence: 'weekly', weekday: 1, days: 0 }], {
      kind: 'sidebar',
    });
    if (!set.ok || !set.schedule) throw new Error(JSON.stringify(set));
    const firstRun = set.schedule.nextRunAt as number;
    // Monday 06:00 in the spreadsheet's time zone.
    const local = new Intl.DateTimeFormat('en-US', {
      timeZone: rt.spreadsheet.timeZone,
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).format(new Date(firstRun));
    expect(local).toBe('Mon 06:00');
    expect(firstRun - rt.clock.now()).toBeLessThanOrEqual(7 * DAY);
    expect(timers(rt).map((t) => t.handler)).toEqual(['sheetScoutTimer']);

    // The user corrects a name by hand; the service changes two companies.
    const values = () => rt.spreadsheet.sheet(SHEET).getValues();
    const header = values()[0];
    const nameColumn = header.indexOf('Company name');
    const sizeColumn = header.indexOf('Employees');
    rt.spreadsheet.sheet(SHEET).typeInto({ row: 2, column: nameColumn + 1, numRows: 1, numColumns: 1 }, 'Acme (ours)');
    const [typedOver, grown] = companies;
    await world.control.changeCompany(typedOver.domain, { name: 'Renamed Inc', employee_count: '10001+' });
    await world.control.changeCompany(grown.domain, { employee_count: '10001+' });

    // Hourly ticks, panels closed, until the week after the first run.
    let fires = 0;
    while (rt.clock.now() < firstRun + 7 * DAY + 2 * HOUR) {
      await advance(world, rt, HOUR);
      for (const fired of rt.triggers.fireDue()) {
        expect(fired).toMatchObject({ ok: true });
        fires++;
      }
    }
    expect(fires).toBeGreaterThan(7 * 24);
    const after = values();
    // The hand-typed name stays; its row's size and the other company's size changed, each with its note.
    expect(after[1][nameColumn]).toBe('Acme (ours)');
    expect(after[1][sizeColumn]).toBe('10001+');
    expect(after[2][sizeColumn]).toBe('10001+');
    expect(after[3][sizeColumn]).toBe(companies[2].employee_count);
    const notes = rt.spreadsheet.sheet(SHEET).getNotes();
    expect(notes[2][sizeColumn]).toMatch(new RegExp(`^Was ${grown.employee_count} until \\d{4}-\\d{2}-\\d{2}$`));
    expect(notes[1][nameColumn]).toBe('');

    const shown = rt.run<RefreshScheduleAnswer>('getRefreshSchedule', [], { kind: 'sidebar' });
    if (!shown.ok || !shown.schedule) throw new Error(JSON.stringify(shown));
    // Two runs (the second found nothing new to change), the next one a week on, at 06:00 on Monday.
    expect(shown.schedule.lastRun).toMatchObject({ checked: 3, changedRows: 0, keptEdits: 1, problem: null });
    expect(shown.schedule.nextRunAt).toBe(firstRun + 14 * DAY);
    expect(shown.schedule.requestShare).toBe(0.25);
    expect(timers(rt)).toHaveLength(1);

    // Stopped: the timer goes (nothing else is pending).
    const stopped = rt.run<RefreshScheduleAnswer>('setRefreshSchedule', [{ cadence: 'off', weekday: 1, days: 0 }], {
      kind: 'sidebar',
    });
    expect(stopped).toMatchObject({ ok: true, schedule: null });
    expect(timers(rt)).toHaveLength(0);
  });
});
