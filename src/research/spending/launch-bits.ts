// The launches' create permits as the document's properties keep them (create-permits.ts): per launch, the account it
// was paid from, how many records it numbered, and three sets over those numbers (granted, taken, unreleased: six
// records a character, shared/storage/bitmap.ts). One chunked JSON value; an account no launch kept was paid from is
// left out of it. Pure over a KeyValueStore.
import type { KeyValueStore } from '../../ports';
import { readChunkedJson, removeChunked, writeChunked } from '../../shared/storage/chunked-store';
import { Bitmap } from '../../shared/storage/bitmap';

const LAUNCHES_KEY = 'sheetscout.research.launches';

/** One launch's permits: who paid (index into Launches.payers, -1: not known), its records, and their sets. */
export interface LaunchBits {
  payer: number;
  count: number;
  /** Records granted a create not taken yet. */
  granted: Bitmap;
  /** Records that took their grant and did not send it yet (a tick killed before it sent them). */
  taken: Bitmap;
  /** Records whose task (or refused create) has not given back its unused reservation yet. */
  unreleased: Bitmap;
}

export interface Launches {
  /** The accounts (Sheet Scout e-mail addresses) that paid for the launches kept. */
  payers: string[];
  launches: Map<string, LaunchBits>;
}

/** A launch as stored: [payer, records, granted, taken, unreleased]. */
type StoredLaunch = [number, number, string, string, string];

const isStoredLaunch = (value: unknown): value is StoredLaunch =>
  Array.isArray(value) && value.length === 5 && Number.isInteger(value[0]) && Number.isInteger(value[1]);

export const newLaunch = (): LaunchBits => ({
  payer: -1,
  count: 0,
  granted: Bitmap.empty(),
  taken: Bitmap.empty(),
  unreleased: Bitmap.empty(),
});

export function readLaunches(store: KeyValueStore): Launches {
  const parsed = readChunkedJson(store, LAUNCHES_KEY) as { payers?: unknown; launches?: unknown } | null;
  const launches = new Map<string, LaunchBits>();
  const stored = parsed?.launches && typeof parsed.launches === 'object' ? parsed.launches : {};
  for (const [id, launch] of Object.entries(stored as Record<string, unknown>)) {
    if (!isStoredLaunch(launch)) continue;
    const [payer, count, granted, taken, unreleased] = launch;
    launches.set(id, {
      payer,
      count,
      granted: Bitmap.parse(granted),
      taken: Bitmap.parse(taken),
      unreleased: Bitmap.parse(unreleased),
    });
  }
  return { payers: Array.isArray(parsed?.payers) ? parsed.payers.map(String) : [], launches };
}

/** Writes the launches; with none kept, the value goes. */
export function writeLaunches(store: KeyValueStore, permits: Launches): void {
  if (permits.launches.size === 0) {
    removeChunked(store, LAUNCHES_KEY);
    return;
  }
  const payers: string[] = [];
  const launches: Record<string, StoredLaunch> = {};
  for (const [id, bits] of permits.launches) {
    const payer = permits.payers[bits.payer];
    if (payer !== undefined && !payers.includes(payer)) payers.push(payer);
    launches[id] = [
      payer === undefined ? -1 : payers.indexOf(payer),
      bits.count,
      bits.granted.toString(),
      bits.taken.toString(),
      bits.unreleased.toString(),
    ];
  }
  writeChunked(store, LAUNCHES_KEY, JSON.stringify({ payers, launches }));
}
