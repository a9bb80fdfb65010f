import type { UsageStore } from '../../db/access/usage-store';

export type Counted = { counted: boolean; used: number };
type Waiter = { keyId: number; day: string; limit: number; resolve: (c: Counted) => void; reject: (e: unknown) => void };

/**
 * Counts calls against the Postgres quota exactly, with one statement per burst instead of one per call: while a
 * count is in flight, every call that arrives (any key) queues, and the next statement counts them all, each key's
 * calls together (asking for n, granted up to the limit, first come first counted). A quiet API sends each call's
 * count at once; a busy one sends fewer, larger statements, so many keys polling at once never hold a pool
 * connection each. Nothing is counted in memory: every call waits for the database's answer, so several API
 * processes still share one exact count.
 */
export function createQuotaCounter(usage: UsageStore, o: { onRefundFailed?: (err: unknown, keyId: number, n: number) => void } = {}) {
  let waiting: Waiter[] = [];
  let counting = false;
  // Refunds waiting for the statement in flight, summed per key and day: a burst of failures costs one statement each.
  const refunds = new Map<string, { keyId: number; day: string; n: number }>();
  let refunding = false;

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

  async function drain() {
    while (waiting.length) {
      const batch = waiting;
      waiting = [];
      // One ask per (key, day, limit), its calls in arrival order.
      const groups = new Map<string, Waiter[]>();
      for (const w of batch) {
        const id = `${w.keyId}:${w.day}:${w.limit}`;
        const g = groups.get(id);
        if (g) g.push(w);
        else groups.set(id, [w]);
      }
      const asks = [...groups.values()];
      try {
        const answers = await usage.consumeMany(asks.map((g) => ({ keyId: g[0]!.keyId, day: g[0]!.day, n: g.length, limit: g[0]!.limit })));
        asks.forEach((g, k) => {
          const { granted, used } = answers[k]!;
          // The first `granted` calls got the counts used-granted+1 … used; the rest found the quota used up.
          g.forEach((w, i) => w.resolve(i < granted ? { counted: true, used: used - granted + i + 1 } : { counted: false, used }));
        });
      } catch (e) {
        for (const w of batch) w.reject(e);
      }
    }
    counting = false;
  }

  return {
    count(keyId: number, day: string, limit: number): Promise<Counted> {
      const p = new Promise<Counted>((resolve, reject) => waiting.push({ keyId, day, limit, resolve, reject }));
      if (!counting) {
        counting = true;
        void drain();
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
  };
}
export type QuotaCounter = ReturnType<typeof createQuotaCounter>;
