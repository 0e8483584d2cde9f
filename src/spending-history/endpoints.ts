// Server functions of Settings > Spending (called via google.script.run): the spending history and its export.
import { checkedRequest } from '../shared/request-check';
import { spendingHistoryContext } from './context';
import type { SpendingExportAnswer, SpendingExportRequest, SpendingHistoryDto } from './contract';
import { EXPORT_REQUEST } from './requests';
import { exportHistory, historyDto } from './service';

export function getSpendingHistory(): SpendingHistoryDto {
  return historyDto(spendingHistoryContext());
}

export function exportSpendingHistory(request: SpendingExportRequest): SpendingExportAnswer {
  const checked = checkedRequest<SpendingExportRequest>(EXPORT_REQUEST, request, 'export');
  return exportHistory(spendingHistoryContext(), checked);
}
