import type { Knex } from 'knex';
import { applyResolvedMints, type ApplyResult } from './contribution-writer';
import { readResolvedMints, type MintToApply } from './resolved-mint-reader';
import type { WalletTableSet } from './wallet-tables';
import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

/**
 * Applies resolved mints to a table set: reads their trades, labels and checkpoints, computes every buyer's
 * contribution (domain/wallets/wallet-contribution.ts) and writes them in one transaction (contribution-writer.ts).
 * Idempotent by (mint, wallet): applying a mint again changes nothing unless what it contributes changed (a repaired
 * label, a backfilled trade), and then moves its buyers' counts once. `unresolved`: mints without an outcome yet.
 */
export function createWalletIndexWriter(handle: Db) {
  const db = knexOf(handle);
  return {
    async apply(tables: WalletTableSet, mints: readonly MintToApply[], trx?: Knex.Transaction): Promise<ApplyResult & { unresolved: string[] }> {
      const resolved = await readResolvedMints(trx ?? db, mints);
      const done = new Set(resolved.map((r) => r.create.mint));
      const unresolved = mints.filter((m) => !done.has(m.mint)).map((m) => m.mint);
      const r = trx ? await applyResolvedMints(trx, tables, resolved) : await db.transaction((t) => applyResolvedMints(t, tables, resolved));
      return { ...r, unresolved };
    },
  };
}
export type WalletIndexWriter = ReturnType<typeof createWalletIndexWriter>;
