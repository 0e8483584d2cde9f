// PropertiesService: script, user (one store per user) and document property stores (each a PropertyStore,
// state/property-store.ts, which holds Google's size limits), the executing user's daily quota of reads and writes
// (each Properties method call counts one), string-only values, and the custom-function rule that getUserProperties()
// returns the spreadsheet owner's store. Each call is charged the bytes it moves on top of its fixed cost (costs.ts,
// PROPERTIES).
import { GasError, Msg } from '../errors';
import { propertyDataCost } from '../costs';
import type { ServiceContext } from '../state/env';
import type { PropertyStore } from '../state/property-store';

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');
const kb = (texts: readonly string[]) => texts.reduce((sum, text) => sum + bytes(text), 0) / 1024;

const asString = (value: unknown) => String(value);

interface PropertiesImpl {
  store: PropertyStore;
  /** Writes refused (custom function run by someone other than the owner, on user properties). */
  readOnly: boolean;
  facade?: Record<string, unknown>;
}

export function createPropertiesService({ env, exec }: ServiceContext): Record<string, unknown> {
  const guardWrite = (impl: PropertiesImpl, method: string) => {
    if (impl.readOnly) throw new GasError(Msg.noPermission(method));
  };
  /** Every Properties method call is one read or write of the executing user's daily quota. */
  const count = () => env.quotas.take(exec.user, 'properties', 1, env.limits.propertyOpsPerDay, Msg.propertiesQuota);
  /** What a call moved, on top of its fixed cost (costs.ts, PROPERTIES). */
  const moved = (read: readonly string[], written: readonly string[]) =>
    exec.charge(propertyDataCost(kb(read), kb(written)), 'properties.data');
  const Properties = exec.define<PropertiesImpl>('Properties', {
    getProperty(key: string) {
      count();
      const value = this.store.get(asString(key));
      moved([value ?? ''], []);
      return value;
    },
    getProperties() {
      count();
      const all = this.store.all();
      moved([...Object.keys(all), ...Object.values(all)], []);
      return all;
    },
    getKeys() {
      count();
      const keys = this.store.keys();
      moved(keys, []);
      return keys;
    },
    setProperty(key: string, value: unknown) {
      count();
      guardWrite(this, 'setProperty');
      this.store.set(asString(key), asString(value));
      moved([], [asString(key), asString(value)]);
      return this.facade;
    },
    setProperties(values: Record<string, unknown>, deleteAllOthers?: boolean) {
      count();
      guardWrite(this, 'setProperties');
      const entries: Record<string, string> = {};
      for (const [k, v] of Object.entries(values ?? {})) entries[k] = asString(v);
      this.store.setMany(entries, deleteAllOthers === true);
      moved([], Object.entries(entries).flat());
      return this.facade;
    },
    deleteProperty(key: string) {
      count();
      guardWrite(this, 'deleteProperty');
      this.store.delete(asString(key));
      return this.facade;
    },
    deleteAllProperties() {
      count();
      guardWrite(this, 'deleteAllProperties');
      this.store.clear();
      return this.facade;
    },
  });
  const wrap = (store: PropertyStore, readOnly = false) => {
    const impl: PropertiesImpl = { store, readOnly };
    impl.facade = Properties.wrap(impl);
    return impl.facade;
  };
  const Service = exec.define<object>('PropertiesService', {
    getScriptProperties() {
      exec.require('properties', 'PropertiesService', 'getScriptProperties');
      return wrap(env.properties.script);
    },
    getDocumentProperties() {
      exec.require('properties', 'PropertiesService', 'getDocumentProperties');
      return exec.documentless ? null : wrap(env.properties.document);
    },
    getUserProperties() {
      exec.require('properties', 'PropertiesService', 'getUserProperties');
      if (exec.authMode === 'CUSTOM_FUNCTION') return wrap(env.properties.user(env.owner), exec.user !== env.owner);
      return wrap(env.properties.user(exec.user));
    },
  });
  return Service.wrap({});
}
