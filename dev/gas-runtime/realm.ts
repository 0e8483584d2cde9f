// The vm realm of one execution: a fresh `vm` context (Apps Script re-runs top-level code on every
// execution, so no global state survives between executions), a `Date` that reads the runtime clock,
// and the value bridge between host and context. Values handed to the bundle are built with the
// context's own constructors so `instanceof Array/Object/Date/Error` hold inside the bundle; values
// coming back are deep-copied into plain host values. Service objects ("facades") are context objects
// whose methods are host functions routed through one invoker (service-call accounting lives there).
import vm from 'node:vm';
import { GasError, Msg } from './errors';

interface ContextHelpers {
  array(): unknown[];
  object(): Record<string, unknown>;
  create(proto: object): Record<string, unknown>;
  date(ms: number): Date;
  exception(name: string, message: string): Error;
}

const HELPERS_SOURCE = `(function (now, cpu) {
  'use strict';
  // CPU the cost model charges (costs.ts, CPU): JSON by the text it reads or writes, and typed arrays by the bytes
  // they allocate (in the bundle only the first domain's unpacking of the packed tables allocates them).
  var parse = JSON.parse, stringify = JSON.stringify;
  Object.defineProperty(JSON, 'parse', { writable: true, configurable: true, value: function parse_(text, reviver) {
    var result = arguments.length > 1 ? parse(text, reviver) : parse(text);
    cpu('json', String(text).length);
    return result;
  } });
  Object.defineProperty(JSON, 'stringify', { writable: true, configurable: true, value: function stringify_() {
    var result = stringify.apply(JSON, arguments);
    if (typeof result === 'string') cpu('json', result.length);
    return result;
  } });
  ['Uint8Array', 'Uint16Array', 'Uint32Array', 'Int32Array'].forEach(function (name) {
    var Typed = globalThis[name];
    var counted = new Proxy(Typed, {
      construct: function (target, args, newTarget) {
        var array = Reflect.construct(target, args, newTarget === counted ? target : newTarget);
        cpu('unpack', array.byteLength);
        return array;
      }
    });
    Object.defineProperty(globalThis, name, { value: counted, writable: true, configurable: true });
  });
  var NativeDate = Date;
  function clockNow() { return now(); }
  var ClockDate = new Proxy(NativeDate, {
    construct: function (target, args, newTarget) {
      return Reflect.construct(target, args.length === 0 ? [now()] : args, newTarget);
    },
    apply: function () { return new NativeDate(now()).toString(); },
    get: function (target, prop) { return prop === 'now' ? clockNow : target[prop]; }
  });
  Object.defineProperty(NativeDate.prototype, 'constructor', { value: ClockDate, writable: true, configurable: true });
  Object.defineProperty(globalThis, 'Date', { value: ClockDate, writable: true, configurable: true });
  class Exception extends Error {}
  Object.defineProperty(Exception.prototype, 'name', { value: 'Exception', writable: true, configurable: true });
  return {
    array: function () { return []; },
    object: function () { return {}; },
    create: function (proto) { return Object.create(proto); },
    date: function (ms) { return new NativeDate(ms); },
    exception: function (name, message) {
      var e = name === 'Exception' ? new Exception(message) : new Error(message);
      if (name !== 'Exception') e.name = name;
      return e;
    }
  };
})`;

const HELPERS_SCRIPT = new vm.Script(HELPERS_SOURCE, { filename: 'gas-runtime-realm.js' });

const isDateTag = (value: object) => Object.prototype.toString.call(value) === '[object Date]';

/** How values leave the context: `copy` keeps Dates; `rpc` follows google.script.run (Dates become null). */
export type ExportMode = 'copy' | 'rpc';

/** CPU work of the bundle the realm sees: JSON text (characters) and typed-array allocations (bytes). */
export type CpuMeter = (kind: CpuKind, amount: number) => void;
export type CpuKind = 'json' | 'unpack';

export type ServiceInvoker = (service: string, method: string, call: () => unknown) => unknown;

export class Realm {
  readonly context: vm.Context;
  private readonly helpers: ContextHelpers;

  /**
   * `codeFromStrings`: whether `eval` and `new Function` may build code in the context; `cpu` is told of the work the
   * cost model charges as CPU (JSON text, typed-array bytes).
   */
  constructor(now: () => number, codeFromStrings = true, cpu: CpuMeter = () => undefined) {
    this.context = vm.createContext(
      {},
      {
        name: 'gas-execution',
        microtaskMode: 'afterEvaluate',
        codeGeneration: { strings: codeFromStrings, wasm: false },
      },
    );
    const factory = HELPERS_SCRIPT.runInContext(this.context) as (now: () => number, cpu: CpuMeter) => ContextHelpers;
    this.helpers = factory(now, cpu);
  }

  /** The context's global object (where the bundle's top-level functions live). */
  get global(): Record<string, unknown> {
    return this.context as Record<string, unknown>;
  }

  array<T = unknown>(items: Iterable<T> = []): T[] {
    const out = this.helpers.array() as T[];
    for (const item of items) out.push(item);
    return out;
  }

  object(): Record<string, unknown> {
    return this.helpers.object();
  }

  create(proto: object): Record<string, unknown> {
    return this.helpers.create(proto);
  }

  date(ms: number): Date {
    return this.helpers.date(ms);
  }

  /** An error of the context realm, named like Apps Script's service errors. */
  exception(message: string, name = 'Exception'): Error {
    return this.helpers.exception(name, message);
  }

  /** Deep-copies a host value into the context (host arrays, plain objects and Dates are rebuilt). */
  import(value: unknown): unknown {
    if (value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) {
      if (Object.getPrototypeOf(value) !== Array.prototype) return value;
      const out = this.helpers.array();
      for (const item of value) out.push(this.import(item));
      return out;
    }
    if (value instanceof Date) return this.helpers.date(value.getTime());
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) return value;
    const out = this.helpers.object();
    for (const [key, item] of Object.entries(value)) out[key] = this.import(item);
    return out;
  }

  /** Deep-copies a context value out to plain host values. */
  export(value: unknown, mode: ExportMode = 'copy'): unknown {
    return exportValue(value, mode, new Set<object>());
  }

  /** Rejects arguments google.script.run cannot carry (Dates, functions), as the client library does. */
  static assertRpcArguments(args: readonly unknown[]): void {
    const visit = (value: unknown, path: string, seen: Set<object>): void => {
      if (typeof value === 'function') throw new GasError(Msg.illegalRpcValue(path));
      if (value === null || typeof value !== 'object') return;
      if (isDateTag(value)) throw new GasError(Msg.illegalRpcValue(path));
      if (seen.has(value)) throw new GasError(Msg.illegalRpcValue(path));
      seen.add(value);
      for (const [key, item] of Object.entries(value)) visit(item, `${path}.${key}`, seen);
      seen.delete(value);
    };
    args.forEach((arg, index) => visit(arg, String(index), new Set()));
  }

  /** Evaluates source text inside the context. */
  run(source: string): unknown {
    return vm.runInContext(source, this.context);
  }
}

function exportValue(value: unknown, mode: ExportMode, seen: Set<object>): unknown {
  if (typeof value === 'function') return undefined;
  if (value === null || typeof value !== 'object') return value;
  if (isDateTag(value)) return mode === 'rpc' ? null : new Date((value as Date).getTime());
  if (seen.has(value)) throw new GasError('Converting circular structure');
  seen.add(value);
  try {
    if (Array.isArray(value)) {
      return value.map((item) => {
        const out = exportValue(item, mode, seen);
        return mode === 'rpc' && out === undefined ? null : out;
      });
    }
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const copied = exportValue(item, mode, seen);
      if (copied !== undefined || mode === 'copy') out[key] = copied;
    }
    return out;
  } finally {
    seen.delete(value);
  }
}

/**
 * A class of service objects handed to the bundle. Each instance is a context object whose prototype
 * holds one wrapper per method; the wrapper finds the host implementation and calls it through the
 * execution's invoker, so every method call is one counted, time-checked, permission-checked service call.
 */
export class FacadeClass<T extends object> {
  private readonly proto: Record<string, unknown>;
  private readonly impls = new WeakMap<object, T>();

  constructor(
    private readonly realm: Realm,
    invoker: ServiceInvoker,
    readonly className: string,
    methods: { [name: string]: (this: T, ...args: never[]) => unknown },
  ) {
    this.proto = realm.object();
    const impls = this.impls;
    for (const [name, method] of Object.entries(methods)) {
      this.proto[name] = function (this: object, ...args: unknown[]) {
        const impl = impls.get(this);
        if (!impl) throw realm.exception(`${className}.${name} called on an incompatible object`, 'TypeError');
        return invoker(className, name, () => (method as (...a: unknown[]) => unknown).apply(impl, args));
      };
    }
    Object.defineProperty(this.proto, 'toString', { value: () => className, enumerable: false });
  }

  /** A new context object backed by `impl`, with optional data properties (enums). */
  wrap(impl: T, data?: Record<string, unknown>): Record<string, unknown> {
    const facade = this.realm.create(this.proto);
    this.impls.set(facade, impl);
    if (data) Object.assign(facade, data);
    return facade;
  }

  /** The host implementation behind a facade of this class, if it is one. */
  unwrap(facade: unknown): T | undefined {
    return facade !== null && typeof facade === 'object' ? this.impls.get(facade) : undefined;
  }
}

/** An Apps Script enum: named context objects that print as their name and compare by identity. */
export function makeEnum(realm: Realm, names: readonly string[]): Record<string, unknown> {
  const holder = realm.object();
  names.forEach((name, ordinal) => {
    const member = realm.object();
    Object.defineProperty(member, 'toString', { value: () => name, enumerable: false });
    Object.defineProperty(member, 'toJSON', { value: () => name, enumerable: false });
    Object.defineProperty(member, 'name', { value: () => name, enumerable: false });
    Object.defineProperty(member, 'ordinal', { value: () => ordinal, enumerable: false });
    holder[name] = member;
  });
  return holder;
}

/** The name of an enum member created by `makeEnum`, or the string itself. */
export function enumName(value: unknown): string {
  return String(value);
}
