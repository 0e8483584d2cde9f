// What the Research panel and the server exchange, and the pure checks both run (sidebar/ imports only this file and
// src/api/types from src/): the panel's DTOs, the brief template, depths and their cost, the output fields, and how a
// launch's output is resolved.
export type {
  HistoryItemDto,
  ReportDto,
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
