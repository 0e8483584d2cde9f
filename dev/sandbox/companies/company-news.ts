// Company news over time, for the playground's "Company news" control (and tests): a few companies grow to the next
// size bucket or move their head office to another city of their country, as companies do between two runs of an
// account watch or a scheduled refresh. Each round is drawn from the sandbox's seed and the round's number, so the same
// rounds change the same companies the same way; a reset of the sandbox undoes every change (CompanyIndex.change).
import { COUNTRIES, SIZE_BUCKETS } from './company-vocabulary';
import type { CompanyIndex } from './company-index';
import { createRng, hashString } from '../random';

/** One fact a round of news changed. */
export interface CompanyNewsItem {
  domain: string;
  field: 'employee_count' | 'hq_city';
  before: string;
  after: string;
}

/**
 * Changes up to `count` companies among `domains` (the enriched ones the index holds; all of its enriched companies
 * when none is given): each grows one size bucket, or moves (a company already at the largest size always moves).
 */
export function companyNews(
  index: CompanyIndex,
  round: { seed: number; n: number },
  domains: readonly string[],
  count: number,
): CompanyNewsItem[] {
  const rng = createRng(hashString(`news:${round.seed}:${round.n}`));
  const known = (domains.length > 0 ? domains : index.companies.map((company) => company.domain))
    .map((domain) => index.byDomainOf(domain))
    .filter((company, i, all) => company?.enrichedAtStart && all.indexOf(company) === i);
  const items: CompanyNewsItem[] = [];
  while (items.length < count && known.length > 0) {
    const company = known.splice(Math.floor(rng() * known.length), 1)[0];
    if (!company) continue;
    const size = SIZE_BUCKETS.indexOf(company.employee_count);
    const cities = COUNTRIES.find((country) => country.name === company.hq_country)?.cities ?? [];
    const elsewhere = cities.filter((place) => place.city !== company.hq_city);
    const grows = size < SIZE_BUCKETS.length - 1 && (elsewhere.length === 0 || rng() < 0.6);
    if (grows) {
      const after = SIZE_BUCKETS[size + 1];
      items.push({ domain: company.domain, field: 'employee_count', before: company.employee_count, after });
      index.change(company.domain, { employee_count: after });
    } else if (elsewhere.length > 0) {
      const place = elsewhere[Math.floor(rng() * elsewhere.length)];
      items.push({ domain: company.domain, field: 'hq_city', before: company.hq_city, after: place.city });
      index.change(company.domain, { hq_city: place.city, hq_state_province: place.state });
    }
  }
  return items;
}
