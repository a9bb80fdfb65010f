import type { UsageStore } from '../../db/access/usage-store';

export type Counted = { counted: boolean; used: number };
type Waiter = { resolve: (c: Counted) => void; reject: (e: unknown) => void };
type Lane = { busy: boolean; waiting: Waiter[] };

/**
 * Counts calls against the Postgres quota exactly, with one statement per burst instead of one per call:
 * while a key's count is in flight, its next calls queue and are counted together by the following
 * statement (asking for n, granted up to the limit, first come first counted). Nothing is counted in memory:
 * every call waits for the database's answer, so several API processes still share one exact count.
 */
export function createQuotaCounter(usage: UsageStore, o: { onRefundFailed?: (err: unknown, keyId: number, n: number) => void } = {}) {
  const lanes = new Map<string, Lane>();
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

  async function drain(id: string, keyId: number, day: string, limit: number, lane: Lane) {
    while (lane.waiting.length) {
      const batch = lane.waiting.splice(0);
      try {
        const { granted, used } = await usage.consume(keyId, day, batch.length, limit);
        // The first `granted` calls got the counts used-granted+1 … used; the rest found the quota used up.
        batch.forEach((w, i) => w.resolve(i < granted ? { counted: true, used: used - granted + i + 1 } : { counted: false, used }));
      } catch (e) {
        for (const w of batch) w.reject(e);
      }
    }
    lane.busy = false;
    lanes.delete(id);
  }

  return {
    count(keyId: number, day: string, limit: number): Promise<Counted> {
      const id = `${keyId}:${day}:${limit}`;
      let lane = lanes.get(id);
      if (!lane) lanes.set(id, (lane = { busy: false, waiting: [] }));
      const p = new Promise<Counted>((resolve, reject) => lane.waiting.push({ resolve, reject }));
      if (!lane.busy) {
        lane.busy = true;
        void drain(id, keyId, day, limit, lane);
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
