// The cost model (dev/gas-runtime/costs.ts): an execution's modelled time is charged for its start, each service call,
// the cells a range moves, committing buffered writes and HTTP; it is deterministic, moves a manual clock, and the
// execution limits hold against it, so a design that is only fast because the emulator is free fails.
import fs from 'node:fs';
import path from 'node:path';
import { createManualClock, type ManualClock } from '../../../dev/gas-runtime';
import { CACHE, callCost, commitCost, CPU, executionStartCost, SHEET } from '../../../dev/gas-runtime/costs';
import { failureOf, fixtureRuntime } from './helpers';

const SIX_MINUTES = 6 * 60 * 1000;
let clock: ManualClock;
beforeEach(() => {
  clock = createManualClock(Date.UTC(2026, 0, 5, 9));
});

describe('the cost model', () => {
  it('fails a chatty design the real platform could not finish, and passes the batched one in two seconds', () => {
    const rt = fixtureRuntime('costs', { clock });
    // 6,000 cells written one by one with a read after each: every read commits the write before it and reads again
    // (about 70 ms a cell).
    expect(failureOf(() => rt.run('interleavedCells', [6000]))).toBe('Exceeded maximum execution time');
    expect(rt.counters.modelled.lastExecutionMs).toBeGreaterThan(SIX_MINUTES);
    expect(rt.counters.modelled.byLabel['sheet.commit'].count).toBeGreaterThan(4000);
    rt.counters.reset();
    expect(rt.run('batchedCells', [6000])).toBe(6000);
    expect(rt.counters.modelled.lastExecutionMs).toBeLessThan(2000);
    expect(rt.counters.modelled.byLabel['sheet.commit'].count).toBe(1);
  });

  it('charges a commit by what was written, as its source measured: one row ~30 ms, 4,000 cells ~610 ms', () => {
    const rt = fixtureRuntime('costs', { clock });
    const commitOf = (rows: number, columns: number) => {
      rt.counters.reset();
      rt.run('writeThenFlush', [rows, columns]);
      return rt.counters.modelled.byLabel['sheet.commit'].ms;
    };
    // The source's rows held 10 cells each.
    expect(commitOf(1, 10)).toBeCloseTo(31.45, 6);
    expect(commitOf(400, 10)).toBeCloseTo(610, 6);
    expect(commitOf(400, 10)).toBe(commitCost(4000));
    // A buffered write of the 4,000 cells stays under the source's 50 ms.
    expect(SHEET.write.ms + 4000 * SHEET.writePerCell.ms).toBeLessThan(50);
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
      commitCost(250) +
      SHEET.read.ms +
      250 * SHEET.readPerCell.ms;
    expect(first.counters.modelled.lastExecutionMs).toBe(Math.floor(expected));
  });

  it('charges a cache call for each value and KB it moves, and Cache.get at the slower published figure', () => {
    const rt = fixtureRuntime('costs', { clock });
    expect(rt.run('cacheValues', [40, 50 * 1024])).toBe(40);
    const kb = 40 * 50;
    // putAll: 40 values, 2,000 KB written; getAll: 40 keys asked, 2,000 KB read.
    const data = 80 * CACHE.perValue.ms + kb * CACHE.writePerKb.ms + kb * CACHE.readPerKb.ms;
    expect(rt.counters.modelled.byLabel['cache.data'].ms).toBeCloseTo(data, 6);
    expect(rt.counters.modelled.byLabel['Cache.getAll'].ms).toBe(callCost('Cache', 'getAll'));
    expect(callCost('Cache', 'get')).toBe(20);
  });

  it('charges CPU for JSON by the text it reads and writes, and for typed arrays by the bytes they allocate', () => {
    const rt = fixtureRuntime('costs', { clock });
    expect(rt.run('jsonRoundTrip', [100 * 1024])).toBe(100 * 1024);
    // The text is 100 KB and 11 characters, written once and read once.
    expect(rt.counters.modelled.byLabel['cpu.json'].ms).toBeCloseTo(
      (2 * (100 * 1024 + 11) * CPU.jsonPerKb.ms) / 1024,
      6,
    );
    expect(rt.run('typedArrays', [64 * 1024])).toBe(64 * 1024 + 32 * 1024);
    expect(rt.counters.modelled.byLabel['cpu.unpack'].ms).toBeCloseTo(128 * CPU.unpackPerKb.ms, 6);
  });
});
