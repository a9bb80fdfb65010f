import type { UsageStore } from '../../db/access/usage-store';
import { DEFAULT_LEASE_POLICY, leaseExtra, type LeasePolicy } from '../../domain/access/quota-lease-size';

export type Counted = { counted: boolean; used: number };
type Waiter = { resolve: (c: Counted) => void; reject: (e: unknown) => void };
/** One key's calls in this process for one day and limit: its block of leased calls and its recent rate. */
type KeyState = {
  keyId: number;
  day: string;
  limit: number;
  /** The leased calls not served yet are the counts `next` … `end` (1-based, as `used` after each call). */
  next: number;
  end: number;
  expiresAt: number;
  /** `limit − used` as the last lease saw it. */
  headroom: number;
  waiting: Waiter[];
  /** Calls in the current second and the one before: the rate a block is sized from. */
  second: number;
  thisSecond: number;
  lastSecond: number;
};

/**
 * Counts keyed calls against the Postgres quota with blocks of calls leased per process and key. A call is served
 * from its key's block in memory while the block has calls and is not expired; otherwise it waits for the next
 * statement, which asks per key for every waiting call plus a block sized from the key's recent rate
 * (domain/access/quota-lease-size.ts), all keys together in one statement while none is in flight. Postgres grants
 * a key's blocks only up to its daily limit, so no key is ever served over quota, whatever the processes. A block's
 * unused calls go back when it expires (`leaseMs`) and when the process stops; a process killed outright keeps its
 * block's unused calls counted for the rest of the day. The cost is a window: a key whose remaining quota is used
 * up while another process still holds calls of it is refused there until those expire. Keys with less than
 * `minHeadroom` calls left lease no block, so they are counted exactly, call by call, as before.
 */
export function createQuotaLeases(
  usage: UsageStore,
  o: {
    policy?: LeasePolicy;
    now?: () => number;
    onReturnFailed?: (err: unknown) => void;
    onRefundFailed?: (err: unknown, keyId: number, n: number) => void;
  } = {},
) {
  const policy = o.policy ?? DEFAULT_LEASE_POLICY;
  const now = o.now ?? Date.now;
  const keys = new Map<string, KeyState>();
  let asking = false;
  const refunds = new Map<string, { keyId: number; day: string; n: number }>();
  let refunding = false;

  const stateOf = (keyId: number, day: string, limit: number): KeyState => {
    const id = `${keyId}:${day}:${limit}`;
    let s = keys.get(id);
    if (!s) {
      s = { keyId, day, limit, next: 1, end: 0, expiresAt: 0, headroom: limit, waiting: [], second: 0, thisSecond: 0, lastSecond: 0 };
      keys.set(id, s);
    }
    return s;
  };
  const tick = (s: KeyState, t: number) => {
    const sec = Math.floor(t / 1000);
    if (sec !== s.second) [s.lastSecond, s.thisSecond, s.second] = [sec === s.second + 1 ? s.thisSecond : 0, 0, sec];
    s.thisSecond++;
  };
  /** Takes the unused calls of expired blocks (all blocks with `all`) out of memory, to be returned. */
  const takeUnused = (all: boolean) => {
    const t = now();
    const out: { keyId: number; day: string; n: number }[] = [];
    for (const [id, s] of keys) {
      if (!all && t < s.expiresAt) continue;
      if (s.end >= s.next) out.push({ keyId: s.keyId, day: s.day, n: s.end - s.next + 1 });
      s.next = s.end + 1;
      if (s.waiting.length === 0 && t - s.second * 1000 > 2000) keys.delete(id);
    }
    return out;
  };
  const giveBack = (all: boolean) => {
    const back = takeUnused(all);
    return back.length ? usage.returnMany(back).catch((e) => o.onReturnFailed?.(e)) : Promise.resolve();
  };
  const sweeper = setInterval(() => void giveBack(false), policy.leaseMs);
  sweeper.unref();

  async function ask() {
    for (;;) {
      const asks = [...keys.values()].filter((s) => s.waiting.length > 0);
      if (asks.length === 0) break;
      const batch = asks.map((s) => ({ s, waiting: s.waiting, extra: leaseExtra(s.lastSecond + s.thisSecond, s.headroom, policy) }));
      for (const b of batch) b.s.waiting = [];
      try {
        const answers = await usage.leaseMany(
          batch.map((b) => ({ keyId: b.s.keyId, day: b.s.day, calls: b.waiting.length, extra: b.extra, limit: b.s.limit })),
        );
        batch.forEach((b, k) => {
          const { granted, used } = answers[k]!;
          // This statement's grant is the counts used-granted+1 … used: the waiting calls first, in arrival order.
          const first = used - granted + 1;
          const served = Math.min(granted, b.waiting.length);
          b.waiting.forEach((w, i) => w.resolve(i < served ? { counted: true, used: first + i } : { counted: false, used }));
          b.s.headroom = b.s.limit - used;
          if (granted > served) {
            // An older block's leftovers (expired meanwhile) would be returned by the sweeper; this one replaces it.
            if (b.s.end >= b.s.next) void usage.returnMany([{ keyId: b.s.keyId, day: b.s.day, n: b.s.end - b.s.next + 1 }]).catch((e) => o.onReturnFailed?.(e));
            [b.s.next, b.s.end, b.s.expiresAt] = [first + served, used, now() + policy.leaseMs];
          }
        });
        // Calls that arrived during the statement are served from the blocks it leased, if it leased any.
        for (const b of batch) while (b.s.waiting.length && b.s.next <= b.s.end) b.s.waiting.shift()!.resolve({ counted: true, used: b.s.next++ });
      } catch (e) {
        for (const b of batch) for (const w of b.waiting) w.reject(e);
      }
    }
    asking = false;
  }

  async function flushRefunds() {
    while (refunds.size) {
      const batch = [...refunds.values()];
      refunds.clear();
      for (const r of batch) {
        try {
          await usage.refund(r.keyId, r.day, r.n);
        } catch (err) {
          // Best effort: the database that failed the call may still be down; the calls then stay counted.
          o.onRefundFailed?.(err, r.keyId, r.n);
        }
      }
    }
    refunding = false;
  }

  return {
    /** Counts one call from its key's block in memory; undefined when it must wait for `count` (which then counts it). */
    countNow(keyId: number, day: string, limit: number): Counted | undefined {
      const s = stateOf(keyId, day, limit);
      const t = now();
      if (s.next > s.end || t >= s.expiresAt) return undefined;
      tick(s, t);
      return { counted: true, used: s.next++ };
    },

    /** Counts one call; `used` is its position in the day's count (what the rate-limit headers report). */
    count(keyId: number, day: string, limit: number): Promise<Counted> {
      const s = stateOf(keyId, day, limit);
      const t = now();
      tick(s, t);
      if (s.next <= s.end && t < s.expiresAt) return Promise.resolve({ counted: true, used: s.next++ });
      const p = new Promise<Counted>((resolve, reject) => s.waiting.push({ resolve, reject }));
      if (!asking) {
        asking = true;
        void ask();
      }
      return p;
    },

    /** Gives one counted call back (answered with the service's own 5xx); after the response, never awaited by it. */
    refund(keyId: number, day: string): void {
      const id = `${keyId}:${day}`;
      const r = refunds.get(id);
      if (r) r.n++;
      else refunds.set(id, { keyId, day, n: 1 });
      if (!refunding) {
        refunding = true;
        void flushRefunds();
      }
    },

    /** Returns every block's unused calls (the process is stopping); later calls lease again. */
    release: (): Promise<void> => {
      clearInterval(sweeper);
      return giveBack(true);
    },
  };
}
export type QuotaLeases = ReturnType<typeof createQuotaLeases>;
