import type { KnexDb } from '../../db/knex-handle';

export type TestPerpsEntry = { detectedAt: Date; market?: string; side?: 'long' | 'short'; smart?: boolean; size?: number; wallet?: string };

let seq = 0;

/**
 * A perps entry row as the snapshot sweep writes it (db/perps/perps-snapshot-store.ts), for ledger tests: smart
 * unless told, on the simulator's exchange; each call gets its own wallet unless one is named (entries are unique
 * per wallet, market and moment). Returns its id.
 */
export async function insertPerpsEntry(db: KnexDb, e: TestPerpsEntry): Promise<number> {
  seq++;
  const size = e.size ?? 1.5 + seq / 8;
  const [row] = await db('perps_entries')
    .insert({
      exchange: 'hyperliquid-sim',
      wallet: e.wallet ?? `0x${seq.toString(16).padStart(40, '0')}`,
      market: e.market ?? 'ETH',
      side: e.side ?? 'long',
      kind: 'new',
      size,
      position_size: size,
      entry_px: 2000.25,
      price_at_detection: 2001.5,
      position_value_usd: size * 2001.5,
      notional_usd: size * 2001.5,
      leverage: 5,
      wallet_roi_30d: 0.125,
      smart_score: 0.8,
      smart: e.smart ?? true,
      whale: false,
      rule_version: 'perps-smart-v1',
      entry_rule_version: 'entry-v1',
      detected_at: e.detectedAt,
    })
    .returning('id');
  return Number(row.id);
}
