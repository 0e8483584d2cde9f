// The launches' create permits as the document's properties keep them (create-permits.ts): per launch, the account it
// was paid from, how many records it numbered, and three sets over those numbers (granted, taken, unreleased: six
// records a character, shared/storage/bitmap.ts). One chunked JSON value, gone when no launch is kept. Pure over a
// KeyValueStore.
import type { KeyValueStore } from '../../ports';
import { readChunkedJson, removeChunked, writeChunked } from '../../shared/storage/chunked-store';
import { bitsText, readBits } from '../../shared/storage/bitmap';

const LAUNCHES_KEY = 'sheetscout.research.launches';

/** One launch's permits: who paid (null: not known), its records, and their sets. */
export interface LaunchBits {
  payer: string | null;
  count: number;
  /** Records granted a create not taken yet. */
  granted: Set<number>;
  /** Records that took their grant and did not send it yet (a tick killed before it sent them). */
  taken: Set<number>;
  /** Records whose task (or refused create) has not given back its unused reservation yet. */
  unreleased: Set<number>;
}

/** The launches kept, by launch id. */
export type Launches = Map<string, LaunchBits>;

/** A launch kept as [payer ('': not known), records, granted, taken, unreleased]. */
type StoredLaunch = [string, number, string, string, string];

/** The launch kept under `launch`, made (nothing granted) when there is none. */
export function launchIn(permits: Launches, launch: string): LaunchBits {
  const known = permits.get(launch) || {
    payer: null,
    count: 0,
    granted: new Set<number>(),
    taken: new Set<number>(),
    unreleased: new Set<number>(),
  };
  permits.set(launch, known);
  return known;
}

export function readLaunches(store: KeyValueStore): Launches {
  const stored = readChunkedJson(store, LAUNCHES_KEY) as Record<string, StoredLaunch> | null;
  const launches: Launches = new Map();
  for (const [id, [payer, count, granted, taken, unreleased]] of Object.entries(stored || {}))
    if (Number.isInteger(count))
      launches.set(id, {
        payer: payer ? String(payer) : null,
        count,
        granted: readBits(granted),
        taken: readBits(taken),
        unreleased: readBits(unreleased),
      });
  return launches;
}

/** Writes the launches; with none kept, the value goes. */
export function writeLaunches(store: KeyValueStore, permits: Launches): void {
  if (permits.size === 0) removeChunked(store, LAUNCHES_KEY);
  else
    writeChunked(
      store,
      LAUNCHES_KEY,
      JSON.stringify(
        Object.fromEntries(
          [...permits].map(([id, bits]) => [
            id,
            [bits.payer || '', bits.count, bitsText(bits.granted), bitsText(bits.taken), bitsText(bits.unreleased)],
          ]),
        ),
      ),
    );
}
