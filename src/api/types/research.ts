// Wire types of research tasks (interface 2.1-2.3, 3, 4.1-4.3; addendum "Paths the interface leaves out"): the
// task, its reports and sources, and the create and list requests.

export type TaskStatus = 'created' | 'in_progress' | 'done' | 'failed';

/** Research depth; the budget is 5 / 15 / 25 agents at 2 credits each (interface section 8). */
export type TaskDepth = 'medium' | 'high' | 'xhigh';

/** A JSON Schema object with `type` = `object` (interface 4.1 and 8 give the limits). */
export interface JsonSchemaObject {
  type: 'object';
  [keyword: string]: unknown;
}

export interface TaskOwner {
  id: string;
  email: string;
}

/** A cited source of a markdown report; `[n]` in the markdown refers to `id` n. */
export interface Source {
  id: number;
  url: string;
}

/**
 * A schema-report value whose schema opted in to provenance: the value, the URLs it came from and
 * the reasoning. It appears inside `SchemaReport.fields` where the output schema asked for it.
 */
export interface Evidenced<T = unknown> {
  value: T;
  sources: string[];
  reasoning: string;
}

export interface MarkdownReport {
  kind: 'markdown';
  markdown: string;
  sources: Source[];
  /** Empty for a clean run (the parser fills the default). */
  degradation_reasons: string[];
}

export interface SchemaReport {
  kind: 'schema';
  /** Values conforming to the task's `output_schema`; some may be `Evidenced` wrappers. */
  fields: Record<string, unknown>;
  degradation_reasons: string[];
}

export type TaskReport = MarkdownReport | SchemaReport;

export interface ResearchTask {
  id: string;
  created_at: string;
  updated_at: string;
  status: TaskStatus;
  brief: string;
  depth: TaskDepth;
  output_schema?: JsonSchemaObject | null;
  /** Set when `status` is `failed`. */
  failure_reason?: string | null;
  /** Research analysis steps completed so far. */
  iterations: number;
  /** Research agents completed so far (2 credits each). */
  agents: number;
  /** Unique sources collected so far. */
  sources: number;
  /** Null until `status` is `done`. */
  report?: TaskReport | null;
  owner: TaskOwner;
}

/** Body of `POST /v1/deep_research_tasks`. */
export interface CreateTaskRequest {
  /** 1 to 20,000 characters. */
  brief: string;
  /** Server default: `medium`. */
  depth?: TaskDepth;
  /** When present the report is a schema report, otherwise markdown. */
  output_schema?: JsonSchemaObject | null;
}

/** Query of `GET /v1/deep_research_tasks` (newest first; server default limit 50). */
export interface ListTasksQuery {
  offset?: number;
  limit?: number;
}
