import type { MintState } from '../../db/mint/mint-states';
import type { PriceStore } from '../../db/market/price-store';
import type { CompositePredictionStore, CrossSnapshot } from '../../db/signals/composite-prediction-store';
import type { SignalStore } from '../../db/signals/signal-store';
import type { ThresholdStateStore } from '../../db/signals/threshold-state-store';
import { COMPOSITE_LEAF_V1 } from '../../domain/ledger/composite-leaf';
import type { EnrichedMint } from '../../domain/live/enriched-mint';
import type { MintTape } from '../../domain/launch/mint-tape';
import { inCompositeWindow } from '../../domain/signals/composite-score';
import { evaluateCross, type NativePrice } from '../../domain/signals/cross-rules';
import { resolvesAtMs } from '../../domain/signals/resolution';
import { RollingThreshold, type ThresholdReading } from '../../domain/signals/rolling-threshold';
import { sampleRefresh } from '../../domain/signals/score-sampling';
import { buildSignal, type SignalMintFacts } from '../../domain/signals/signal-payload';
import { decideTier, tierRules } from '../../domain/signals/tier-rules';
import type { Logger } from '../../platform/logger';

/** The one writer of the threshold today: the live projector (one per deployment, its workflow id is the lock). */
export const THRESHOLD_WRITER_ID = 'live-projector';
/** Pending crosses read per refresh (a handful exist at any time: each waits at most 75 s of age). */
const PENDING_PER_REFRESH = 200;

export type EvaluatedMint = { state: MintState; mint: EnrichedMint; smartMoneyIn: number };

export type CompositeEvaluatorDeps = {
  thresholdStore: ThresholdStateStore;
  predictionStore: CompositePredictionStore;
  signalStore: SignalStore;
  priceStore: Pick<PriceStore, 'latestQuote'>;
  tierRulesVersion: string;
  nativePriceRefreshS: number;
  thresholdSaveS: number;
  log: Pick<Logger, 'warn' | 'info'>;
};

export type EvaluationResult = { samples: number; threshold: ThresholdReading; crosses: number; withheld: number; delivered: number };

export const maxMultOf = (tape: MintTape): number => tape.peakPrice / tape.launchPrice;

/** The k-NN feature of the same name: the largest non-creator net holder's share of non-creator holdings. */
export function topBuyerShareOf(tape: MintTape): number {
  let held = 0;
  let top = 0;
  for (const [wallet, p] of tape.wallets) {
    if (wallet === tape.create.creator) continue;
    held += p.tokens;
    top = Math.max(top, p.tokens);
  }
  return held > 0 ? top / held : 0;
}

/** Scalars only: the mint's creator, top buyers and wallet prefixes are never copied into the snapshot. */
function factsOf(m: EnrichedMint): SignalMintFacts {
  return {
    mint: m.mint,
    name: m.name,
    symbol: m.symbol,
    trades: m.trades,
    unique_buyers: m.unique_buyers,
    v_sol: m.v_sol,
    current_mult: m.current_mult,
    curve_progress: m.curve_progress,
    rug_prob: m.rug_prob,
    runner_prob_5x_from_now: m.runner_prob_5x_from_now,
    n_launches_resolved: m.n_launches_resolved,
    rate_5x: m.rate_5x,
    runner_creator: m.runner_creator,
    rug_heuristic: m.rug_heuristic,
    signals: m.signals,
  };
}

/**
 * Re-evaluates the composite signal at every live refresh (the projector already holds every tracked mint's
 * state and its smart money): samples the rolling threshold, records first crosses, and delivers each pending
 * cross once its tier is known; between refreshes, `evaluateCrosses` does the same for the mints that traded. The
 * threshold lives in memory and is saved every `thresholdSaveS` (and loaded at the first refresh), so a restart
 * of any process keeps it; the sampler's watermark is saved with the counts, so what a crash loses is sampled
 * again from the rebuilt tapes. A save that finds another process saved since (the
 * projector's activity ran on another worker) reloads that state instead of overwriting it.
 */
export function createCompositeEvaluator(d: CompositeEvaluatorDeps) {
  let threshold: RollingThreshold | null = null;
  let generation: number | null = null;
  let savedAtMs = 0;
  /** Tracked mints whose first-cross state is known: true once crossed. */
  const crossed = new Map<string, boolean>();

  async function load(): Promise<RollingThreshold> {
    const stored = await d.thresholdStore.load(THRESHOLD_WRITER_ID);
    generation = stored?.generation ?? null;
    if (!stored) return new RollingThreshold();
    try {
      return RollingThreshold.deserialize(stored.state);
    } catch (err) {
      d.log.warn({ err: String(err) }, 'composite threshold state refused; starting a new history');
      return new RollingThreshold();
    }
  }

  async function save(t: RollingThreshold, atMs: number): Promise<void> {
    const next = await d.thresholdStore.save(THRESHOLD_WRITER_ID, generation, t.serialize(), new Date(atMs));
    savedAtMs = atMs;
    if (next !== null) generation = next;
    else {
      d.log.info({}, 'composite threshold saved by another process since; reloading it');
      threshold = await load();
    }
  }

  async function knowCrossed(mints: readonly string[]): Promise<void> {
    const unknown = mints.filter((m) => !crossed.has(m));
    if (!unknown.length) return;
    const done = await d.predictionStore.crossed(unknown);
    for (const m of unknown) crossed.set(m, done.has(m));
  }

  async function recordCrosses(items: readonly EvaluatedMint[], reading: ThresholdReading, atMs: number): Promise<{ crosses: number; withheld: number }> {
    let crosses = 0;
    let withheld = 0;
    const open = items.filter((i) => inCompositeWindow((atMs - i.state.row.at.getTime()) / 1000) && i.smartMoneyIn > 0);
    if (reading.value === null || !open.length) return { crosses, withheld };
    await knowCrossed(open.map((i) => i.state.row.mint));
    const quote = await d.priceStore.latestQuote('SOL');
    const nativePrice: NativePrice | null = quote ? { usd: quote.usd, fetchedAtMs: quote.fetchedAt.getTime() } : null;
    const rules = tierRules(d.tierRulesVersion);
    for (const i of open) {
      const { row, tape } = i.state;
      const decision = evaluateCross({
        mayhem: row.mayhem,
        alreadyCrossed: crossed.get(row.mint) === true,
        ageS: (atMs - row.at.getTime()) / 1000,
        smartMoneyIn: i.smartMoneyIn,
        maxMult: maxMultOf(tape),
        threshold: reading,
        priceSol: tape.price,
        nativePrice,
        nativePriceRefreshS: d.nativePriceRefreshS,
        atMs,
      });
      if (!decision.crossed) {
        if (decision.reason === 'native_price_unknown' || decision.reason === 'native_price_stale') {
          withheld++;
          await d.predictionStore.recordWithheld(row.mint, decision.reason, new Date(atMs));
        }
        continue;
      }
      const gp = (await d.predictionStore.gradProbs([row.mint])).get(row.mint);
      const snapshot: CrossSnapshot = { facts: factsOf(i.mint), topBuyerShare: topBuyerShareOf(tape) };
      const r = await d.predictionStore.insertCross({
        mint: row.mint,
        mintCreatedAt: row.at,
        cross: decision.cross,
        gp30: gp?.gp30 ?? null,
        snapshot,
        tierRulesVersion: rules.version,
        tierDeadlineAt: new Date(row.at.getTime() + (rules.gp60AgeS + rules.gp60GraceS) * 1000),
        leafVersion: COMPOSITE_LEAF_V1.version,
        resolvesAt: new Date(resolvesAtMs(atMs)),
      });
      crossed.set(row.mint, true);
      if (r.inserted) crosses++;
    }
    return { crosses, withheld };
  }

  /** Delivers every pending cross whose tier is known now (gp_60 logged, or its deadline passed: SCOUT). */
  async function deliverPending(atMs: number): Promise<number> {
    const pending = await d.predictionStore.pending(PENDING_PER_REFRESH);
    if (!pending.length) return 0;
    const scores = await d.predictionStore.gradProbs(pending.map((p) => p.mint));
    let delivered = 0;
    for (const p of pending) {
      const gp = scores.get(p.mint);
      const decision = decideTier(tierRules(p.tierRulesVersion), { gp60: gp?.gp60 ?? null, createdAtMs: p.mintCreatedAt.getTime(), atMs });
      if (decision.state !== 'deliverable') continue;
      const body = buildSignal({
        cross: p.cross,
        facts: p.snapshot.facts,
        gp30: p.gp30 ?? gp?.gp30 ?? null,
        topBuyerShare: p.snapshot.topBuyerShare,
        decision,
        deliverableAtMs: atMs,
      });
      const r = await d.signalStore.deliver({ predictionId: p.id, tier: decision.tier, gp60: decision.gp60, tieredAt: new Date(atMs), body });
      if (r) delivered++;
    }
    return delivered;
  }

  return {
    /** One refresh's evaluation over every tracked mint (pass them all: the sampler's watermark is shared). */
    async evaluate(now: Date, items: readonly EvaluatedMint[]): Promise<EvaluationResult> {
      const atMs = now.getTime();
      if (!threshold) threshold = await load();
      const tracked = new Set(items.map((i) => i.state.row.mint));
      for (const m of crossed.keys()) if (!tracked.has(m)) crossed.delete(m);
      const live = items.filter((i) => !i.state.row.mayhem);
      const samples = sampleRefresh(
        threshold,
        live.map((i) => ({ createdAtMs: i.state.row.at.getTime(), smartMoneyIn: i.smartMoneyIn, maxMult: maxMultOf(i.state.tape) })),
        atMs,
      );
      const reading = threshold.threshold(atMs);
      const { crosses, withheld } = await recordCrosses(live, reading, atMs);
      const delivered = await deliverPending(atMs);
      if (generation === null || atMs - savedAtMs >= d.thresholdSaveS * 1000) await save(threshold, atMs);
      return { samples, threshold: reading, crosses, withheld, delivered };
    },
    /**
     * Between refreshes, over the mints that traded since (a cross can only newly happen at a trade): records
     * their first crosses against the threshold as the last refresh left it and delivers every pending cross whose
     * tier is known now. It never samples (the refresh's tick grid does) and never saves.
     */
    async evaluateCrosses(now: Date, items: readonly EvaluatedMint[]): Promise<Omit<EvaluationResult, 'samples'>> {
      const atMs = now.getTime();
      // Another worker may have run the refreshes since this one last did: its saved threshold is the current one.
      if (!threshold || (await d.thresholdStore.generation(THRESHOLD_WRITER_ID)) !== generation) threshold = await load();
      const reading = threshold.threshold(atMs);
      const { crosses, withheld } = await recordCrosses(
        items.filter((i) => !i.state.row.mayhem),
        reading,
        atMs,
      );
      const delivered = await deliverPending(atMs);
      return { threshold: reading, crosses, withheld, delivered };
    },
    /** What the threshold's memory is proportional to (bench). */
    thresholdSize: () => threshold?.size() ?? { buckets: 0, bins: 0 },
  };
}
export type CompositeEvaluator = ReturnType<typeof createCompositeEvaluator>;
