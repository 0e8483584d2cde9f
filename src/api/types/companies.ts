// Wire types of companies (interface 2.8-2.10, 4.7-4.11; addendum): profile, enrichment answers, search results
// and filters.

/** Employee-count buckets, exactly as the service spells them (addendum "Filter values"). */
export type SizeBucket = '1-10' | '11-50' | '51-200' | '201-500' | '501-1000' | '1001-5000' | '5001-10000' | '10001+';

export const SIZE_BUCKETS: readonly SizeBucket[] = [
  '1-10',
  '11-50',
  '51-200',
  '201-500',
  '501-1000',
  '1001-5000',
  '5001-10000',
  '10001+',
];

/**
 * Descriptive fields whose value type the service does not publish: seen as prose, and plausibly
 * as lists. Consumers must handle both.
 */
export type TextOrList = string | string[];

/** Descriptive and firmographic fields that a profile's `context` and a search result share (addendum). */
export interface CompanyDescription {
  short_description?: string | null;
  full_description?: string | null;
  products_services?: TextOrList | null;
  use_cases?: TextOrList | null;
  target_audience?: TextOrList | null;
  founding_year?: number | null;
  employee_count?: SizeBucket | null;
  hq_country?: string | null;
  hq_state_province?: string | null;
  hq_city?: string | null;
  hq_full_address?: string | null;
  /** Network name -> profile URL. */
  social_profiles?: Record<string, string> | null;
}

/** The rich profile of a company (addendum "Company profile `context`"); each field only when available. */
export interface CompanyContext extends CompanyDescription {
  sources?: unknown[] | null;
  /** Fields the service may add later are kept verbatim. */
  [field: string]: unknown;
}

/** Response of `GET /v1/companies/{company_identifier}` with status 200. */
export interface CompanyProfile {
  id: string;
  domain: string;
  company_name: string;
  context: CompanyContext;
}

/** Body of the 202 answer of a lookup whose enrichment started (addendum). */
export interface EnrichmentAccepted {
  status: 'enriching';
  domain?: string;
  message?: string;
}

/**
 * Outcome of a successful lookup: the profile (200), or enrichment started (202) in which case the
 * same lookup should be repeated later. A distinct state so no caller can mistake 202 for a profile.
 */
export type LookupOutcome =
  { state: 'ready'; profile: CompanyProfile } | { state: 'enriching'; domain: string | null; message: string | null };

export interface WebsiteAuthority {
  score: number;
  percentile: number;
  tier: number | string;
  tier_label: string;
}

/** One company candidate of a search or lookalike response (addendum "Search and lookalike responses"). */
export interface CompanySearchResult extends CompanyDescription {
  id: string;
  domain: string;
  name?: string | null;
  website_authority?: WebsiteAuthority | null;
  relevance_score?: number | null;
}

/**
 * Search filters (interface 2.10). The interface names the keys in dotted form (`include.country`,
 * `range.founded.min`) and calls filters "an object"; dotted names in a key table are the usual
 * notation for paths into nested objects, and `range.founded.min` only makes sense as a path.
 * The wire form is therefore the nested object `{include: {country: [...]}, range: {founded: {min}}}`,
 * in the POST body and, JSON-encoded, in the `filters` query parameter of the GET variants. The
 * sandbox accepts both nested and flat dotted keys; only the nested form is ever sent.
 */
export interface SearchFilters {
  include?: {
    size?: SizeBucket[];
    /** Full English country names ("United States"). */
    country?: string[];
    city?: string[];
  };
  exclude?: {
    size?: SizeBucket[];
    country?: string[];
    city?: string[];
    /** Domains or URLs, normalised by the service; at most 1000 after de-duplication. */
    domains?: string[];
  };
  range?: {
    founded?: { min?: number; max?: number };
  };
}

export interface Pagination {
  offset?: number;
  /** At most 250. */
  limit?: number;
}

/** Body of `POST /v1/companies/search` (the GET variant carries the same values as query parameters). */
export interface SearchRequest {
  q: string;
  filters?: SearchFilters;
  pagination?: Pagination;
}

/** Body of `POST /v1/companies/{company_identifier}/similar` (the identifier stays in the path). */
export interface SimilarRequest {
  filters?: SearchFilters;
  pagination?: Pagination;
}

/** Request metadata echoed by search and lookalike responses. There is no total count. */
export interface SearchRequestEcho {
  offset?: number;
  limit?: number;
  query?: string;
  filters?: unknown;
}

export interface SearchResponse {
  results: CompanySearchResult[];
  request: SearchRequestEcho;
}

export interface SimilarResponse extends SearchResponse {
  /** The seed company; null when the service left it out. Never among `results`. */
  reference_company: CompanySearchResult | null;
}
