import { randomUUID } from 'node:crypto';
import type { FirehoseLeaseStore, LeaseCaps, LeaseResult } from '../../db/firehose/firehose-lease-store';
import type { Logger } from '../../platform/logger';

/**
 * This API process's side of the connection leases (db/firehose/firehose-lease-store.ts): it takes one per
 * connection, renews all of its own in one statement every third of `leaseS`, and deletes each when its connection
 * closes. A lease that could not be renewed in time has stopped counting (another process may have taken its place),
 * so its connection is handed to `onLapsed` to be closed: the caps hold even across a database outage.
 */
export function createLeaseKeeper(d: { store: FirehoseLeaseStore; leaseS: number; caps: LeaseCaps; log: Logger; onLapsed: (leaseId: number) => void }) {
  const processId = randomUUID();
  const held = new Set<number>();
  /** Leases of closed connections whose delete is under way: this process's next acquire does not count them. */
  const releasing = new Set<number>();
  /** Leases whose delete failed: deleted by the next renewal, so they do not hold a place until they expire. */
  const unreleased = new Set<number>();
  let lastRenewedAt = Date.now();
  let renewing = false;

  const lapse = (ids: Iterable<number>) => {
    for (const id of [...ids]) {
      held.delete(id);
      d.onLapsed(id);
    }
  };

  return {
    processId,
    async acquire(keyId: number | null): Promise<LeaseResult> {
      const r = await d.store.acquire({ processId, keyId, leaseS: d.leaseS, caps: d.caps, closed: [...releasing, ...unreleased] });
      if (r.ok) held.add(r.id);
      return r;
    },

    release(id: number): void {
      if (!held.delete(id)) return;
      releasing.add(id);
      void d.store
        .release([id])
        .catch(() => unreleased.add(id))
        .finally(() => releasing.delete(id));
    },

    async renew(): Promise<void> {
      if (renewing || (!held.size && !unreleased.size)) {
        if (!held.size) lastRenewedAt = Date.now();
        return;
      }
      renewing = true;
      const ids = [...held];
      const release = [...unreleased];
      const startedAt = Date.now();
      try {
        const renewed = await d.store.renew({ ids, release, leaseS: d.leaseS });
        for (const id of release) unreleased.delete(id);
        lastRenewedAt = startedAt;
        // Only those still held: one closed meanwhile was released, not lapsed.
        lapse(ids.filter((id) => held.has(id) && !renewed.has(id)));
      } catch (err) {
        if (Date.now() - lastRenewedAt >= d.leaseS * 1000) {
          d.log.warn({ err: { message: (err as Error).message }, connections: held.size }, 'firehose: leases could not be renewed before they expired');
          lapse(held);
        }
      } finally {
        renewing = false;
      }
    },

    /** At shutdown: every lease of this process, released. */
    async releaseAll(): Promise<void> {
      const ids = [...held, ...unreleased];
      held.clear();
      unreleased.clear();
      await d.store.release(ids).catch(() => undefined);
    },

    get held() {
      return held.size;
    },
  };
}
export type LeaseKeeper = ReturnType<typeof createLeaseKeeper>;
