// The company index: a deterministic set of fake companies (5,000 enriched at start, the last of them stripe.com, the
// help texts' example, plus a few hundred valid domains waiting for enrichment) generated from a seed with faker, the lookups by domain and UUID, the
// enrichment state of pending domains, and the public shapes (search result, profile) built from a company.
import type { Faker } from '@faker-js/faker';
// The English-only entry point loads in ~20 ms instead of ~200 ms for all locales.
import { faker as englishFaker } from '@faker-js/faker/locale/en';
import {
  BRAND_PREFIXES,
  BRAND_SUFFIXES,
  COUNTRIES,
  GENERIC_TOP_LEVEL_DOMAINS,
  INDUSTRIES,
  SIZE_BUCKETS,
  SIZE_WEIGHTS,
  type Industry,
  type SizeBucket,
} from './company-vocabulary';
import { isUuid, registeredDomain } from './domains';

export const ENRICHED_COMPANY_COUNT = 5000;
export const PENDING_COMPANY_COUNT = 300;

/** A real-looking company the help texts and README use as their example (=SIMILAR("stripe.com")). */
interface ExampleCompany {
  name: string;
  domain: string;
  industry: string;
}

/** The last enriched company of the index is the examples' company, so every example works in the playground. */
const EXAMPLE_COMPANY: ExampleCompany = { name: 'Stripe', domain: 'stripe.com', industry: 'financial technology' };

export interface WebsiteAuthority {
  score: number;
  percentile: number;
  tier: number;
  tier_label: string;
}

/** Profile fields that research agents cite; each maps to the source URLs that state it. */
export type FactField =
  | 'short_description'
  | 'full_description'
  | 'products_services'
  | 'use_cases'
  | 'target_audience'
  | 'founding_year'
  | 'employee_count'
  | 'headquarters'
  | 'social_profiles'
  | 'website_authority';

export interface Company {
  id: string;
  domain: string;
  name: string;
  industry: Industry;
  products: string[];
  useCases: string[];
  audiences: string[];
  short_description: string;
  full_description: string;
  products_services: string;
  use_cases: string;
  target_audience: string;
  founding_year: number;
  employee_count: SizeBucket;
  hq_country: string;
  hq_state_province: string;
  hq_city: string;
  hq_full_address: string;
  social_profiles: Record<string, string>;
  website_authority: WebsiteAuthority;
  /** Every source URL of the profile, in a stable order. */
  sources: string[];
  /** Which sources state which fact. */
  factSources: Record<FactField, string[]>;
  /** False for the domains that answer 202 until their enrichment finishes. */
  enrichedAtStart: boolean;
}

/** The facts a test may change: firmographics and descriptions. */
export type CompanyChange = Partial<
  Pick<
    Company,
    'name' | 'employee_count' | 'hq_country' | 'hq_city' | 'hq_state_province' | 'founding_year' | 'short_description'
  >
>;

export type LookupOutcome =
  { kind: 'profile'; company: Company } | { kind: 'enriching'; domain: string } | { kind: 'not_found' };

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "a platform" / "an API": the indefinite article for a noun phrase. */
export function withArticle(phrase: string): string {
  return `${/^[aeiou]/i.test(phrase) ? 'an' : 'a'} ${phrase}`;
}

function pickWeighted<T>(faker: Faker, items: readonly T[], weights: readonly number[]): T {
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  let roll = faker.number.float({ min: 0, max: total });
  for (let index = 0; index < items.length; index++) {
    roll -= weights[index];
    if (roll <= 0) return items[index];
  }
  return items[items.length - 1];
}

const LEGAL_WORDS = new Set(['and', 'sons', 'llc', 'inc', 'group']);

function tierFor(percentile: number): { tier: number; tier_label: string } {
  if (percentile >= 95) return { tier: 1, tier_label: 'Top 5%' };
  if (percentile >= 80) return { tier: 2, tier_label: 'High' };
  if (percentile >= 50) return { tier: 3, tier_label: 'Medium' };
  if (percentile >= 20) return { tier: 4, tier_label: 'Low' };
  return { tier: 5, tier_label: 'Minimal' };
}

class CompanyGenerator {
  private readonly faker: Faker;
  private readonly usedNames = new Set<string>();
  private readonly usedDomains = new Set<string>();

  constructor(seed: number) {
    this.faker = englishFaker;
    this.faker.seed(seed);
  }

  generate(enrichedAtStart: boolean, example?: ExampleCompany): Company {
    const faker = this.faker;
    const drawn = faker.helpers.arrayElement(INDUSTRIES);
    const industry = INDUSTRIES.find((entry) => entry.name === example?.industry) ?? drawn;
    const country = pickWeighted(
      faker,
      COUNTRIES,
      COUNTRIES.map((entry) => entry.weight),
    );
    const place = faker.helpers.arrayElement(country.cities);
    const sizeIndex = SIZE_BUCKETS.indexOf(pickWeighted(faker, SIZE_BUCKETS, SIZE_WEIGHTS));
    const size = SIZE_BUCKETS[sizeIndex];
    const oldest = 1950 + Math.max(0, 7 - sizeIndex) * 5;
    const foundingYear = Math.min(
      2024,
      Math.max(
        1950,
        Math.round(2024 - Math.abs(faker.number.float({ min: 0, max: 1 }) ** 1.6) * (2024 - oldest) - sizeIndex * 2),
      ),
    );
    // The example keeps the random draws of the company it replaces, so every other company stays as it was.
    const drawnName = this.uniqueName(industry);
    const drawnDomain = this.uniqueDomain(drawnName, country.topLevelDomain);
    const name = example?.name ?? drawnName;
    const domain = example?.domain ?? drawnDomain;
    if (example) this.usedDomains.add(domain);
    const products = faker.helpers.arrayElements(industry.products, { min: 2, max: 3 });
    const useCases = faker.helpers.arrayElements(industry.useCases, { min: 2, max: 3 });
    const audiences = faker.helpers.arrayElements(industry.audiences, { min: 1, max: 3 });
    const catchPhrase = faker.company.catchPhrase();
    const street = faker.location.streetAddress();
    const postalCode = faker.location.zipCode('#####');
    const slug = domain.split('.')[0];
    const socialProfiles: Record<string, string> = {};
    if (faker.number.float({ min: 0, max: 1 }) > 0.08) {
      socialProfiles.linkedin = `https://www.linkedin.com/company/${slug}`;
      if (faker.datatype.boolean(0.7)) socialProfiles.twitter = `https://x.com/${slug}`;
      if (faker.datatype.boolean(0.4)) socialProfiles.facebook = `https://www.facebook.com/${slug}`;
      if (faker.datatype.boolean(0.5)) socialProfiles.crunchbase = `https://www.crunchbase.com/organization/${slug}`;
    }
    const authorityScore = Math.max(
      1,
      Math.min(99, Math.round(18 + sizeIndex * 9 + faker.number.float({ min: -14, max: 14 }))),
    );
    const home = `https://${domain}/`;
    const about = `https://${domain}/about`;
    const productsPage = `https://${domain}/products`;
    const customersPage = `https://${domain}/customers`;
    const sizeSource = socialProfiles.linkedin ?? about;
    const sources = [home, about, productsPage, customersPage, ...Object.values(socialProfiles)];
    const audienceText = audiences.join(' and ');
    const shortTemplates = [
      `${name} offers ${withArticle(products[0])} for ${audiences[0]}.`,
      `${name} builds ${withArticle(products[0])} used by ${audiences[0]}.`,
      `${capitalize(withArticle(industry.name))} company providing ${withArticle(products[0])} to ${audiences[0]}.`,
    ];
    return {
      id: faker.string.uuid(),
      domain,
      name,
      industry,
      products,
      useCases,
      audiences,
      short_description: faker.helpers.arrayElement(shortTemplates),
      full_description:
        `${name} is ${withArticle(industry.name)} company founded in ${foundingYear} and headquartered in ${place.city}, ${country.name}. ` +
        `It builds ${products.join(', ')} and helps ${audienceText} with ${useCases[0]}. ` +
        `Its customers also rely on it for ${useCases.slice(1).join(' and ') || useCases[0]}. ` +
        `The company describes its approach as "${catchPhrase.toLowerCase()}" and employs ${size} people.`,
      products_services: products.map(capitalize).join('; '),
      use_cases: useCases.map(capitalize).join('; '),
      target_audience: audiences.map(capitalize).join('; '),
      founding_year: foundingYear,
      employee_count: size,
      hq_country: country.name,
      hq_state_province: place.state,
      hq_city: place.city,
      hq_full_address: `${street}, ${place.city}, ${place.state} ${postalCode}, ${country.name}`,
      social_profiles: socialProfiles,
      website_authority: { score: authorityScore, percentile: 0, tier: 0, tier_label: '' },
      sources,
      factSources: {
        short_description: [home],
        full_description: [about],
        products_services: [productsPage],
        use_cases: [productsPage, customersPage],
        target_audience: [customersPage],
        founding_year: socialProfiles.crunchbase ? [about, socialProfiles.crunchbase] : [about],
        employee_count: [sizeSource],
        headquarters: [about],
        social_profiles: Object.values(socialProfiles),
        website_authority: [home],
      },
      enrichedAtStart,
    };
  }

  private uniqueName(industry: Industry): string {
    const faker = this.faker;
    for (;;) {
      const candidate = faker.datatype.boolean(0.4)
        ? faker.company.name()
        : `${faker.helpers.arrayElement(BRAND_PREFIXES)}${faker.helpers.arrayElement(BRAND_SUFFIXES)} ${
            faker.datatype.boolean(0.7)
              ? industry.brandWord
              : faker.helpers.arrayElement(['Labs', 'Systems', 'Technologies', 'Software', 'Cloud'])
          }`;
      if (!this.usedNames.has(candidate.toLowerCase())) {
        this.usedNames.add(candidate.toLowerCase());
        return candidate;
      }
    }
  }

  private uniqueDomain(name: string, countryDomain: string): string {
    const faker = this.faker;
    const tokens = name.toLowerCase().match(/[a-z0-9]+/g) ?? ['company'];
    const core = tokens.filter((token) => !LEGAL_WORDS.has(token)).slice(0, 2);
    const label = (core.length > 0 ? core : tokens).join('');
    const extension =
      countryDomain !== 'com' && faker.datatype.boolean(0.5)
        ? countryDomain
        : faker.helpers.arrayElement(GENERIC_TOP_LEVEL_DOMAINS);
    const candidates = [label, `${label}hq`, `get${label}`, `${label}app`, `try${label}`];
    for (const candidate of candidates) {
      const domain = `${candidate}.${extension}`;
      if (!this.usedDomains.has(domain) && registeredDomain(domain) === domain) {
        this.usedDomains.add(domain);
        return domain;
      }
    }
    for (let counter = 2; ; counter++) {
      const domain = `${label}${counter}.${extension}`;
      if (!this.usedDomains.has(domain)) {
        this.usedDomains.add(domain);
        return domain;
      }
    }
  }
}

export class CompanyIndex {
  readonly companies: Company[];
  private readonly byDomain = new Map<string, Company>();
  private readonly byId = new Map<string, Company>();
  /** Pending domain -> sandbox time when its enrichment finishes. */
  private readonly enrichmentReadyAt = new Map<string, number>();
  enrichmentDelayMs: number;

  constructor(seed: number, enrichmentDelayMs: number) {
    this.enrichmentDelayMs = enrichmentDelayMs;
    const generator = new CompanyGenerator(seed);
    this.companies = [];
    for (let index = 0; index < ENRICHED_COMPANY_COUNT + PENDING_COMPANY_COUNT; index++) {
      const example = index === ENRICHED_COMPANY_COUNT - 1 ? EXAMPLE_COMPANY : undefined;
      this.companies.push(generator.generate(index < ENRICHED_COMPANY_COUNT, example));
    }
    const byScore = [...this.companies].sort(
      (left, right) => left.website_authority.score - right.website_authority.score,
    );
    byScore.forEach((company, rank) => {
      const percentile = Math.round((rank / (byScore.length - 1)) * 1000) / 10;
      company.website_authority = { score: company.website_authority.score, percentile, ...tierFor(percentile) };
    });
    for (const company of this.companies) {
      this.byDomain.set(company.domain, company);
      this.byId.set(company.id.toLowerCase(), company);
    }
  }

  /** Original values of the fields changed through the control API, by domain (restored by reset). */
  private readonly originals = new Map<string, Partial<Company>>();

  /** Forget every enrichment started since the seed state, and undo every change of a company's facts. */
  resetEnrichment(): void {
    this.enrichmentReadyAt.clear();
    for (const [domain, original] of this.originals) Object.assign(this.byDomain.get(domain) as Company, original);
    this.originals.clear();
  }

  /** Changes facts of a company, as when it grows or moves (the profile and search results show the new values). */
  change(domain: string, patch: CompanyChange): Company | undefined {
    const company = this.byDomain.get(domain);
    if (!company) return undefined;
    const original = this.originals.get(domain) ?? {};
    for (const key of Object.keys(patch) as Array<keyof CompanyChange>) {
      if (!(key in original)) Object.assign(original, { [key]: company[key] });
    }
    this.originals.set(domain, original);
    Object.assign(company, patch);
    return company;
  }

  /** True when the company's profile can be served (enriched at start, or its enrichment finished). */
  isAvailable(company: Company, now: number): boolean {
    if (company.enrichedAtStart) return true;
    const readyAt = this.enrichmentReadyAt.get(company.domain);
    return readyAt !== undefined && readyAt <= now;
  }

  /** Lookup by UUID or domain/URL. A pending domain starts its enrichment on first lookup. */
  lookup(identifier: string, now: number): LookupOutcome {
    if (isUuid(identifier)) {
      const company = this.byId.get(identifier.toLowerCase());
      return company && this.isAvailable(company, now) ? { kind: 'profile', company } : { kind: 'not_found' };
    }
    const domain = registeredDomain(identifier);
    const company = domain === null ? undefined : this.byDomain.get(domain);
    if (!company) return { kind: 'not_found' };
    if (this.isAvailable(company, now)) return { kind: 'profile', company };
    if (!this.enrichmentReadyAt.has(company.domain))
      this.enrichmentReadyAt.set(company.domain, now + this.enrichmentDelayMs);
    return { kind: 'enriching', domain: company.domain };
  }

  /** Available company by UUID or domain/URL, without starting enrichment. */
  findAvailable(identifier: string, now: number): Company | undefined {
    const company = isUuid(identifier) ? this.byId.get(identifier.toLowerCase()) : this.byDomainOf(identifier);
    return company && this.isAvailable(company, now) ? company : undefined;
  }

  /** Company (available or pending) whose registered domain matches the text. */
  byDomainOf(text: string): Company | undefined {
    const domain = registeredDomain(text);
    return domain === null ? undefined : this.byDomain.get(domain);
  }
}

/** The public company object of search results and `reference_company` (no relevance score). */
export function companyObject(company: Company): Record<string, unknown> {
  return {
    id: company.id,
    domain: company.domain,
    name: company.name,
    ...describedFields(company),
    website_authority: { ...company.website_authority },
  };
}

/** The lookup response (company profile of 2.8 with the addendum's `context`). */
export function companyProfile(company: Company): Record<string, unknown> {
  return {
    id: company.id,
    domain: company.domain,
    company_name: company.name,
    context: { ...describedFields(company), sources: [...company.sources] },
  };
}

/** The descriptive and firmographic fields a search result and a profile's `context` share. */
function describedFields(company: Company): Record<string, unknown> {
  return {
    short_description: company.short_description,
    full_description: company.full_description,
    products_services: company.products_services,
    use_cases: company.use_cases,
    target_audience: company.target_audience,
    founding_year: company.founding_year,
    employee_count: company.employee_count,
    hq_country: company.hq_country,
    hq_state_province: company.hq_state_province,
    hq_city: company.hq_city,
    hq_full_address: company.hq_full_address,
    social_profiles: { ...company.social_profiles },
  };
}
