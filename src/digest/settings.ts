// Where the digest's settings live. What may be shown (the service, the webhook's ids, how often, who set it) and
// where the digest stands (since when it gathers, the last post, a failed post's retry) are the document's, in its
// properties, so every editor's Settings shows them. The webhook's address is a secret, kept like the token: in the
// user properties of the editor who set it (by spreadsheet: one user's add-on serves many spreadsheets), never in a
// cell, a log line, an error or a panel, sent only to its own host. So only that editor's timer posts the digest (the
// document's config names the secret it expects by id): another editor sees it and may replace or stop it, never read
// it. Pure over the stores.
import type { KeyValueStore } from '../ports';
import type { WebhookService } from './webhook';
import { DIGEST_CONFIG_KEY, storedDigestConfig } from '../shared/storage/digest-outbox';

const STATE_KEY = 'sheetscout.digest.state';
const SECRET_KEY_PREFIX = 'sheetscout.digest.webhook.';

export type DigestCadence = 'weekly' | 'run';

/** What the document keeps of its digest (nothing secret). */
export interface DigestConfig {
  /** Names the webhook's secret record (in its setter's user properties) this config goes with. */
  id: string;
  service: WebhookService;
  label: string;
  cadence: DigestCadence;
  /** Weekly: the day (0 = Sunday) and the hour, in the spreadsheet's time zone. */
  weekday: number;
  hour: number;
  /** The Sheet Scout account of the editor who set it (their timer posts it), and when. */
  setBy: string;
  setAt: number;
}

/** Where the digest stands. */
export interface DigestState {
  /** The digest gathers what happened after this (the last post's composition, or when it was set). */
  since: number;
  /** Weekly: when the next digest is due. */
  nextAt: number | null;
  lastPost: { at: number; rows: number } | null;
  /** A post that failed: since when, how many tries, what the service said, and when it is tried again. */
  failure: { since: number; attempts: number; message: string; retryAt: number } | null;
  posts: number;
  /** Runs the last digest reported still running: the next one reports them again (absent before the first post). */
  carried?: string[];
  /** Since when the due digest waits for runs under way (absent: it does not wait). */
  waitingSince?: number;
  /**
   * Each sheet's rows "Keep enriching new rows" had filled when the last digest was composed (by sheet id): the next
   * one counts from there (absent before the first digest of this version).
   */
  filled?: Record<string, number>;
}

function parsed<T>(text: string | null): T | null {
  try {
    return text ? (JSON.parse(text) as T) : null;
  } catch {
    return null;
  }
}

export function readConfig(document: KeyValueStore): DigestConfig | null {
  return storedDigestConfig<DigestConfig>(document);
}

export function readState(document: KeyValueStore, config: DigestConfig): DigestState {
  return (
    parsed<DigestState>(document.get(STATE_KEY)) ?? {
      since: config.setAt,
      nextAt: null,
      lastPost: null,
      failure: null,
      posts: 0,
    }
  );
}

export function writeState(document: KeyValueStore, state: DigestState): void {
  document.set(STATE_KEY, JSON.stringify(state));
}

/** Keeps a new config and its first state (the state of an earlier digest goes with it). */
export function writeConfig(document: KeyValueStore, config: DigestConfig, state: DigestState): void {
  document.setAll({ [DIGEST_CONFIG_KEY]: JSON.stringify(config), [STATE_KEY]: JSON.stringify(state) });
}

export function removeConfig(document: KeyValueStore): void {
  document.remove(DIGEST_CONFIG_KEY);
  document.remove(STATE_KEY);
}

/** The webhook's secret record in its setter's user properties: the config it goes with, and the address. */
interface Secret {
  id: string;
  url: string;
}

const secretKey = (spreadsheetId: string) => SECRET_KEY_PREFIX + spreadsheetId;

/** The address of the document's webhook when this user set it (null for anyone else, or another config). */
export function readSecret(user: KeyValueStore, spreadsheetId: string, config: DigestConfig): string | null {
  const secret = parsed<Secret>(user.get(secretKey(spreadsheetId)));
  return secret && secret.id === config.id && typeof secret.url === 'string' ? secret.url : null;
}

export function writeSecret(user: KeyValueStore, spreadsheetId: string, id: string, url: string): void {
  user.set(secretKey(spreadsheetId), JSON.stringify({ id, url }));
}

/** Forgets this user's webhook of the spreadsheet when it goes with another config than `config` (replaced since). */
export function dropStaleSecret(user: KeyValueStore, spreadsheetId: string, config: DigestConfig): void {
  const secret = parsed<Secret>(user.get(secretKey(spreadsheetId)));
  if (secret && secret.id !== config.id) user.remove(secretKey(spreadsheetId));
}

/** Forgets this user's webhook of the spreadsheet (replaced or stopped, or one another editor's config replaced). */
export function removeSecret(user: KeyValueStore, spreadsheetId: string): void {
  if (user.get(secretKey(spreadsheetId)) !== null) user.remove(secretKey(spreadsheetId));
}
