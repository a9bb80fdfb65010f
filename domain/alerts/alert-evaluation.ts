import type { Tier } from '../access/tiers';
import { isPremiumKind, type AlertKind, type AlertRule } from './alert-kinds';
import { premiumFireAllowed } from './rule-limits';

/** What is known about a live mint at an evaluation: the facts every kind reads and every message shows. */
export type MintFacts = {
  mint: string;
  mayhem: boolean;
  /** Graduation probability while a 30 s / 60 s score is shown, else null. */
  gradProb: number | null;
  ageBucket: number | null;
  calibration: Record<string, unknown> | null;
  /** Net virtual SOL added over the last 60 s. */
  vSolAdded60sSol: number;
  runnerCreator: boolean;
  rate5x: number | null;
  nLaunches: number;
  smartMoneyIn: number;
  runner5x: number | null;
  runner10x: number | null;
  /** Every wallet that has bought the mint so far. */
  buyers: readonly string[];
  priceSol: number;
  currentMult: number;
  marketCapSol: number;
  marketCapUsd: number | null;
  rugFlags: readonly unknown[];
  /** The bonding curve completed (the mint graduated). */
  graduated: boolean;
};

export type IndexedRule = AlertRule & { ownerTier: Tier };

type ThresholdKind = Exclude<AlertKind, 'wallet'>;
const THRESHOLD_KINDS: readonly ThresholdKind[] = ['grad_prob', 'vsol_burst', 'runner_dev', 'smart_in', 'runner_5x', 'runner_10x'];

/**
 * Rules arranged so a mint costs a lookup per kind rather than a pass over every rule: threshold kinds sorted
 * ascending (the rules that hold are a prefix), wallet rules by wallet.
 */
export type RuleIndex = { byKind: Record<ThresholdKind, IndexedRule[]>; byWallet: Map<string, IndexedRule[]>; size: number };

export function buildRuleIndex(rules: readonly IndexedRule[]): RuleIndex {
  const byKind = Object.fromEntries(THRESHOLD_KINDS.map((k) => [k, [] as IndexedRule[]])) as Record<ThresholdKind, IndexedRule[]>;
  const byWallet = new Map<string, IndexedRule[]>();
  for (const r of rules) {
    if (r.kind === 'wallet') {
      if (!r.wallet) continue;
      const list = byWallet.get(r.wallet);
      if (list) list.push(r);
      else byWallet.set(r.wallet, [r]);
    } else byKind[r.kind].push(r);
  }
  for (const k of THRESHOLD_KINDS) byKind[k].sort((a, b) => a.threshold - b.threshold || a.id - b.id);
  return { byKind, byWallet, size: rules.length };
}

/** The value a threshold kind compares with; null when the fact is not known (no score shown: nothing fires). */
function factFor(kind: ThresholdKind, f: MintFacts): number | null {
  switch (kind) {
    case 'grad_prob':
      return f.gradProb;
    case 'vsol_burst':
      return f.vSolAdded60sSol;
    case 'runner_dev':
      return f.runnerCreator ? (f.rate5x ?? 0) : null;
    case 'smart_in':
      return f.smartMoneyIn;
    case 'runner_5x':
      return f.runner5x;
    case 'runner_10x':
      return f.runner10x;
  }
}

/**
 * How far one mint's threshold rules were walked already: per kind, the largest fact value walked. Every rule at or
 * under it was decided then (fired, or held back as a spent premium sample), so a later evaluation walks only the
 * rules between that value and the new one. The caller drops marks when its rules change (a new rule must be
 * walked on mints already seen). Wallet rules are not marked: a buyer is a map lookup.
 */
export type MatchMark = Partial<Record<ThresholdKind, number>>;

/** First index whose threshold is above `v` (rules sorted ascending). */
function firstAbove(rules: readonly IndexedRule[], v: number): number {
  let lo = 0;
  let hi = rules.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (rules[mid]!.threshold <= v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Every rule whose condition holds for the mint, met exactly included; with `mark`, only those not walked before
 * (and the mark moves up). Mayhem mints match nothing (spec: non-mayhem mints).
 */
export function matchMint(index: RuleIndex, f: MintFacts, mark?: MatchMark): IndexedRule[] {
  if (f.mayhem) return [];
  const out: IndexedRule[] = [];
  for (const k of THRESHOLD_KINDS) {
    const v = factFor(k, f);
    if (v === null || !Number.isFinite(v)) continue;
    // smart_in needs at least one smart wallet, vsol_burst some SOL actually added, whatever the threshold.
    if ((k === 'smart_in' || k === 'vsol_burst') && v <= 0) continue;
    const walked = mark?.[k];
    if (walked !== undefined && v <= walked) continue;
    const rules = index.byKind[k];
    for (let i = walked === undefined ? 0 : firstAbove(rules, walked); i < rules.length && rules[i]!.threshold <= v; i++) out.push(rules[i]!);
    if (mark) mark[k] = v;
  }
  if (index.byWallet.size > 0) for (const w of f.buyers) for (const r of index.byWallet.get(w) ?? []) out.push(r);
  return out;
}

/** What fired already (rule × mint) and each limited owner's last premium fire; kept by the evaluator across refreshes. */
export type FireState = { fired: Set<string>; lastPremiumAt: Map<number, number> };
export const fireKey = (ruleId: number, mint: string) => `${ruleId}:${mint}`;
export const emptyFireState = (): FireState => ({ fired: new Set(), lastPremiumAt: new Map() });

export type FireDecision = { rule: IndexedRule; mint: string; premiumSample: boolean };

/**
 * From the matches, the fires to record now: a rule fires at most once per mint; a premium-kind rule of an owner
 * whose tier limits premium fires (Free) fires only if its last premium fire is 24 h old, and then counts as the
 * sample. `state` is updated as if the fires were recorded (the caller records them all or retries).
 */
export function decideFires(matches: readonly IndexedRule[], mint: string, state: FireState, nowMs: number): FireDecision[] {
  const out: FireDecision[] = [];
  for (const rule of matches) {
    const key = fireKey(rule.id, mint);
    if (state.fired.has(key)) continue;
    let premiumSample = false;
    if (isPremiumKind(rule.kind) && rule.ownerTier === 'free' && rule.ownerKeyId !== null) {
      if (!premiumFireAllowed(rule.ownerTier, state.lastPremiumAt.get(rule.ownerKeyId) ?? null, nowMs)) continue;
      state.lastPremiumAt.set(rule.ownerKeyId, nowMs);
      premiumSample = true;
    }
    state.fired.add(key);
    out.push({ rule, mint, premiumSample });
  }
  return out;
}

/** The facts a fire carries (outbox payload, message): what a trader acts on. */
export function fireFacts(f: MintFacts) {
  return {
    grad_prob: f.gradProb,
    age_bucket: f.ageBucket,
    calibration: f.calibration,
    runner_prob_5x_from_now: f.runner5x,
    runner_prob_10x_from_now: f.runner10x,
    v_sol_added_60s: f.vSolAdded60sSol,
    smart_money_in: f.smartMoneyIn,
    runner_creator: f.runnerCreator,
    rate_5x: f.rate5x,
    n_launches: f.nLaunches,
    price_sol: f.priceSol,
    multiple: f.currentMult,
    market_cap_sol: f.marketCapSol,
    market_cap_usd: f.marketCapUsd,
    rug_flags: f.rugFlags,
  };
}
export type FireFacts = ReturnType<typeof fireFacts>;
