// PropertiesService: script, user (one store per user) and document property stores with Google's
// limits (a value of at most 8,066 bytes, 500 KB per store, the executing user's daily quota of reads and writes: each
// Properties method call counts one), string-only values, and the custom-function rule that getUserProperties()
// returns the spreadsheet owner's store. Each call is charged the bytes it moves on top of its fixed cost (costs.ts,
// PROPERTIES).
import { GasError, Msg } from '../errors';
import { propertyDataCost } from '../costs';
import type { ServiceContext } from '../state';

/**
 * The largest value a property takes. Google's quota page says "9 KB / val"; the one public measurement found values
 * of 8,066 bytes taken and larger ones refused (Kanshi Tanaike, "Report: Specification of Properties Service for
 * Google Apps Script", 2023-05-22, https://tanaikech.github.io/2023/05/22/report-specification-of-properties-service-for-google-apps-script/),
 * so the emulator holds the add-in to the measured figure.
 */
export const PROPERTY_VALUE_LIMIT_BYTES = 8066;
export const PROPERTY_STORE_LIMIT_BYTES = 500 * 1024;

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');
const kb = (texts: readonly string[]) => texts.reduce((sum, text) => sum + bytes(text), 0) / 1024;

/** A property store; also the host-side inspection API (`runtime.properties.script.get('k')`). */
export class PropertyStore {
  private readonly values = new Map<string, string>();

  get(key: string): string | null {
    return this.values.get(key) ?? null;
  }

  set(key: string, value: string): void {
    this.setMany({ [key]: value }, false);
  }

  delete(key: string): void {
    this.values.delete(key);
  }

  clear(): void {
    this.values.clear();
  }

  keys(): string[] {
    return [...this.values.keys()];
  }

  all(): Record<string, string> {
    return Object.fromEntries(this.values);
  }

  /** Bytes used (keys plus values, UTF-8). */
  size(): number {
    let total = 0;
    for (const [k, v] of this.values) total += bytes(k) + bytes(v);
    return total;
  }

  /** Sets several values at once; all-or-nothing against the limits. */
  setMany(entries: Record<string, string>, deleteAllOthers: boolean): void {
    const next = new Map(deleteAllOthers ? [] : this.values);
    for (const [key, value] of Object.entries(entries)) {
      if (bytes(value) > PROPERTY_VALUE_LIMIT_BYTES) throw new GasError(Msg.argumentTooLarge('value'));
      next.set(key, value);
    }
    let total = 0;
    for (const [k, v] of next) total += bytes(k) + bytes(v);
    if (total > PROPERTY_STORE_LIMIT_BYTES) throw new GasError(Msg.propertyQuota);
    this.values.clear();
    for (const [k, v] of next) this.values.set(k, v);
  }
}

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
