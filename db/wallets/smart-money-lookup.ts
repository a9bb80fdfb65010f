import type { SmartMoney, TopBuyerRef } from '../../domain/live/mint-smart-money';
import { smartMoneyOnMint } from '../../domain/wallets/smart-money';
import type { SmartCriteria, SmartScoreVersion } from '../../domain/wallets/smart-score';
import type { WalletCounts } from '../../domain/wallets/wallet-record';
import { createScoreVersionStore } from './score-version-store';
import { createWalletReadStore } from './wallet-read-store';
import type { Db } from '../db-handle';

type Counts = Pick<WalletCounts, 'total' | 'graduated' | 'rugged'>;

/**
 * Smart money of many mints at once, for the live read model: the top buyers' records by their FULL addresses (a
 * prefix twin can never lend a buyer its record), the published score version, and the criteria. The projector asks
 * every refresh for ~10 top buyers of ~500 live mints, and records change only when a mint resolves (24 h after its
 * launch), so each wallet's counts (or its absence from the index) are reused for `ttlMs`; only wallets not looked
 * up within it cost a query, one for all of them.
 */
export function createSmartMoneyLookup(handle: Db, o: { ttlMs: number; criteria: SmartCriteria; now?: () => number }) {
  const reads = createWalletReadStore(handle);
  const versions = createScoreVersionStore(handle);
  const now = o.now ?? Date.now;
  const known = new Map<string, { at: number; counts: Counts | null }>();
  let version: { at: number; v: SmartScoreVersion } | undefined;

  return {
    async smartMoney(topBuyers: ReadonlyMap<string, readonly TopBuyerRef[]>): Promise<Map<string, SmartMoney>> {
      const t = now();
      for (const [w, e] of known) if (t - e.at >= o.ttlMs) known.delete(w);
      if (!version || t - version.at >= o.ttlMs) version = { at: t, v: await versions.active() };
      const wanted = new Set<string>();
      for (const buyers of topBuyers.values()) for (const b of buyers) if (!known.has(b.wallet)) wanted.add(b.wallet);
      if (wanted.size) {
        const found = await reads.countsOf([...wanted]);
        for (const w of wanted) known.set(w, { at: t, counts: found.get(w) ?? null });
      }
      const records = new Map<string, Counts>();
      for (const [w, e] of known) if (e.counts) records.set(w, e.counts);
      const out = new Map<string, SmartMoney>();
      for (const [mint, buyers] of topBuyers) out.set(mint, smartMoneyOnMint(buyers, records, version.v, o.criteria));
      return out;
    },
  };
}
export type SmartMoneyLookup = ReturnType<typeof createSmartMoneyLookup>;
