// KeyValueStore over an Apps Script Properties store (script, user or document properties). Values are strings;
// Apps Script limits them to 9 KB each and 500 KB per store, and counts every call against the user's daily quota of
// property reads and writes (50,000 for a consumer account). So the first read of an execution fetches the whole
// store in one call (getProperties) and later reads answer from it; writes go through at once and update it. `fresh`
// reads one value as stored now, for values other executions change while this one runs; `forget` drops what was
// read, so that the next read fetches the store again (the document lock's holder does so once it has the lock).
import type { KeyValueStore } from '../ports';

export interface PropertiesStore extends KeyValueStore {
  /** Drops what this execution read: the next read fetches the store as it is then. */
  forget(): void;
}

/** Wraps the given store, e.g. `PropertiesService.getDocumentProperties()`. */
export function createPropertiesStore(properties: GoogleAppsScript.Properties.Properties): PropertiesStore {
  let read: Record<string, string> | null = null;
  const known = () => (read ??= { ...properties.getProperties() });
  const note = (key: string, value: string | null) => {
    if (!read) return;
    if (value === null) delete read[key];
    else read[key] = value;
  };
  return {
    get: (key) => known()[key] ?? null,
    fresh: (key) => {
      const value = properties.getProperty(key);
      note(key, value);
      return value;
    },
    set: (key, value) => {
      properties.setProperty(key, value);
      note(key, value);
    },
    remove: (key) => {
      properties.deleteProperty(key);
      note(key, null);
    },
    forget: () => {
      read = null;
    },
  };
}
