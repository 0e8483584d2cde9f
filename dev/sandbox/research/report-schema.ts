// Builds the schema report of a finished task: fills `fields` from the evidence the research agents gathered,
// following the task's output_schema (types, enums, formats, bounds, $refs, arrays of companies), fills Evidenced
// wrappers ({value, sources, reasoning}) with the statement and source URLs behind each value, and checks the
// result with ajv (optional fields that cannot be made valid are dropped; otherwise the report cannot be built).
import type { ErrorObject } from 'ajv/dist/2020';
import type { Company, FactField } from '../companies/company-index';
import { SIZE_BUCKETS } from '../companies/company-vocabulary';
import { compileOutputSchema } from './output-schema';
import type { Evidence, ResearchPlan } from './research-planner';
import type { FinishedAgent } from './report-markdown';
import { conceptOf, isEvidencedSchema, nameStems, resolveRef, sitePageOf, type Concept } from './schema-concepts';
import { stem } from '../companies/text';
import { isPlainObject } from '../http/validation';

export interface SchemaReport {
  kind: 'schema';
  fields: Record<string, unknown>;
  degradation_reasons: string[];
}

/** A value found for a property, with the evidence behind it. */
interface Found {
  value: unknown;
  evidence: Evidence[];
}

const NOT_FOUND_TEXT = 'Not found in the sources reviewed';
const URI_FORMATS = ['uri', 'url', 'uri-reference'];
/** A representative head count for each size bucket (its middle; the open top bucket uses its lower bound). */
const HEADCOUNT: Record<string, number> = {
  '1-10': 5,
  '11-50': 30,
  '51-200': 125,
  '201-500': 350,
  '501-1000': 750,
  '1001-5000': 3000,
  '5001-10000': 7500,
  '10001+': 10001,
};

function typesOf(node: Record<string, unknown>): string[] {
  if (typeof node.type === 'string') return [node.type];
  if (Array.isArray(node.type)) return node.type as string[];
  if (isPlainObject(node.properties)) return ['object'];
  if (node.items !== undefined || node.prefixItems !== undefined) return ['array'];
  if (Array.isArray(node.enum) && node.enum.length > 0)
    return [typeof node.enum[0] === 'number' ? 'number' : typeof node.enum[0]];
  return ['string'];
}

function tokenOverlap(left: string, right: string): number {
  const wanted = new Set(nameStems(left));
  return nameStems(right).filter((word) => wanted.has(word)).length;
}

class SchemaFiller {
  private readonly evidenceByCompany = new Map<Company, Evidence[]>();
  private readonly competitors: Company[];
  private readonly allSources: string[];

  constructor(
    private readonly root: Record<string, unknown>,
    private readonly plan: ResearchPlan,
    agents: FinishedAgent[],
  ) {
    for (const agent of agents) {
      for (const evidence of agent.evidence) {
        const list = this.evidenceByCompany.get(evidence.company) ?? [];
        list.push(evidence);
        this.evidenceByCompany.set(evidence.company, list);
      }
    }
    const profiled = agents
      .filter((agent) => agent.question.facet === 'company_profile' && agent.question.company)
      .map((agent) => agent.question.company as Company);
    const shortlisted = agents
      .filter((agent) => agent.question.facet === 'competitors' || agent.question.facet === 'market_scan')
      .flatMap((agent) => agent.evidence.map((evidence) => evidence.company));
    this.competitors = [...new Set([...profiled, ...shortlisted])];
    this.allSources = [...new Set(agents.flatMap((agent) => agent.evidence.flatMap((evidence) => evidence.sources)))];
  }

  /** The company the schema is about: the brief's target, or the best market match. */
  subject(): Company | undefined {
    return this.plan.target.kind === 'company' ? this.plan.target.primary : this.competitors[0];
  }

  fillRoot(): Record<string, unknown> {
    return this.fillObject(this.root, this.subject());
  }

  private fact(company: Company, field: FactField): Evidence | undefined {
    return (this.evidenceByCompany.get(company) ?? []).find((evidence) => evidence.field === field);
  }

  /** Evidence that a company exists in the research (for name/domain/website, known from target resolution). */
  private identity(company: Company): Evidence[] {
    const any = this.evidenceByCompany.get(company)?.[0];
    return any ? [any] : [];
  }

  /** The text (or list) a concept has for a company, when the research gathered it. */
  private conceptValue(
    concept: Concept | null,
    name: string,
    company: Company | undefined,
    wantList: boolean,
  ): Found | undefined {
    if (!company) return undefined;
    const from = (field: FactField, value: unknown): Found | undefined => {
      const evidence = this.fact(company, field);
      return evidence ? { value, evidence: [evidence] } : undefined;
    };
    const join = (items: string[]): unknown => (wantList ? items : items.join('; '));
    switch (concept) {
      case 'name':
        return { value: wantList ? [company.name] : company.name, evidence: this.identity(company) };
      case 'domain':
        return { value: company.domain, evidence: this.identity(company) };
      case 'website':
        return { value: `https://${company.domain}/`, evidence: this.identity(company) };
      case 'description':
        return from('short_description', company.short_description);
      case 'long_description':
        return from('full_description', company.full_description);
      case 'industry':
        return from('full_description', company.industry.name);
      case 'products':
        return from('products_services', join(company.products));
      case 'use_cases':
        return from('use_cases', join(company.useCases));
      case 'audience':
        return from('target_audience', join(company.audiences));
      case 'founded':
        return from('founding_year', company.founding_year);
      case 'employees':
        return from('employee_count', company.employee_count);
      case 'country':
        return from('headquarters', company.hq_country);
      case 'city':
        return from('headquarters', company.hq_city);
      case 'state':
        return from('headquarters', company.hq_state_province);
      case 'address':
        return from('headquarters', company.hq_full_address);
      case 'headquarters':
        return from('headquarters', `${company.hq_city}, ${company.hq_country}`);
      case 'social':
        return from('social_profiles', join(Object.values(company.social_profiles)));
      case 'linkedin':
      case 'twitter':
      case 'facebook':
      case 'crunchbase': {
        const url = company.social_profiles[concept];
        return url ? from('social_profiles', url) : undefined;
      }
      case 'authority':
        return from('website_authority', company.website_authority.score);
      case 'competitors': {
        const peers = this.competitors.filter((peer) => peer !== company);
        if (peers.length === 0) return undefined;
        return {
          value: join(peers.slice(0, 5).map((peer) => peer.name)),
          evidence: peers.slice(0, 5).flatMap((peer) => this.identity(peer)),
        };
      }
      case 'sources':
        return this.allSources.length > 0
          ? { value: wantList ? this.allSources : this.allSources.join(' '), evidence: [] }
          : undefined;
      case null: {
        const evidence = (this.evidenceByCompany.get(company) ?? []).find(
          (item) => item.field === 'open_answer' && tokenOverlap(name, item.topic ?? '') > 0,
        );
        return evidence ? { value: evidence.statement, evidence: [evidence] } : undefined;
      }
    }
  }

  /** Fills one schema node for a property `name` about `company`; undefined when nothing fitting was found. */
  private fill(raw: unknown, name: string, company: Company | undefined): Found | undefined {
    const node = resolveRef(raw, this.root);
    if (!node) return undefined;
    if ('const' in node) return { value: node.const, evidence: [] };
    for (const key of ['anyOf', 'oneOf'] as const) {
      if (Array.isArray(node[key])) {
        const branches = (node[key] as unknown[]).map((branch) => resolveRef(branch, this.root)).filter(isPlainObject);
        for (const branch of branches.filter((candidate) => !typesOf(candidate).includes('null'))) {
          const found = this.fill({ ...node, [key]: undefined, ...branch }, name, company);
          if (found) return found;
        }
        return branches.some((branch) => typesOf(branch).includes('null')) ? { value: null, evidence: [] } : undefined;
      }
    }
    if (Array.isArray(node.allOf)) {
      const merged = (node.allOf as unknown[])
        .map((part) => resolveRef(part, this.root) ?? {})
        .reduce<Record<string, unknown>>(
          (all, part) => ({
            ...all,
            ...part,
            properties: { ...(all.properties as object), ...(part.properties as object) },
          }),
          { ...node, allOf: undefined },
        );
      return this.fill(merged, name, company);
    }
    const types = typesOf(node);
    if (isEvidencedSchema(node)) return this.fillEvidenced(node, name, company);
    const concept = conceptOf(name, node.description);
    if (types.includes('object')) {
      const related = concept === 'competitors' ? this.competitors.find((peer) => peer !== company) : company;
      const value = this.fillObject(node, related);
      return Object.keys(value).length > 0 || !types.includes('null')
        ? { value, evidence: [] }
        : { value: null, evidence: [] };
    }
    if (types.includes('array')) {
      const found = this.fillArray(node, name, concept, company);
      if (found) return found;
    } else {
      const found = this.fillScalar(node, types, name, concept, company);
      if (found) return found;
    }
    return types.includes('null') ? { value: null, evidence: [] } : undefined;
  }

  private fillObject(node: Record<string, unknown>, company: Company | undefined): Record<string, unknown> {
    const properties = isPlainObject(node.properties) ? node.properties : {};
    const required = Array.isArray(node.required) ? (node.required as string[]) : [];
    const result: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(properties)) {
      const found = this.fill(child, key, company);
      if (found) result[key] = found.value;
      else if (required.includes(key)) result[key] = this.fallback(child);
    }
    return result;
  }

  private fillEvidenced(node: Record<string, unknown>, name: string, company: Company | undefined): Found {
    const properties = node.properties as Record<string, unknown>;
    const inner = this.fill(properties.value, name, company);
    const sources = [...new Set((inner?.evidence ?? []).flatMap((evidence) => evidence.sources))];
    const statements = (inner?.evidence ?? []).map((evidence) => `"${evidence.statement}"`);
    const reasoning = inner
      ? statements.length > 0
        ? `Taken from the company's profile sources, which state: ${statements.join(' ')}`
        : 'Derived from the research plan (no single source states it).'
      : 'No evidence for this value was found in the sources the research agents reviewed.';
    const extras = this.fillObject(
      {
        ...node,
        properties: Object.fromEntries(
          Object.entries(properties).filter(([key]) => !['value', 'sources', 'reasoning'].includes(key)),
        ),
      },
      company,
    );
    const value = inner ? inner.value : this.fallback(properties.value);
    return { value: { ...extras, value, sources, reasoning }, evidence: inner?.evidence ?? [] };
  }

  private fillArray(
    node: Record<string, unknown>,
    name: string,
    concept: Concept | null,
    company: Company | undefined,
  ): Found | undefined {
    const items = resolveRef(node.items, this.root) ?? {};
    const maxItems = typeof node.maxItems === 'number' ? node.maxItems : 10;
    const itemTypes = typesOf(items);
    const wantsCompanies = concept === 'competitors' || (this.plan.target.kind === 'market' && concept === 'name');
    if (itemTypes.includes('object') && !isEvidencedSchema(items)) {
      const companies = wantsCompanies ? this.competitors.filter((peer) => peer !== company) : company ? [company] : [];
      if (companies.length === 0) return undefined;
      return { value: companies.slice(0, maxItems).map((member) => this.fillObject(items, member)), evidence: [] };
    }
    if (wantsCompanies) {
      const companies = this.competitors.filter((peer) => peer !== company).slice(0, maxItems);
      if (companies.length === 0) return undefined;
      const values = companies
        .map((member) => this.fill(items, 'name', member))
        .filter((found): found is Found => found !== undefined);
      return { value: values.map((found) => found.value), evidence: values.flatMap((found) => found.evidence) };
    }
    const listed = this.conceptValue(concept, name, company, true);
    if (!listed) return undefined;
    const entries = Array.isArray(listed.value) ? listed.value : [listed.value];
    const values = entries
      .slice(0, maxItems)
      .map((entry) => this.coerceScalar(items, typesOf(items), entry, concept))
      .filter((value) => value !== undefined);
    return values.length > 0 ? { value: values, evidence: listed.evidence } : undefined;
  }

  private fillScalar(
    node: Record<string, unknown>,
    types: string[],
    name: string,
    concept: Concept | null,
    company: Company | undefined,
  ): Found | undefined {
    if (types.includes('boolean') && concept === null) {
      const answer = this.conceptValue(null, name, company, false);
      return { value: answer !== undefined, evidence: answer?.evidence ?? [] };
    }
    // A URL naming a page of the company's website (its careers or pricing page) is that page, as a service that
    // has read the site answers it; a social profile's URL stays the profile's.
    const page =
      URI_FORMATS.includes(String(node.format)) && (concept === null || concept === 'website')
        ? sitePageOf(name)
        : null;
    const found: Found | undefined =
      page && company
        ? { value: `https://${company.domain}/${page}`, evidence: this.identity(company) }
        : this.conceptValue(concept, name, company, false);
    if (!found) return undefined;
    const value = this.coerceScalar(node, types, found.value, concept);
    return value === undefined ? undefined : { value, evidence: found.evidence };
  }

  /** Converts a found value to the node's type and constraints; undefined when it cannot fit honestly. */
  private coerceScalar(node: Record<string, unknown>, types: string[], raw: unknown, concept: Concept | null): unknown {
    if (Array.isArray(node.enum)) return this.closestEnum(node.enum, raw);
    if (types.includes('integer') || types.includes('number')) {
      let number: number | undefined;
      if (typeof raw === 'number') number = raw;
      else if (concept === 'employees' && typeof raw === 'string') number = HEADCOUNT[raw];
      if (number === undefined) return undefined;
      if (typeof node.minimum === 'number' && number < node.minimum) return undefined;
      if (typeof node.maximum === 'number' && number > node.maximum) return undefined;
      return number;
    }
    if (types.includes('string')) {
      let text = typeof raw === 'string' ? raw : String(raw);
      if (node.format === 'date' || node.format === 'date-time') {
        if (concept !== 'founded') return undefined;
        text = node.format === 'date' ? `${raw}-01-01` : `${raw}-01-01T00:00:00Z`;
      } else if (URI_FORMATS.includes(String(node.format))) {
        if (!/^https?:\/\//.test(text)) return undefined;
      } else if (node.format === 'hostname' && concept !== 'domain') {
        return undefined;
      } else if (typeof node.format === 'string' && !['uri', 'url', 'hostname'].includes(node.format)) {
        return undefined;
      }
      if (typeof node.maxLength === 'number' && [...text].length > node.maxLength)
        text = [...text].slice(0, node.maxLength).join('');
      if (typeof node.minLength === 'number' && [...text].length < node.minLength) return undefined;
      if (typeof node.pattern === 'string' && !new RegExp(node.pattern, 'u').test(text)) return undefined;
      return text;
    }
    if (types.includes('boolean')) return typeof raw === 'boolean' ? raw : undefined;
    return undefined;
  }

  /** The enum member that best matches a found value (exact, then shared words, then size-bucket order). */
  private closestEnum(options: unknown[], raw: unknown): unknown {
    const exact = options.find(
      (option) =>
        option === raw ||
        (typeof option === 'string' && typeof raw === 'string' && option.toLowerCase() === raw.toLowerCase()),
    );
    if (exact !== undefined) return exact;
    const text = String(raw);
    const scored = options
      .map((option) => ({ option, score: tokenOverlap(String(option), text) }))
      .sort((left, right) => right.score - left.score);
    if (scored[0] && scored[0].score > 0) return scored[0].option;
    const bucket = SIZE_BUCKETS.indexOf(text as (typeof SIZE_BUCKETS)[number]);
    if (bucket >= 0) {
      const numeric = options.find((option) => typeof option === 'string' && stem(option).includes(text.split('-')[0]));
      if (numeric !== undefined) return numeric;
    }
    return undefined;
  }

  /** A value for a required property without evidence: null when allowed, else an explicit "not found". */
  private fallback(raw: unknown): unknown {
    const node = resolveRef(raw, this.root) ?? {};
    const types = typesOf(node);
    if (types.includes('null')) return null;
    if (isEvidencedSchema(node)) return this.fillEvidenced(node, '', undefined).value;
    if ('const' in node) return node.const;
    if (Array.isArray(node.enum)) return node.enum[0];
    if (types.includes('object')) return this.fillObject(node, undefined);
    if (types.includes('array')) return [];
    if (types.includes('string')) return NOT_FOUND_TEXT;
    if (types.includes('boolean')) return false;
    if (types.includes('integer') || types.includes('number'))
      return typeof node.minimum === 'number' ? node.minimum : 0;
    return null;
  }
}

/** Deletes the value at an ajv instancePath when its parent does not require it; false when it must stay. */
function dropOptional(fields: Record<string, unknown>, root: Record<string, unknown>, error: ErrorObject): boolean {
  const parts = error.instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  for (let length = parts.length; length >= 1; length--) {
    const parentPath = parts.slice(0, length - 1);
    const key = parts[length - 1];
    let parent: unknown = fields;
    let schema: Record<string, unknown> | undefined = root;
    for (const part of parentPath) {
      const containerSchema: Record<string, unknown> | undefined = schema;
      if (Array.isArray(parent)) {
        schema = resolveRef(containerSchema?.items, root);
        parent = parent[Number(part)];
      } else {
        const properties: unknown = containerSchema?.properties;
        schema = resolveRef(isPlainObject(properties) ? properties[part] : undefined, root);
        parent = (parent as Record<string, unknown>)[part];
      }
    }
    if (Array.isArray(parent)) {
      const minItems = typeof schema?.minItems === 'number' ? schema.minItems : 0;
      if (parent.length > minItems) {
        parent.splice(Number(key), 1);
        return true;
      }
      continue;
    }
    const required = schema && Array.isArray(schema.required) ? (schema.required as string[]) : [];
    if (isPlainObject(parent) && !required.includes(key)) {
      delete parent[key];
      return true;
    }
  }
  return false;
}

/** The schema report, or an error message when no valid `fields` could be built from the evidence. */
export function composeSchemaReport(
  schema: Record<string, unknown>,
  plan: ResearchPlan,
  agents: FinishedAgent[],
  degradations: string[],
): { ok: true; report: SchemaReport } | { ok: false; error: string } {
  const filler = new SchemaFiller(schema, plan, agents);
  const fields = filler.fillRoot();
  const validate = compileOutputSchema(schema);
  for (let attempt = 0; attempt < 100; attempt++) {
    if (validate(fields)) return { ok: true, report: { kind: 'schema', fields, degradation_reasons: degradations } };
    const error = (validate.errors ?? [])[0];
    if (!error || !dropOptional(fields, schema, error)) {
      const where = error ? `${error.instancePath || '/'} ${error.message ?? ''}` : 'unknown';
      return { ok: false, error: `the research could not fill output_schema with conforming values (${where.trim()})` };
    }
  }
  return { ok: false, error: 'the research could not fill output_schema with conforming values' };
}
