// Draft builders for the Tables unit tests.
import { defaultDraft, type ColumnDraft } from '../../../src/tables/model';
import { slugify } from '../../../src/tables/keys';

export function draft(header: string, overrides: Partial<ColumnDraft> = {}): ColumnDraft {
  return { ...defaultDraft(header, 1, slugify(header), true), ...overrides };
}

export function agent(header: string, prompt: string, overrides: Partial<ColumnDraft> = {}): ColumnDraft {
  const base = draft(header, overrides);
  return { ...base, kind: 'agent', agent: { ...base.agent, prompt, ...(overrides.agent ?? {}) } };
}
