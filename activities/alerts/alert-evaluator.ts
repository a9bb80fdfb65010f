import type { AlertFireStore, NewFire } from '../../db/alerts/alert-fire-store';
import type { AlertRuleStore } from '../../db/alerts/alert-rule-store';
import type { MintState } from '../../db/mint/mint-states';
import {
  buildRuleIndex,
  decideFires,
  fireFacts,
  fireKey,
  matchMint,
  type FireState,
  type IndexedRule,
  type MatchMark,
  type MintFacts,
  type RuleIndex,
} from '../../domain/alerts/alert-evaluation';
import { alertMessage } from '../../domain/alerts/alert-message';
import { rulesInForce } from '../../domain/alerts/rule-limits';
import { watchEvents, watchesInForce, watchMessage } from '../../domain/alerts/watch-events';
import type { WatchlistStore } from '../../db/alerts/watchlist-store';
import type { EnrichedMint } from '../../domain/live/enriched-mint';

export type AlertEvaluatorDeps = {
  ruleStore: Pick<AlertRuleStore, 'version' | 'rulesWithTiers'>;
  fireStore: Pick<AlertFireStore, 'record' | 'fireState' | 'recordWatchEvents'>;
  watchStore: Pick<WatchlistStore, 'watchesWithTiers'>;
  /** The live window: fires on mints older than it need not be remembered (those mints are no longer evaluated). */
  windowS: number;
  /** Owners' tiers change without a rule changing (a plan lapses, holdings move): the index is rebuilt at least this often. */
  rulesMaxAgeMs: number;
  /**
   * Fires recorded per evaluation at most (a mint's fires are never split): past it the remaining mints keep their
   * marks and are evaluated first at the next refresh, so a burst of matches delays fires instead of the live list.
   */
  maxFiresPerRefresh: number;
  probeUrl: (mint: string) => string;
};

export type AlertEvaluation = { mints: number; rules: number; matched: number; fired: number; watchEvents: number; deferredMints: number };

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
    // Alerts show the 5x rate "of N": the resolved launches it is measured over.
    nLaunches: mint.n_launches_resolved,
    smartMoneyIn: mint.smart_money_in,
    runner5x: mint.runner_prob_5x_from_now,
    runner10x: mint.runner_prob_10x_from_now,
    buyers: [...state.tape.wallets.entries()].flatMap(([w, p]) => (p.firstBuyAt === null ? [] : [w])),
    priceSol: mint.price_sol,
    currentMult: mint.current_mult,
    marketCapSol: mint.market_cap_sol,
    marketCapUsd: mint.market_cap_usd,
    rugFlags: mint.rug_heuristic,
    graduated: mint.graduated_at !== null,
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
  let index: { idx: RuleIndex; watchers: Map<string, number[]>; version: number; builtAt: number } | undefined;
  // Watch events told already (owner:mint:event), so each refresh does not ask Postgres again; its key decides anyway.
  const told = new Set<string>();
  // Per live mint, how far its rules were walked (alert-evaluation.ts): a refresh walks only what its new facts add.
  let marks = new Map<string, MatchMark>();
  // Where the next evaluation starts in the live list: mints left over by the fire cap go first.
  let resumeAt: string | null = null;

  async function currentIndex(now: Date): Promise<NonNullable<typeof index>> {
    const version = await d.ruleStore.version();
    if (index && index.version === version && now.getTime() - index.builtAt < d.rulesMaxAgeMs) return index;
    const all = await d.ruleStore.rulesWithTiers(now);
    const byOwner = new Map<number | null, IndexedRule[]>();
    for (const { rule, tier } of all) {
      const list = byOwner.get(rule.ownerKeyId) ?? [];
      list.push({ ...rule, ownerTier: tier });
      byOwner.set(rule.ownerKeyId, list);
    }
    const inForce = [...byOwner.values()].flatMap((rs) => rulesInForce(rs[0]!.ownerTier, rs));
    const watchers = new Map<string, number[]>();
    for (const w of watchesInForce(await d.watchStore.watchesWithTiers(now))) {
      const list = watchers.get(w.mint);
      if (list) list.push(w.ownerKeyId);
      else watchers.set(w.mint, [w.ownerKeyId]);
    }
    // Bounded memory: what was told is asked of Postgres again once per rebuild (its key makes a repeat a no-op).
    told.clear();
    // New rules (or tiers) must be walked on the mints already seen too.
    marks = new Map();
    index = { idx: buildRuleIndex(inForce), watchers, version, builtAt: now.getTime() };
    return index;
  }

  /** Graduation and new rug flags of watched mints, to their watchers, once per (watch, event). */
  async function tellWatchers(now: Date, entries: readonly { state: MintState; mint: EnrichedMint }[], watchers: Map<string, number[]>): Promise<number> {
    if (watchers.size === 0) return 0;
    const out: { ownerKeyId: number; mint: string; event: string; at: Date; text: string }[] = [];
    for (const e of entries) {
      const owners = watchers.get(e.mint.mint);
      if (!owners) continue;
      const f = mintFacts(e.state, e.mint, now.getTime());
      const events = watchEvents(f);
      if (events.length === 0) continue;
      const facts = fireFacts(f);
      for (const ev of events)
        for (const ownerKeyId of owners) {
          if (told.has(`${ownerKeyId}:${f.mint}:${ev.event}`)) continue;
          out.push({
            ownerKeyId,
            mint: f.mint,
            event: ev.event,
            at: now,
            text: watchMessage({ mint: f.mint, event: ev, facts, probeUrl: d.probeUrl(f.mint) }),
          });
        }
    }
    const n = await d.fireStore.recordWatchEvents(out);
    for (const x of out) told.add(`${x.ownerKeyId}:${x.mint}:${x.event}`);
    return n;
  }

  return {
    async evaluate(now: Date, entries: readonly { state: MintState; mint: EnrichedMint }[]): Promise<AlertEvaluation> {
      const { idx, watchers } = await currentIndex(now);
      const watchTold = await tellWatchers(now, entries, watchers);
      if (idx.size === 0) return { mints: entries.length, rules: 0, matched: 0, fired: 0, watchEvents: watchTold, deferredMints: 0 };
      state ??= await d.fireStore.fireState(new Date(now.getTime() - d.windowS * 1000), now);
      const nowMs = now.getTime();
      const fires: NewFire[] = [];
      const premiumBefore = new Map(state.lastPremiumAt);
      let matched = 0;
      const marksBefore = marks;
      // Only the live mints keep their marks (bounded memory); the marks move only if the fires are recorded.
      const next = new Map<string, MatchMark>();
      const from = Math.max(
        0,
        entries.findIndex((e) => e.mint.mint === resumeAt),
      );
      let nextResume: string | null = null;
      let deferredMints = 0;
      for (let j = 0; j < entries.length; j++) {
        const e = entries[(from + j) % entries.length]!;
        if (fires.length >= d.maxFiresPerRefresh) {
          nextResume ??= e.mint.mint;
          deferredMints++;
          const kept = marksBefore.get(e.mint.mint);
          if (kept) next.set(e.mint.mint, kept);
          continue;
        }
        const f = mintFacts(e.state, e.mint, nowMs);
        const mark: MatchMark = { ...marksBefore.get(f.mint) };
        next.set(f.mint, mark);
        const m = matchMint(idx, f, mark);
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
      marks = next;
      resumeAt = nextResume;
      return { mints: entries.length, rules: idx.size, matched, fired: fires.length, watchEvents: watchTold, deferredMints };
    },
  };
}
export type AlertEvaluator = ReturnType<typeof createAlertEvaluator>;
