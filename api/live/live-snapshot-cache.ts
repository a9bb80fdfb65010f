import type { LiveStore } from '../../db/live/live-store';
import { unavailable } from '../http/http-error';
import { prepareBody, type PreparedBody } from '../http/prepared-body';
import type { EnrichedMint } from '../../domain/live/enriched-mint';
import { PUBLIC_LIVE_WITHHELD, publicLiveMint, publicLiveOrder } from '../../domain/live/public-live-mint';

type LiveBody = {
  generated_at: string;
  refresh_interval_s: number;
  delay_s: number;
  total_tracked: number;
  count: number;
  mints: EnrichedMint[];
  stale?: true;
  age_s?: number;
};

export type LiveSnapshot = {
  version: number;
  builtAt: Date;
  /** Built before the worker last started: stale until the projector's first fresh refresh, however young. */
  preRestart: boolean;
  /** How old the snapshot is by design (the Free tier's list is 300 s behind). */
  delayS: number;
  etag: string;
  body: PreparedBody;
  /** Parsed once per version, for the filtered keyed list. */
  parsed: () => LiveBody;
  /** The keyed list for one (limit, min_prob), built once per version and query. */
  filtered: (limit: number, minProb: number) => PreparedBody;
  /** This snapshot marked as one the projector stopped refreshing (`stale: true`, `age_s`), optionally filtered. */
  staleBody: (ageS: number, filter?: { limit: number; minProb: number }) => PreparedBody;
  /** The public list (paid fields withheld, newest launch first), built once per version. */
  publicBody: () => PreparedBody;
  /** The public list marked stale, as `staleBody`. */
  publicStaleBody: (ageS: number) => PreparedBody;
};

/** How long a request holding a snapshot waits for the version check before it is served what is in memory. */
const MAX_WAIT_WITH_SNAPSHOT_MS = 100;
/** Distinct (limit, min_prob) bodies kept per version; clients poll a handful, fuzzers try thousands. */
const MAX_FILTERED = 256;

/**
 * The API's copy of the projector's latest snapshot. A cheap version check at most every `pollMs` keeps
 * requests off the database: `/api/live` answers the pre-serialised bytes as they are, and every filtered
 * `/api/v1/live` body is serialised once per snapshot version.
 */
/** `delayS`: how old this snapshot is by design (0 for the live list, 300 for the Free tier's delayed one). */
export function createLiveSnapshotCache(store: LiveStore, name: string, pollMs: number, o: { delayS?: number; now?: () => number } = {}) {
  const now = o.now ?? Date.now;
  const delayS = o.delayS ?? 0;
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
    const keep = (minProb: number, limit: number) =>
      // With min_prob 0 every tracked mint counts, scored or not; above 0 only scored mints can qualify.
      parse()
        .mints.filter((m) => (minProb <= 0 ? true : m.grad_prob !== null && m.grad_prob >= minProb))
        .slice(0, limit);
    let lastStale: { key: string; body: PreparedBody } | undefined;
    let publicBody: PreparedBody | undefined;
    let lastPublicStale: { ageS: number; body: PreparedBody } | undefined;
    const publicList = () => {
      const list = parse();
      return { ...list, withheld_fields: PUBLIC_LIVE_WITHHELD, mints: publicLiveOrder(list.mints).map(publicLiveMint) };
    };
    current = {
      version: s.version,
      builtAt: s.builtAt,
      preRestart: s.preRestart,
      delayS,
      etag: `"live-${s.version}"`,
      body: prepareBody(Buffer.from(s.body), { etag: `"live-${s.version}"` }),
      parsed: readable(parse),
      filtered: readable((limit: number, minProb: number) => {
        const key = `${limit}:${minProb}`;
        let b = filtered.get(key);
        if (!b) {
          const kept = keep(minProb, limit);
          b = prepareBody(Buffer.from(JSON.stringify({ ...parse(), count: kept.length, mints: kept })), { etag: `"live-${s.version}-${key}"` });
          if (filtered.size >= MAX_FILTERED) filtered.clear();
          filtered.set(key, b);
        }
        return b;
      }),
      // Only while the projector is down; built at most once per second of age and query.
      staleBody: readable((ageS: number, filter?: { limit: number; minProb: number }) => {
        const key = `${ageS}:${filter?.limit}:${filter?.minProb}`;
        if (lastStale?.key !== key) {
          const kept = filter ? keep(filter.minProb, filter.limit) : parse().mints;
          const bytes = Buffer.from(JSON.stringify({ ...parse(), count: kept.length, mints: kept, stale: true, age_s: ageS }));
          lastStale = { key, body: prepareBody(bytes, { etag: `"live-${s.version}-stale-${key}"` }) };
        }
        return lastStale.body;
      }),
      publicBody: readable(() => (publicBody ??= prepareBody(Buffer.from(JSON.stringify(publicList())), { etag: `"live-${s.version}-public"` }))),
      publicStaleBody: readable((ageS: number) => {
        if (lastPublicStale?.ageS !== ageS) {
          const bytes = Buffer.from(JSON.stringify({ ...publicList(), stale: true, age_s: ageS }));
          lastPublicStale = { ageS, body: prepareBody(bytes, { etag: `"live-${s.version}-public-stale-${ageS}"` }) };
        }
        return lastPublicStale.body;
      }),
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
      if (!current) return inflight;
      // While Postgres is slow or unreachable the snapshot in memory is still the newest one there is (its age
      // says how old): a request waits a moment for the version check, never for a connection timeout.
      const held = current;
      let timer: NodeJS.Timeout | undefined;
      const patience = new Promise<LiveSnapshot>((resolve) => (timer = setTimeout(() => resolve(held), MAX_WAIT_WITH_SNAPSHOT_MS)));
      return Promise.race([inflight.catch(() => held), patience]).finally(() => clearTimeout(timer));
    },
    /** The snapshot in memory, without asking the database. */
    peek: (): LiveSnapshot | undefined => current,
    /** The snapshot in memory while `get` would answer it without a version check (checked within `pollMs`). */
    peekChecked: (): LiveSnapshot | undefined => (current && now() - checkedAt < pollMs ? current : undefined),
  };
}
export type LiveSnapshotCache = ReturnType<typeof createLiveSnapshotCache>;

/**
 * `build` with any throw turned into the documented 503: a snapshot row that is not the projector's JSON (a
 * corrupted or hand-edited row) makes the list unavailable until the projector's next refresh replaces it, never a
 * 500. The throw is kept as the 503's `cause` for whoever logs it (the fast path does: api/http/public-reads.ts).
 */
function readable<A extends unknown[], R>(build: (...a: A) => R): (...a: A) => R {
  return (...a) => {
    try {
      return build(...a);
    } catch (err) {
      throw Object.assign(unavailable('the live list snapshot cannot be read; the projector replaces it at its next refresh', 5), { cause: err });
    }
  };
}

/** The current snapshot, or the documented 503 before the projector has built one. */
export async function requireSnapshot(cache: LiveSnapshotCache): Promise<LiveSnapshot> {
  const s = await cache.get();
  if (!s) throw unavailable('the live list has not been built yet; the projector refreshes it every few seconds', 5);
  return s;
}

/** The projector samples the delayed list every 15 s (activities/live/live-projector.ts): that much lag is expected. */
const DELAYED_SAMPLE_S = 15;

/**
 * How old a snapshot is, in whole seconds (the `Age` header), and whether the projector has stopped refreshing
 * it: built before the worker last started, or older than its promised delay (0, or 300 for the Free tier's list)
 * by more than `staleAfterS`.
 */
export function freshness(s: LiveSnapshot, now: Date, staleAfterS: number): { ageS: number; stale: boolean; preRestart: boolean } {
  const ageS = Math.max(0, Math.floor((now.getTime() - s.builtAt.getTime()) / 1000));
  return { ageS, preRestart: s.preRestart, stale: s.preRestart || ageS - s.delayS > staleAfterS + (s.delayS > 0 ? DELAYED_SAMPLE_S : 0) };
}
