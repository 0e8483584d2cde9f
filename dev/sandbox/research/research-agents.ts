// Research agents: each one answers a sub-question by gathering evidence from the company index. Statements come
// from profile fields, and every statement carries the profile source URLs that state it. Agents can fail
// (no data for their question), which degrades the report.
import type { Company, CompanyIndex, FactField } from '../companies/company-index';
import type { CompanyRanking } from '../companies/company-search';
import { filterPredicate } from '../companies/filters';
import type { Evidence, ResearchPlan, SubQuestion } from './research-planner';
import { stem, words } from '../companies/text';

export interface AgentOutcome {
  ok: boolean;
  evidence: Evidence[];
  /** Companies found that the planner may research next (competitors, market matches). */
  discovered: Company[];
  /** Plain-language reason when the agent failed. */
  failure?: string;
}

const DISCOVERY_POOL = 400;

function sentenceList(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** One evidence statement for one field of a company profile, with the sources that state it. */
export function factEvidence(company: Company, field: FactField): Evidence | undefined {
  const name = company.name;
  const statements: Record<FactField, () => string | undefined> = {
    short_description: () => company.short_description,
    full_description: () => company.full_description,
    products_services: () => `${name} offers: ${company.products_services}.`,
    use_cases: () => `Customers use ${name} for ${sentenceList(company.useCases)}.`,
    target_audience: () => `${name} sells to ${sentenceList(company.audiences)}.`,
    founding_year: () => `${name} was founded in ${company.founding_year}.`,
    employee_count: () => `${name} has ${company.employee_count} employees.`,
    headquarters: () => `${name} is headquartered at ${company.hq_full_address}.`,
    social_profiles: () => {
      const entries = Object.entries(company.social_profiles);
      return entries.length === 0
        ? undefined
        : `${name} maintains profiles on ${sentenceList(entries.map(([network, url]) => `${network} (${url})`))}.`;
    },
    website_authority: () => {
      const authority = company.website_authority;
      return `${name}'s website authority score is ${authority.score}/100 (percentile ${authority.percentile}, tier ${authority.tier}: ${authority.tier_label}).`;
    },
  };
  const statement = statements[field]();
  return statement === undefined ? undefined : { company, field, statement, sources: [...company.factSources[field]] };
}

const FACET_FIELDS: Record<string, FactField[]> = {
  overview: ['short_description', 'full_description'],
  products: ['products_services', 'use_cases'],
  customers: ['target_audience', 'use_cases'],
  firmographics: ['founding_year', 'employee_count', 'headquarters'],
  online_presence: ['social_profiles', 'website_authority'],
  company_profile: ['short_description', 'products_services', 'target_audience', 'employee_count', 'headquarters'],
  landscape: ['short_description', 'products_services', 'target_audience', 'headquarters'],
};

function facts(company: Company, fields: FactField[]): Evidence[] {
  return fields
    .map((field) => factEvidence(company, field))
    .filter((evidence): evidence is Evidence => evidence !== undefined);
}

/** Open question: the profile sentences that mention the asked-about words, with their sources. */
function openAnswer(company: Company, terms: string[], topic: string): Evidence[] {
  const wanted = new Set(terms.map(stem));
  const fields: FactField[] = [
    'short_description',
    'full_description',
    'products_services',
    'use_cases',
    'target_audience',
  ];
  for (const field of fields) {
    const text = company[field as 'short_description'];
    const sentences = text.split(/(?<=[.;])\s+/);
    const hit = sentences.find((sentence) => words(sentence).some((word) => wanted.has(stem(word))));
    if (hit)
      return [
        { company, field: 'open_answer', statement: hit.trim(), sources: [...company.factSources[field]], topic },
      ];
  }
  return [];
}

export function runAgent(
  question: SubQuestion,
  plan: ResearchPlan,
  index: CompanyIndex,
  ranking: CompanyRanking,
  now: number,
): AgentOutcome {
  const company = question.company;
  switch (question.facet) {
    case 'overview':
    case 'products':
    case 'customers':
    case 'firmographics':
    case 'company_profile':
      return { ok: true, evidence: facts(company as Company, FACET_FIELDS[question.facet]), discovered: [] };
    case 'online_presence': {
      const target = company as Company;
      if (Object.keys(target.social_profiles).length === 0) {
        return {
          ok: false,
          evidence: [],
          discovered: [],
          failure: `The online-presence agent failed: no social profiles could be found for ${target.name}, so social reach and website authority were not assessed.`,
        };
      }
      return { ok: true, evidence: facts(target, FACET_FIELDS.online_presence), discovered: [] };
    }
    case 'landscape':
      return {
        ok: true,
        evidence: (question.companies ?? []).flatMap((member) => facts(member, FACET_FIELDS.landscape)),
        discovered: [],
      };
    case 'open_question': {
      const terms = question.terms ?? [];
      const evidence = openAnswer(company as Company, terms, terms.join(' '));
      return { ok: true, evidence, discovered: [] };
    }
    case 'competitors': {
      const target = company as Company;
      const discovered = ranking
        .similar(target)
        .filter((hit) => index.isAvailable(hit.company, now))
        .slice(0, DISCOVERY_POOL)
        .map((hit) => hit.company);
      const shortlist = discovered.slice(0, 5);
      const evidence = shortlist.map((peer) => ({
        company: peer,
        field: 'short_description' as const,
        statement: `${peer.name} (${peer.domain}) is among the companies most similar to ${target.name}: ${peer.short_description}`,
        sources: [...peer.factSources.short_description],
      }));
      return { ok: true, evidence, discovered };
    }
    case 'market_scan': {
      if (plan.target.kind !== 'market')
        return { ok: false, evidence: [], discovered: [], failure: 'The market scan had no market to scan.' };
      const inMarket = filterPredicate(plan.target.filters);
      const discovered = ranking
        .search(plan.target.query)
        .filter((hit) => index.isAvailable(hit.company, now) && inMarket(hit.company))
        .slice(0, DISCOVERY_POOL)
        .map((hit) => hit.company);
      const evidence = discovered.slice(0, 5).map((member) => ({
        company: member,
        field: 'short_description' as const,
        statement: `${member.name} (${member.domain}) matches "${plan.target.kind === 'market' ? plan.target.label : ''}": ${member.short_description}`,
        sources: [...member.factSources.short_description],
      }));
      if (discovered.length === 0)
        return {
          ok: false,
          evidence: [],
          discovered: [],
          failure: 'The market scan agent failed: no company of the index matched the market any more.',
        };
      return { ok: true, evidence, discovered };
    }
  }
}
