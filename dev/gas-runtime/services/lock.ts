// LockService: script, user and document locks with real mutual exclusion between executions of one
// runtime. Executions run on one thread, so a second execution can only meet a held lock when it runs
// nested inside the holder's service call (see README "Concurrency model"); the holder cannot release
// while the waiter blocks, so a contended tryLock/waitLock waits out its whole timeout — on a manual
// clock by advancing it, on the real clock by adding the wait to the execution's elapsed time — and
// then fails. Locks are released when their execution ends.
import { GasError, Msg } from '../errors';
import type { ServiceContext } from '../state/env';

export const lockKeys = {
  script: 'script',
  user: (email: string) => `user:${email}`,
  document: (spreadsheetId: string) => `document:${spreadsheetId}`,
};

export function createLockService({ env, exec }: ServiceContext): Record<string, unknown> {
  const acquire = (key: string, timeoutMs: number): boolean => {
    if (env.locks.tryAcquire(key, exec.id)) return true;
    exec.waited(Math.max(0, Number(timeoutMs) || 0), false);
    return env.locks.tryAcquire(key, exec.id);
  };
  const Lock = exec.define<{ key: string }>('Lock', {
    tryLock(timeoutInMillis: number) {
      return acquire(this.key, timeoutInMillis);
    },
    waitLock(timeoutInMillis: number) {
      if (!acquire(this.key, timeoutInMillis)) throw new GasError(Msg.lockTimeout);
    },
    hasLock() {
      return env.locks.holderOf(this.key) === exec.id;
    },
    releaseLock() {
      env.locks.release(this.key, exec.id);
    },
  });
  const Service = exec.define<object>('LockService', {
    getScriptLock() {
      return Lock.wrap({ key: lockKeys.script });
    },
    getUserLock() {
      return Lock.wrap({ key: lockKeys.user(exec.user) });
    },
    getDocumentLock() {
      return exec.documentless ? null : Lock.wrap({ key: lockKeys.document(env.spreadsheet.id) });
    },
  });
  return Service.wrap({});
}
