import { createCompositePredictionStore } from '../../db/signals/composite-prediction-store';
import { COMPOSITE_LEAF_V1 } from '../../domain/ledger/composite-leaf';
import type { RugFlagName } from '../../domain/launch/rug-heuristics';
import type { CompositeCross } from '../../domain/signals/cross-rules';
import { resolvesAtMs } from '../../domain/signals/resolution';
import { buildSignal, type SignalMintFacts } from '../../domain/signals/signal-payload';
import { decideTier, tierRules, type Tier } from '../../domain/signals/tier-rules';
import { mintAddress } from '../../ingest/simulator/address-book';
import { SeededRandom } from '../../ingest/simulator/seeded-random';
import type { KnexDb } from '../../db/knex-handle';

const rng = new SeededRandom(4242);
const RUG_FLAGS: RugFlagName[] = ['bundle_pct', 'holder_concentration', 'fresh_wallet_first3', 'bundle_dump_in_progress'];
export const testMintAddress = () => mintAddress(rng);

export const testCross = (crossedAtMs: number, o: Partial<CompositeCross> = {}): CompositeCross => ({
  crossedAtMs,
  ageS: 40,
  compositeVersion: 1,
  crossRulesVersion: 1,
  score: 3.5,
  smartMoneyIn: 2,
  maxMult: 1.87,
  freshness: 1 / (1 + 40 / 600),
  threshold: 2.1,
  thresholdQuantile: 0.95,
  thresholdKind: 'p95_warmup',
  thresholdSamples: 1200,
  priceSol: 5.2e-8,
  solUsd: 150,
  marketCapUsd: 7800,
  ...o,
});

/** Facts of a mint at the cross: scalars only, as the evaluator snapshots them. */
export const testFacts = (mint: string): SignalMintFacts => ({
  mint,
  name: 'Test Coin',
  symbol: 'TEST',
  trades: 40,
  unique_buyers: 25,
  v_sol: 38.5,
  current_mult: 1.6,
  curve_progress: 0.21,
  rug_prob: null,
  runner_prob_5x_from_now: null,
  n_launches_resolved: 3,
  rate_5x: 0,
  runner_creator: false,
  rug_heuristic: RUG_FLAGS.map((flag) => ({ flag, triggered: flag === 'holder_concentration', value: 0.2, threshold: 0.35 })),
  signals: {
    bot: { bundle_detected: false, bundle_pct: 0.01, sniper_count: 1, bot_trade_share: 0.1, manufactured_pump: null },
    quality: { has_socials: null, metadata_ok: null, top10_holder_share: 0.3, creator_holding_share: 0.02, fresh_wallet_share: 0.4 },
    activity: { buys_60s: 20, sells_60s: 5, vsol_added_60s: 6.1, buy_sell_ratio_60s: 4, last_trade_at: null },
  },
});

/** Records a cross (a composite prediction waiting for its tier) the way the evaluator does; returns its id. */
export async function insertTestCross(db: KnexDb, o: { mint?: string; crossedAtMs: number; mintCreatedAtMs?: number; cross?: Partial<CompositeCross> }) {
  const mint = o.mint ?? testMintAddress();
  const cross = testCross(o.crossedAtMs, o.cross);
  const createdMs = o.mintCreatedAtMs ?? o.crossedAtMs - cross.ageS * 1000;
  const rules = tierRules();
  const r = await createCompositePredictionStore(db).insertCross({
    mint,
    mintCreatedAt: new Date(createdMs),
    cross,
    gp30: 0.08,
    snapshot: { facts: testFacts(mint), topBuyerShare: 0.12 },
    tierRulesVersion: rules.version,
    tierDeadlineAt: new Date(createdMs + (rules.gp60AgeS + rules.gp60GraceS) * 1000),
    leafVersion: COMPOSITE_LEAF_V1.version,
    resolvesAt: new Date(resolvesAtMs(o.crossedAtMs)),
  });
  if (r.id === null) throw new Error(`mint ${mint} had crossed already`);
  return { id: r.id, mint, cross, createdMs };
}

/** The delivery the evaluator makes for a cross once its gp_60 is known. */
export function testDelivery(x: { id: number; mint: string; cross: CompositeCross; createdMs: number }, gp60: number | null, atMs: number) {
  const decision = decideTier(tierRules(), { gp60, createdAtMs: gp60 === null ? 0 : x.createdMs, atMs });
  if (decision.state !== 'deliverable') throw new Error('not deliverable');
  const body = buildSignal({ cross: x.cross, facts: testFacts(x.mint), gp30: 0.08, topBuyerShare: 0.12, decision, deliverableAtMs: atMs });
  return { predictionId: x.id, tier: decision.tier as Tier, gp60: decision.gp60, tieredAt: new Date(atMs), body };
}
