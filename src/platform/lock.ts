// LockPort over an Apps Script Lock (script, user or document lock from LockService).

import type { LockPort } from '../ports';

/** Wraps the given lock, e.g. `LockService.getDocumentLock()`. */
export function createLockPort(
  lock: Pick<GoogleAppsScript.Lock.Lock, 'tryLock' | 'hasLock' | 'releaseLock'>,
): LockPort {
  return {
    tryLock: (timeoutMs) => lock.tryLock(Math.max(0, Math.floor(timeoutMs))),
    release: () => {
      // Releasing a lock this execution does not hold is a no-op, so callers can release in `finally`.
      if (lock.hasLock()) lock.releaseLock();
    },
  };
}
