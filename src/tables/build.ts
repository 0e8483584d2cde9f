// Turns the included drafts of a validated mapping into the service's column configs, in column order, and keeps
// which draft each config came from so a 422 `loc` (`column_configs[i]...`) can be pinned back onto its row.
import type { AgentColumnValue, ColumnConfig } from '../api/types';
import type { ColumnDraft } from './model';
import { parseJsonObject } from './validate';

export interface BuiltConfigs {
  configs: ColumnConfig[];
  /** rows[i] is the index of the draft that produced configs[i]. */
  rows: number[];
}

function agentValue(draft: ColumnDraft): AgentColumnValue {
  const { agentType, outputFormat, prompt, labels, outputSchema } = draft.agent;
  const value: AgentColumnValue = { agent_type: agentType, prompt: prompt.trim(), output_format: outputFormat };
  if (outputFormat === 'select' || outputFormat === 'multiselect') {
    value.labels = labels.map((label) => label.trim()).filter((label) => label !== '');
  }
  if (outputFormat === 'json') {
    const parsed = parseJsonObject(outputSchema);
    if (parsed.ok) value.output_schema = parsed.value as AgentColumnValue['output_schema'];
  }
  return value;
}

function extraFields(draft: ColumnDraft): Record<string, unknown> {
  if (draft.extraJson.trim() === '') return {};
  const parsed = parseJsonObject(draft.extraJson);
  if (!parsed.ok) return {};
  const fields = { ...parsed.value };
  delete fields.kind;
  delete fields.name;
  delete fields.key;
  return fields;
}

/** The column config of one draft (call after validateMapping found no error). */
export function buildConfig(draft: ColumnDraft): ColumnConfig {
  const name = draft.name.trim();
  const key = draft.key.trim();
  switch (draft.kind) {
    case 'input':
    case 'email_finder':
    case 'phone_finder':
      return { kind: draft.kind, name, key };
    case 'agent':
      return { kind: 'agent', name, key, value: agentValue(draft) };
    case 'criterion_grade':
      return { kind: 'criterion_grade', name, key, value: { criterion: draft.criterion.trim() } };
    case 'company_people_finder': {
      const roles = draft.roles.map((role) => role.trim()).filter((role) => role !== '');
      return {
        kind: 'company_people_finder',
        name,
        key,
        value: draft.maxResults === null ? { roles } : { roles, max_results: draft.maxResults },
      };
    }
    case 'reverse_email_lookup':
      return { kind: 'reverse_email_lookup', name, key, email_column_key: draft.emailColumnKey.trim() };
    case 'discovery_scores':
    case 'company_name':
    case 'company_website':
    case 'company_profile':
      return { ...extraFields(draft), kind: draft.kind, name, key };
  }
}

/** The configs of the included drafts, in order. */
export function buildConfigs(drafts: readonly ColumnDraft[]): BuiltConfigs {
  const configs: ColumnConfig[] = [];
  const rows: number[] = [];
  drafts.forEach((draft, row) => {
    if (!draft.include) return;
    configs.push(buildConfig(draft));
    rows.push(row);
  });
  return { configs, rows };
}
