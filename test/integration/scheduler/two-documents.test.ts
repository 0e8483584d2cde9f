// Two spreadsheets of one project, one user, published add-on rules (one time-driven trigger per user per document,
// hourly), through the built bundle against the sandbox: each document keeps its own timer while its research is
// pending — neither document's timer is removed or replaced by the other's — and both documents' work completes.
// ScriptApp.getProjectTriggers() returns the user's triggers of every document, so a timer that listed its triggers
// through it would take the other document's timer for its own.
import {
  createProject,
  SpreadsheetModel,
  createManualClock,
  type GasProject,
  type GasRuntime,
} from '../../../dev/gas-runtime';
import { SETTINGS_KEYS } from '../../../src/shared/connection';
import { startSandbox, type SandboxStack } from '../harness';
import { advance, BUNDLE, column, launch, SHEET, USER } from '../research/harness';

const HOUR = 60 * 60_000;
const REQUEST = {
  template: 'Research {Company} ({Domain})',
  depth: 'medium',
  output: { kind: 'report', statusHeader: 'Status', reportHeader: 'Report', sourcesHeader: 'Sources' },
} as const;

let world: SandboxStack;
let project: GasProject | undefined;

beforeAll(async () => {
  world = await startSandbox({ clock: 'manual' });
});
afterAll(async () => {
  await project?.close();
  await world.sandbox.stop();
});

function documentOf(owner: GasProject, id: string, companies: Array<{ name: string; domain: string }>): GasRuntime {
  const spreadsheet = new SpreadsheetModel({ id, rows: 100, columns: 26, sheetNames: [SHEET] });
  spreadsheet
    .sheet(SHEET)
    .setValues(`A1:B${companies.length + 1}`, [['Company', 'Domain'], ...companies.map((c) => [c.name, c.domain])]);
  return owner.addDocument({ spreadsheet });
}

/** The user's timer ids of one document (time-driven triggers created from it). */
const timerIds = (doc: GasRuntime) =>
  doc.triggers
    .list()
    .filter((t) => t.eventType === 'CLOCK')
    .map((t) => t.id);
const done = (doc: GasRuntime) =>
  column(doc, 'Status')
    .slice(0, 2)
    .every((status) => /^Done \(\d+ credits\)$/.test(status));

describe('shared timer with two documents of one project (integration, add-on mode)', () => {
  it('each document keeps its own timer until its own research is done; both documents finish', async () => {
    const companies = await world.control.call<Array<{ domain: string; name: string }>>(
      'GET',
      '/_sandbox/companies?limit=4&enriched=true',
    );
    project = createProject({
      bundlePath: BUNDLE,
      users: [USER],
      clock: createManualClock(await world.control.now()),
      addOn: true,
    });
    project.properties.user(USER).set(SETTINGS_KEYS.token, 'sbx_pro_token');
    project.properties.user(USER).set(SETTINGS_KEYS.baseUrl, world.control.url);
    const a = documentOf(project, 'doc-a', companies.slice(0, 2));
    const b = documentOf(project, 'doc-b', companies.slice(2, 4));

    expect(launch(a, REQUEST, [2, 3])).toMatchObject({ ok: true, created: 2 });
    const timerA = timerIds(a);
    expect(timerA).toHaveLength(1);
    // B starts just before A's timer first fires, so A finishes and removes its timer while B still needs its own.
    await advance(world, a, HOUR - 60_000);
    expect(launch(b, REQUEST, [2, 3])).toMatchObject({ ok: true, created: 2 });
    const timerB = timerIds(b);
    expect(timerB).toHaveLength(1);
    expect(timerIds(a)).toEqual(timerA);

    let losses = 0;
    let bAloneAfterAFinished = false;
    const firedIn: string[] = [];
    for (let round = 0; round < 24 && project.triggers.list().length > 0; round++) {
      await advance(world, a, HOUR / 2);
      for (const fired of project.triggers.fireDue()) {
        expect(fired).toMatchObject({ ok: true });
        firedIn.push(fired.documentId);
      }
      // A document with research still pending keeps the very timer it created.
      if (!done(a) && timerIds(a).join() !== timerA.join()) losses++;
      if (!done(b) && timerIds(b).join() !== timerB.join()) losses++;
      if (done(a) && timerIds(a).length === 0 && !done(b)) bAloneAfterAFinished = true;
    }
    expect(losses).toBe(0);
    expect(bAloneAfterAFinished).toBe(true);
    // Each timer ran in its own document; A's ended before B's did.
    expect(firedIn[0]).toBe('doc-a');
    expect(firedIn[firedIn.length - 1]).toBe('doc-b');
    expect([done(a), done(b)]).toEqual([true, true]);
    expect([timerIds(a), timerIds(b)]).toEqual([[], []]);
    expect([a.properties.document.get('sheetscout.timer'), b.properties.document.get('sheetscout.timer')]).toEqual([
      null,
      null,
    ]);
  });
});
