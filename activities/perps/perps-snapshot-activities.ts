import { toWalletFill, type HlClearinghouseState } from '../../clients/hyperliquid/hyperliquid-mapping';
import { HyperliquidError, type HyperliquidInfoClient } from '../../clients/hyperliquid/hyperliquid-info-client';
import type { PerpsMarketStore } from '../../db/perps/perps-market-store';
import type { PerpsPollerStore } from '../../db/perps/perps-poller-store';
import type { PerpsSnapshotStore } from '../../db/perps/perps-snapshot-store';
import type { PerpsWalletStore, WatchedWalletRow } from '../../db/perps/perps-wallet-store';
import { detectEntries } from '../../domain/perps/entry-detection';
import { fillKey } from '../../domain/perps/fill-key';
import { detectLiquidations } from '../../domain/perps/liquidation-detection';
import type { WalletFill, WalletSnapshot } from '../../domain/perps/perps-types';
import { isWhalePosition, judgeWallet, PERPS_SMART_V1, type SmartVerdict } from '../../domain/perps/smart-rule';
import {
  budgetedCadence,
  fillsRefreshDue,
  nextSnapshotDelayS,
  snapshotCapacityPerS,
  walletsPerSweep,
  type SnapshotCadence,
} from '../../domain/perps/snapshot-policy';
import { walletRecord, type WalletRecord } from '../../domain/perps/wallet-record';
import type { SnapshotBatchResult, SnapshotPlan, SweepResult } from '../../workflows/perps/perps-snapshot-sweep-contract';
import { heartbeat } from '../activity-heartbeat';

export type PerpsSnapshotDeps = {
  exchange: string;
  info: HyperliquidInfoClient;
  walletStore: PerpsWalletStore;
  snapshotStore: PerpsSnapshotStore;
  marketStore: PerpsMarketStore;
  pollerStore: PerpsPollerStore;
  weightPerMinute: number;
  snapshotBudgetShare: number;
  snapshotSweepS: number;
  snapshotHotS: number;
  snapshotColdS: number;
  recordRefreshS: number;
  now: () => Date;
};

/** A previous snapshot older than this is no baseline: positions opened long ago would pass for fresh entries. */
const maxSnapshotGapMs = (d: PerpsSnapshotDeps) => Math.max(4 * d.snapshotColdS, 3600) * 1000;

export function createPerpsSnapshotActivities(d: PerpsSnapshotDeps) {
  /** The cadence the budget keeps for the watched set as it is now (snapshot-policy.ts: budgetedCadence). */
  async function cadenceNow(): Promise<SnapshotCadence> {
    const c = await d.walletStore.counts();
    const mix = { hot: c.watchedHot, cold: c.watched - c.watchedHot };
    return budgetedCadence(mix, { hotS: d.snapshotHotS, coldS: d.snapshotColdS }, snapshotCapacityPerS(d.weightPerMinute, d.snapshotBudgetShare));
  }

  async function snapshotOne(w: string, pickedAt: Date, marks: Record<string, number>, cadence: SnapshotCadence, out: SnapshotBatchResult): Promise<void> {
    const row = await d.walletStore.wallet(d.exchange, w);
    if (!row) return;
    const state: HlClearinghouseState = await d.info.clearinghouseState(w);
    const next: WalletSnapshot = { wallet: state.wallet, at: state.at, accountValueUsd: state.accountValueUsd, positions: state.positions };
    let prev = await d.snapshotStore.latestSnapshot(d.exchange, w);
    if (prev && (next.at - prev.at > maxSnapshotGapMs(d) || next.at < prev.at)) prev = null;
    const now = d.now().getTime();

    let newFills: WalletFill[] | null = null;
    if (fillsRefreshDue({ prev, next, lastRefreshAt: row.fillsRefreshedAt?.getTime() ?? null, now, minIntervalS: d.recordRefreshS })) {
      try {
        // Incrementally from a minute before the last fill held (fills are keyed, so the overlap costs nothing).
        const wire = row.lastFillMs === null ? await d.info.userFills(w) : await d.info.userFillsByTime(w, Math.max(0, row.lastFillMs - 60_000));
        newFills = wire.map(toWalletFill);
        out.fillRefreshes++;
      } catch (e) {
        if (e instanceof HyperliquidError && e.retryable) throw e;
        out.fillFailures++;
      }
    }
    let record: WalletRecord | null = null;
    let verdict: SmartVerdict;
    if (newFills) {
      const known = await d.snapshotStore.fills(d.exchange, w);
      const seen = new Set(known.map(fillKey));
      const all = [...known, ...newFills.filter((f) => !seen.has(fillKey(f)))];
      record = walletRecord(w, all, next, next.at);
      verdict = judgeWallet(record);
    } else verdict = storedVerdict(row, next);

    const entries = detectEntries(prev, next, { marks, walletRoi30d: record?.roi30d ?? row.roi30d, verdict });
    const liquidations = prev ? detectLiquidations(prev, next, marks, newFills) : [];
    const hot = verdict.smart || verdict.whale;
    const r = await d.snapshotStore.commit({
      exchange: d.exchange,
      snapshot: next,
      pickedAt,
      nextSnapshotAt: new Date(now + nextSnapshotDelayS(hot, cadence) * 1000),
      newFills,
      record,
      verdict,
      entries,
      liquidations,
    });
    out.snapshotted++;
    out.entries += r.entriesInserted;
    out.smartEntries += r.smartEntryIds.length;
    out.liquidations += r.liquidationsInserted;
  }

  return {
    /** The wallets this sweep snapshots: due ones, poked ones first, as many as its share of the budget allows. */
    async planPerpsSnapshots(): Promise<SnapshotPlan> {
      const now = d.now();
      const limit = walletsPerSweep(d.weightPerMinute, d.snapshotBudgetShare, d.snapshotSweepS);
      const due = await d.walletStore.due(d.exchange, now, limit);
      const oldest = due.reduce<number | null>((m, w) => (m === null ? w.dueAt.getTime() : Math.min(m, w.dueAt.getTime())), null);
      return {
        pickedAt: now.toISOString(),
        wallets: due.map((w) => w.wallet),
        limit,
        maxLatenessS: oldest === null ? null : Math.max(0, (now.getTime() - oldest) / 1000),
      };
    },

    /**
     * Snapshots a batch of wallets one by one within the weight budget, heartbeating after each: entries and
     * liquidations from consecutive snapshots, the record when fills were read, all written per wallet in one
     * transaction. An exchange that is down fails the batch (retried); a wallet whose answer is unusable is
     * counted and left to its next turn.
     */
    async snapshotPerpsWallets(input: { wallets: string[]; pickedAt: string }): Promise<SnapshotBatchResult> {
      const pickedAt = new Date(input.pickedAt);
      const marks = await d.marketStore.marks(d.exchange);
      const cadence = await cadenceNow();
      const out: SnapshotBatchResult = { snapshotted: 0, entries: 0, smartEntries: 0, liquidations: 0, fillRefreshes: 0, fillFailures: 0, failed: 0 };
      for (const [i, w] of input.wallets.entries()) {
        heartbeat({ done: i, of: input.wallets.length, ...out });
        try {
          await snapshotOne(w, pickedAt, marks, cadence, out);
        } catch (e) {
          if (e instanceof HyperliquidError && e.retryable) throw e;
          if (!(e instanceof HyperliquidError)) throw e;
          out.failed++;
          await d.walletStore.defer(d.exchange, w, new Date(d.now().getTime() + d.snapshotColdS * 1000), pickedAt).catch(() => undefined);
        }
      }
      return out;
    },

    async recordPerpsSweep(r: SweepResult): Promise<void> {
      const budget = d.info.budget.stats();
      await d.pollerStore.ok('snapshots', d.exchange, d.now(), { ...r, weightSpent: budget.spent, weightWaitedMs: budget.waitedMs });
    },

    async recordPerpsPollerFailure(input: { name: 'snapshots' | 'markets' | 'rankings'; error: string }): Promise<void> {
      await d.pollerStore.failed(input.name, d.exchange, d.now(), input.error);
    },
  };
}
export type PerpsSnapshotActivities = ReturnType<typeof createPerpsSnapshotActivities>;

/** Without fresh fills the stored record stands; whether the wallet is a whale depends on what it holds now. */
function storedVerdict(row: WatchedWalletRow, next: WalletSnapshot): SmartVerdict {
  const largestPositionUsd = next.positions.reduce((m, p) => Math.max(m, p.positionValueUsd), 0);
  if (row.record) return judgeWallet({ ...row.record, largestPositionUsd });
  return {
    ruleVersion: PERPS_SMART_V1.id,
    smart: false,
    whale: isWhalePosition(largestPositionUsd),
    smartScore: null,
    unmet: ['roi30d', 'closedEntries', 'winRate'],
  };
}
