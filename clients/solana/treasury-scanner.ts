import type { TreasuryTransaction } from '../../domain/billing/treasury-transaction';
import type { TreasuryRpc } from './treasury-rpc-client';

/** Where a scan records what it read, and how it knows what it read before (db/billing/treasury-store.ts). */
export type TreasuryLedger = {
  known(address: string, signatures: string[]): Promise<Set<string>>;
  record(treasury: string, address: string, txs: TreasuryTransaction[], seenAt: Date): Promise<void>;
};

export type ScanReport = { listed: number; recorded: number; startedAt: Date };

/**
 * Reads the treasury's new transactions into Postgres, for every open intent at once: one intent's poll triggers
 * a scan, and every poll in this worker within `maxAgeMs` of its start (or while it runs) shares it. Several
 * workers scanning at once only repeat idempotent inserts.
 *
 * A scan lists each watched address in turn: the treasury wallet, then its holder-token accounts (a token transfer
 * to an existing token account does not name the owner wallet, so the wallet's listing never shows it). For each,
 * it lists signatures newest first until it reaches one already recorded for that address, or one older than
 * `since` (the oldest open intent's creation), then fetches and records the new transactions oldest first.
 * Recording in that order keeps what is stored contiguous: a scan cut short by a failing node leaves no hole behind
 * the newest recorded signature, where the next listing of that address stops.
 */
export function createTreasuryScanner(d: {
  rpc: TreasuryRpc;
  store: TreasuryLedger;
  treasury: string;
  tokenAccounts?: string[];
  now: () => Date;
  pageSize?: number;
  maxPages?: number;
}) {
  const pageSize = d.pageSize ?? 100;
  const maxPages = d.maxPages ?? 20;
  const watched = [d.treasury, ...(d.tokenAccounts ?? [])];
  let running: Promise<ScanReport> | null = null;
  let lastStartedAt = -Infinity;

  async function listNew(address: string, since: Date): Promise<string[]> {
    const fresh: string[] = [];
    let before: string | undefined;
    for (let page = 0; page < maxPages; page++) {
      const sigs = await d.rpc.recentSignatures({ address, before, limit: pageSize });
      const known = await d.store.known(
        address,
        sigs.map((s) => s.signature),
      );
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
    return fresh.reverse();
  }

  async function scan(since: Date): Promise<ScanReport> {
    const startedAt = d.now();
    let listed = 0;
    let recorded = 0;
    for (const address of watched) {
      const fresh = await listNew(address, since);
      listed += fresh.length;
      for (const signature of fresh) {
        // A transaction listed under two addresses is fetched again: rare (the payment that creates the token
        // account), and it keeps each address's record contiguous without a second code path.
        const tx: TreasuryTransaction | null = await d.rpc.transaction(signature);
        // Listed but not served yet: stop here so the next scan picks it (and everything newer) up again.
        if (!tx) break;
        await d.store.record(d.treasury, address, [tx], d.now());
        recorded++;
      }
    }
    return { listed, recorded, startedAt };
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
