import type { Knex } from 'knex';
import type { DetectedEntry } from '../../domain/perps/entry-detection';
import { fillKey } from '../../domain/perps/fill-key';
import type { DetectedLiquidation } from '../../domain/perps/liquidation-detection';
import type { WalletFill, WalletSnapshot } from '../../domain/perps/perps-types';
import type { SmartVerdict } from '../../domain/perps/smart-rule';
import type { WalletRecord } from '../../domain/perps/wallet-record';
import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

/** Fills kept per wallet: Hyperliquid itself serves at most the newest 2000. */
export const FILLS_KEPT = 2000;
const SNAPSHOT_RETENTION_MS = 7 * 86_400_000;

export type SnapshotCommit = {
  exchange: string;
  snapshot: WalletSnapshot;
  /** When this sweep picked the wallet: a poke after it is kept for the next sweep. */
  pickedAt: Date;
  nextSnapshotAt: Date;
  newFills: WalletFill[] | null;
  record: WalletRecord | null;
  verdict: SmartVerdict | null;
  entries: DetectedEntry[];
  liquidations: DetectedLiquidation[];
};
export type SnapshotCommitResult = { snapshotStored: boolean; entriesInserted: number; smartEntryIds: number[]; liquidationsInserted: number };

/**
 * A wallet's snapshots, fills and what a snapshot detects, written together: one transaction per wallet per
 * snapshot, keyed by (wallet, snapshot time), so an activity retried after it committed changes nothing twice
 * (the retry reads this snapshot as the previous one, and equal keys are ignored).
 */
export function createPerpsSnapshotStore(handle: Db) {
  const db = knexOf(handle);
  return {
    async latestSnapshot(exchange: string, wallet: string): Promise<WalletSnapshot | null> {
      const r = await db('perps_position_snapshots').where({ exchange, wallet }).orderBy('at', 'desc').first();
      return r ? { wallet, at: r.at.getTime(), accountValueUsd: r.account_value_usd, positions: r.positions } : null;
    },

    /** The wallet's stored fills, newest `FILLS_KEPT`. */
    async fills(exchange: string, wallet: string): Promise<WalletFill[]> {
      const rows = await db('perps_wallet_fills').where({ exchange, wallet }).orderBy('time_ms', 'desc').limit(FILLS_KEPT);
      return rows.map((r: Record<string, any>) => ({
        market: r.market,
        px: r.px,
        size: r.size,
        side: r.side,
        time: Number(r.time_ms),
        startPosition: r.start_position,
        dir: r.dir,
        closedPnlUsd: r.closed_pnl_usd,
        feeUsd: r.fee_usd,
        hash: r.hash,
        liquidation: r.liquidation,
      }));
    },

    async commit(c: SnapshotCommit): Promise<SnapshotCommitResult> {
      const { exchange, snapshot: s } = c;
      const wallet = s.wallet;
      const at = new Date(s.at);
      return db.transaction(async (trx) => {
        if (c.newFills?.length) await insertFills(trx, exchange, wallet, c.newFills);
        const stored = await trx('perps_position_snapshots')
          .insert({ exchange, wallet, at, account_value_usd: s.accountValueUsd, positions: JSON.stringify(s.positions) })
          .onConflict(['exchange', 'wallet', 'at'])
          .ignore()
          .returning('at');
        const snapshotStored = stored.length > 0;
        let entryRows: { id: number; market: string; kind: string; smart: boolean }[] = [];
        let liquidationsInserted = 0;
        if (snapshotStored) {
          if (c.entries.length)
            entryRows = await trx('perps_entries')
              .insert(c.entries.map((e) => entryRow(exchange, e)))
              .onConflict(['exchange', 'wallet', 'market', 'detected_at'])
              .ignore()
              .returning(['id', 'market', 'kind', 'smart']);
          if (c.liquidations.length) {
            const l = await trx('perps_liquidations')
              .insert(
                c.liquidations.map((x) => ({
                  exchange,
                  wallet,
                  market: x.market,
                  side: x.side,
                  size: x.size,
                  liquidation_px: x.liquidationPx,
                  mark_px: x.markPx,
                  at: new Date(x.at),
                  evidence: x.evidence,
                })),
              )
              .onConflict(['exchange', 'wallet', 'market', 'at'])
              .ignore()
              .returning('at');
            liquidationsInserted = l.length;
          }
          await replacePositions(trx, exchange, s, entryRows);
          await trx('perps_position_snapshots')
            .where({ exchange, wallet })
            .andWhere('at', '<', new Date(s.at - SNAPSHOT_RETENTION_MS))
            .delete();
        }
        const lastFill = c.newFills?.length ? Math.max(...c.newFills.map((f) => f.time)) : null;
        await trx('perps_wallets')
          .where({ exchange, wallet })
          .update({
            last_snapshot_at: at,
            next_snapshot_at: c.nextSnapshotAt,
            poked_at: trx.raw('CASE WHEN poked_at <= ? THEN NULL ELSE poked_at END', [c.pickedAt]),
            ...(c.newFills ? { fills_refreshed_at: c.pickedAt, last_fill_ms: trx.raw('greatest(last_fill_ms, ?)', [lastFill]) } : {}),
            ...(c.record && c.verdict
              ? {
                  record: JSON.stringify(c.record),
                  smart: c.verdict.smart,
                  whale: c.verdict.whale,
                  smart_score: c.verdict.smartScore,
                  roi_30d: c.record.roi30d,
                  rule_version: c.verdict.ruleVersion,
                }
              : {}),
          });
        return {
          snapshotStored,
          entriesInserted: entryRows.length,
          smartEntryIds: entryRows.filter((e) => e.smart).map((e) => Number(e.id)),
          liquidationsInserted,
        };
      });
    },
  };
}
export type PerpsSnapshotStore = ReturnType<typeof createPerpsSnapshotStore>;

function entryRow(exchange: string, e: DetectedEntry) {
  return {
    exchange,
    wallet: e.wallet,
    market: e.market,
    side: e.side,
    kind: e.kind,
    size: e.size,
    position_size: e.positionSize,
    entry_px: e.entryPx,
    price_at_detection: e.priceAtDetection,
    position_value_usd: e.positionValueUsd,
    notional_usd: e.notionalUsd,
    leverage: e.leverage,
    wallet_roi_30d: e.walletRoi30d,
    smart_score: e.smartScore,
    smart: e.smart,
    whale: e.whale,
    rule_version: e.ruleVersion,
    entry_rule_version: e.entryRuleVersion,
    detected_at: new Date(e.detectedAt),
  };
}

async function insertFills(trx: Knex.Transaction, exchange: string, wallet: string, fills: WalletFill[]): Promise<void> {
  for (let i = 0; i < fills.length; i += 1000) {
    await trx('perps_wallet_fills')
      .insert(
        fills.slice(i, i + 1000).map((f) => ({
          exchange,
          wallet,
          fill_key: fillKey(f),
          time_ms: f.time,
          market: f.market,
          px: f.px,
          size: f.size,
          side: f.side,
          start_position: f.startPosition,
          dir: f.dir,
          closed_pnl_usd: f.closedPnlUsd,
          fee_usd: f.feeUsd,
          hash: f.hash,
          liquidation: f.liquidation,
        })),
      )
      .onConflict(['exchange', 'wallet', 'fill_key'])
      .ignore();
  }
  await trx.raw(
    `DELETE FROM perps_wallet_fills WHERE exchange = ? AND wallet = ? AND time_ms < (
       SELECT time_ms FROM perps_wallet_fills WHERE exchange = ? AND wallet = ? ORDER BY time_ms DESC OFFSET ? LIMIT 1)`,
    [exchange, wallet, exchange, wallet, FILLS_KEPT - 1],
  );
}

/**
 * The wallet's open positions become the snapshot's. A position keeps the time it was opened while it stays on
 * the same side: the detection time of the entry that opened it, or, for one already open when watching began,
 * the first snapshot that showed it.
 */
async function replacePositions(trx: Knex.Transaction, exchange: string, s: WalletSnapshot, entries: { id: number; market: string; kind: string }[]) {
  const at = new Date(s.at);
  const markets = s.positions.map((p) => p.market);
  await trx('perps_positions')
    .where({ exchange, wallet: s.wallet })
    .modify((q) => (markets.length ? q.whereNotIn('market', markets) : q))
    .delete();
  if (!s.positions.length) return;
  const opening = new Map(entries.filter((e) => e.kind === 'new').map((e) => [e.market, Number(e.id)]));
  await trx.raw(
    `INSERT INTO perps_positions AS p (exchange, wallet, market, side, size, entry_px, position_value_usd, leverage, unrealized_pnl_usd, liquidation_px, opened_at, opening_entry_id, updated_at)
     SELECT ?, ?, x.market, x.side, x.size, x.entry_px, x.position_value_usd, x.leverage, x.unrealized_pnl_usd, x.liquidation_px, ?, x.opening_entry_id, ?
     FROM jsonb_to_recordset(?::jsonb) AS x(market text, side text, size float8, entry_px float8, position_value_usd float8, leverage float8,
       unrealized_pnl_usd float8, liquidation_px float8, opening_entry_id bigint)
     ON CONFLICT (exchange, wallet, market) DO UPDATE SET
       opened_at = CASE WHEN p.side <> excluded.side OR excluded.opening_entry_id IS NOT NULL THEN excluded.opened_at ELSE p.opened_at END,
       opening_entry_id = CASE WHEN p.side <> excluded.side OR excluded.opening_entry_id IS NOT NULL THEN excluded.opening_entry_id ELSE p.opening_entry_id END,
       side = excluded.side, size = excluded.size, entry_px = excluded.entry_px, position_value_usd = excluded.position_value_usd,
       leverage = excluded.leverage, unrealized_pnl_usd = excluded.unrealized_pnl_usd, liquidation_px = excluded.liquidation_px, updated_at = excluded.updated_at`,
    [
      exchange,
      s.wallet,
      at,
      at,
      JSON.stringify(
        s.positions.map((p) => ({
          market: p.market,
          side: p.side,
          size: p.size,
          entry_px: p.entryPx,
          position_value_usd: p.positionValueUsd,
          leverage: p.leverage,
          unrealized_pnl_usd: p.unrealizedPnlUsd,
          liquidation_px: p.liquidationPx,
          opening_entry_id: opening.get(p.market) ?? null,
        })),
      ),
    ],
  );
}
