import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

/**
 * A demo market's smart wallets: the simulator draws its "smart" traders from a standing population, but on a
 * fresh machine no mint resolves for 24 h, so the wallet index would know none of them and no composite signal
 * could cross for a day. With the simulator feed (and SIMULATOR_SEED_SMART_WALLETS on) the ingest daemon writes
 * each of them a record that meets the smart criteria: 12 resolved launches, 8 graduated, none rugged. Only
 * wallets absent from the index are written, so a record the real index has built is never touched. Never used
 * with a real feed.
 */
export const SIMULATED_SMART_RECORD = { total: 12, graduated: 8, ran: 6, mid: 2, rugged: 0 } as const;

export async function seedSimulatedSmartWallets(handle: Db, wallets: readonly string[], at: Date): Promise<number> {
  const db = knexOf(handle);
  if (!wallets.length) return 0;
  const r = SIMULATED_SMART_RECORD;
  const rows = wallets.map((wallet) => ({
    wallet,
    total: r.total,
    graduated: r.graduated,
    ran: r.ran,
    mid: r.mid,
    rugged: r.rugged,
    fast_snipes: 0,
    sniped_rugged: 0,
    early: r.total,
    early_graduated: r.graduated,
    buys: r.total * 2,
    sol_invested_lamports: r.total * 1_000_000_000,
    first_seen_at: at,
    last_seen_at: at,
    updated_at: at,
  }));
  const res = await db('wallet_records').insert(rows).onConflict('wallet').ignore().returning('wallet');
  return res.length;
}
