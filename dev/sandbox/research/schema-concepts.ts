// What an output_schema asks for: maps property names (and descriptions) to the profile concepts the research
// can answer (name, products, headquarters, competitors, ...) and URL properties to the pages of a company's website
// (careers, pricing, ...), finds Evidenced wrappers ({value, sources, reasoning}), and lists the concepts of a whole
// schema so the planner can pick research facets.
import { isPlainObject } from '../http/validation';
import { stem, words } from '../companies/text';

export type Concept =
  | 'name'
  | 'domain'
  | 'website'
  | 'description'
  | 'long_description'
  | 'products'
  | 'use_cases'
  | 'audience'
  | 'founded'
  | 'employees'
  | 'country'
  | 'city'
  | 'state'
  | 'address'
  | 'headquarters'
  | 'social'
  | 'linkedin'
  | 'twitter'
  | 'facebook'
  | 'crunchbase'
  | 'authority'
  | 'industry'
  | 'competitors'
  | 'sources';

type ResearchFacet = 'overview' | 'products' | 'customers' | 'firmographics' | 'online_presence' | 'competitors';

/** The research facet whose agent gathers the evidence for a concept (null: known from the target itself). */
export const FACET_OF_CONCEPT: Record<Concept, ResearchFacet | null> = {
  name: null,
  domain: null,
  website: null,
  sources: null,
  description: 'overview',
  long_description: 'overview',
  industry: 'overview',
  products: 'products',
  use_cases: 'products',
  audience: 'customers',
  founded: 'firmographics',
  employees: 'firmographics',
  country: 'firmographics',
  city: 'firmographics',
  state: 'firmographics',
  address: 'firmographics',
  headquarters: 'firmographics',
  social: 'online_presence',
  linkedin: 'online_presence',
  twitter: 'online_presence',
  facebook: 'online_presence',
  crunchbase: 'online_presence',
  authority: 'online_presence',
  competitors: 'competitors',
};

/** First matching rule wins, so specific concepts come before general ones ("hq_city" is a city, not an HQ). */
const RULES: [Concept, string[]][] = [
  ['competitors', ['competitor', 'competition', 'rival', 'alternative', 'peer', 'similar', 'lookalike']],
  ['linkedin', ['linkedin']],
  ['twitter', ['twitter']],
  ['facebook', ['facebook']],
  ['crunchbase', ['crunchbase']],
  ['social', ['social']],
  ['authority', ['authority', 'traffic', 'visitor', 'seo', 'popularity', 'visibility', 'rank', 'ranking']],
  ['website', ['website', 'url', 'homepage', 'site', 'web', 'link']],
  ['domain', ['domain']],
  ['founded', ['founded', 'founding', 'established', 'inception', 'year']],
  ['employees', ['employee', 'headcount', 'staff', 'workforce', 'size', 'team']],
  ['address', ['address', 'street']],
  ['city', ['city', 'town']],
  ['state', ['state', 'province', 'region']],
  ['country', ['country', 'nation']],
  ['headquarters', ['headquarter', 'headquarters', 'hq', 'location', 'office', 'based']],
  ['industry', ['industry', 'sector', 'category', 'vertical']],
  ['audience', ['customer', 'audience', 'target', 'icp', 'buyer', 'segment', 'client', 'persona', 'market', 'serve']],
  ['use_cases', ['use', 'case', 'usecase', 'problem', 'pain', 'benefit', 'application']],
  ['products', ['product', 'service', 'offering', 'solution', 'platform', 'feature']],
  ['sources', ['source', 'citation', 'reference', 'evidence']],
  [
    'description',
    ['description', 'summary', 'overview', 'about', 'pitch', 'tagline', 'what', 'does', 'business', 'mission'],
  ],
  ['name', ['name', 'company', 'organization', 'brand']],
];
/** Words that may accompany "name" while still meaning the company's own name ("legal_company_name"). */
const COMPANY_NAME_WORDS = new Set(
  [
    'name',
    'company',
    'organization',
    'organisation',
    'brand',
    'legal',
    'business',
    'official',
    'trade',
    'display',
    'account',
    'full',
  ].map(stem),
);
const LONG_WORDS = ['full', 'long', 'detailed'].map(stem);
const STEMMED_RULES: [Concept, Set<string>][] = RULES.map(([concept, keywords]) => [
  concept,
  new Set(keywords.map(stem)),
]);

/** Pages every indexed company's website has, by the words a URL property may name them with. */
const SITE_PAGES: [string, string[]][] = [
  ['careers', ['career', 'careers', 'job', 'jobs', 'hiring', 'vacancy', 'vacancies', 'recruiting', 'opening']],
  ['pricing', ['pricing', 'price', 'prices', 'plan', 'plans']],
  ['blog', ['blog']],
  ['press', ['press', 'news', 'newsroom']],
  ['contact', ['contact', 'support', 'help']],
  ['about', ['about']],
  ['docs', ['docs', 'documentation', 'developer', 'developers', 'api']],
];
const STEMMED_PAGES: [string, Set<string>][] = SITE_PAGES.map(([page, keywords]) => [
  page,
  new Set(keywords.map(stem)),
]);

/** The website page a URL property names ("careers_page", "pricingUrl" -> "careers", "pricing"), or null. */
export function sitePageOf(name: string): string | null {
  const stems = nameStems(name);
  return STEMMED_PAGES.find(([, keywords]) => stems.some((word) => keywords.has(word)))?.[0] ?? null;
}

/** Splits "hqCity", "hq_city", "HQ-City" into stemmed words. */
export function nameStems(name: string): string[] {
  return words(name.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ')).map(stem);
}

/** The concept a property asks for, from its name (and, when the name says nothing, its description). */
export function conceptOf(name: string, description?: unknown): Concept | null {
  const fromName = conceptFromStems(nameStems(name));
  if (fromName !== null || typeof description !== 'string') return fromName;
  return conceptFromStems(nameStems(description));
}

function conceptFromStems(stems: string[]): Concept | null {
  for (const [concept, keywords] of STEMMED_RULES) {
    if (stems.some((word) => keywords.has(word))) {
      if (concept === 'name' && !stems.every((word) => COMPANY_NAME_WORDS.has(word))) return null;
      if (concept === 'description' && stems.some((word) => LONG_WORDS.includes(word))) return 'long_description';
      return concept;
    }
  }
  return null;
}

/** Resolves `#/$defs/<name>` references against the root schema. */
export function resolveRef(node: unknown, root: Record<string, unknown>): Record<string, unknown> | undefined {
  let current = node;
  for (let hops = 0; hops < 10 && isPlainObject(current) && typeof current.$ref === 'string'; hops++) {
    const name = decodeURIComponent(current.$ref.replace('#/$defs/', '')).replace(/~1/g, '/').replace(/~0/g, '~');
    const defs = root.$defs;
    current = isPlainObject(defs) ? defs[name] : undefined;
  }
  return isPlainObject(current) ? current : undefined;
}

/** An Evidenced wrapper: an object schema whose properties include value, sources and reasoning. */
export function isEvidencedSchema(node: Record<string, unknown>): boolean {
  const properties = node.properties;
  return isPlainObject(properties) && 'value' in properties && 'sources' in properties && 'reasoning' in properties;
}

/** Every property of a schema (any depth, through $refs, Evidenced wrappers counted once) with its concept. */
export function conceptsOfSchema(root: Record<string, unknown>): { name: string; concept: Concept | null }[] {
  const found: { name: string; concept: Concept | null }[] = [];
  const visit = (raw: unknown, depth: number): void => {
    const node = resolveRef(raw, root);
    if (!node || depth > 12) return;
    const properties = isPlainObject(node.properties) ? node.properties : {};
    for (const [name, child] of Object.entries(properties)) {
      const childNode = resolveRef(child, root);
      found.push({ name, concept: conceptOf(name, childNode?.description) });
      if (childNode && isEvidencedSchema(childNode))
        visit((childNode.properties as Record<string, unknown>).value, depth + 1);
      else visit(child, depth + 1);
    }
    visit(node.items, depth + 1);
    for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
      if (Array.isArray(node[key])) for (const branch of node[key] as unknown[]) visit(branch, depth + 1);
    }
  };
  visit(root, 0);
  return found;
}
