import {
  buildRuleIndex,
  decideFires,
  emptyFireState,
  matchMint,
  type IndexedRule,
  type MatchMark,
  type MintFacts,
} from '../../../domain/alerts/alert-evaluation';
import type { AlertKind } from '../../../domain/alerts/alert-kinds';
import type { Tier } from '../../../domain/access/tiers';
import { quietMintFacts } from '../../support/alert-fixtures';

const W1 = 'Wa11et1111111111111111111111111111111111111';
const W2 = 'Wa11et2222222222222222222222222222222222222';

const facts = (o: Partial<MintFacts> = {}): MintFacts => quietMintFacts({ marketCapUsd: 4500, ...o });

let nextId = 1;
const rule = (kind: AlertKind, threshold: number, o: { wallet?: string; owner?: number; tier?: Tier } = {}): IndexedRule => ({
  id: nextId++,
  ownerKeyId: o.owner ?? 1,
  kind,
  threshold,
  wallet: o.wallet ?? null,
  ownerTier: o.tier ?? 'pro',
});

const ids = (rs: readonly { id: number }[]) => rs.map((r) => r.id).sort((a, b) => a - b);

describe('alert rule evaluation', () => {
  it('grad_prob fires when the probability meets the threshold exactly, not below it', () => {
    const at70 = rule('grad_prob', 70 / 100);
    const at71 = rule('grad_prob', 0.71);
    const idx = buildRuleIndex([at70, at71]);
    expect(ids(matchMint(idx, facts({ gradProb: 0.7, ageBucket: 30 })))).toEqual([at70.id]);
    expect(matchMint(idx, facts({ gradProb: 0.6999999, ageBucket: 30 }))).toEqual([]);
    // No score shown (older than 60 s or not yet scored): nothing to compare, nothing fires.
    expect(matchMint(idx, facts({ gradProb: null }))).toEqual([]);
  });

  it('a mayhem mint matches no kind, however strong its facts', () => {
    const rs = [
      rule('grad_prob', 0.1),
      rule('vsol_burst', 1),
      rule('smart_in', 1),
      rule('runner_5x', 0.01),
      rule('runner_dev', 0),
      rule('wallet', 0, { wallet: W1 }),
    ];
    const strong = { gradProb: 0.99, vSolAdded60sSol: 50, smartMoneyIn: 9, runner5x: 0.9, runner10x: 0.9, runnerCreator: true, rate5x: 0.5, buyers: [W1] };
    expect(matchMint(buildRuleIndex(rs), facts({ ...strong, mayhem: false }))).toHaveLength(6);
    expect(matchMint(buildRuleIndex(rs), facts({ ...strong, mayhem: true }))).toEqual([]);
  });

  it('vsol_burst compares the SOL added within 60 s; a net outflow never fires', () => {
    const r10 = rule('vsol_burst', 10);
    const idx = buildRuleIndex([r10]);
    expect(ids(matchMint(idx, facts({ vSolAdded60sSol: 10 })))).toEqual([r10.id]);
    expect(matchMint(idx, facts({ vSolAdded60sSol: 9.999 }))).toEqual([]);
    expect(matchMint(buildRuleIndex([rule('vsol_burst', 0.001)]), facts({ vSolAdded60sSol: -4 }))).toEqual([]);
  });

  it('runner_dev needs a runner creator whose 5x rate meets the threshold', () => {
    const r = rule('runner_dev', 0.2);
    const idx = buildRuleIndex([r]);
    expect(ids(matchMint(idx, facts({ runnerCreator: true, rate5x: 0.2 })))).toEqual([r.id]);
    expect(matchMint(idx, facts({ runnerCreator: true, rate5x: 0.19 }))).toEqual([]);
    expect(matchMint(idx, facts({ runnerCreator: false, rate5x: 0.9 }))).toEqual([]);
  });

  it('smart_in counts smart wallets among the current top buyers', () => {
    const r3 = rule('smart_in', 3);
    const idx = buildRuleIndex([r3]);
    expect(ids(matchMint(idx, facts({ smartMoneyIn: 3 })))).toEqual([r3.id]);
    expect(matchMint(idx, facts({ smartMoneyIn: 2 }))).toEqual([]);
  });

  it('runner_5x and runner_10x read their own tier of the from-now odds', () => {
    const r5 = rule('runner_5x', 0.3);
    const r10 = rule('runner_10x', 0.3);
    const idx = buildRuleIndex([r5, r10]);
    expect(ids(matchMint(idx, facts({ runner5x: 0.3, runner10x: 0.1 })))).toEqual([r5.id]);
    expect(ids(matchMint(idx, facts({ runner5x: 0.5, runner10x: 0.3 })))).toEqual([r5.id, r10.id]);
    expect(matchMint(idx, facts({ runner5x: null, runner10x: null }))).toEqual([]);
  });

  it('wallet fires when the chosen wallet is among the buyers, and only then', () => {
    const r = rule('wallet', 0, { wallet: W1 });
    const idx = buildRuleIndex([r]);
    expect(ids(matchMint(idx, facts({ buyers: [W2, W1] })))).toEqual([r.id]);
    expect(matchMint(idx, facts({ buyers: [W2] }))).toEqual([]);
  });

  it('a rule fires once per mint: the second evaluation of the same mint decides nothing', () => {
    const r = rule('grad_prob', 0.5);
    const idx = buildRuleIndex([r]);
    const state = emptyFireState();
    const f = facts({ gradProb: 0.8, ageBucket: 30 });
    expect(decideFires(matchMint(idx, f), f.mint, state, 0)).toHaveLength(1);
    expect(decideFires(matchMint(idx, { ...f, ageBucket: 60, gradProb: 0.9 }), f.mint, state, 1000)).toEqual([]);
    // Another mint is a new fire.
    expect(decideFires(matchMint(idx, { ...f, mint: 'Other' }), 'Other', state, 2000)).toHaveLength(1);
  });

  it('a Free owner gets one premium fire per rolling 24 h, marked as the sample; basic kinds and paid owners are not limited', () => {
    const premium = rule('smart_in', 1, { owner: 7, tier: 'free' });
    const basic = rule('grad_prob', 0.1, { owner: 7, tier: 'free' });
    const paid = rule('smart_in', 1, { owner: 8, tier: 'builder' });
    const idx = buildRuleIndex([premium, basic, paid]);
    const state = emptyFireState();
    const f = (mint: string) => facts({ mint, smartMoneyIn: 2, gradProb: 0.5, ageBucket: 30 });
    const first = decideFires(matchMint(idx, f('A')), 'A', state, 0);
    expect(first.map((d) => [d.rule.id, d.premiumSample]).sort()).toEqual(
      [
        [premium.id, true],
        [basic.id, false],
        [paid.id, false],
      ].sort(),
    );
    const H = 3600_000;
    const second = decideFires(matchMint(idx, f('B')), 'B', state, 24 * H - 1);
    expect(ids(second.map((d) => d.rule))).toEqual([basic.id, paid.id]);
    // Mint B's premium match was held back, not spent: it may still fire once the window has passed.
    const later = decideFires(matchMint(idx, f('B')), 'B', state, 24 * H);
    expect(later.map((d) => [d.rule.id, d.premiumSample])).toEqual([[premium.id, true]]);
  });

  it('50,000 rules cost a prefix walk per kind, not a pass over all of them', () => {
    const many = Array.from({ length: 50_000 }, (_, i) => rule('grad_prob', 0.5 + (i % 500) / 1000));
    const idx = buildRuleIndex(many);
    expect(matchMint(idx, facts({ gradProb: 0.4 }))).toEqual([]);
    expect(matchMint(idx, facts({ gradProb: 0.5 }))).toHaveLength(100);
  });

  it('with a mark, a mint walks only the rules its new facts reach', () => {
    const low = rule('grad_prob', 0.4);
    const mid = rule('grad_prob', 0.6);
    const high = rule('grad_prob', 0.8);
    const r5 = rule('runner_5x', 0.2);
    const w = rule('wallet', 0, { wallet: W1 });
    const idx = buildRuleIndex([low, mid, high, r5, w]);
    const mark: MatchMark = {};
    expect(ids(matchMint(idx, facts({ gradProb: 0.6, runner5x: 0.1 }), mark))).toEqual([low.id, mid.id]);
    expect(mark).toEqual({ grad_prob: 0.6, runner_5x: 0.1 });
    // Same facts, or lower ones: nothing new. Higher: only the rules above the mark, threshold met exactly included.
    expect(matchMint(idx, facts({ gradProb: 0.6, runner5x: 0.1 }), mark)).toEqual([]);
    expect(matchMint(idx, facts({ gradProb: 0.5 }), mark)).toEqual([]);
    expect(ids(matchMint(idx, facts({ gradProb: 0.8, runner5x: 0.2 }), mark))).toEqual([high.id, r5.id]);
    // Wallet rules are looked up every time (the fire state decides repeats).
    expect(ids(matchMint(idx, facts({ buyers: [W1] }), mark))).toEqual([w.id]);
    // Without the mark, everything that holds.
    expect(ids(matchMint(idx, facts({ gradProb: 0.8 })))).toEqual([low.id, mid.id, high.id]);
  });
});
