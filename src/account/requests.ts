// The shapes of what the Settings panel sends (see src/shared/request-check.ts).
import { ACCOUNT_KINDS } from '../platform/request-budget';
import { flag, oneOfValues, record, text } from '../shared/request-check';

export const TOKEN_INPUT = record({ token: text, baseUrl: text }, ['baseUrl']);
export const SHARING = flag;
export const ACCOUNT_KIND = oneOfValues(Object.keys(ACCOUNT_KINDS));
