// Public API of the Apps Script runtime emulator, shared by tests, benchmarks and the playground:
// create a runtime over the built bundle and a spreadsheet (or a project with several documents), run globals as
// executions of a given kind, fire triggers, simulate opening the file and typing into cells, and read counters and logs.
import { GasProject, ProjectOptions } from './project';
import { GasRuntime, RuntimeOptions } from './runtime';

export { GasRuntime } from './runtime';
export { GasProject } from './project';
export type { Behaviours, DocumentOptions, Manifest, ProjectOptions } from './project';
export { DEFAULT_BEHAVIOURS } from './project';
export { DAILY_QUOTAS } from './quotas';
export type { QuotaLevel, QuotaUsage } from './quotas';
export type { RunOptions, RuntimeOptions, TriggerFireResult } from './runtime';
export { createManualClock, createRealClock } from './clock';
export type { Clock, ManualClock } from './clock';
export { GasExecutionError } from './errors';
export type { AuthMode, ExecutionKind, ServiceCallInfo } from './execution';
export type { Counters, HttpLogEntry, Limits, LogEntry } from './state';
export { DEFAULT_LIMITS } from './state';
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
} from './spreadsheet/ui';
export type { PropertyStore } from './services/properties';
export type { CacheStore } from './services/cache';
export type { TriggerInfo } from './services/script-app';

/**
 * Creates an emulated Apps Script project whose documents share script and user stores, triggers and quotas; add
 * each document with `project.addDocument({ spreadsheet })`.
 */
export function createProject(options: ProjectOptions = {}): GasProject {
  return new GasProject(options, (project, shared, spreadsheet) => new GasRuntime(project, shared, spreadsheet));
}

/** Creates an emulated Apps Script runtime: a project with one document (see README.md for the model and its known differences). */
export function createRuntime(options: RuntimeOptions = {}): GasRuntime {
  return createProject(options).addDocument({ spreadsheet: options.spreadsheet });
}
