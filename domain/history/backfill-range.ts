/**
 * The chain backfill's time arithmetic. A range [from, to) of launchpad history is read newest first, as
 * `getSignaturesForAddress` pages (backwards with `before`), in chunks of `chunkS` seconds: each chunk starts paging
 * where the newer one stopped, so a range costs one pass over its signatures whatever its chunking.
 */
export type BackfillChunk = { fromMs: number; toMs: number };

/** Newest first; the oldest chunk may be shorter. */
export function backfillChunks(fromMs: number, toMs: number, chunkS: number): BackfillChunk[] {
  if (!(toMs > fromMs)) throw new RangeError('a backfill range needs from < to');
  if (!(chunkS > 0)) throw new RangeError('chunkS must be positive');
  const out: BackfillChunk[] = [];
  for (let end = toMs; end > fromMs; end -= chunkS * 1000) out.push({ fromMs: Math.max(fromMs, end - chunkS * 1000), toMs: end });
  return out;
}

const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
/** Ids from the range itself, so starting the same range again joins or repeats it instead of adding another. */
export const backfillRangeId = (fromMs: number, toMs: number) => `history-backfill:${iso(fromMs)}..${iso(toMs)}`;
export const backfillChunkId = (c: BackfillChunk) => `history-backfill-chunk:${iso(c.fromMs)}..${iso(c.toMs)}`;

/**
 * Parses `<from>..<to>` (ISO times, or a bare date for its UTC midnight). `to` is held back `lagS` before now: the
 * backfill closes the lifecycle outbox of the mints it stores (history is never predicted), so it must not claim a
 * mint the live feed is about to deliver.
 */
export function parseBackfillRange(text: string, nowMs: number, lagS: number): { fromMs: number; toMs: number } {
  const m = /^(.+?)\.\.(.+)$/.exec(text.trim());
  if (!m) throw new RangeError(`a backfill range is <from>..<to> (ISO times), got "${text}"`);
  const [fromMs, toMs] = [m[1]!, m[2]!].map((s) => {
    const ms = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(s) ? `${s}T00:00:00Z` : s);
    if (!Number.isFinite(ms)) throw new RangeError(`not a time: "${s}"`);
    return ms;
  }) as [number, number];
  const clamped = Math.min(toMs, nowMs - lagS * 1000);
  if (!(clamped > fromMs)) throw new RangeError(`empty backfill range: from ${iso(fromMs)} is not before ${iso(clamped)} (to, at most now − ${lagS} s)`);
  return { fromMs, toMs: clamped };
}

export type ListedSignature = { signature: string; err: unknown; blockTime: number | null };

/**
 * What one page of signatures (newest first) means for a chunk: the successful transactions inside it to fetch,
 * the cursor to page on from (the oldest signature at or after `from`: everything newer is handled), and whether the
 * chunk is finished (the page reached below `from`, or the ledger's start). Failed transactions carry no events;
 * a signature without a block time cannot be placed in time and is skipped.
 */
export function classifyPage(page: readonly ListedSignature[], c: BackfillChunk, limit: number, before: string | null) {
  const fetch: string[] = [];
  let cursor = before;
  let below = false;
  let oldestMs: number | null = null;
  for (const s of page) {
    const ms = s.blockTime === null ? null : s.blockTime * 1000;
    if (ms !== null && ms < c.fromMs) {
      below = true;
      break;
    }
    cursor = s.signature;
    if (ms === null) continue;
    oldestMs = oldestMs === null ? ms : Math.min(oldestMs, ms);
    if (ms < c.toMs && s.err === null) fetch.push(s.signature);
  }
  return { fetch, cursor, done: below || page.length < limit, oldestMs };
}

/** Start of the next UTC day: when a spent daily request cap is available again. */
export const nextUtcDayMs = (nowMs: number) => (Math.floor(nowMs / 86_400_000) + 1) * 86_400_000;
/** The UTC day (yyyy-mm-dd) a request is counted against. */
export const utcDay = (nowMs: number) => new Date(nowMs).toISOString().slice(0, 10);

/** Share of a chunk read, from how far back in time its pages have reached (newest first). */
export function chunkFraction(c: BackfillChunk, oldestReachedMs: number | null, completed: boolean): number {
  if (completed) return 1;
  if (oldestReachedMs === null) return 0;
  return Math.min(1, Math.max(0, (c.toMs - oldestReachedMs) / (c.toMs - c.fromMs)));
}
