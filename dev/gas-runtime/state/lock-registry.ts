// Who holds which lock (script, user or document lock keys): the state LockService (services/lock.ts) takes and
// releases, shared by the executions of a project, and what the host holds as "another process".

/** Holder of a lock: an execution id, or a name for a lock held by the host (`runtime.locks.hold`). */
export type LockHolder = number | string;

export class LockRegistry {
  private readonly holders = new Map<string, LockHolder>();

  tryAcquire(key: string, holder: LockHolder): boolean {
    const current = this.holders.get(key);
    if (current !== undefined && current !== holder) return false;
    this.holders.set(key, holder);
    return true;
  }

  release(key: string, holder: LockHolder): void {
    if (this.holders.get(key) === holder) this.holders.delete(key);
  }

  releaseAll(holder: LockHolder): void {
    for (const [key, current] of this.holders) if (current === holder) this.holders.delete(key);
  }

  holderOf(key: string): LockHolder | undefined {
    return this.holders.get(key);
  }
}
