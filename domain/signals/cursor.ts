/**
 * The signal feed's cursor: passing back the previous page's cursor must never miss and never repeat a signal,
 * even when several processes deliver signals concurrently and their transactions commit out of order.
 *
 * Design (to build in the signals store; nothing here touches a database):
 *
 *   A signal row is inserted once, by the transaction that makes a cross deliverable (its tier known), which
 *   also sets the prediction's tier and writes the outbox event. As that transaction's last statement, under
 *   READ COMMITTED, it takes one transaction-level advisory lock and takes its cursor:
 *
 *     SELECT pg_advisory_xact_lock(<signal cursor key>);
 *     INSERT INTO signals (prediction_id, tier, payload, delivered_at, cursor)
 *     VALUES ($1, $2, $3, clock_timestamp(), (SELECT greatest(coalesce(max(cursor), 0) + 1,
 *                                     (extract(epoch FROM clock_timestamp()) * 1e6)::bigint) FROM signals))
 *     ON CONFLICT (prediction_id) DO NOTHING;
 *     COMMIT;   -- releases the lock
 *
 *   `cursor` is UNIQUE (its index also answers the max). The feed reads `WHERE cursor > $since ORDER BY cursor
 *   LIMIT $limit + 1`; nextCursor, feedLowerBound and feedPage below are the same rules in code.
 *
 * Why it holds: Postgres releases a transaction's locks after its commit is visible to new snapshots. So when a
 * transaction assigns cursor c under the lock, every transaction that assigned a smaller cursor has already
 * committed (or aborted, leaving a gap nobody fills), and a later one reads max ≥ c. Cursor order is commit
 * order: a reader whose snapshot shows c shows every smaller cursor, and no smaller cursor can appear later.
 * Standbys replay commits in WAL order, which is the same order. READ COMMITTED matters: each statement takes
 * a fresh snapshot, so the max is read after the lock was granted (under REPEATABLE READ it could be stale).
 * The serialised part is one indexed insert plus the commit flush (~1 ms), a ceiling near 1,000 deliveries/s
 * against a few signals per second at most. The value is a microsecond timestamp made strictly increasing: it is
 * the spec's "deliverability timestamp" and makes `since=0` ("the last hour") plain arithmetic; it stays below
 * 2^53 until the year 2255.
 *
 * The alternatives, and why they fail:
 * - Push time in whole seconds with `> since` (the public service): a signal committed later in the same second
 *   as one already polled is skipped. A finer clock only narrows the race: times are taken before commit.
 * - A bigserial / sequence value taken at insert: nextval order is not commit order. A poller that sees 11
 *   before 10 commits moves past 10 for ever; an in-flight 10 cannot be told from an aborted one (a gap).
 * - Commit timestamps (track_commit_timestamp): taken before the commit becomes visible, so two transactions can
 *   become visible in the opposite order of their timestamps, the same race as above; and not indexable.
 * - The xmin horizon (store pg_current_xact_id(), expose only rows below pg_snapshot_xmin(pg_current_snapshot()),
 *   order by (xid, id)): correct, but the horizon is held back by any open transaction in the cluster (an idle
 *   connection in a transaction, a long report, Temporal's own persistence where it shares the cluster), so the
 *   feed stalls for as long as that lasts, against a p99 lateness goal under 1 s; and the cursor becomes a 64-bit
 *   xid pair whose meaning does not survive a logical dump and restore.
 * - One sequencer (a singleton workflow's activity numbering deliverable rows in commit order): Temporal runs one
 *   workflow execution, not one activity attempt at a time. An attempt past its timeout may still be committing
 *   when the retry starts, so two numbering transactions can overlap and commit out of order, unless they take a
 *   lock, which is the chosen design plus a hop; and every signal waits for the sequencer's next turn.
 */
export const LAST_HOUR_S = 3_600;
/** The largest cursor a JSON number carries exactly (openapi: maximum 9007199254740991). */
export const MAX_CURSOR = Number.MAX_SAFE_INTEGER;

/** The microsecond timestamp cursor of a moment. */
export function cursorAt(ms: number): number {
  return Math.floor(ms * 1000);
}

/** The cursor to assign next, under the lock: strictly above the last one, and at least the current time in µs. */
export function nextCursor(lastAssigned: number | null, nowMs: number): number {
  const next = Math.max((lastAssigned ?? 0) + 1, cursorAt(nowMs));
  if (next > MAX_CURSOR) throw new RangeError(`signal cursor ${next} exceeds 2^53 − 1`);
  return next;
}

/** Exclusive lower bound of a feed read: `since`, or the last hour for since = 0. */
export function feedLowerBound(since: number, nowMs: number): number {
  if (!(Number.isInteger(since) && since >= 0)) throw new RangeError(`since must be an integer >= 0, got ${since}`);
  return since === 0 ? cursorAt(nowMs - LAST_HOUR_S * 1000) : since;
}

/**
 * One page from the rows read with `LIMIT limit + 1` in cursor order: the first `limit` rows, the cursor to
 * pass back (the last row's, or `since` when empty) and whether more are waiting.
 */
export function feedPage<T extends { cursor: number }>(since: number, rows: readonly T[], limit: number): { signals: T[]; cursor: number; hasMore: boolean } {
  for (let k = 1; k < rows.length; k++) {
    if (!(rows[k]!.cursor > rows[k - 1]!.cursor)) throw new RangeError('feed rows must be in strictly ascending cursor order');
  }
  const signals = rows.slice(0, limit);
  const last = signals[signals.length - 1];
  return { signals, cursor: last ? last.cursor : since, hasMore: rows.length > limit };
}
