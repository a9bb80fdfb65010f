import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { LiveStore } from '../../db/mint/live-store';
import { unavailable } from '../http/http-error';
import type { EnrichedMint } from '../../domain/mint/enriched-mint';

const gzipAsync = promisify(gzip);

type LiveBody = { generated_at: string; refresh_interval_s: number; delay_s: number; total_tracked: number; count: number; mints: EnrichedMint[] };

/** A response body serialised once and compressed once, then sent as bytes to every client that asks. */
export type PreparedBody = { bytes: Buffer; gzipped: () => Promise<Buffer> };

export type LiveSnapshot = {
  version: number;
  builtAt: Date;
  etag: string;
  body: PreparedBody;
  /** Parsed once per version, for the filtered keyed list. */
  parsed: () => LiveBody;
  /** The keyed list for one (limit, min_prob), built once per version and query. */
  filtered: (limit: number, minProb: number) => PreparedBody;
};

/** Distinct (limit, min_prob) bodies kept per version; clients poll a handful, fuzzers try thousands. */
const MAX_FILTERED = 256;

export function prepareBody(bytes: Buffer): PreparedBody {
  let gz: Promise<Buffer> | undefined;
  // Compressed on the thread pool, off the event loop, at most once.
  return { bytes, gzipped: () => (gz ??= gzipAsync(bytes, { level: 6 })) };
}

/**
 * The API's copy of the projector's latest snapshot. A cheap version check at most every `pollMs` keeps
 * requests off the database: `/api/live` answers the pre-serialised bytes as they are, and every filtered
 * `/api/v1/live` body is serialised once per snapshot version.
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
    let parsed: LiveBody | undefined;
    const parse = () => (parsed ??= JSON.parse(s.body) as LiveBody);
    const filtered = new Map<string, PreparedBody>();
    current = {
      version: s.version,
      builtAt: s.builtAt,
      etag: `"live-${s.version}"`,
      body: prepareBody(Buffer.from(s.body)),
      parsed: parse,
      filtered: (limit, minProb) => {
        const key = `${limit}:${minProb}`;
        let b = filtered.get(key);
        if (!b) {
          const all = parse();
          // With min_prob 0 every tracked mint counts, scored or not; above 0 only scored mints can qualify.
          const kept = all.mints.filter((m) => (minProb <= 0 ? true : m.grad_prob !== null && m.grad_prob >= minProb)).slice(0, limit);
          b = prepareBody(Buffer.from(JSON.stringify({ ...all, count: kept.length, mints: kept })));
          if (filtered.size >= MAX_FILTERED) filtered.clear();
          filtered.set(key, b);
        }
        return b;
      },
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
