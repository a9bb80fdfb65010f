import type { LiveStore } from '../../db/mint/live-store';
import { unavailable } from '../http/http-error';
import type { EnrichedMint } from '../../domain/mint/enriched-mint';

export type LiveSnapshot = {
  version: number;
  builtAt: Date;
  etag: string;
  bytes: Buffer;
  /** Parsed once per version, for the filtered keyed list. */
  parsed: () => { generated_at: string; refresh_interval_s: number; delay_s: number; total_tracked: number; count: number; mints: EnrichedMint[] };
};

/**
 * The API's copy of the projector's latest snapshot. A cheap version check at most every `pollMs` keeps
 * requests off the database: `/api/live` answers the pre-serialised bytes as they are.
 */
export function createLiveSnapshotCache(store: LiveStore, name: string, pollMs: number, now: () => number = Date.now) {
  let current: LiveSnapshot | undefined;
  let checkedAt = 0;
  let inflight: Promise<LiveSnapshot | undefined> | undefined;

  async function load(): Promise<LiveSnapshot | undefined> {
    const version = await store.snapshotVersion(name);
    if (version === undefined) return undefined;
    if (current && current.version === version) return current;
    const s = await store.readSnapshot(name);
    if (!s) return undefined;
    let parsed: ReturnType<LiveSnapshot['parsed']> | undefined;
    current = {
      version: s.version,
      builtAt: s.builtAt,
      etag: `"live-${s.version}"`,
      bytes: Buffer.from(s.body),
      parsed: () => (parsed ??= JSON.parse(s.body)),
    };
    return current;
  }

  return {
    async get(): Promise<LiveSnapshot | undefined> {
      if (current && now() - checkedAt < pollMs) return current;
      // One database round trip however many requests arrive at once.
      inflight ??= load().finally(() => {
        checkedAt = now();
        inflight = undefined;
      });
      return inflight;
    },
  };
}
export type LiveSnapshotCache = ReturnType<typeof createLiveSnapshotCache>;

/** The current snapshot, or the documented 503 before the projector has built one. */
export async function requireSnapshot(cache: LiveSnapshotCache): Promise<LiveSnapshot> {
  const s = await cache.get();
  if (!s) throw unavailable('the live list has not been built yet; the projector refreshes it every few seconds', 5);
  return s;
}
