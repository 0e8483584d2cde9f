import { ensurePollTrigger, recordTick, removePollTrigger, STALE_AFTER_MS, TICK_HANDLER, type TriggerDeps, type TriggerPort } from '../../../src/research/trigger';
import type { KeyValueStore } from '../../../src/ports';
import { FakeClock } from './fakes';

class Triggers implements TriggerPort {
  all: Array<{ id: string; handler: string; owner: string }> = [];
  constructor(public user: string) {}
  list(handler: string): string[] {
    return this.all.filter((t) => t.handler === handler && t.owner === this.user).map((t) => t.id);
  }
  create(handler: string): string {
    const id = `t${this.all.length + 1}`;
    this.all.push({ id, handler, owner: this.user });
    return id;
  }
  remove(id: string): void {
    this.all = this.all.filter((t) => t.id !== id);
  }
}

class Store implements KeyValueStore {
  map = new Map<string, string>();
  get(key: string) {
    return this.map.get(key) ?? null;
  }
  set(key: string, value: string) {
    this.map.set(key, value);
  }
  remove(key: string) {
    this.map.delete(key);
  }
}

describe('poll trigger', () => {
  const clock = new FakeClock();
  const document = new Store();
  const triggers = new Triggers('a@example.com');
  const deps = (user: string): TriggerDeps => {
    triggers.user = user;
    return { triggers, document, clock, user, cadence: 'hourly' };
  };

  it('is created once and never duplicated', () => {
    expect(ensurePollTrigger(deps('a@example.com'))).toBe('created');
    expect(ensurePollTrigger(deps('a@example.com'))).toBe('exists');
    expect(triggers.all.filter((t) => t.handler === TICK_HANDLER)).toHaveLength(1);
  });

  it('another user relies on the first user\'s trigger until its polls go stale', () => {
    expect(ensurePollTrigger(deps('b@example.com'))).toBe('other_user');
    clock.sleep(STALE_AFTER_MS - 1000);
    recordTick(deps('a@example.com'));
    clock.sleep(STALE_AFTER_MS - 1000);
    expect(ensurePollTrigger(deps('b@example.com'))).toBe('other_user');
    clock.sleep(2000);
    expect(ensurePollTrigger(deps('b@example.com'))).toBe('created');
  });

  it('removes extras and is removed when nothing is pending', () => {
    triggers.all.push({ id: 'dup', handler: TICK_HANDLER, owner: 'b@example.com' });
    expect(ensurePollTrigger(deps('b@example.com'))).toBe('exists');
    expect(triggers.list(TICK_HANDLER)).toHaveLength(1);
    expect(removePollTrigger(deps('b@example.com'))).toBe(1);
    expect(document.get('sheetscout.research.trigger')).toBeNull();
  });
});
