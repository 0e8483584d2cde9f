// KeyValueStore over an Apps Script Properties store (script, user or document properties).
// Values are strings; Apps Script limits them to 9 KB each and 500 KB per store.

import type { KeyValueStore } from '../ports';

/** Wraps the given store, e.g. `PropertiesService.getDocumentProperties()`. */
export function createPropertiesStore(properties: GoogleAppsScript.Properties.Properties): KeyValueStore {
  return {
    get: (key) => properties.getProperty(key),
    set: (key, value) => {
      properties.setProperty(key, value);
    },
    remove: (key) => {
      properties.deleteProperty(key);
    },
  };
}
