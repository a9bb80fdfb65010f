import type { AlertFireStore, NewFire } from '../../db/alerts/alert-fire-store';
import type { AlertRuleStore } from '../../db/alerts/alert-rule-store';
import type { MintState } from '../../db/mint/live-read-model';
import {
  buildRuleIndex,
  decideFires,
  fireFacts,
  fireKey,
  matchMint,
  type FireState,
  type IndexedRule,
  type MintFacts,
  type RuleIndex,
} from '../../domain/alerts/alert-evaluation';
import { alertMessage } from '../../domain/alerts/alert-message';
import { rulesInForce } from '../../domain/alerts/rule-limits';
import type { EnrichedMint } from '../../domain/mint/enriched-mint';

export type AlertEvaluatorDeps = {
  ruleStore: Pick<AlertRuleStore, 'version' | 'rulesWithTiers'>;
  fireStore: Pick<AlertFireStore, 'record' | 'fireState'>;
  /** The live window: fires on mints older than it need not be remembered (those mints are no longer evaluated). */
  windowS: number;
  /** Owners' tiers change without a rule changing (a plan lapses, holdings move): the index is rebuilt at least this often. */
  rulesMaxAgeMs: number;
  probeUrl: (mint: string) => string;
};

export type AlertEvaluation = { mints: number; rules: number; matched: number; fired: number };

/** The facts of one live mint as the live projector holds them (its state and its enriched record). */
export function mintFacts(state: MintState, mint: EnrichedMint, nowMs: number): MintFacts {
  return {
    mint: mint.mint,
    mayhem: state.row.mayhem,
    gradProb: mint.grad_prob,
    ageBucket: mint.grad_prob_age_bucket,
    calibration: mint.grad_prob_calibration as Record<string, unknown> | null,
    vSolAdded60sSol: state.tape.activity60s(nowMs).vSolAdded / 1e9,
    runnerCreator: mint.runner_creator === true,
    rate5x: mint.rate_5x,
    nLaunches: mint.n_launches,
    smartMoneyIn: mint.smart_money_in,
    runner5x: mint.runner_prob_5x_from_now,
    runner10x: mint.runner_prob_10x_from_now,
    buyers: [...state.tape.wallets.entries()].flatMap(([w, p]) => (p.firstBuyAt === null ? [] : [w])),
    priceSol: mint.price_sol,
    currentMult: mint.current_mult,
    marketCapSol: mint.market_cap_sol,
    marketCapUsd: mint.market_cap_usd,
    rugFlags: mint.rug_heuristic,
  };
}

/**
 * Evaluates every alert rule against the live mints at each live refresh: the refresh is where a new score (30 s,
 * 60 s), new runner odds and each ingested trade batch (buyers for `wallet`, SOL added for `vsol_burst`, top buyers
 * for `smart_in`) become visible, so nothing re-polls. Rules are held in an index rebuilt when a rule changes; what
 * fired is remembered for the live window (and reloaded from Postgres after a restart), and the database's
 * (rule, mint) key makes a repeat a no-op anyway.
 */
export function createAlertEvaluator(d: AlertEvaluatorDeps) {
  let state: FireState | undefined;
  let index: { idx: RuleIndex; version: number; builtAt: number } | undefined;

  async function currentIndex(now: Date): Promise<RuleIndex> {
    const version = await d.ruleStore.version();
    if (index && index.version === version && now.getTime() - index.builtAt < d.rulesMaxAgeMs) return index.idx;
    const all = await d.ruleStore.rulesWithTiers(now);
    const byOwner = new Map<number | null, IndexedRule[]>();
    for (const { rule, tier } of all) {
      const list = byOwner.get(rule.ownerKeyId) ?? [];
      list.push({ ...rule, ownerTier: tier });
      byOwner.set(rule.ownerKeyId, list);
    }
    const inForce = [...byOwner.values()].flatMap((rs) => rulesInForce(rs[0]!.ownerTier, rs));
    index = { idx: buildRuleIndex(inForce), version, builtAt: now.getTime() };
    return index.idx;
  }

  return {
    async evaluate(now: Date, entries: readonly { state: MintState; mint: EnrichedMint }[]): Promise<AlertEvaluation> {
      const idx = await currentIndex(now);
      if (idx.size === 0) return { mints: entries.length, rules: 0, matched: 0, fired: 0 };
      state ??= await d.fireStore.fireState(new Date(now.getTime() - d.windowS * 1000), now);
      const nowMs = now.getTime();
      const fires: NewFire[] = [];
      const premiumBefore = new Map(state.lastPremiumAt);
      let matched = 0;
      for (const e of entries) {
        const f = mintFacts(e.state, e.mint, nowMs);
        const m = matchMint(idx, f);
        matched += m.length;
        if (m.length === 0) continue;
        const facts = fireFacts(f);
        for (const dec of decideFires(m, f.mint, state, nowMs)) {
          const r = dec.rule;
          fires.push({
            ruleId: r.id,
            ownerKeyId: r.ownerKeyId,
            kind: r.kind,
            mint: f.mint,
            firedAt: now,
            premiumSample: dec.premiumSample,
            priceSol: f.priceSol,
            gradProb: f.gradProb,
            ageBucket: f.ageBucket,
            facts,
            text: alertMessage({ ...r, mint: f.mint, facts, probeUrl: d.probeUrl(f.mint), premiumSample: dec.premiumSample }),
          });
        }
      }
      try {
        await d.fireStore.record(fires);
      } catch (err) {
        // Not recorded: forget the decisions so the retried refresh decides them again.
        for (const f of fires) state.fired.delete(fireKey(f.ruleId, f.mint));
        state.lastPremiumAt = premiumBefore;
        throw err;
      }
      return { mints: entries.length, rules: idx.size, matched, fired: fires.length };
    },
  };
}
export type AlertEvaluator = ReturnType<typeof createAlertEvaluator>;
