// Several documents (spreadsheets) of one script project: script and user stores, caches, locks and the trigger
// registry are shared, document stores, caches and locks are per document; triggers belong to a user and a document
// (getProjectTriggers lists the user's triggers of every document, getUserTriggers(spreadsheet) of that one), fire
// in their own document, and the add-on rule of one time-driven trigger per user counts per document.
import path from 'node:path';
import {
  createManualClock,
  createProject,
  GasProject,
  GasRuntime,
  ManualClock,
  SpreadsheetModel,
} from '../../../dev/gas-runtime';
import { failureOf, FIXTURES } from './helpers';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const OWNER = 'owner@example.com';
const EDITOR = 'editor@example.com';
const TOO_MANY = 'This add-on has created too many time-based triggers in this document for this Google user account.';

let clock: ManualClock;
let project: GasProject;
let a: GasRuntime;
let b: GasRuntime;
beforeEach(() => {
  clock = createManualClock(Date.UTC(2025, 0, 6, 12, 0, 0));
  project = createProject({
    bundlePath: path.join(FIXTURES, 'services.js'),
    clock,
    users: [OWNER, EDITOR],
    addOn: true,
  });
  a = project.addDocument({ spreadsheet: new SpreadsheetModel({ id: 'doc-a' }) });
  b = project.addDocument({ spreadsheet: new SpreadsheetModel({ id: 'doc-b' }) });
});

describe('one project, several documents', () => {
  test('script and user properties and caches are shared; document properties and caches are per document', () => {
    a.run('setProp', ['script', 'k', 'from a']);
    a.run('setProp', ['user', 'k', 'owner in a']);
    a.run('setProp', ['document', 'k', 'doc a']);
    expect(b.properties.script.get('k')).toBe('from a');
    expect(b.properties.user(OWNER).get('k')).toBe('owner in a');
    expect(b.properties.document.get('k')).toBeNull();
    expect(project.properties.script).toBe(a.properties.script);

    a.run('cacheOf', ['script', 'c', 'v']);
    a.run('cacheOf', ['user', 'c', 'v']);
    a.run('cacheOf', ['document', 'c', 'v']);
    expect(['script', 'user', 'document'].map((scope) => b.run('cacheOf', [scope, 'c']))).toEqual(['v', 'v', null]);
    expect(a.counters).toBe(b.counters);
  });

  test('the script lock is shared, the document lock is per document', () => {
    const releaseScript = a.locks.hold('script');
    expect(b.run('tryLockOf', ['script'])).toBe(false);
    releaseScript();
    const releaseDocument = a.locks.hold('document');
    expect(a.run('tryLockOf', ['document'])).toBe(false);
    expect(b.run('tryLockOf', ['document'])).toBe(true);
    releaseDocument();
  });

  test("getProjectTriggers lists the user's triggers of every document; getUserTriggers(spreadsheet) only this one's", () => {
    const inA = a.run<string>('everyMinutes', ['recordDocument', 1]);
    const inB = b.run<string>('everyMinutes', ['recordDocument', 1]);
    b.run('everyMinutes', ['recordDocument', 1], { user: EDITOR });
    expect(a.run('projectTriggers')).toEqual([inA, inB]);
    expect(b.run('projectTriggers')).toEqual([inA, inB]);
    expect(a.run('documentTriggers')).toEqual([inA]);
    expect(b.run('documentTriggers')).toEqual([inB]);
    expect(a.triggers.list().map((t) => t.id)).toEqual([inA]);
    expect(project.triggers.list()).toHaveLength(3);
    // deleteTrigger can delete any of the user's triggers, whichever document it belongs to.
    a.run('deleteTriggerById', [inB]);
    expect(b.run('documentTriggers')).toEqual([]);
    expect(b.triggers.list().map((t) => t.owner)).toEqual([EDITOR]);
  });

  test('the add-on rule of one time-driven trigger per user counts per document', () => {
    a.run('everyMinutes', ['recordDocument', 1]);
    expect(failureOf(() => a.run('afterMs', ['recordDocument', 1000]))).toBe(TOO_MANY);
    expect(b.run('afterMs', ['recordDocument', 1000])).toEqual(expect.any(String));
    expect(failureOf(() => b.run('everyMinutes', ['recordDocument', 1]))).toBe(TOO_MANY);
  });

  test("time-driven triggers fire in the document they were created from; the project fires every document's", () => {
    a.run('everyMinutes', ['recordDocument', 1]);
    b.run('everyMinutes', ['recordDocument', 1]);
    clock.advance(HOUR);
    expect(a.triggers.fireDue().map((r) => [r.documentId, r.ok])).toEqual([['doc-a', true]]);
    expect([a.properties.document.get('fires'), b.properties.document.get('fires')]).toEqual(['1', null]);
    expect(project.triggers.fireDue().map((r) => [r.documentId, r.ok])).toEqual([['doc-b', true]]);
    clock.advance(HOUR);
    expect(project.triggers.fireDue().map((r) => r.documentId)).toEqual(['doc-a', 'doc-b']);
    expect([a.properties.document.get('firedIn'), b.properties.document.get('firedIn')]).toEqual(['doc-a', 'doc-b']);
    expect([a.properties.document.get('fires'), b.properties.document.get('fires')]).toEqual(['2', '2']);
  });

  test("the 20-triggers-per-user limit counts the user's triggers of the whole project", () => {
    for (let i = 0; i < 10; i++) a.run('onOpenTrigger', ['recordDocument']);
    for (let i = 0; i < 10; i++) b.run('onOpenTrigger', ['recordDocument']);
    expect(failureOf(() => b.run('onOpenTrigger', ['recordDocument']))).toBe(
      'This script has too many triggers. Triggers must be deleted from the script before more can be added.',
    );
  });

  test('documents get their own spreadsheet ids; one id cannot be open twice', () => {
    const c = project.addDocument();
    expect(c.spreadsheet.id).not.toMatch(/^doc-[ab]$/);
    expect(project.documents).toEqual([a, b, c]);
    expect(() => project.addDocument({ spreadsheet: new SpreadsheetModel({ id: 'doc-a' }) })).toThrow(/already open/);
  });
});
