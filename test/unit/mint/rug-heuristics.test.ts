import { holderConcentration, hideReason, RUG_THRESHOLDS, rugFlags } from '../../../domain/launch/rug-heuristics';
import { CURVE } from '../../../domain/launch/launch-events';
import { CREATE_SLOT, handBuiltMint } from '../../support/hand-built-mint';

const flag = (flags: ReturnType<typeof rugFlags>, name: string) => flags.find((f) => f.flag === name);
const SUPPLY = CURVE.totalSupplyRaw;

describe('rug heuristics', () => {
  it('flag nothing on a launch without trades, and omit fresh-wallet until three buyers are known', () => {
    const m = handBuiltMint();
    const flags = rugFlags(m.tape(), null);
    expect(flags.map((f) => [f.flag, f.value, f.triggered])).toEqual([
      ['bundle_pct', 0, false],
      ['holder_concentration', 0, false],
      ['bundle_dump_in_progress', 0, false],
    ]);
    expect(hideReason(flags)).toBeNull();
  });

  it('count only non-creator buys in the creation slot as the bundle, and flag at 15% of supply', () => {
    const m = handBuiltMint();
    m.buy(0, 'DEV', 5, CREATE_SLOT); // the dev buy is not a bundle
    const b1 = m.buy(0.2, 'B1', 10, CREATE_SLOT);
    const b2 = m.buy(0.3, 'B2', 10, CREATE_SLOT);
    m.buy(5, 'LATE', 1); // a later slot
    const f = flag(rugFlags(m.tape(), null), 'bundle_pct')!;
    expect(f.value).toBeCloseTo((b1 + b2) / SUPPLY, 4);
    expect(f.triggered).toBe((b1 + b2) / SUPPLY >= RUG_THRESHOLDS.bundlePct);
    expect(f.triggered).toBe(true);
    expect(hideReason(rugFlags(m.tape(), null))).toBe('rug_flagged');
  });

  it('sees no bundle when the feed carries no creation slot', () => {
    const m = handBuiltMint({ slot: null });
    m.buy(0.2, 'B1', 20, CREATE_SLOT);
    expect(flag(rugFlags(m.tape(), null), 'bundle_pct')!.value).toBe(0);
  });

  it('measure holder concentration over the top 10 wallets, the creator in, the bonding curve and vaults out', () => {
    const m = handBuiltMint();
    const held: number[] = [];
    for (let i = 0; i < 12; i++) held.push(m.buy(10 + i, `W${i}`, 0.5));
    const dev = m.buy(30, 'DEV', 3);
    const vault = m.buy(31, 'VAULT', 4);
    const tape = m.tape();
    const top10 =
      [...held, dev, vault]
        .sort((a, b) => b - a)
        .slice(0, 10)
        .reduce((s, x) => s + x, 0) / SUPPLY;
    expect(holderConcentration(tape)).toBeCloseTo(top10, 10);
    const withoutVault =
      [...held, dev]
        .sort((a, b) => b - a)
        .slice(0, 10)
        .reduce((s, x) => s + x, 0) / SUPPLY;
    expect(holderConcentration(tape, ['VAULT'])).toBeCloseTo(withoutVault, 10);
    // A trade signed by the curve account itself would not make it a holder.
    m.buy(32, 'CURVE', 50);
    expect(holderConcentration(m.tape(), ['VAULT'])).toBeCloseTo(withoutVault, 10);
  });

  it('flag holder concentration from 35% of supply', () => {
    const m = handBuiltMint();
    m.buy(10, 'WHALE', 30); // about 47% of the curve's tokens, ~37% of supply
    const f = flag(rugFlags(m.tape(), null), 'holder_concentration')!;
    expect(f.value).toBeGreaterThanOrEqual(0.35);
    expect(f.triggered).toBe(true);
  });

  it('flag fresh first-3 only when all three first buyers are fresh', () => {
    const m = handBuiltMint();
    m.buy(1, 'A', 0.1);
    m.buy(2, 'B', 0.1);
    expect(flag(rugFlags(m.tape(), 2), 'fresh_wallet_first3')).toBeUndefined();
    m.buy(3, 'C', 0.1);
    expect(flag(rugFlags(m.tape(), 2), 'fresh_wallet_first3')).toMatchObject({ value: 2, triggered: false });
    expect(flag(rugFlags(m.tape(), 3), 'fresh_wallet_first3')).toMatchObject({ value: 3, threshold: 3, triggered: true });
  });

  it('flag a bundle dump once the bundle has sold a quarter of what it bought, and hide the mint for it', () => {
    const m = handBuiltMint();
    const t1 = m.buy(0.2, 'B1', 1, CREATE_SLOT);
    m.buy(0.3, 'B2', 1, CREATE_SLOT);
    m.sell(20, 'B1', Math.floor(t1 * 0.4));
    const before = rugFlags(m.tape(), null);
    expect(flag(before, 'bundle_dump_in_progress')!.triggered).toBe(false); // ~20% of the bundle's tokens
    m.sell(21, 'B1', Math.floor(t1 * 0.2));
    const after = rugFlags(m.tape(), null);
    expect(flag(after, 'bundle_dump_in_progress')!.triggered).toBe(true);
    expect(hideReason(after)).toBe('bundle_dump');
  });
});
