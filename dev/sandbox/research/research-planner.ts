// The research planner (the "reasoning agent"): resolves a brief's target against the company index (domains and
// company names mentioned, or a market described in words), judges unusable briefs, and turns brief and depth
// (or the output schema's properties) into sub-questions for research agents, including follow-ups after analysis.
import type { Company, CompanyIndex, FactField } from '../companies/company-index';
import type { CompanyRanking } from '../companies/company-search';
import { COUNTRIES } from '../companies/company-vocabulary';
import { registeredDomain } from '../companies/domains';
import type { SearchFilters } from '../companies/filters';
import { filterPredicate } from '../companies/filters';
import { conceptsOfSchema, FACET_OF_CONCEPT } from './schema-concepts';
import { contentTerms, isStopWord, stem, words } from '../companies/text';

export type Depth = 'medium' | 'high' | 'xhigh';
export const DEPTH_BUDGET: Record<Depth, number> = { medium: 5, high: 15, xhigh: 25 };
/** Research agents that run side by side in one iteration. */
export const WAVE_SIZE: Record<Depth, number> = { medium: 3, high: 5, xhigh: 5 };
const COMPETITOR_PROFILES: Record<Depth, number> = { medium: 3, high: 6, xhigh: 10 };
const MARKET_PROFILES: Record<Depth, number> = { medium: 4, high: 10, xhigh: 16 };
const LANDSCAPE_BATCH = 20;

export type Facet =
  | 'overview'
  | 'products'
  | 'customers'
  | 'firmographics'
  | 'online_presence'
  | 'competitors'
  | 'company_profile'
  | 'market_scan'
  | 'landscape'
  | 'open_question';

export interface SubQuestion {
  facet: Facet;
  question: string;
  /** The company researched (all facets but market_scan and landscape). */
  company?: Company;
  /** Companies covered by a landscape agent. */
  companies?: Company[];
  /** Words an open question looks for (schema properties the planner could not map). */
  terms?: string[];
}

export interface Evidence {
  company: Company;
  field: FactField | 'open_answer';
  statement: string;
  sources: string[];
  /** For open questions: the property asked about. */
  topic?: string;
}

export type Target =
  | { kind: 'company'; primary: Company; others: Company[] }
  | { kind: 'market'; query: string; label: string; filters: SearchFilters };

export interface ResearchPlan {
  target: Target;
  depth: Depth;
  budget: number;
  exhaustive: boolean;
  initial: SubQuestion[];
}

export type PlanOutcome = { ok: true; plan: ResearchPlan } | { ok: false; reason: string };

const FACET_WORDS: Record<'products' | 'customers' | 'firmographics' | 'online_presence' | 'competitors', string[]> = {
  products: ['product', 'service', 'offering', 'feature', 'pricing', 'solution', 'platform', 'portfolio', 'sell'],
  customers: [
    'customer',
    'client',
    'audience',
    'icp',
    'buyer',
    'segment',
    'persona',
    'user',
    'use',
    'case',
    'vertical',
  ],
  firmographics: [
    'size',
    'employee',
    'headcount',
    'found',
    'founded',
    'history',
    'headquarter',
    'hq',
    'location',
    'office',
    'age',
    'year',
    'firmographic',
    'based',
  ],
  online_presence: [
    'social',
    'linkedin',
    'twitter',
    'traffic',
    'website',
    'presence',
    'authority',
    'seo',
    'brand',
    'online',
  ],
  competitors: [
    'competitor',
    'compete',
    'competing',
    'competition',
    'rival',
    'alternative',
    'peer',
    'similar',
    'landscape',
    'versus',
    'vs',
    'compare',
    'comparison',
    'lookalike',
  ],
};
const EVERYTHING_WORDS = [
  'comprehensive',
  'complete',
  'full',
  'detailed',
  'exhaustive',
  'everything',
  'thorough',
  'deep',
  'dive',
];
/** Words that describe the request rather than the market ("list the top vendors"). */
const META_WORDS = new Set(
  [
    'company',
    'companies',
    'business',
    'businesses',
    'vendor',
    'vendors',
    'provider',
    'providers',
    'startup',
    'startups',
    'player',
    'players',
    'market',
    'markets',
    'research',
    'report',
    'list',
    'top',
    'best',
    'leading',
    'brief',
    'analysis',
    'analyze',
    'overview',
    'landscape',
    'something',
    'anything',
    'stuff',
    'thing',
    'things',
    'info',
    'information',
    'know',
    'write',
    'make',
    'do',
    'look',
    'into',
    'based',
    'exhaustive',
    'detailed',
    'comprehensive',
    'deep',
    'dive',
    'who',
    'sell',
    'sells',
    'selling',
  ].map(stem),
);
const LEGAL_WORDS = new Set(['and', 'sons', 'llc', 'inc', 'group']);
const DOMAIN_IN_TEXT =
  /(?:https?:\/\/)?(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?\.)+[\p{L}]{2,}(?:\/[^\s)\]]*)?/giu;

function stemSet(text: string): Set<string> {
  return new Set(words(text).map(stem));
}

export class ResearchPlanner {
  /** Normalized company name (and its core without legal words) -> company; ambiguous cores are dropped. */
  private readonly names = new Map<string, Company | null>();
  private readonly longestName: number;

  constructor(
    private readonly index: CompanyIndex,
    private readonly ranking: CompanyRanking,
  ) {
    let longest = 1;
    for (const company of index.companies) {
      const tokens = words(company.name);
      longest = Math.max(longest, tokens.length);
      this.names.set(tokens.join(' '), company);
      const core = tokens.filter((token) => !LEGAL_WORDS.has(token));
      if (core.length >= 2 && core.length < tokens.length) {
        const key = core.join(' ');
        this.names.set(key, this.names.has(key) ? null : company);
      }
    }
    this.longestName = longest;
  }

  plan(brief: string, depth: Depth, schema: Record<string, unknown> | null, now: number): PlanOutcome {
    const notes: string[] = [];
    const companies = this.companiesMentioned(brief, now, notes);
    const budget = DEPTH_BUDGET[depth];
    const briefStems = stemSet(brief);
    const exhaustive = EVERYTHING_WORDS.some((word) => briefStems.has(stem(word)));
    if (companies.length > 0) {
      const target: Target = { kind: 'company', primary: companies[0], others: companies.slice(1, 4) };
      const initial = schema
        ? this.schemaQuestions(target.primary, schema)
        : this.briefQuestions(target.primary, briefStems, exhaustive);
      for (const other of target.others) {
        initial.push({
          facet: 'company_profile',
          company: other,
          question: `What does ${other.name} do, and for whom?`,
        });
      }
      return { ok: true, plan: { target, depth, budget, exhaustive, initial } };
    }
    const market = this.marketOf(brief, now);
    if (market) {
      const initial: SubQuestion[] = [
        { facet: 'market_scan', question: `Which companies in the index match "${market.label}"?` },
      ];
      return { ok: true, plan: { target: market, depth, budget, exhaustive, initial } };
    }
    return { ok: false, reason: this.rejection(brief, notes, now) };
  }

  /**
   * Sub-questions that follow from a finished agent: profiles of the competitors or market companies it found and,
   * for exhaustive briefs, landscape batches filling whatever budget is still free (`freeBudget`).
   */
  followUps(
    plan: ResearchPlan,
    finished: SubQuestion,
    discovered: Company[],
    covered: Set<Company>,
    freeBudget: number,
  ): SubQuestion[] {
    const questions: SubQuestion[] = [];
    if (finished.facet === 'competitors' || finished.facet === 'market_scan') {
      const limit = finished.facet === 'competitors' ? COMPETITOR_PROFILES[plan.depth] : MARKET_PROFILES[plan.depth];
      for (const company of discovered.filter((candidate) => !covered.has(candidate)).slice(0, limit)) {
        questions.push({ facet: 'company_profile', company, question: `What does ${company.name} do, and for whom?` });
      }
      if (plan.exhaustive)
        questions.push(...this.landscapeQuestions(discovered.slice(limit), covered, freeBudget - questions.length));
    }
    return questions;
  }

  private landscapeQuestions(pool: Company[], covered: Set<Company>, slots: number): SubQuestion[] {
    const remaining = pool.filter((company) => !covered.has(company));
    const questions: SubQuestion[] = [];
    for (
      let start = 0;
      start + LANDSCAPE_BATCH <= remaining.length && questions.length < slots;
      start += LANDSCAPE_BATCH
    ) {
      const companies = remaining.slice(start, start + LANDSCAPE_BATCH);
      questions.push({
        facet: 'landscape',
        companies,
        question: `How do ${companies[0].name} and ${companies.length - 1} other companies of the landscape position themselves?`,
      });
    }
    return questions;
  }

  private briefQuestions(company: Company, briefStems: Set<string>, exhaustive: boolean): SubQuestion[] {
    const wanted = (Object.keys(FACET_WORDS) as (keyof typeof FACET_WORDS)[]).filter(
      (facet) => exhaustive || FACET_WORDS[facet].some((word) => briefStems.has(stem(word))),
    );
    const facets: Facet[] = ['overview', ...(wanted.length > 0 ? wanted : (['products', 'customers'] as const))];
    return facets.map((facet) => this.question(facet, company));
  }

  private schemaQuestions(company: Company, schema: Record<string, unknown>): SubQuestion[] {
    const facets = new Set<Facet>(['overview']);
    const open: string[] = [];
    for (const { concept, name } of conceptsOfSchema(schema)) {
      if (concept === null) open.push(name);
      else {
        const facet = FACET_OF_CONCEPT[concept];
        if (facet !== null) facets.add(facet);
      }
    }
    const questions = [...facets].map((facet) => this.question(facet, company));
    for (const name of [...new Set(open)]) {
      questions.push({
        facet: 'open_question',
        company,
        terms: words(name.replace(/([a-z])([A-Z])/g, '$1 $2')),
        question: `What do the sources say about "${name}" for ${company.name}?`,
      });
    }
    return questions;
  }

  private question(facet: Facet, company: Company): SubQuestion {
    const questions: Partial<Record<Facet, string>> = {
      overview: `What does ${company.name} do?`,
      products: `Which products and services does ${company.name} offer, and for which use cases?`,
      customers: `Who are ${company.name}'s customers and what do they use it for?`,
      firmographics: `How large is ${company.name}, when was it founded and where is it based?`,
      online_presence: `How visible is ${company.name} online (social profiles, website authority)?`,
      competitors: `Which companies compete with ${company.name}?`,
    };
    return { facet, company, question: questions[facet] ?? `What is known about ${company.name}?` };
  }

  /** Companies named in the brief by domain or name, in order of appearance; notes explain misses. */
  private companiesMentioned(brief: string, now: number, notes: string[]): Company[] {
    const found: { at: number; company: Company }[] = [];
    for (const match of brief.matchAll(DOMAIN_IN_TEXT)) {
      const domain = registeredDomain(match[0]);
      if (domain === null) continue;
      const company = this.index.byDomainOf(domain);
      if (!company) notes.push(`the domain ${domain} is not in the company index`);
      else if (!this.index.isAvailable(company, now))
        notes.push(
          `the company ${domain} is known but its profile is still being enriched (look it up first, then retry)`,
        );
      else found.push({ at: match.index ?? 0, company });
    }
    const tokens = [...brief.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)];
    for (let start = 0; start < tokens.length; start++) {
      for (let length = Math.min(this.longestName, tokens.length - start); length >= 2; length--) {
        const key = tokens
          .slice(start, start + length)
          .map((token) => token[0])
          .join(' ');
        const company = this.names.get(key);
        if (!company) continue;
        if (this.index.isAvailable(company, now)) found.push({ at: tokens[start].index ?? 0, company });
        else
          notes.push(
            `the company ${company.name} is known but its profile is still being enriched (look up ${company.domain} first, then retry)`,
          );
        start += length - 1;
        break;
      }
    }
    found.sort((left, right) => left.at - right.at);
    return [...new Set(found.map((entry) => entry.company))];
  }

  /** A market the brief describes in words, when at least three companies match two of its terms (or its only term). */
  private marketOf(brief: string, now: number): Extract<Target, { kind: 'market' }> | undefined {
    const terms = [...new Set(contentTerms(brief).filter((term) => !META_WORDS.has(term) && !/^\d+$/.test(term)))];
    const filters = this.placeFilters(brief);
    const placeWords = new Set(
      [...(filters.include?.country ?? []), ...(filters.include?.city ?? [])].flatMap((place) => contentTerms(place)),
    );
    const queryTerms = terms.filter((term) => !placeWords.has(term));
    if (queryTerms.length === 0) return undefined;
    const query = queryTerms.join(' ');
    const needed = Math.min(2, queryTerms.length);
    const inPlace = filterPredicate(filters);
    const matches = this.ranking
      .search(query, true)
      .filter((hit) => hit.matchedTerms >= needed && this.index.isAvailable(hit.company, now) && inPlace(hit.company));
    if (matches.length < 3) return undefined;
    const place = [...(filters.include?.city ?? []), ...(filters.include?.country ?? [])].join(', ');
    return { kind: 'market', query, label: place ? `${query} (${place})` : query, filters };
  }

  /** Countries and cities of the index that the brief names become include filters. */
  private placeFilters(brief: string): SearchFilters {
    const text = ` ${words(brief).join(' ')} `;
    const countries = COUNTRIES.filter((country) => text.includes(` ${words(country.name).join(' ')} `)).map(
      (country) => country.name,
    );
    const cities = COUNTRIES.flatMap((country) => country.cities.map((entry) => entry.city)).filter(
      (city, position, all) =>
        all.indexOf(city) === position && !countries.includes(city) && text.includes(` ${words(city).join(' ')} `),
    );
    const include: { country?: string[]; city?: string[] } = {};
    if (countries.length > 0) include.country = countries;
    if (cities.length > 0) include.city = cities;
    return Object.keys(include).length > 0 ? { include } : {};
  }

  private rejection(brief: string, notes: string[], now: number): string {
    const example = this.index.companies.find((company) => this.index.isAvailable(company, now));
    const meaningful = [...new Set(words(brief).filter((word) => !isStopWord(word)))].slice(0, 8);
    const reasons = [
      'no company from the index is named in the brief (neither a domain such as example.com nor a company name)',
      ...notes,
      meaningful.length > 0
        ? `its words (${meaningful.map((term) => `"${term}"`).join(', ')}) do not describe a market that at least three indexed companies match`
        : 'it contains no words that describe a company, person or market',
    ];
    const example1 = example
      ? `"Research ${example.domain}: products, customers and competitors"`
      : '"Research acme.com: products and customers"';
    return (
      `Brief rejected: no identifiable target. Reasons: ${reasons.map((reason, index) => `(${index + 1}) ${reason}`).join('; ')}. ` +
      `How to fix: name the company or give its domain, for example ${example1}; ` +
      'or describe a market concretely, for example "cybersecurity vendors selling to hospitals in Germany". Nothing was charged.'
    );
  }
}
