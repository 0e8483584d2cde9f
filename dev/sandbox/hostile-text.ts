// Hostile text for tests of what the add-in writes: when set through the control API, every descriptive text of a
// /v1 answer (company names, descriptions and places, report markdown, schema field values, evidence reasoning) is
// replaced by the next string of a list the test chose, in order and cycling, while identifiers, domains, URLs,
// statuses and numbers stay as they are so the answers keep their shape and meaning. Spec-shaped answers carrying
// values a spreadsheet would misread: formulas, numbers, dates, booleans, apostrophes.

/** Keys whose string values are descriptive text (anywhere in an answer). */
const TEXT_KEYS = new Set([
  'company_name',
  'name',
  'short_description',
  'full_description',
  'products_services',
  'use_cases',
  'target_audience',
  'hq_country',
  'hq_state_province',
  'hq_city',
  'hq_full_address',
  'markdown',
  'reasoning',
  'tier_label',
]);

export class HostileText {
  private strings: string[] = [];
  private next = 0;

  set(strings: string[]): void {
    this.strings = strings;
    this.next = 0;
  }

  clear(): void {
    this.set([]);
  }

  get active(): boolean {
    return this.strings.length > 0;
  }

  private take(): string {
    const value = this.strings[this.next % this.strings.length];
    this.next += 1;
    return value;
  }

  /** The answer body with its descriptive texts replaced (a copy; the sandbox's own data is untouched). */
  apply(body: unknown): unknown {
    if (!this.active) return body;
    const walk = (value: unknown, key: string | null, inFields: boolean): unknown => {
      if (Array.isArray(value)) return value.map((item) => walk(item, key, inFields));
      if (value !== null && typeof value === 'object') {
        return Object.fromEntries(
          Object.entries(value).map(([name, item]) => [name, walk(item, name, inFields || name === 'fields')]),
        );
      }
      if (typeof value !== 'string') return value;
      const descriptive =
        (key !== null && TEXT_KEYS.has(key)) || (inFields && key !== 'sources' && !/^https?:/.test(value));
      return descriptive ? this.take() : value;
    };
    return walk(body, null, false);
  }
}
