import type { TreasuryRpc } from '../../clients/solana/treasury-rpc-client';
import type { TreasuryTransaction } from '../../clients/solana/treasury-transaction';
import type { TreasuryStore } from '../../db/billing/treasury-store';

export type ScanReport = { listed: number; recorded: number; startedAt: Date };

/**
 * Reads the treasury's new transactions into Postgres, for every open intent at once: one intent's poll triggers
 * a scan, and every poll in this worker within `maxAgeMs` of its start (or while it runs) shares it. Several
 * workers scanning at once only repeat idempotent inserts.
 *
 * A scan lists signatures newest first until it reaches one already recorded, or one older than `since` (the
 * oldest open intent's creation), then fetches and records the new transactions oldest first. Recording in that
 * order keeps what is stored contiguous: a scan cut short by a failing node leaves no hole behind the newest
 * recorded signature, where the next scan stops listing.
 */
export function createTreasuryScanner(d: { rpc: TreasuryRpc; store: TreasuryStore; treasury: string; now: () => Date; pageSize?: number; maxPages?: number }) {
  const pageSize = d.pageSize ?? 100;
  const maxPages = d.maxPages ?? 20;
  let running: Promise<ScanReport> | null = null;
  let lastStartedAt = -Infinity;

  async function scan(since: Date): Promise<ScanReport> {
    const startedAt = d.now();
    const fresh: string[] = [];
    let before: string | undefined;
    for (let page = 0; page < maxPages; page++) {
      const sigs = await d.rpc.recentSignatures({ before, limit: pageSize });
      const known = await d.store.known(d.treasury, sigs.map((s) => s.signature));
      let reachedKnown = false;
      for (const s of sigs) {
        if (known.has(s.signature)) {
          reachedKnown = true;
          break;
        }
        fresh.push(s.signature);
      }
      const oldest = sigs[sigs.length - 1];
      if (reachedKnown || !oldest || sigs.length < pageSize || (oldest.blockTime && oldest.blockTime < since)) break;
      before = oldest.signature;
    }
    let recorded = 0;
    for (const signature of fresh.reverse()) {
      const tx: TreasuryTransaction | null = await d.rpc.transaction(signature);
      // Listed but not served yet: stop here so the next scan picks it (and everything newer) up again.
      if (!tx) break;
      await d.store.record(d.treasury, [tx], d.now());
      recorded++;
    }
    return { listed: fresh.length, recorded, startedAt };
  }

  return {
    async ensureFresh(maxAgeMs: number, since: Date): Promise<ScanReport | null> {
      if (running) return running;
      if (d.now().getTime() - lastStartedAt < maxAgeMs) return null;
      lastStartedAt = d.now().getTime();
      running = scan(since).finally(() => {
        running = null;
      });
      try {
        return await running;
      } catch (e) {
        // A failed scan does not count as fresh: the next poll scans again.
        lastStartedAt = -Infinity;
        throw e;
      }
    },
  };
}
export type TreasuryScanner = ReturnType<typeof createTreasuryScanner>;
