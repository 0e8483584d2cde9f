// The enrichment job's continuation trigger over ScriptApp: at most one pending one-off time trigger per handler.
import type { TriggerPort } from './ports';

export function appsScriptTriggers(): TriggerPort {
  const cancelAll = (handler: string): void => {
    for (const trigger of ScriptApp.getProjectTriggers()) {
      if (trigger.getHandlerFunction() === handler) ScriptApp.deleteTrigger(trigger);
    }
  };
  return {
    cancelAll,
    scheduleOnly: (handler: string, afterMs: number) => {
      cancelAll(handler);
      ScriptApp.newTrigger(handler).timeBased().after(Math.max(1, Math.round(afterMs))).create();
    },
  };
}
