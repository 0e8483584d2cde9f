// "Similar to a list" benchmark: 50 reference customers (5 segments of 10 related companies) and the top 500 merged
// lookalikes, through the built bundle in the emulator against the sandbox with 200 ms of latency per lookalike
// request: the panel reads the references from the selection and runs (every reference's page in parallel fetchAll
// batches, reciprocal rank fusion, one write into a new sheet). Compared with a naive merge of the same lists:
// concatenate them, keep each company's best relevance score, sort by it. Prints requests, fetchAll rounds, wall time,
// how many of each top 500 are similar to several references, their overlap, and the summary line.
import type { LookalikeAnswer, LookalikeListRequest, ReferenceList } from '../src/search/lookalikes/lookalike-service';
import { emptyFilterForm } from '../src/search/spec';
import { markModelled, modelledFields, modelledSince } from './_modelled';
import { startSandbox, runtimeFor } from '../test/integration/harness';

const REFERENCES = 50;
const SEGMENTS = 5;
const TOP = 500;
const PER_REFERENCE = 200;
const LATENCY_MS = 200;
const TOKEN = 'sbx_pro_token';

interface Hit {
  domain: string;
  relevance_score: number;
}

export async function run(): Promise<void> {
  const { sandbox, control } = await startSandbox();
  try {
    const similar = async (domain: string, limit: number): Promise<Hit[]> =>
      (
        await control.call<{ results: Hit[] }>(
          'POST',
          `/v1/companies/${domain}/similar`,
          { pagination: { offset: 0, limit } },
          TOKEN,
        )
      ).results;
    // A customer list is concentrated in a few segments: each segment is a company and nine of its closest lookalikes.
    const seeds = (await control.companies(SEGMENTS * 40)).filter((_, index) => index % 40 === 0);
    const references: string[] = [];
    for (const seed of seeds) {
      const segment = [seed.domain, ...(await similar(seed.domain, 30)).map((hit) => hit.domain)].filter(
        (domain) => !references.includes(domain),
      );
      references.push(...segment.slice(0, REFERENCES / SEGMENTS));
    }
    await control.setFault({ route: 'similar', latencyMs: LATENCY_MS });

    const runtime = runtimeFor(sandbox.url, {
      token: TOKEN,
      minRows: 200,
      sheets: { Customers: [['Domain'], ...references.map((domain) => [domain])] },
    });
    const sheet = runtime.spreadsheet.sheet('Customers');
    runtime.spreadsheet.selection = { sheet, rect: sheet.rect(`A1:A${REFERENCES + 1}`) };
    const list = runtime.run<ReferenceList>('getLookalikeReferences', [], { kind: 'sidebar' });
    if (list.domains.length !== REFERENCES)
      throw new Error(`expected ${REFERENCES} references, got ${list.domains.length}`);
    const request: LookalikeListRequest = {
      references: list.domains,
      filters: emptyFilterForm(),
      exclude: [],
      perReference: PER_REFERENCE,
      top: TOP,
      columns: ['name', 'domain'],
    };
    const mark = markModelled(runtime.counters);
    const started = Date.now();
    const answer = runtime.run<LookalikeAnswer>('runLookalikeSearch', [request], { kind: 'sidebar' });
    const wallMs = Date.now() - started;
    const modelled = modelledSince(runtime.counters, mark);
    if (!answer.ok || !answer.sheet) throw new Error(answer.ok ? 'nothing written' : answer.message);
    const requests = runtime.counters.urlFetch.total;
    const rounds = runtime.counters.urlFetch.fetchAllCalls;
    const written = runtime.spreadsheet.sheet(answer.sheet.name).getValues().slice(1);
    await runtime.close();

    // The naive baseline over the same lists (fetched again here, latency and all, outside the measurement).
    const excluded = new Set(references);
    const best = new Map<string, { score: number; references: number }>();
    for (const reference of references) {
      for (const hit of await similar(reference, PER_REFERENCE)) {
        if (excluded.has(hit.domain)) continue;
        const entry = best.get(hit.domain) ?? { score: -Infinity, references: 0 };
        best.set(hit.domain, { score: Math.max(entry.score, hit.relevance_score), references: entry.references + 1 });
      }
    }
    const naive = [...best.entries()].sort((a, b) => b[1].score - a[1].score || (a[0] < b[0] ? -1 : 1)).slice(0, TOP);
    const fusedDomains = new Set(written.map((row) => String(row[1])));
    const overlap = naive.filter(([domain]) => fusedDomains.has(domain)).length / TOP;
    const fusedShared = written.filter((row) => String(row[3]).split(', ').length > 1).length;
    const naiveShared = naive.filter(([, entry]) => entry.references > 1).length;

    console.log(
      `lookalike latency per request: ${LATENCY_MS} ms; ${REFERENCES} references in ${SEGMENTS} segments, ${PER_REFERENCE} results each; top ${TOP}`,
    );
    console.log(
      `add-in: ${answer.written} rows into "${answer.sheet.name}" from ${answer.candidates} candidates, ${requests} requests in ${rounds} fetchAll round(s), ${wallMs} ms`,
    );
    console.log(
      `similar to 2+ references: ${fusedShared} of the fused top ${TOP}, ${naiveShared} of the naive top ${TOP}`,
    );
    console.log(
      `lookalike_list: refs=${REFERENCES} results=${answer.written} requests=${requests} wall_s=${(wallMs / 1000).toFixed(2)} overlap_with_naive=${overlap.toFixed(2)} ${modelledFields(modelled)}`,
    );
  } finally {
    await sandbox.stop();
  }
}
