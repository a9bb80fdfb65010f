import type { PriceClient } from '../../clients/jupiter-price-client';
import type { MintReadStore } from '../../db/mint/mint-read-store';
import type { OutcomeStore } from '../../db/mint/outcome-store';
import type { PredictionStore } from '../../db/mint/prediction-store';
import type { RunnerNowStore } from '../../db/mint/runner-now-store';
import type { ShadowScoreStore } from '../../db/mint/shadow-score-store';
import { LedgerHourSealedError } from '../../db/ledger/ledger-seal-store';
import type { ScoreSkipStore, SkipReason } from '../../db/mint/score-skip-store';
import { priceSol } from '../../domain/launch/launch-events';
import { peakMultFrom, resolveOutcome, SUSTAIN_SHARE } from '../../domain/launch/outcome-labels';
import { ApplicationFailure } from '@temporalio/activity';
import type { MintStates } from '../../db/mint/mint-states';
import { mintSignals } from '../../domain/launch/mint-signals';
import { rugFlags } from '../../domain/launch/rug-heuristics';
import { freshAmongFirstBuyers, freshFirst3 } from '../../domain/launch/wallet-freshness';
import { runnerObservations } from '../../domain/scoring/runner-grid';
import type { MintScorer } from '../../models/mint/mint-scorer';

export type MintDeps = {
  mintReadStore: MintReadStore;
  predictionStore: PredictionStore;
  scoreSkipStore: ScoreSkipStore;
  shadowStore: ShadowScoreStore;
  outcomeStore: OutcomeStore;
  mintStates: Pick<MintStates, 'scoringView'>;
  runnerNowStore: RunnerNowStore;
  mintScorer: MintScorer;
  dexPriceClient: PriceClient;
  dexPriceSourceName: string;
  now: () => Date;
};

export type ScoreResult =
  | { predictionId: number; gradProb: number; inserted: boolean }
  | { refused: 'ledger_hour_sealed' }
  /** No prediction logged for this moment, with the reason (score_skips). */
  | { skipped: SkipReason };

export function createMintActivities(d: MintDeps) {
  const mustGetMint = async (mint: string) => {
    const m = await d.mintReadStore.getMint(mint);
    // The workflow starts only after the mint row is durable, so a missing row is a bug, not a transient state.
    if (!m) throw ApplicationFailure.nonRetryable(`unknown mint ${mint}`, 'UnknownMint');
    return m;
  };

  return {
    /**
     * Scores a mint at `asOf` from its facts up to then with every model, and logs the immutable prediction
     * once, with what else was known at that moment (rug flags, creator record, signals). Logs none, and records the
     * moment as skipped instead, when the curve had already completed by `asOf` (a number then is a lookup, not a
     * forecast) or when the model was fitted on an empty or warming corpus (its number is a prior).
     */
    async scoreMint(input: { mint: string; bucket: number; asOf: string }): Promise<ScoreResult> {
      const asOf = new Date(input.asOf);
      const create = await mustGetMint(input.mint);
      const skip = (reason: SkipReason, o: Partial<Parameters<ScoreSkipStore['record']>[0]> = {}) =>
        d.scoreSkipStore.record({
          mint: input.mint,
          ageBucket: input.bucket,
          asOf,
          recordedAt: d.now(),
          reason,
          graduatedAt: null,
          modelVersion: null,
          features: null,
          rugFeatures: null,
          priceSol: null,
          ...o,
        });
      // A retry after a skip was recorded answers the same skip (a model fitted meanwhile must not turn it into a score).
      const earlier = (await d.scoreSkipStore.byMint(input.mint)).find((x) => x.ageBucket === input.bucket);
      if (earlier) return { skipped: earlier.reason };
      if (create.graduatedAt && create.graduatedAt.getTime() <= asOf.getTime()) {
        return { skipped: await skip('graduated', { graduatedAt: create.graduatedAt }) };
      }
      const { tape, trades, freshness, creator, launchContext } = await d.mintStates.scoringView(create, asOf);
      const s = await d.mintScorer.score({
        create,
        tradesSoFar: trades,
        tape,
        bucket: input.bucket,
        ageS: (asOf.getTime() - create.at.getTime()) / 1000,
        freshAmongFirstBuyers: freshAmongFirstBuyers(tape, freshness),
        launchContext,
      });
      if (!s.servable) {
        const reason = await skip('model_warming', {
          modelVersion: s.modelVersions.grad_prob,
          features: s.features,
          rugFeatures: s.rugFeatures,
          priceSol: tape.price,
        });
        return { skipped: reason };
      }
      const r = await d.predictionStore.insertUnlessSealed({
        mint: input.mint,
        ageBucket: input.bucket,
        asOf,
        predictedAt: d.now(),
        gradProb: s.gradProb,
        rawProb: s.rawGradProb,
        modelVersion: s.modelVersions.grad_prob,
        features: s.features,
        calibration: s.calibration,
        priceSol: tape.price,
        rugProb: s.rugProb,
        runnerOdds: s.runnerOdds,
        survivalProb: s.survivalProb,
        modelVersions: s.modelVersions,
        rugFeatures: s.rugFeatures,
        similarLaunches: s.similarLaunches,
        context: {
          rug_heuristic: rugFlags(tape, freshFirst3(tape, freshness)),
          creator: { n_launches: creator.nLaunches, rate_5x: creator.rate5x, runner_creator: creator.runnerCreator },
          signals: mintSignals(tape, asOf.getTime(), freshness),
        },
      });
      // The ledger already sealed the hour of this timestamp: a score this late is skipped, not retried.
      if ('refused' in r) return r;
      // Every challenger's score of the same moment, logged beside the served one and committed like it.
      await d.shadowStore
        .insertShadow(
          s.shadowScores.map((x) => ({
            mint: input.mint,
            ageBucket: input.bucket,
            modelName: x.modelName,
            modelVersion: x.modelVersion,
            asOf,
            predictedAt: d.now(),
            gradProb: x.gradProb,
          })),
        )
        .catch((e: unknown) => {
          // Sealed in between: the shadow scores of this moment are too late to log, like a served one would be.
          if (!(e instanceof LedgerHourSealedError)) throw e;
        });
      return { predictionId: r.id, gradProb: r.gradProb, inserted: r.inserted };
    },

    /** One DEX price checkpoint after graduation: did the price hold 80% of the graduation price? */
    async recordPostGradCheckpoint(input: { mint: string; afterS: number; graduatedAt: string }): Promise<{ heldAt80: boolean | null }> {
      const create = await mustGetMint(input.mint);
      const curve = await d.mintReadStore.tradesUntil(input.mint, new Date(input.graduatedAt));
      const last = curve[curve.length - 1];
      const gradPrice = last ? priceSol(last.vSolLamports, last.vTokensRaw) : priceSol(create.vSolLamports, create.vTokensRaw);
      const price = await d.dexPriceClient.tokenPriceSol(input.mint);
      const held = price === null ? null : price >= SUSTAIN_SHARE * gradPrice;
      await d.outcomeStore.recordCheckpoint({
        mint: input.mint,
        afterS: input.afterS,
        observedAt: d.now(),
        graduationPriceSol: gradPrice,
        priceSol: price,
        held80: held,
        source: d.dexPriceSourceName,
        error: price === null ? 'no DEX price for this mint' : null,
      });
      return { heldAt80: held };
    },

    async recordCheckpointUnavailable(input: { mint: string; afterS: number; error: string }): Promise<void> {
      await d.outcomeStore.recordCheckpoint({
        mint: input.mint,
        afterS: input.afterS,
        observedAt: d.now(),
        graduationPriceSol: null,
        priceSol: null,
        held80: null,
        source: d.dexPriceSourceName,
        error: input.error.slice(0, 500),
      });
    },

    /** Resolves the versioned outcome labels at the horizon and updates the creator's record. */
    async resolveMint(input: { mint: string; horizonAt: string }): Promise<{ graduated: boolean; peakMult24h: number | null; rugged: boolean }> {
      const horizonAt = new Date(input.horizonAt);
      const create = await mustGetMint(input.mint);
      const trades = await d.mintReadStore.tradesUntil(input.mint, horizonAt);
      const checkpoints = await d.outcomeStore.checkpoints(input.mint);
      const checkpointPrices = checkpoints.flatMap((c) => (c.priceSol === null ? [] : [c.priceSol]));
      const outcome = resolveOutcome({ create, trades, horizonAt, graduatedAt: create.graduatedAt, checkpointPricesSol: checkpointPrices, checkpoints });
      const [predictions, skips] = await Promise.all([d.predictionStore.byMint(input.mint), d.scoreSkipStore.byMint(input.mint)]);
      const dexPeaks = outcome.graduated ? checkpointPrices : [];
      const peakAfter = (priceSol: number, at: Date) => peakMultFrom(priceSol, at, trades, horizonAt, dexPeaks);
      const perPrediction = predictions.map((p) => ({ predictionId: p.id, peakMult24h: peakAfter(p.priceSol, p.asOf) }));
      // Warming observations join the corpus with the same runner label a prediction gets.
      await d.scoreSkipStore.recordPeakMults(
        skips.flatMap((x) => (x.reason === 'model_warming' && x.priceSol !== null ? [{ skipId: x.id, peakMult24h: peakAfter(x.priceSol, x.asOf) }] : [])),
      );
      const resolvedAt = d.now();
      // The from-now runner model's corpus rows and the outcome of every from-now odds the live list published, from
      // the same trades: each row's label is the peak after its own moment over the price then.
      const grid = runnerObservations({ create, tradesAnyOrder: trades, graduatedAt: create.graduatedAt, horizonAt, checkpointPricesSol: dexPeaks });
      await d.runnerNowStore.insertObservations([{ mint: input.mint, labelVersion: outcome.labelVersion, resolvedAt, rows: grid }], 'live');
      const published = await d.runnerNowStore.unresolvedOf(input.mint);
      await d.runnerNowStore.resolve(
        input.mint,
        outcome.labelVersion,
        resolvedAt,
        published.map((p) => ({ gridAgeS: p.gridAgeS, peakMult: peakAfter(p.priceSol, p.publishedAt) })),
      );
      await d.outcomeStore.recordOutcome(input.mint, create.creator, outcome, perPrediction, resolvedAt);
      const first = perPrediction[0];
      return { graduated: outcome.graduated, peakMult24h: first ? first.peakMult24h : null, rugged: outcome.rugged };
    },
  };
}
export type MintActivities = ReturnType<typeof createMintActivities>;
