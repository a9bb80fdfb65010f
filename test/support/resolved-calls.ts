import { createLaunchEventStore } from '../../db/mint/launch-event-store';
import { createOutcomeStore } from '../../db/mint/outcome-store';
import { createPredictionStore } from '../../db/mint/prediction-store';
import { LABEL_VERSION, RUG_LABEL_VERSION } from '../../domain/launch/outcome-labels';
import type { KnexDb } from '../../db/knex-handle';

const DAY = 86_400_000;
const address = (tag: string, i: number) => `${tag}${String(i).padStart(6, '0')}`.padEnd(44, 'x');

/**
 * `calls` resolved mints of the last 20 days, each called at 30 s with grad_prob 0.8 (logged before its outcome, as
 * the lifecycle logs it), the first `graduated` of them graduating `runwayS` after the call; written through the
 * real stores, for the accuracy page's headline.
 */
export async function seedResolvedCalls(db: KnexDb, now: Date, o: { calls: number; graduated: number; runwayS: number }): Promise<void> {
  const events = createLaunchEventStore(db);
  const predictions = createPredictionStore(db);
  const outcomes = createOutcomeStore(db);
  for (let i = 0; i < o.calls; i++) {
    const createdAt = new Date(now.getTime() - (2 + (18 * i) / o.calls) * DAY);
    const mint = address('Call', i);
    const creator = address('Caller', i % 5);
    await events.writeBatch([
      {
        kind: 'create',
        signature: address('CallSig', i).padEnd(88, 'y'),
        ordinal: 0,
        slot: 5000 + i,
        at: createdAt,
        source: 'test',
        mint,
        name: 'Called',
        symbol: 'CALL',
        uri: '',
        bondingCurve: address('CallCurve', i),
        creator,
        mayhem: false,
        vSolLamports: 30e9,
        vTokensRaw: 1_073e12,
      },
    ]);
    const asOf = new Date(createdAt.getTime() + 30_000);
    const version = `knn-v1@30:${i}:abc`;
    const p = await predictions.insertOnce({
      mint,
      ageBucket: 30,
      asOf,
      predictedAt: new Date(asOf.getTime() + 100),
      gradProb: 0.8,
      rawProb: 0.8,
      modelVersion: version,
      features: {
        vSolSol: 40,
        vSolGrowthSol: 10,
        logTrades: 3,
        logUniqueBuyers: 3,
        topBuyerShare: 0.2,
        currentMult: 2,
        buyCount: 20,
        sellCount: 2,
        uniqueBuyers: 18,
        creatorSold: false,
      },
      calibration: {},
      priceSol: 3e-8,
      rugProb: null,
      runnerOdds: null,
      survivalProb: null,
      modelVersions: {
        grad_prob: version,
        rug_prob: `rug-knn-v1@30:${i}:d`,
        runner_prob: `runner-knn-v1@30:${i}:e`,
        post_grad_survival: `survival-knn-v1@30:${i}:f`,
      },
      rugFeatures: {
        bundlePct: 0.02,
        bundleSoldShare: 0,
        top10HolderShare: 0.3,
        creatorHoldingShare: 0.01,
        creatorSoldShare: 0,
        freshFirst3: 1,
        sniperCount: 1,
        sellShare: 0.1,
        logTrades: 3,
        vSolGrowthSol: 10,
      },
      context: {},
    });
    const graduated = i < o.graduated;
    await outcomes.recordOutcome(
      mint,
      creator,
      {
        labelVersion: LABEL_VERSION,
        graduated,
        timeToGraduationS: graduated ? 30 + o.runwayS : null,
        peakPriceSol: 3e-8 * (graduated ? 20 : 1.5),
        finalPriceSol: 3e-8,
        peakMultFromLaunch: graduated ? 20 : 1.5,
        rugged: false,
        sustained30m: null,
        rugLabelVersion: RUG_LABEL_VERSION,
      },
      [{ predictionId: p.id, peakMult24h: graduated ? 20 : 1.5 }],
      new Date(createdAt.getTime() + DAY),
    );
  }
}
