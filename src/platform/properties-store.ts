// KeyValueStore over an Apps Script Properties store (script, user or document properties). Values are strings;
// Apps Script limits them to 9 KB each and 500 KB per store, and counts every call against the user's daily quota of
// property reads and writes (50,000 for a consumer account). So the first read of an execution fetches the whole
// store in one call (getProperties) and later reads answer from it; writes go through at once and update it. `fresh`
// reads one value as stored now, for values other executions change while this one runs; `forget` drops what was
// read, so that the next read fetches the store again (the document lock's holder does so once it has the lock).
// A write the document store's 500 KB cannot take is refused with a message that says what is full (not Google's).
import type { SizedStore } from '../ports';
import { utf8Bytes } from '../shared/storage/chunked-store';

/** Google's limit per property store (keys and values, UTF-8). */
export const PROPERTY_STORE_BYTES = 500 * 1024;

export const DOCUMENT_STORE_FULL_MESSAGE =
  "Sheet Scout's storage in this spreadsheet is full (Google allows 500 KB of document properties), so this was not saved";

export interface PropertiesStore extends SizedStore {
  /** Drops what this execution read: the next read fetches the store as it is then. */
  forget(): void;
}

/**
 * Wraps the given store, e.g. `PropertiesService.getDocumentProperties()`; `fullMessage` replaces Google's error when
 * a write finds the store full.
 */
export function createPropertiesStore(
  properties: GoogleAppsScript.Properties.Properties,
  fullMessage?: string,
): PropertiesStore {
  let read: Record<string, string> | null = null;
  const known = () => (read ??= { ...properties.getProperties() });
  const note = (key: string, value: string | null) => {
    if (!read) return;
    if (value === null) delete read[key];
    else read[key] = value;
  };
  const bytesUnder = (prefix: string) => {
    let used = 0;
    for (const [key, value] of Object.entries(known()))
      if (key.startsWith(prefix)) used += utf8Bytes(key) + utf8Bytes(value);
    return used;
  };
  const written = (write: () => void) => {
    try {
      write();
    } catch (error) {
      if (fullMessage && /property storage quota/i.test(String(error))) throw new Error(fullMessage, { cause: error });
      throw error;
    }
  };
  return {
    get: (key) => known()[key] ?? null,
    fresh: (key) => {
      const value = properties.getProperty(key);
      note(key, value);
      return value;
    },
    set: (key, value) => {
      written(() => properties.setProperty(key, value));
      note(key, value);
    },
    setAll: (values) => {
      written(() => properties.setProperties(values));
      for (const [key, value] of Object.entries(values)) note(key, value);
    },
    remove: (key) => {
      properties.deleteProperty(key);
      note(key, null);
    },
    forget: () => {
      read = null;
    },
    bytesFree: () => PROPERTY_STORE_BYTES - bytesUnder(''),
    bytesUnder,
  };
}
