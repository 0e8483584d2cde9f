// What the Research panel and the server exchange, and the pure checks both run (sidebar/ imports only this file and
// src/api/types from src/): the panel's DTOs, the brief template, depths and their cost, the output fields, and how a
// launch's output is resolved.
import type { TaskReport } from '../api/types';

export type {
  HistoryItemDto,
  ResearchContextDto,
  ResearchStatusDto,
  SpendingGuardDto,
  WriteToRowResponse,
} from './endpoints';
export { briefLength, parseTemplate, renderBrief, BRIEF_MAX_LENGTH } from './brief-template';
export { DEPTHS, depthDetail, depthLabel, estimateCredits, estimateMessage, reservationFor } from './depth';
export {
  FIELD_TYPES,
  isEvidenced,
  parsePastedSchema,
  schemaFields,
  type FieldSpec,
  type FieldType,
} from './output-schema';
export { outputClashes, resolveOutput, type OutputRequest } from './launch-request';

/** The report the panel shows for a row or a task. */
export interface ReportDto {
  found: boolean;
  message: string | null;
  row: number | null;
  taskId: string | null;
  status: string | null;
  brief: string | null;
  report: TaskReport | null;
  error: string | null;
  detached: boolean;
}

/** A report answer that found nothing (the panel's fallback too). */
export const NO_REPORT: ReportDto = {
  found: false,
  message: null,
  row: null,
  taskId: null,
  status: null,
  brief: null,
  report: null,
  error: null,
  detached: false,
};
