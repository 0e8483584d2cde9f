// A store's view whose every read is fresh: for code that checks, in the middle of its work, what another execution
// may have changed meanwhile (a job the user cancelled from another panel).
import type { KeyValueStore } from '../../ports';

export function freshReads(store: KeyValueStore): KeyValueStore {
  return {
    get: (key) => store.fresh(key),
    fresh: (key) => store.fresh(key),
    set: (key, value) => store.set(key, value),
    setAll: (values) => store.setAll(values),
    remove: (key) => store.remove(key),
  };
}
