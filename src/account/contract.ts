// What the Settings panel and the credits badge exchange with the server (sidebar/ imports only this file and
// src/api/types from src/): the account state and the daily request budget.
export type { AccountState } from './service';
export type { AccountKind, BudgetStatus } from '../platform/request-budget';
