// Server functions of Settings > Spending (called via google.script.run): the spending history and its export.
import { checkedRequest } from '../shared/request-check';
import type { SpendingExportAnswer, SpendingExportRequest, SpendingHistoryDto } from './contract';
import { EXPORT_REQUEST } from './requests';
import { exportHistory, historyDto } from './service';

export function getSpendingHistory(): SpendingHistoryDto {
  return historyDto();
}

export function exportSpendingHistory(request: SpendingExportRequest): SpendingExportAnswer {
  return exportHistory(checkedRequest<SpendingExportRequest>(EXPORT_REQUEST, request, 'export'));
}
