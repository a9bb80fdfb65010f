import type { CompositeCross, NoCrossReason } from '../../domain/signals/cross-rules';
import type { CompositeOutcome } from '../../domain/signals/resolution';
import type { ThresholdKind } from '../../domain/signals/rolling-threshold';
import type { SignalMintFacts } from '../../domain/signals/signal-payload';
import type { Tier } from '../../domain/signals/tier-rules';
import type { Db } from '../db-handle';
import { knexOf } from '../knex-handle';

/** What the cross froze for the signal it becomes: the mint's facts (scalars, no wallet) and the top-buyer share. */
export type CrossSnapshot = { facts: SignalMintFacts; topBuyerShare: number };

export type NewCross = {
  mint: string;
  mintCreatedAt: Date;
  cross: CompositeCross;
  gp30: number | null;
  snapshot: CrossSnapshot;
  tierRulesVersion: string;
  tierDeadlineAt: Date;
  leafVersion: number;
  resolvesAt: Date;
};

export type PendingCross = {
  id: number;
  mint: string;
  mintCreatedAt: Date;
  cross: CompositeCross;
  gp30: number | null;
  snapshot: CrossSnapshot;
  tierRulesVersion: string;
};

export type CompositePredictionRow = {
  id: number;
  mint: string;
  crossedAt: Date;
  ageS: number;
  smartMoneyIn: number;
  maxMult: number;
  freshness: number;
  composite: number;
  threshold: number;
  thresholdKind: ThresholdKind;
  marketCapUsd: number;
  tier: Tier;
  gp60: number | null;
  gp30: number | null;
  tierRulesVersion: string;
  compositeVersion: number;
  thresholdQuantile: number;
  thresholdSamples: number;
  priceAtCrossSol: number;
  solUsdAtCross: number;
  labelVersion: string | null;
  leafVersion: number;
  resolvesAt: Date;
  didGraduate: boolean | null;
  peakMult24h: number | null;
  didSustain30m: boolean | null;
  resolvedAt: Date | null;
};

export const toCross = (r: any): CompositeCross => ({
  crossedAtMs: r.crossed_at.getTime(),
  ageS: r.age_s,
  compositeVersion: r.composite_version,
  crossRulesVersion: r.cross_rules_version,
  score: r.composite_score,
  smartMoneyIn: r.smart_money_in,
  maxMult: r.max_mult_at_cross,
  freshness: r.freshness,
  threshold: r.threshold_at_cross,
  thresholdQuantile: r.threshold_quantile,
  thresholdKind: r.threshold_kind,
  thresholdSamples: Number(r.threshold_samples),
  priceSol: r.price_at_cross_sol,
  solUsd: r.sol_usd_at_cross,
  marketCapUsd: r.mc_at_cross_usd,
});

const toRow = (r: any): CompositePredictionRow => ({
  id: Number(r.id),
  mint: r.mint,
  crossedAt: r.crossed_at,
  ageS: r.age_s,
  smartMoneyIn: r.smart_money_in,
  maxMult: r.max_mult_at_cross,
  freshness: r.freshness,
  composite: r.composite_score,
  threshold: r.threshold_at_cross,
  thresholdKind: r.threshold_kind,
  marketCapUsd: r.mc_at_cross_usd,
  tier: r.tier,
  gp60: r.gp_60,
  gp30: r.gp_30,
  tierRulesVersion: r.tier_rules_version,
  compositeVersion: r.composite_version,
  thresholdQuantile: r.threshold_quantile,
  thresholdSamples: Number(r.threshold_samples),
  priceAtCrossSol: r.price_at_cross_sol,
  solUsdAtCross: r.sol_usd_at_cross,
  labelVersion: r.label_version,
  leafVersion: r.leaf_version,
  resolvesAt: r.resolves_at,
  didGraduate: r.did_graduate,
  peakMult24h: r.peak_mult_24h,
  didSustain30m: r.did_sustain_30m,
  resolvedAt: r.resolved_at,
});

/** Composite predictions: written once at the first cross, tiered once (signal-store.ts), resolved once. */
export function createCompositePredictionStore(handle: Db) {
  const db = knexOf(handle);
  return {
    /** The first cross of a mint; a second one (another process, a retry) is ignored: `inserted` false. */
    async insertCross(n: NewCross): Promise<{ id: number | null; inserted: boolean }> {
      const c = n.cross;
      const rows = await db('composite_predictions')
        .insert({
          mint: n.mint,
          crossed_at: new Date(c.crossedAtMs),
          mint_created_at: n.mintCreatedAt,
          age_s: c.ageS,
          composite_version: c.compositeVersion,
          cross_rules_version: c.crossRulesVersion,
          composite_score: c.score,
          smart_money_in: c.smartMoneyIn,
          max_mult_at_cross: c.maxMult,
          freshness: c.freshness,
          threshold_at_cross: c.threshold,
          threshold_quantile: c.thresholdQuantile,
          threshold_kind: c.thresholdKind,
          threshold_samples: c.thresholdSamples,
          price_at_cross_sol: c.priceSol,
          sol_usd_at_cross: c.solUsd,
          mc_at_cross_usd: c.marketCapUsd,
          gp_30: n.gp30,
          features: JSON.stringify(n.snapshot),
          tier_rules_version: n.tierRulesVersion,
          tier_deadline_at: n.tierDeadlineAt,
          leaf_version: n.leafVersion,
          resolves_at: n.resolvesAt,
        })
        .onConflict('mint')
        .ignore()
        .returning('id');
      return rows.length ? { id: Number(rows[0].id ?? rows[0]), inserted: true } : { id: null, inserted: false };
    },

    /** Which of these mints have crossed already. */
    async crossed(mints: readonly string[]): Promise<Set<string>> {
      if (!mints.length) return new Set();
      const rows = await db('composite_predictions').whereIn('mint', mints).select('mint');
      return new Set(rows.map((r) => r.mint));
    },

    /** The logged 30 s and 60 s graduation probabilities of these mints (absent: not scored, or not yet). */
    async gradProbs(mints: readonly string[]): Promise<Map<string, { gp30: number | null; gp60: number | null }>> {
      const out = new Map<string, { gp30: number | null; gp60: number | null }>();
      if (!mints.length) return out;
      const rows = await db('predictions').whereIn('mint', mints).whereIn('age_bucket', [30, 60]).select('mint', 'age_bucket', 'grad_prob');
      for (const r of rows) {
        const e = out.get(r.mint) ?? { gp30: null, gp60: null };
        if (r.age_bucket === 30) e.gp30 = r.grad_prob;
        else e.gp60 = r.grad_prob;
        out.set(r.mint, e);
      }
      return out;
    },

    /** Crosses still waiting for their tier, oldest first (not those the ledger's seal overtook: signal-store.ts). */
    async pending(limit: number): Promise<PendingCross[]> {
      const rows = await db('composite_predictions').whereNull('tier').whereNull('tier_skipped_at').orderBy('tier_deadline_at').limit(limit);
      return rows.map((r) => ({
        id: Number(r.id),
        mint: r.mint,
        mintCreatedAt: r.mint_created_at,
        cross: toCross(r),
        gp30: r.gp_30,
        snapshot: r.features,
        tierRulesVersion: r.tier_rules_version,
      }));
    },

    /** A score that reached the threshold while the SOL price was unknown or stale (one row per mint and reason). */
    async recordWithheld(mint: string, reason: NoCrossReason, at: Date): Promise<void> {
      await db('composite_withheld').insert({ mint, reason, at }).onConflict(['mint', 'reason']).ignore();
    },

    async withheldSince(since: Date): Promise<{ reason: string; count: number; lastAt: Date }[]> {
      const rows = await db('composite_withheld').where('at', '>=', since).groupBy('reason').select('reason').count('* as n').max('at as last');
      return rows.map((r: any) => ({ reason: r.reason, count: Number(r.n), lastAt: r.last }));
    },

    /** The log, newest first, tiered rows only (a pending cross is not a prediction anyone has been shown yet). */
    async page(o: { limit: number; offset: number; onlyResolved: boolean }): Promise<{ total: number; rows: CompositePredictionRow[] }> {
      const base = () => {
        const q = db('composite_predictions').whereNotNull('tier');
        return o.onlyResolved ? q.whereNotNull('resolved_at') : q;
      };
      const [rows, total] = await Promise.all([
        base()
          .orderBy([
            { column: 'crossed_at', order: 'desc' },
            { column: 'id', order: 'desc' },
          ])
          .limit(o.limit)
          .offset(o.offset),
        base().count('* as n').first(),
      ]);
      return { total: Number(total?.n ?? 0), rows: rows.map(toRow) };
    },

    /** Tiered, unresolved rows whose horizon has passed, oldest first. */
    async dueForResolution(now: Date, limit: number): Promise<{ id: number; mint: string; crossedAt: Date; priceAtCrossSol: number }[]> {
      const rows = await db('composite_predictions')
        .whereNull('resolved_at')
        .whereNotNull('tier')
        .where('resolves_at', '<=', now)
        .orderBy('resolves_at')
        .limit(limit)
        .select('id', 'mint', 'crossed_at', 'price_at_cross_sol');
      return rows.map((r) => ({ id: Number(r.id), mint: r.mint, crossedAt: r.crossed_at, priceAtCrossSol: r.price_at_cross_sol }));
    },

    /** Writes the outcome once; a second resolution (a retried activity) changes nothing. */
    async resolve(id: number, o: CompositeOutcome, at: Date): Promise<boolean> {
      const n = await db('composite_predictions').where({ id }).whereNull('resolved_at').update({
        label_version: o.labelVersion,
        did_graduate: o.didGraduate,
        peak_mult_24h: o.peakMult24h,
        did_sustain_30m: o.didSustain30m,
        resolved_at: at,
      });
      return n > 0;
    },
  };
}
export type CompositePredictionStore = ReturnType<typeof createCompositePredictionStore>;
