// The cost model (dev/gas-runtime/costs.ts): an execution's modelled time is charged for its start, each service call,
// the cells a range moves, committing buffered writes and HTTP; it is deterministic, moves a manual clock, and the
// execution limits hold against it, so a design that is only fast because the emulator is free fails.
import fs from 'node:fs';
import path from 'node:path';
import { createManualClock, type ManualClock } from '../../../dev/gas-runtime';
import { callCost, executionStartCost, SHEET } from '../../../dev/gas-runtime/costs';
import { failureOf, fixtureRuntime } from './helpers';

const SIX_MINUTES = 6 * 60 * 1000;
let clock: ManualClock;
beforeEach(() => {
  clock = createManualClock(Date.UTC(2026, 0, 5, 9));
});

describe('the cost model', () => {
  it('fails a chatty design the real platform could not finish, and passes the batched one in a second', () => {
    const rt = fixtureRuntime('costs', { clock });
    // 600 cells written one by one with a read after each: every read commits the write before it (~0.6 s each).
    expect(failureOf(() => rt.run('interleavedCells', [600]))).toBe('Exceeded maximum execution time');
    expect(rt.counters.modelled.lastExecutionMs).toBeGreaterThan(SIX_MINUTES);
    expect(rt.counters.modelled.byLabel['sheet.commit'].count).toBeGreaterThan(500);
    rt.counters.reset();
    expect(rt.run('batchedCells', [600])).toBe(600);
    expect(rt.counters.modelled.lastExecutionMs).toBeLessThan(1000);
    expect(rt.counters.modelled.byLabel['sheet.commit'].count).toBe(1);
  });

  it('charges each property write: 6,000 one by one pass 6 minutes, one setProperties does not', () => {
    const rt = fixtureRuntime('costs', { clock });
    expect(failureOf(() => rt.run('propertyPerKey', [6000]))).toBe('Exceeded maximum execution time');
    rt.properties.script.clear();
    rt.run('propertiesAtOnce', [6000]);
    expect(rt.properties.script.keys()).toHaveLength(6000);
    expect(rt.counters.modelled.lastExecutionMs).toBeLessThan(1000);
  });

  it('is deterministic: the same run costs the same, from the table, whatever the machine', () => {
    const first = fixtureRuntime('costs', { clock });
    const second = fixtureRuntime('costs', { clock: createManualClock(Date.UTC(2026, 0, 5, 9)) });
    first.run('batchedCells', [250]);
    second.run('batchedCells', [250]);
    expect(first.counters.modelled.lastExecutionMs).toBe(second.counters.modelled.lastExecutionMs);
    const bundleBytes = fs.statSync(path.join(__dirname, 'fixtures', 'costs.js')).size;
    // Start, getActiveSheet, two getRange, a write of 250 cells, a read committing it first, 250 cells read.
    const expected =
      executionStartCost(bundleBytes) +
      callCost('SpreadsheetApp', 'getActiveSheet') +
      2 * callCost('Sheet', 'getRange') +
      callCost('Range', 'setValues') +
      callCost('Range', 'getValues') +
      SHEET.write.ms +
      250 * SHEET.writePerCell.ms +
      SHEET.commit.ms +
      SHEET.read.ms +
      250 * SHEET.readPerCell.ms;
    expect(first.counters.modelled.lastExecutionMs).toBe(Math.floor(expected));
  });
});
