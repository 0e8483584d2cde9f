// The scale benchmark's job larger than a day: 20,000 unique domains to enrich (more lookups than Sheet Scout's daily
// request budget of 18,000), previewed (the plan must say it spans days), started from the panel, driven while the
// panel is open, then left to the published add-on's hourly timer with the panel closed until it is done.
import type { EnrichPreview, EnrichProgress, StartResult } from '../../src/enrichment/contract';
import { advance, DAY, documentWith, fireTimers, HOUR, sent, type World } from './world';

const UNIQUE = 20_000;
const FIELDS = ['company_name', 'hq_country'];

export interface OversizedJob {
  planShown: boolean;
  planDays: number;
  daysToFinish: number;
  written: number;
  requests: number;
}

export async function oversizedEnrichment(world: World, known: string[]): Promise<OversizedJob> {
  const domains = [...known, ...Array.from({ length: UNIQUE - known.length }, (_, i) => `unlisted-prospect-${i}.com`)];
  const doc = documentWith(world, 'doc-oversized', 'Prospects', [['Website'], ...domains.map((domain) => [domain])]);
  const requestsBefore = sent(world);
  const preview = doc.run<EnrichPreview>('getEnrichmentPreview', [{ fields: FIELDS }], { kind: 'sidebar' });
  if (!preview.ok) throw new Error(`no preview: ${preview.message}`);
  const started = doc.run<StartResult>('startEnrichment', [{ fields: FIELDS }], { kind: 'sidebar' });
  if (!started.ok) throw new Error(`enrichment did not start: ${started.message}`);
  const startedAt = world.clock.now();
  // The panel drives the job until it waits for requests; then the panel is closed.
  let progress = started.progress;
  for (let step = 0; step < 500 && progress.status === 'running' && progress.waitingForRequestsUntil === null; step++) {
    progress = doc.run<EnrichProgress>('runEnrichmentChunk', [], { kind: 'sidebar' });
    if (progress.nextStepInMs > 0 && progress.waitingForRequestsUntil === null)
      await advance(world, progress.nextStepInMs);
  }
  for (let hour = 0; hour < 96 && progress.status === 'running'; hour++) {
    await advance(world, HOUR);
    fireTimers(world);
    progress = doc.run<EnrichProgress>('getEnrichmentProgress', [], { kind: 'sidebar' });
  }
  const days = (world.clock.now() - startedAt) / DAY;
  console.log(
    `O enrichment of ${UNIQUE} unique domains: the preview planned ${preview.plan.requests} requests with ` +
      `${preview.plan.leftToday} left today (${preview.plan.days} days); status ${progress.status} after ${days.toFixed(2)} days, ` +
      `${progress.counts.written} rows filled, ${progress.counts.notFound} not found`,
  );
  return {
    planShown: preview.plan.days > 1,
    planDays: preview.plan.days,
    daysToFinish: progress.status === 'done' ? days : Infinity,
    written: progress.counts.written,
    requests: sent(world) - requestsBefore,
  };
}
