// Public API of the Apps Script runtime emulator, shared by tests, benchmarks and the playground:
// create a runtime over the built bundle and a spreadsheet (or a project with several documents), run globals as
// executions of a given kind, fire triggers, simulate opening the file and typing into cells, and read counters and logs.
import { GasProject as Project, type ProjectOptions } from './project';
import { GasRuntime, type RuntimeOptions } from './runtime';

export { GasRuntime } from './runtime';
/** A project whose documents are GasRuntimes. */
export type GasProject = Project<GasRuntime>;
export type { DocumentOptions, Manifest, ProjectOptions, TriggerFireResult } from './project';
export type { Behaviours } from './state/behaviours';
export { DEFAULT_BEHAVIOURS } from './state/behaviours';
export { DAILY_QUOTAS } from './quotas';
export type { QuotaLevel, QuotaUsage } from './quotas';
export type { RunOptions, RuntimeOptions } from './runtime';
export { createManualClock, createRealClock } from './clock';
export type { Clock, ManualClock } from './clock';
export { GasExecutionError } from './errors';
export type { AuthMode, ExecutionKind, ServiceCallInfo } from './execution';
export type { Counters, HttpLogEntry, Limits, LogEntry } from './state/env';
export { DEFAULT_LIMITS } from './state/env';
export { SpreadsheetModel, SheetModel } from './spreadsheet/model';
export type { Cell, DeveloperMetadataRecord, RichTextData, SpreadsheetModelOptions } from './spreadsheet/model';
export type { CellValue } from './spreadsheet/values';
export type {
  AlertInfo,
  DialogInfo,
  MenuInfo,
  MenuItemInfo,
  SidebarInfo,
  ToastInfo,
  UiQuestion,
  UiRecords,
  UiResponse,
} from './state/ui-records';
export type { PropertyStore } from './state/property-store';
export type { CacheStore } from './state/cache-store';
export type { TriggerInfo } from './state/trigger-registry';

/**
 * Creates an emulated Apps Script project whose documents share script and user stores, triggers and quotas; add
 * each document with `project.addDocument({ spreadsheet })`.
 */
export function createProject(options: ProjectOptions = {}): GasProject {
  return new Project<GasRuntime>(
    options,
    (project, shared, spreadsheet) => new GasRuntime(project, shared, spreadsheet),
  );
}

/** Creates an emulated Apps Script runtime: a project with one document (see README.md for the model and its known differences). */
export function createRuntime(options: RuntimeOptions = {}): GasRuntime {
  return createProject(options).addDocument({ spreadsheet: options.spreadsheet });
}
