// One property store with Google's limits (a value of at most 8,066 bytes, 500 KB per store; string values): the
// state PropertiesService (services/properties.ts) reads and writes, shared by the executions of a project or a
// document, and the host's inspection API.
import { GasError, Msg } from '../errors';

/**
 * The largest value a property takes. Google's quota page says "9 KB / val"; the one public measurement found values
 * of 8,066 bytes taken and larger ones refused (Kanshi Tanaike, "Report: Specification of Properties Service for
 * Google Apps Script", 2023-05-22, https://tanaikech.github.io/2023/05/22/report-specification-of-properties-service-for-google-apps-script/),
 * so the emulator holds the add-in to the measured figure.
 */
export const PROPERTY_VALUE_LIMIT_BYTES = 8066;
export const PROPERTY_STORE_LIMIT_BYTES = 500 * 1024;

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

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
