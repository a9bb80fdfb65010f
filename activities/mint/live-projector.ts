import type { GateStore } from '../../db/accuracy/gate-store';
import type { CreatorStore } from '../../db/mint/creator-store';
import { LIVE_DELAYED_SNAPSHOT, LIVE_SNAPSHOT, type LiveStore, type LiveMintRow } from '../../db/mint/live-store';
import { pairKey, type MintReadStore } from '../../db/mint/mint-read-store';
import type { PriceStore } from '../../db/market/price-store';
import { SURVIVAL_GATE } from '../../domain/accuracy/survival-gate';
import { creatorRecord } from '../../domain/mint/creator-record';
import { enrichMint, type EnrichedMint } from '../../domain/mint/enriched-mint';
import { MintTape } from '../../domain/mint/mint-tape';
import { LABEL_VERSION } from '../../domain/mint/outcome-labels';
import { unknownBuyers } from '../../domain/mint/wallet-freshness';
import { FREE_LIVE_DELAY_S } from '../../domain/access/operation-tiers';
import { createLiveDelayLine } from '../../domain/mint/live-delay-line';

export type LiveProjectorDeps = {
  liveStore: LiveStore;
  mintReadStore: MintReadStore;
  creatorStore: CreatorStore;
  gateStore: GateStore;
  priceStore: PriceStore;
  /** Mints younger than this are tracked on the live list. */
  liveWindowS: number;
  /** Most entries the snapshot keeps (best first). */
  liveMaxEntries: number;
  refreshIntervalS: number;
  now: () => Date;
};

type Tracked = { row: LiveMintRow; tape: MintTape; freshness: Map<string, boolean> };

/**
 * Keeps the live list current: folds new trades into per-mint tapes incrementally (by trade seq), drops
 * mints that leave the window, and writes one pre-serialized snapshot that the API serves as is. State lives
 * in this worker's memory and is rebuilt from Postgres after a restart, bounded by the live window.
 */
export function createLiveProjector(d: LiveProjectorDeps) {
  const tracked = new Map<string, Tracked>();
  let lastSeq = -1;
  const delayLine = createLiveDelayLine(FREE_LIVE_DELAY_S, 15);

  async function coldStart(since: Date) {
    const rows = await d.liveStore.mintsSince(since);
    lastSeq = await d.liveStore.maxTradeSeq();
    for (const row of rows) tracked.set(row.mint, { row, tape: new MintTape(row), freshness: new Map() });
    for (const t of await d.liveStore.tradesOf(rows.map((r) => r.mint))) tracked.get(t.mint)?.tape.apply(t);
  }

  async function refresh(): Promise<{ version: number; tracked: number; listed: number; tradesApplied: number }> {
    const now = d.now();
    const since = new Date(now.getTime() - d.liveWindowS * 1000);
    let tradesApplied = 0;
    if (lastSeq < 0) await coldStart(since);
    else {
      for (const row of await d.liveStore.mintsSince(since)) {
        const t = tracked.get(row.mint);
        if (!t) tracked.set(row.mint, { row, tape: new MintTape(row), freshness: new Map() });
        else t.row = row; // picks up graduation
      }
      for (;;) {
        const { trades, lastSeq: next } = await d.liveStore.tradesAfter(lastSeq, 20_000);
        for (const t of trades) {
          const m = tracked.get(t.mint);
          if (m) {
            m.tape.apply(t);
            tradesApplied++;
          }
        }
        lastSeq = next;
        if (trades.length < 20_000) break;
      }
    }
    for (const [mint, t] of tracked) if (t.row.at.getTime() < since.getTime()) tracked.delete(mint);

    // Each buyer's freshness is looked up once per mint, all new buyers in one query.
    const pairs = [...tracked.values()].flatMap((t) => unknownBuyers(t.tape, t.freshness).map((wallet) => ({ mint: t.row.mint, wallet })));
    const seen = await d.mintReadStore.walletsWithHistory(pairs);
    for (const p of pairs) tracked.get(p.mint)!.freshness.set(p.wallet, !seen.has(pairKey(p.mint, p.wallet)));

    const mints = [...tracked.keys()];
    const [predictions, creators, price, gate] = await Promise.all([
      d.liveStore.latestPredictions(mints),
      d.creatorStore.aggregates([...new Set([...tracked.values()].map((t) => t.row.creator))], LABEL_VERSION),
      d.priceStore.latestQuote('SOL'),
      d.gateStore.read(SURVIVAL_GATE.name),
    ]);
    const entries: EnrichedMint[] = [];
    for (const t of tracked.values()) {
      entries.push(
        enrichMint({
          tape: t.tape,
          now,
          prediction: predictions.get(t.row.mint) ?? null,
          // Live mints are younger than the 24 h horizon: none is part of its creator's resolved record yet.
          creator: creatorRecord(creators.get(t.row.creator) ?? null),
          solUsd: price?.usd ?? null,
          freshness: t.freshness,
          graduatedAt: t.row.graduatedAt,
          survivalLive: gate?.state === 'live',
        }),
      );
    }
    // The dashboard hides flagged mints; /probe still returns them.
    const listed = entries.filter((e) => e.hide_reason === null);
    listed.sort((a, b) => (b.grad_prob ?? -1) - (a.grad_prob ?? -1) || b.created_at.localeCompare(a.created_at));
    const top = listed.slice(0, d.liveMaxEntries);
    const list = { generated_at: now.toISOString(), refresh_interval_s: d.refreshIntervalS, delay_s: 0, total_tracked: listed.length, count: top.length, mints: top };
    const version = await d.liveStore.writeSnapshot(LIVE_SNAPSHOT, JSON.stringify(list), top.length, now);
    const due = delayLine.offer(now, () => ({ count: top.length, body: JSON.stringify({ ...list, delay_s: FREE_LIVE_DELAY_S }) }));
    if (due) await d.liveStore.writeSnapshot(LIVE_DELAYED_SNAPSHOT, due.body, due.count, due.builtAt);
    return { version, tracked: tracked.size, listed: top.length, tradesApplied };
  }

  return {
    /** Serialised: two overlapping refreshes on one worker would fold the same trades twice. */
    refreshLiveSnapshot: (() => {
      let running: Promise<unknown> = Promise.resolve();
      return () => {
        const next = running.then(refresh, refresh);
        running = next.catch(() => undefined);
        return next;
      };
    })(),
  };
}
export type LiveProjectorActivities = ReturnType<typeof createLiveProjector>;
