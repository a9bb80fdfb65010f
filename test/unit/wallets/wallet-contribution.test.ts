import { priceSol } from '../../../domain/launch/launch-events';
import { RUG_LABEL_VERSION, LABEL_VERSION, resolveOutcome } from '../../../domain/launch/outcome-labels';
import {
  EARLY_WINDOW_S,
  FAST_SNIPE_WINDOW_S,
  mintContributions,
  RAN_MULT,
  walletMintContribution,
  WALLET_CONTRIBUTION_VERSION,
  type ResolvedMintTrades,
} from '../../../domain/wallets/wallet-contribution';
import { handBuiltMint, T0 } from '../../support/hand-built-mint';

const HORIZON = new Date(T0 + 24 * 3600_000);
const MID = { labelVersion: LABEL_VERSION, graduated: false, rugged: false, rugLabelVersion: RUG_LABEL_VERSION };
const resolved = (m: ReturnType<typeof handBuiltMint>, outcome = MID, checkpointPricesSol: number[] = []): ResolvedMintTrades => ({
  create: m.create,
  trades: m.trades,
  horizonAt: HORIZON,
  outcome,
  checkpointPricesSol,
});
const byWallet = (r: ResolvedMintTrades) => new Map(mintContributions(r).map((c) => [c.wallet, c]));

describe('a wallet-mint contribution', () => {
  it('uses the product windows: fast snipe within 3 s (the sniper signal), early by the 60 s score, ran at 5×', () => {
    expect([FAST_SNIPE_WINDOW_S, EARLY_WINDOW_S, RAN_MULT, WALLET_CONTRIBUTION_VERSION]).toEqual([3, 60, 5, 'wallet-v1']);
  });

  it('sums a wallet’s buys, keeps its volume-weighted entry, first and last buy, and ignores its sells', () => {
    const m = handBuiltMint();
    const t1 = m.buy(10, 'A', 1);
    m.buy(20, 'B', 2);
    const t2 = m.buy(30, 'A', 0.5);
    m.sell(40, 'A', t1);
    const c = walletMintContribution(resolved(m), 'A')!;
    expect(c).toMatchObject({
      wallet: 'A',
      mint: 'MINT',
      version: 'wallet-v1',
      labelVersion: 'v1',
      rugLabelVersion: 'rug-v2',
      launchAt: new Date(T0),
      buys: 2,
      solInvestedLamports: 1.5e9,
      tokensBoughtRaw: t1 + t2,
      firstBuyAt: new Date(T0 + 10_000),
      lastBuyAt: new Date(T0 + 30_000),
      firstBuyOffsetS: 10,
      fastSnipe: false,
      early: true,
    });
    expect(c.entryPriceSol).toBe(1.5 / ((t1 + t2) / 1e6));
  });

  it('is absent for a wallet that never bought, for the creator on its own mint, and for buys after the horizon', () => {
    const m = handBuiltMint();
    m.buy(0, 'DEV', 3);
    const t = m.buy(1, 'A', 1);
    m.sell(2, 'SELLER', 0); // only sold (tokens came from elsewhere)
    m.buy(24 * 3600 + 1, 'LATE', 1);
    m.sell(5, 'A', t);
    const all = mintContributions(resolved(m));
    expect(all.map((c) => c.wallet)).toEqual(['A']);
    expect(walletMintContribution(resolved(m), 'DEV')).toBeNull();
    expect(walletMintContribution(resolved(m), 'SELLER')).toBeNull();
    expect(walletMintContribution(resolved(m), 'LATE')).toBeNull();
    expect(walletMintContribution(resolved(m), 'NOBODY')).toBeNull();
  });

  it('counts a first buy at exactly 3 s as a fast snipe and one a millisecond later as not; 60 s as early, 60.001 s not', () => {
    const m = handBuiltMint();
    m.buy(0, 'BUNDLE', 1);
    m.buy(3, 'EDGE', 1);
    m.buy(3.001, 'SLOW', 1);
    m.buy(60, 'EARLY', 1);
    m.buy(60.001, 'LATE', 1);
    const c = byWallet(resolved(m));
    expect([...c.values()].map((x) => [x.wallet, x.firstBuyOffsetS, x.fastSnipe, x.early])).toEqual([
      ['BUNDLE', 0, true, true],
      ['EARLY', 60, false, true],
      ['EDGE', 3, true, true],
      ['LATE', 60.001, false, false],
      ['SLOW', 3.001, false, true],
    ]);
  });

  it('takes a buy stamped before the create (feed clocks) as offset 0, and refuses trades out of time order', () => {
    const m = handBuiltMint();
    m.buy(-0.5, 'SKEW', 1);
    expect(walletMintContribution(resolved(m), 'SKEW')).toMatchObject({ firstBuyOffsetS: 0, fastSnipe: true });
    m.buy(10, 'A', 1);
    m.buy(1, 'B', 1);
    expect(() => mintContributions(resolved(m))).toThrow(/not in time order/);
  });

  it('labels each buyer with the mint’s outcome: graduated, rugged or mid, exactly one of them', () => {
    const m = handBuiltMint();
    m.buy(1, 'A', 1);
    const one = (o: typeof MID) => walletMintContribution(resolved(m, o), 'A')!;
    expect(one(MID)).toMatchObject({ graduated: false, rugged: false, mid: true });
    expect(one({ ...MID, graduated: true })).toMatchObject({ graduated: true, rugged: false, mid: false });
    expect(one({ ...MID, rugged: true })).toMatchObject({ graduated: false, rugged: true, mid: false });
    expect(() => one({ ...MID, graduated: true, rugged: true })).toThrow(/both graduated and rugged/);
  });

  it('calls a run at 5× its own entry, from its first buy on: 70 SOL of curve reaches it, 67 SOL does not', () => {
    // A pays the mean price of 30 → 31 SOL of curve; price grows with vSol², so 5× needs vSol ≥ √(5·30·31) ≈ 68.2.
    const run = handBuiltMint();
    run.buy(1, 'A', 1);
    run.buy(50, 'WHALE', 39); // vSol 70
    const stall = handBuiltMint();
    stall.buy(1, 'A', 1);
    stall.buy(50, 'WHALE', 36); // vSol 67
    const a = walletMintContribution(resolved(run), 'A')!;
    const b = walletMintContribution(resolved(stall), 'A')!;
    const peak = (x: typeof run) => priceSol(x.trades[1]!.vSolLamports, x.trades[1]!.vTokensRaw);
    expect(a.peakMultFromEntry).toBe(peak(run) / a.entryPriceSol!);
    expect(a.peakMultFromEntry).toBeCloseTo(4900 / 930, 3);
    expect(a.ran).toBe(true);
    expect(b.peakMultFromEntry).toBeCloseTo(4489 / 930, 3);
    expect(b.ran).toBe(false);
    // The whale paid the mean of 31 → 70 and saw nothing higher after: it did not run.
    expect(walletMintContribution(resolved(run), 'WHALE')!.ran).toBe(false);
  });

  it('does not count a peak from before the wallet bought', () => {
    const m = handBuiltMint();
    const t = m.buy(1, 'PUMPER', 40);
    m.sell(20, 'PUMPER', t); // back to the launch price
    m.buy(30, 'A', 1);
    const a = walletMintContribution(resolved(m), 'A')!;
    expect(a.peakMultFromEntry).toBeLessThan(1.1);
    expect(a.ran).toBe(false);
    expect(walletMintContribution(resolved(m), 'PUMPER')).toMatchObject({ ran: false });
  });

  it('counts DEX checkpoint prices toward the peak of graduates only', () => {
    const m = handBuiltMint();
    m.buy(1, 'A', 1);
    const entry = walletMintContribution(resolved(m), 'A')!.entryPriceSol!;
    const dex = [entry * 6];
    expect(walletMintContribution(resolved(m, { ...MID, graduated: true }, dex), 'A')!).toMatchObject({ ran: true, peakMultFromEntry: 6 });
    expect(walletMintContribution(resolved(m, MID, dex), 'A')!.ran).toBe(false);
  });

  it('returns every buyer once, ordered by wallet (the lock order of the record update)', () => {
    const m = handBuiltMint();
    for (const w of ['C', 'A', 'B', 'A', 'C']) m.buy(5, w, 0.1);
    expect(mintContributions(resolved(m)).map((c) => [c.wallet, c.buys])).toEqual([
      ['A', 2],
      ['B', 1],
      ['C', 2],
    ]);
  });

  it('carries the versioned labels the production resolver gives', () => {
    const m = handBuiltMint();
    m.buy(0, 'DEV', 1);
    m.buy(1, 'A', 1);
    const outcome = resolveOutcome({ create: m.create, trades: m.trades, horizonAt: HORIZON, graduatedAt: null, checkpointPricesSol: [] });
    const c = walletMintContribution({ create: m.create, trades: m.trades, horizonAt: HORIZON, outcome, checkpointPricesSol: [] }, 'A')!;
    expect(c).toMatchObject({
      labelVersion: outcome.labelVersion,
      rugLabelVersion: outcome.rugLabelVersion,
      graduated: false,
      rugged: outcome.rugged,
      mid: !outcome.rugged,
    });
  });
});
