// LockPort over an Apps Script Lock (script, user or document lock from LockService). Taking the lock can drop what
// the execution read of the stores the lock guards, so that it reads them as the previous holder left them.

import type { LockPort } from '../ports';

/**
 * Wraps the given lock, e.g. `LockService.getDocumentLock()`; `guarded` are the stores it guards (what this execution
 * read of them is dropped when it takes the lock).
 */
export function createLockPort(
  lock: Pick<GoogleAppsScript.Lock.Lock, 'tryLock' | 'hasLock' | 'releaseLock'>,
  guarded: ReadonlyArray<{ forget(): void }> = [],
): LockPort {
  return {
    tryLock: (timeoutMs) => {
      const taken = lock.tryLock(Math.max(0, Math.floor(timeoutMs)));
      if (taken) for (const store of guarded) store.forget();
      return taken;
    },
    release: () => {
      // Releasing a lock this execution does not hold is a no-op, so callers can release in `finally`.
      if (lock.hasLock()) lock.releaseLock();
    },
  };
}
