import { startSandbox, runtimeFor, sandboxLinkedClock } from '../test/integration/harness';
import { drive, LEADS } from '../test/integration/enrichment/harness';
async function main() {
  const { sandbox, control } = await startSandbox({ clock: 'manual' });
  await control.call('POST', '/_sandbox/config', { enrichmentDelayMs: 1000 });
  await control.setFault({ route: 'lookup', latencyMs: 200 });
  const ready = await control.companies(1450, true);
  const pending = await control.companies(50, false);
  const rows = [['Website'], ...[...ready, ...pending].map((c) => [c.domain]), ...ready.slice(0, 500).map((c) => [c.domain.toUpperCase()])];
  const clock = sandboxLinkedClock(sandbox.url, await control.now());
  const rt = runtimeFor(sandbox.url, { sheets: { [LEADS]: rows }, clock });
  rt.counters.reset();
  await drive(rt, { start: { fields: ['company_name', 'hq_country', 'employee_count', 'founding_year', 'short_description'] } });
  console.log(Object.entries(rt.counters.modelled.byLabel).sort((a,b)=>b[1].ms-a[1].ms).map(([l,e])=>`${l} ${e.ms.toFixed(0)} x${e.count}`).join('\n'));
  await rt.close(); await clock.close(); await sandbox.stop();
}
main();
