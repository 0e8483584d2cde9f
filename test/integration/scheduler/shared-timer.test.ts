// The document's one shared time-driven trigger, through the built bundle in the emulator's published add-on mode
// (one time-driven trigger per user per document, at most hourly) against the sandbox: research and enrichment
// active in the same spreadsheet share one trigger, both progress when it fires, and it goes once both are done.
import type { GasRuntime } from '../../../dev/gas-runtime';
import type { EnrichProgress, StartResult } from '../../../src/enrichment/contract';
import { startSandbox, type SandboxStack } from '../harness';
import { advance, column, launch, poll, runtimeFor, SHEET } from '../research/harness';

const HOUR = 60 * 60_000;
let world: SandboxStack;
let runtime: GasRuntime | undefined;

beforeAll(async () => {
  world = await startSandbox({ clock: 'manual' });
});
afterAll(async () => {
  await runtime?.close();
  await world.sandbox.stop();
});

const timers = (rt: GasRuntime) => rt.triggers.list().filter((t) => t.eventType === 'CLOCK');

describe('shared timer (integration, add-on mode)', () => {
  it('research and enrichment in one document share one trigger that runs both and goes when both are done', async () => {
    const companies = await world.control.call<Array<{ domain: string; name: string }>>(
      'GET',
      '/_sandbox/companies?limit=4&enriched=true',
    );
    const rows = [['Company', 'Domain'], ...companies.map((c) => [c.name, c.domain])];
    const rt = (runtime = await runtimeFor(world, rows, 'sbx_pro_token', { addOn: true }));
    const launched = launch(
      rt,
      {
        template: 'Research {Company} ({Domain})',
        depth: 'medium',
        output: { kind: 'report', statusHeader: 'Status', reportHeader: 'Report', sourcesHeader: 'Sources' },
      },
      [2, 3, 4, 5],
    );
    expect(launched).toMatchObject({ ok: true, created: 4 });

    const sheet = rt.spreadsheet.sheet(SHEET);
    rt.spreadsheet.selection = { sheet, rect: { row: 1, column: 2, numRows: 5, numColumns: 1 } };
    const started = rt.run<StartResult>('startEnrichment', [{ domainColumn: 2, fields: ['hq_country'] }], {
      kind: 'sidebar',
    });
    expect(started).toMatchObject({ ok: true });

    // One time-driven trigger for both features (a second create() would throw in add-on mode), hourly.
    expect(timers(rt).map((t) => t.handler)).toEqual(['sheetScoutTimer']);
    // Made during the launch: due an hour after a moment of it (the clock has moved by its modelled time since).
    expect(rt.triggers.nextDueAt()).toBeLessThanOrEqual(rt.clock.now() + HOUR);
    expect(rt.triggers.nextDueAt()).toBeGreaterThan(rt.clock.now() + HOUR - 60_000);

    await advance(world, rt, HOUR);
    expect(rt.triggers.fireDue()).toEqual([expect.objectContaining({ handler: 'sheetScoutTimer', ok: true })]);
    // Both progressed in that one run.
    const enrich = rt.run<EnrichProgress>('getEnrichmentProgress', [], { kind: 'sidebar' });
    expect(enrich).toMatchObject({ status: 'done', resolvedDomains: 4 });
    expect(column(rt, 'Country').filter((value) => value !== '')).toHaveLength(4);
    expect(
      column(rt, 'Status')
        .slice(0, 4)
        .every((status) => status !== 'Queued'),
    ).toBe(true);

    // The timer keeps running until research is done too, then removes itself.
    for (let hour = 0; hour < 6 && timers(rt).length > 0; hour++) {
      expect(timers(rt)).toHaveLength(1);
      await advance(world, rt, HOUR);
      expect(rt.triggers.fireDue().map((fired) => fired.ok)).toEqual([true]);
    }
    expect(column(rt, 'Status').slice(0, 4)).toEqual(Array(4).fill(expect.stringMatching(/^Done \(\d+ credits\)$/)));
    expect(timers(rt)).toEqual([]);
    expect(rt.properties.document.get('sheetscout.timer')).toBeNull();
  });

  it('a script bound to the spreadsheet (addOn false, installation source NONE) gets a timer that fires after a minute', async () => {
    await runtime?.close();
    const companies = await world.control.call<Array<{ domain: string; name: string }>>(
      'GET',
      '/_sandbox/companies?limit=1&enriched=true',
    );
    const rt = (runtime = await runtimeFor(
      world,
      [
        ['Company', 'Domain'],
        [companies[0].name, companies[0].domain],
      ],
      'sbx_pro_token',
      { addOn: false },
    ));
    const launched = launch(
      rt,
      {
        template: 'Research {Company} ({Domain})',
        depth: 'medium',
        output: { kind: 'report', statusHeader: 'Status', reportHeader: 'Report', sourcesHeader: 'Sources' },
      },
      [2],
    );
    expect(launched).toMatchObject({ ok: true, created: 1 });
    expect(timers(rt).map((t) => t.handler)).toEqual(['sheetScoutTimer']);
    expect(rt.triggers.nextDueAt()).toBeLessThanOrEqual(rt.clock.now() + 60_000);
    await advance(world, rt, 60_000);
    expect(rt.triggers.fireDue()).toEqual([expect.objectContaining({ handler: 'sheetScoutTimer', ok: true })]);
  });
});

// Google does not say whether getUserTriggers(spreadsheet) lists the time-driven triggers of a script bound to the
// spreadsheet: the timer is also found by the id the document records, so under either answer there is one timer.
describe.each([true, false])('a bound script whose getUserTriggers lists its timers: %s', (listed) => {
  it('keeps one timer through launches and panel polls, and removes it when the research is done', async () => {
    await runtime?.close();
    await world.control.reset();
    // Tasks of a few minutes: polls and ticks happen while they run.
    await world.control.setResearchSpeed(0.1);
    const companies = await world.control.call<Array<{ domain: string; name: string }>>(
      'GET',
      '/_sandbox/companies?limit=3&enriched=true',
    );
    const rows = [['Company', 'Domain'], ...companies.map((c) => [c.name, c.domain])];
    const rt = (runtime = await runtimeFor(world, rows, 'sbx_pro_token', {
      behaviours: { userTriggersListTimeDriven: listed },
    }));
    const request = {
      template: 'Research {Company} ({Domain})',
      depth: 'medium',
      output: { kind: 'report', statusHeader: 'Status', reportHeader: 'Report', sourcesHeader: 'Sources' },
    } as const;
    expect(launch(rt, request, [2])).toMatchObject({ created: 1 });
    expect(launch(rt, request, [3, 4])).toMatchObject({ created: 2 });
    for (let step = 0; step < 3; step++) {
      await advance(world, rt, 20_000);
      poll(rt);
      expect(timers(rt)).toHaveLength(1);
    }
    for (let minute = 0; minute < 10 && column(rt, 'Status').some((s) => !/^Done/.test(s)); minute++) {
      await advance(world, rt, 60_000);
      rt.triggers.fireDue();
    }
    expect(column(rt, 'Status').every((status) => /^Done/.test(status))).toBe(true);
    await advance(world, rt, 60_000);
    rt.triggers.fireDue();
    expect(timers(rt)).toHaveLength(0);
  });
});
