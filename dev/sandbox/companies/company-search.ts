// Ranking over the company index: semantic search (MiniSearch BM25 over names and descriptions, with stemming,
// prefix and fuzzy matching) and lookalike similarity (a blend of what a company does, who it sells to,
// firmographics and website traffic). Both return every match in rank order; callers filter and paginate.
import MiniSearch from 'minisearch';
import type { Company } from './company-index';
import { SIZE_BUCKETS } from './company-vocabulary';
import { contentTerms, isStopWord, stem } from './text';

export interface RankedCompany {
  company: Company;
  /** Relative relevance in (0, 1]: 1 for the best match of the whole query. */
  score: number;
  /** Query terms this company matched (semantic search only). */
  matchedTerms: number;
}

interface IndexedDocument {
  id: number;
  name: string;
  industry: string;
  short_description: string;
  full_description: string;
  products_services: string;
  use_cases: string;
  target_audience: string;
}

type SparseVector = Map<string, number>;

/** TF-IDF vectors of one text field plus an inverted index, for fast cosine similarity against all companies. */
class VectorSpace {
  private readonly vectors: SparseVector[];
  private readonly postings = new Map<string, { indexes: number[]; weights: number[] }>();

  constructor(texts: string[]) {
    this.vectors = tfidfVectors(texts);
    this.vectors.forEach((vector, index) => {
      for (const [term, weight] of vector) {
        let posting = this.postings.get(term);
        if (!posting) this.postings.set(term, (posting = { indexes: [], weights: [] }));
        posting.indexes.push(index);
        posting.weights.push(weight);
      }
    });
  }

  /** Cosine similarity of document `reference` with every document. */
  similarities(reference: number): Float64Array {
    const scores = new Float64Array(this.vectors.length);
    for (const [term, weight] of this.vectors[reference]) {
      const posting = this.postings.get(term);
      if (!posting) continue;
      for (let position = 0; position < posting.indexes.length; position++)
        scores[posting.indexes[position]] += weight * posting.weights[position];
    }
    return scores;
  }
}

const CACHE_SIZE = 500;

function processTerm(term: string): string | null {
  const lower = term.toLowerCase();
  return isStopWord(lower) ? null : stem(lower);
}

function round(value: number): number {
  return Math.round(value * 10000) / 10000;
}

/** A tiny least-recently-used cache. */
class LruCache<V> {
  private readonly entries = new Map<string, V>();
  constructor(private readonly capacity: number) {}

  get(key: string): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
  }
}

/** L2-normalized TF-IDF vectors for one text field of every company. */
function tfidfVectors(texts: string[]): SparseVector[] {
  const documentFrequency = new Map<string, number>();
  const termCounts = texts.map((text) => {
    const counts = new Map<string, number>();
    for (const term of contentTerms(text)) counts.set(term, (counts.get(term) ?? 0) + 1);
    for (const term of counts.keys()) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
    return counts;
  });
  return termCounts.map((counts) => {
    const vector: SparseVector = new Map();
    let norm = 0;
    for (const [term, count] of counts) {
      const weight = (1 + Math.log(count)) * Math.log(texts.length / (documentFrequency.get(term) ?? 1));
      vector.set(term, weight);
      norm += weight * weight;
    }
    norm = Math.sqrt(norm) || 1;
    for (const [term, weight] of vector) vector.set(term, weight / norm);
    return vector;
  });
}

export class CompanyRanking {
  private readonly searchCache = new LruCache<RankedCompany[]>(CACHE_SIZE);
  private readonly similarCache = new LruCache<RankedCompany[]>(CACHE_SIZE);
  private readonly position = new Map<Company, number>();
  /** The texts the indexes are built from, as the companies read when the ranking was made. */
  private readonly documents: IndexedDocument[];
  private readonly whatItDoesTexts: string[];
  private readonly whoItSellsToTexts: string[];
  /**
   * The indexes, built at their first use (about a second of CPU for the seeded 5,300 companies, which a sandbox that
   * is never asked to search or rank, as most tests' sandboxes, does not spend).
   */
  private index?: { miniSearch: MiniSearch<IndexedDocument>; whatItDoes: VectorSpace; whoItSellsTo: VectorSpace };

  constructor(private readonly companies: Company[]) {
    companies.forEach((company, index) => this.position.set(company, index));
    this.documents = companies.map((company, id) => ({
      id,
      name: company.name,
      industry: company.industry.name,
      short_description: company.short_description,
      full_description: company.full_description,
      products_services: company.products_services,
      use_cases: company.use_cases,
      target_audience: company.target_audience,
    }));
    this.whatItDoesTexts = companies.map(
      (company) =>
        `${company.industry.name} ${company.short_description} ${company.products_services} ${company.use_cases}`,
    );
    this.whoItSellsToTexts = companies.map((company) => company.target_audience);
  }

  private indexes(): NonNullable<CompanyRanking['index']> {
    if (this.index) return this.index;
    const miniSearch = new MiniSearch<IndexedDocument>({
      fields: [
        'name',
        'industry',
        'short_description',
        'full_description',
        'products_services',
        'use_cases',
        'target_audience',
      ],
      processTerm,
      searchOptions: {
        boost: {
          name: 3,
          industry: 2,
          short_description: 2,
          products_services: 1.5,
          target_audience: 1.5,
          use_cases: 1.2,
        },
        prefix: (term) => term.length >= 4,
        fuzzy: (term) => (term.length >= 5 ? 0.2 : false),
        combineWith: 'OR',
      },
    });
    miniSearch.addAll(this.documents);
    this.index = {
      miniSearch,
      whatItDoes: new VectorSpace(this.whatItDoesTexts),
      whoItSellsTo: new VectorSpace(this.whoItSellsToTexts),
    };
    return this.index;
  }

  /**
   * Every company matching the query, best first (ties broken by domain so pages are stable).
   * `strict` turns off fuzzy matching (the research planner uses it to judge briefs).
   */
  search(query: string, strict = false): RankedCompany[] {
    const cacheKey = `${strict ? 'strict' : 'fuzzy'}:${query.trim().toLowerCase()}`;
    const cached = this.searchCache.get(cacheKey);
    if (cached) return cached;
    const hits = this.indexes().miniSearch.search(query, strict ? { fuzzy: false, prefix: false } : {});
    const best = hits.length > 0 ? hits[0].score : 1;
    const ranked = hits
      .map((hit) => ({
        company: this.companies[hit.id as number],
        score: round(hit.score / best),
        matchedTerms: hit.queryTerms.length,
      }))
      .sort((left, right) => right.score - left.score || left.company.domain.localeCompare(right.company.domain));
    this.searchCache.set(cacheKey, ranked);
    return ranked;
  }

  /** Every other company, most similar to `reference` first. */
  similar(reference: Company): RankedCompany[] {
    const cached = this.similarCache.get(reference.id);
    if (cached) return cached;
    const referenceIndex = this.position.get(reference) ?? -1;
    const referenceSize = SIZE_BUCKETS.indexOf(reference.employee_count);
    const { whatItDoes: whatSpace, whoItSellsTo: whoSpace } = this.indexes();
    const whatItDoes = whatSpace.similarities(referenceIndex);
    const whoItSellsTo = whoSpace.similarities(referenceIndex);
    const ranked: RankedCompany[] = [];
    this.companies.forEach((candidate, index) => {
      if (index === referenceIndex) return;
      const sizeCloseness =
        1 - Math.abs(SIZE_BUCKETS.indexOf(candidate.employee_count) - referenceSize) / (SIZE_BUCKETS.length - 1);
      const ageCloseness = 1 - Math.min(40, Math.abs(candidate.founding_year - reference.founding_year)) / 40;
      const sameCountry = candidate.hq_country === reference.hq_country ? 1 : 0;
      const firmographics = 0.5 * sizeCloseness + 0.3 * ageCloseness + 0.2 * sameCountry;
      const traffic = 1 - Math.abs(candidate.website_authority.score - reference.website_authority.score) / 100;
      const score = 0.45 * whatItDoes[index] + 0.25 * whoItSellsTo[index] + 0.15 * firmographics + 0.15 * traffic;
      ranked.push({ company: candidate, score: round(score), matchedTerms: 0 });
    });
    ranked.sort((left, right) => right.score - left.score || left.company.domain.localeCompare(right.company.domain));
    this.similarCache.set(reference.id, ranked);
    return ranked;
  }
}
