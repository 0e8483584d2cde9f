// The small services: Session (user identity as each authorization mode reveals it), Utilities (sleep
// on the runtime clock, UUIDs, base64, digests and HMACs as signed bytes, formatDate in Java's
// SimpleDateFormat, formatString, blobs, CSV), Logger and console (recorded in the runtime's log).
import crypto from 'node:crypto';
import { format as nodeFormat } from 'node:util';
import { GasError, Msg } from '../errors';
import { enumName, FacadeClass, makeEnum } from '../realm';
import { MONTHS, zonedFields } from '../spreadsheet/values';
import type { LogEntry, ServiceContext } from '../state/env';
import { BlobImpl, blobFacadeClass, toByteArray, toSignedBytes } from './blob';

const MAX_SLEEP_MS = 300_000;

export function createSession({ env, exec }: ServiceContext): Record<string, unknown> {
  const User = exec.define<{ email: string }>('User', {
    getEmail() {
      return this.email;
    },
  });
  const Session = exec.define<object>('Session', {
    getActiveUser() {
      return User.wrap({ email: exec.activeUserEmail() });
    },
    getEffectiveUser() {
      return User.wrap({ email: exec.effectiveUserEmail() });
    },
    getActiveUserLocale() {
      return 'en';
    },
    getScriptTimeZone() {
      return env.timeZone;
    },
    getTimeZone() {
      return env.timeZone;
    },
    getTemporaryActiveUserKey() {
      return crypto.createHash('sha256').update(`${env.scriptId}:${exec.user}`).digest('base64url').slice(0, 40);
    },
  });
  return Session.wrap({});
}

/** Java SimpleDateFormat subset used by Utilities.formatDate. */
export function formatSimpleDate(epochMs: number, timeZone: string, pattern: string): string {
  const f = zonedFields(epochMs, timeZone);
  const days = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
  const offset = (withColon: boolean) => {
    const sign = f.offsetMinutes < 0 ? '-' : '+';
    const abs = Math.abs(f.offsetMinutes);
    const hh = String(Math.floor(abs / 60)).padStart(2, '0');
    const mm = String(abs % 60).padStart(2, '0');
    return `${sign}${hh}${withColon ? ':' : ''}${mm}`;
  };
  const pad = (n: number, width: number) => String(n).padStart(width, '0');
  return pattern.replace(
    /'([^']*)'|(y+|M+|d+|H+|h+|m+|s+|S+|a|E+|u+|z+|Z+|X+)/g,
    (_all, quoted: string | undefined, token: string | undefined) => {
      if (quoted !== undefined) return quoted === '' ? "'" : quoted;
      const t = token!;
      const n = t.length;
      switch (t[0]) {
        case 'y':
          return n === 2 ? pad(f.year % 100, 2) : pad(f.year, n);
        case 'M':
          return n >= 4 ? MONTHS[f.month - 1] : n === 3 ? MONTHS[f.month - 1].slice(0, 3) : pad(f.month, n);
        case 'd':
          return pad(f.day, n);
        case 'H':
          return pad(f.hour, n);
        case 'h':
          return pad(f.hour % 12 === 0 ? 12 : f.hour % 12, n);
        case 'm':
          return pad(f.minute, n);
        case 's':
          return pad(f.second, n);
        case 'S':
          return pad(f.millisecond, 3).slice(0, Math.max(n, 3));
        case 'a':
          return f.hour < 12 ? 'AM' : 'PM';
        case 'E':
          return n >= 4 ? days[f.weekday] : days[f.weekday].slice(0, 3);
        case 'u':
          // Day number of the week, 1 = Monday ... 7 = Sunday.
          return pad(f.weekday === 0 ? 7 : f.weekday, n);
        case 'z':
          return timeZone === 'UTC' || timeZone === 'Etc/UTC' || timeZone === 'GMT' ? 'UTC' : `GMT${offset(true)}`;
        case 'Z':
          return offset(false);
        default:
          return f.offsetMinutes === 0 ? 'Z' : offset(n >= 3);
      }
    },
  );
}

/** Java String.format subset (%s, %d, %f, %.Nf, %%). */
export function formatJavaString(template: string, args: unknown[]): string {
  let i = 0;
  return template.replace(/%(\.(\d+))?([sdf%])/g, (_all, _p, precision: string | undefined, conv: string) => {
    if (conv === '%') return '%';
    const value = args[i++];
    if (conv === 'd') return String(Math.trunc(Number(value)));
    if (conv === 'f') return Number(value).toFixed(precision === undefined ? 6 : Number(precision));
    return String(value);
  });
}

function parseCsv(text: string, delimiter: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let inQuotes = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inQuotes) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') inQuotes = false;
      else field += ch;
    } else if (ch === '"') inQuotes = true;
    else if (ch === delimiter) {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  if (field !== '' || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

const bytesOf = (value: unknown, charset?: unknown): Buffer => {
  if (Array.isArray(value)) return Buffer.from(toByteArray(value));
  const encoding = enumName(charset ?? 'UTF_8') === 'US_ASCII' ? 'ascii' : 'utf8';
  return Buffer.from(String(value), encoding);
};

const DIGESTS: Record<string, string> = {
  MD2: 'md2',
  MD5: 'md5',
  SHA_1: 'sha1',
  SHA_256: 'sha256',
  SHA_384: 'sha384',
  SHA_512: 'sha512',
};
const MACS: Record<string, string> = {
  HMAC_MD5: 'md5',
  HMAC_SHA_1: 'sha1',
  HMAC_SHA_256: 'sha256',
  HMAC_SHA_384: 'sha384',
  HMAC_SHA_512: 'sha512',
};

export function createUtilities({ env, exec }: ServiceContext): Record<string, unknown> {
  const { realm } = exec;
  const Blob = blobFacadeClass(exec);
  const Utilities = exec.define<object>('Utilities', {
    sleep(milliseconds: number) {
      const ms = Number(milliseconds);
      if (!(ms >= 0 && ms <= MAX_SLEEP_MS)) throw new GasError(Msg.sleepTooLong);
      env.clock.sleep(ms);
      exec.waited(ms, true);
    },
    getUuid() {
      return crypto.randomUUID();
    },
    base64Encode(data: unknown, charset?: unknown) {
      return bytesOf(data, charset).toString('base64');
    },
    base64EncodeWebSafe(data: unknown, charset?: unknown) {
      return bytesOf(data, charset).toString('base64').replace(/\+/g, '-').replace(/\//g, '_');
    },
    base64Decode(encoded: string) {
      return toSignedBytes(new Uint8Array(Buffer.from(String(encoded), 'base64')));
    },
    base64DecodeWebSafe(encoded: string) {
      return toSignedBytes(
        new Uint8Array(Buffer.from(String(encoded).replace(/-/g, '+').replace(/_/g, '/'), 'base64')),
      );
    },
    computeDigest(algorithm: unknown, value: unknown, charset?: unknown) {
      const name = DIGESTS[enumName(algorithm)];
      if (!name) throw new GasError(Msg.invalidArgument('algorithm'));
      return toSignedBytes(new Uint8Array(crypto.createHash(name).update(bytesOf(value, charset)).digest()));
    },
    computeHmacSha256Signature(value: unknown, key: unknown, charset?: unknown) {
      return toSignedBytes(
        new Uint8Array(crypto.createHmac('sha256', bytesOf(key, charset)).update(bytesOf(value, charset)).digest()),
      );
    },
    computeHmacSignature(algorithm: unknown, value: unknown, key: unknown, charset?: unknown) {
      const name = MACS[enumName(algorithm)];
      if (!name) throw new GasError(Msg.invalidArgument('algorithm'));
      return toSignedBytes(
        new Uint8Array(crypto.createHmac(name, bytesOf(key, charset)).update(bytesOf(value, charset)).digest()),
      );
    },
    formatDate(date: unknown, timeZone: string, format: string) {
      if (Object.prototype.toString.call(date) !== '[object Date]') throw new GasError(Msg.invalidArgument('date'));
      return formatSimpleDate((date as Date).getTime(), String(timeZone), String(format));
    },
    formatString(template: string, ...args: unknown[]) {
      return formatJavaString(String(template), args);
    },
    newBlob(data: unknown, contentType?: string, name?: string) {
      const bytes = Array.isArray(data)
        ? Array.from(toByteArray(data))
        : Array.from(Buffer.from(String(data ?? ''), 'utf8'));
      return Blob.wrap(
        new BlobImpl(
          bytes,
          contentType === undefined ? null : String(contentType),
          name === undefined ? null : String(name),
        ),
      );
    },
    parseCsv(csv: string, delimiter?: string) {
      return parseCsv(String(csv), delimiter === undefined ? ',' : String(delimiter));
    },
    jsonParse(text: string) {
      return JSON.parse(String(text));
    },
    jsonStringify(value: unknown) {
      return JSON.stringify(value);
    },
  });
  return Utilities.wrap(
    {},
    {
      Charset: makeEnum(realm, ['US_ASCII', 'UTF_8']),
      DigestAlgorithm: makeEnum(realm, Object.keys(DIGESTS)),
      MacAlgorithm: makeEnum(realm, Object.keys(MACS)),
    },
  );
}

const stringify = (value: unknown) => (typeof value === 'string' ? value : nodeFormat('%O', value));

export function createLogging({ env, exec }: ServiceContext): {
  Logger: Record<string, unknown>;
  console: Record<string, unknown>;
} {
  const record = (source: LogEntry['source'], level: LogEntry['level'], message: string) => {
    env.logs.push({ executionId: exec.id, source, level, message });
    if (env.echoLogs) process.stderr.write(`[gas ${source}.${level}] ${message}\n`);
  };
  const Logger: FacadeClass<object> = exec.define<object>('Logger', {
    log(data: unknown, ...values: unknown[]) {
      const message = typeof data === 'string' && values.length ? formatJavaString(data, values) : stringify(data);
      record('Logger', 'log', message);
      return LoggerFacade;
    },
    getLog() {
      return env.logs
        .filter((l) => l.executionId === exec.id && l.source === 'Logger')
        .map((l) => `${l.message}\n`)
        .join('');
    },
    clear() {
      for (let i = env.logs.length - 1; i >= 0; i--)
        if (env.logs[i].executionId === exec.id && env.logs[i].source === 'Logger') env.logs.splice(i, 1);
    },
  });
  const LoggerFacade: Record<string, unknown> = Logger.wrap({});
  const level = (name: LogEntry['level']) =>
    function (...args: unknown[]) {
      record('console', name, args.map(stringify).join(' '));
    };
  const Console = exec.define<object>('console', {
    log: level('log'),
    info: level('info'),
    warn: level('warn'),
    error: level('error'),
    debug: level('debug'),
  });
  return { Logger: LoggerFacade, console: Console.wrap({}) };
}
