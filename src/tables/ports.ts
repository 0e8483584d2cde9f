// What the Tables feature works with: the two service operations it uses, the document's store and the clock.
import type { Result } from '../api/errors';
import type { ColumnRecord, CreateColumnsRequest, ReplaceTemplateRequest, Template } from '../api/types';
import type { ClockPort } from '../ports';
import type { RecordStores } from '../shared/storage/record-sheet';

/** The two service operations this feature uses (a subset of the service client). */
export interface TablesApi {
  createColumns(tableId: string, request: CreateColumnsRequest): Result<ColumnRecord[]>;
  replaceTemplate(templateId: string, request: ReplaceTemplateRequest): Result<Template>;
}

export interface OperationDeps {
  api: TablesApi;
  stores: RecordStores;
  clock: ClockPort;
}
