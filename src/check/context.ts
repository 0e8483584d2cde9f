// Builds the installation check's ports for one execution from the app context: the user's properties, the clock,
// fetch, the connection the probes call, the day's request budget, and the document's timer (its next run is the
// timer probe).
import { appContext } from '../platform/app-context';
import { appsScriptTimer } from '../scheduler/adapters/triggers';
import { ensureTimer } from '../scheduler/timer';
import { TimerUnavailable } from '../scheduler/timer-unavailable';
import { userConnection } from '../shared/connection';
import type { CheckPorts } from './service';

export function checkContext(): CheckPorts {
  const context = appContext();
  return {
    user: context.stores.user,
    clock: context.clock,
    http: context.http,
    connection: () => userConnection(context.stores),
    reserve: (count) => context.requestBudget.reserveAhead(count),
    release: () => context.requestBudget.releaseAhead(),
    armTimer: () => {
      try {
        ensureTimer(appsScriptTimer(context.documentStore(), context.stores.user, context.clock));
        return null;
      } catch (error) {
        if (error instanceof TimerUnavailable) return error.message;
        throw error;
      }
    },
  };
}
