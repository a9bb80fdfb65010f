import { LABEL_VERSION, RUG_LABEL_VERSION } from '../../../domain/launch/outcome-labels';
import type { WalletMintContribution } from '../../../domain/wallets/wallet-contribution';
import {
  applyContribution,
  applyDelta,
  contributionDelta,
  emptyRecord,
  rebuildRecord,
  recordRates,
  removeContribution,
  resolutionDeltas,
  type WalletRecord,
} from '../../../domain/wallets/wallet-record';

const T0 = Date.parse('2026-11-01T00:00:00Z');
const at = (s: number) => new Date(T0 + s * 1000);

/** A hand-built contribution: wallet W bought mint M (launched at `launch` s) with the given facts. */
function contribution(o: Partial<WalletMintContribution> & { mint: string; launch?: number; offset?: number }): WalletMintContribution {
  const launch = o.launch ?? 0;
  const offset = o.offset ?? 10;
  const graduated = o.graduated ?? false;
  const rugged = o.rugged ?? false;
  return {
    wallet: 'W',
    version: 'wallet-v1',
    labelVersion: LABEL_VERSION,
    rugLabelVersion: RUG_LABEL_VERSION,
    launchAt: at(launch),
    buys: 1,
    solInvestedLamports: 1e9,
    tokensBoughtRaw: 30e12,
    entryPriceSol: 1 / 30e6,
    firstBuyAt: at(launch + offset),
    lastBuyAt: at(launch + offset),
    firstBuyOffsetS: offset,
    fastSnipe: offset <= 3,
    early: offset <= 60,
    peakMultFromEntry: 1,
    ran: false,
    ...o,
    graduated,
    rugged,
    mid: !graduated && !rugged,
  };
}

describe('a wallet record', () => {
  it('from one launch: every count exact, rates over a sample of one', () => {
    const c = contribution({ mint: 'M1', offset: 2, graduated: true, ran: true, buys: 3, solInvestedLamports: 2.5e9 });
    const r = applyContribution(emptyRecord('W'), c);
    expect(r).toEqual<WalletRecord>({
      wallet: 'W',
      total: 1,
      graduated: 1,
      ran: 1,
      mid: 0,
      rugged: 0,
      fastSnipes: 1,
      snipedRugged: 0,
      early: 1,
      earlyGraduated: 1,
      buys: 3,
      solInvestedLamports: 2.5e9,
      firstSeenAt: at(2),
      lastSeenAt: at(2),
    });
    expect(recordRates(r)).toEqual({
      graduationRate: 1,
      runnerRate: 1,
      midRate: 0,
      rugRate: 0,
      fastSnipeRate: 1,
      sniperRugRate: 0,
      avgBuySol: 2.5 / 3,
      totalInvestedSol: 2.5,
    });
  });

  it('has no rates without a sample, and no sniper rug rate without a snipe', () => {
    expect(recordRates(emptyRecord('W'))).toMatchObject({ graduationRate: null, rugRate: null, fastSnipeRate: 0, sniperRugRate: null, avgBuySol: null });
    const r = applyContribution(emptyRecord('W'), contribution({ mint: 'M', offset: 30 }));
    expect(recordRates(r).sniperRugRate).toBeNull();
  });

  it('adds launches up: graduated + rugged + mid = total, snipes that rugged, early graduates, seen bounds', () => {
    const cs = [
      contribution({ mint: 'M1', launch: 100, offset: 1, rugged: true }),
      contribution({ mint: 'M2', launch: 0, offset: 2, graduated: true }),
      contribution({ mint: 'M3', launch: 500, offset: 90, graduated: true, lastBuyAt: at(700) }),
      contribution({ mint: 'M4', launch: 300, offset: 2 }),
      contribution({ mint: 'M5', launch: 400, offset: 45, rugged: true }),
    ];
    const r = rebuildRecord('W', cs);
    expect(r).toMatchObject({
      total: 5,
      graduated: 2,
      rugged: 2,
      mid: 1,
      fastSnipes: 3,
      snipedRugged: 1,
      early: 4,
      earlyGraduated: 1,
      buys: 5,
      solInvestedLamports: 5e9,
    });
    expect(r.graduated + r.rugged + r.mid).toBe(r.total);
    expect([r.firstSeenAt, r.lastSeenAt]).toEqual([at(2), at(700)]);
    expect(recordRates(r)).toMatchObject({ fastSnipeRate: 0.6, sniperRugRate: 1 / 3, graduationRate: 0.4, rugRate: 0.4, midRate: 0.2 });
  });

  it('gives the same record incrementally in any order as rebuilt from its contributions', () => {
    const cs = [1, 2, 3, 4, 5, 6].map((i) =>
      contribution({ mint: `M${i}`, launch: i * 100, offset: i, graduated: i % 3 === 0, rugged: i % 3 === 1, ran: i === 6 }),
    );
    const forward = cs.reduce(applyContribution, emptyRecord('W'));
    const backward = [...cs].reverse().reduce(applyContribution, emptyRecord('W'));
    expect(forward).toEqual(rebuildRecord('W', cs));
    expect(backward).toEqual(forward);
  });

  it('refuses a contribution of another wallet, and taking back what was never applied', () => {
    expect(() => applyContribution(emptyRecord('X'), contribution({ mint: 'M' }))).toThrow(/applied to X/);
    expect(() => removeContribution(emptyRecord('W'), contribution({ mint: 'M' }))).toThrow(/below zero/);
    expect(() => removeContribution(applyContribution(emptyRecord('W'), contribution({ mint: 'M' })), contribution({ mint: 'M2', rugged: true }))).toThrow(
      /rugged of W would fall below zero/,
    );
  });
});

describe('a re-resolved mint', () => {
  const others = [contribution({ mint: 'M1', offset: 1, graduated: true }), contribution({ mint: 'M2', offset: 40 })];
  const before = contribution({ mint: 'M3', offset: 2, rugged: true });
  const after = { ...before, rugged: false, mid: true, rugLabelVersion: 'rug-v3' };

  it('replaces its contribution exactly: remove + apply equals the rebuild with the new label, never counted twice', () => {
    const live = [...others, before].reduce(applyContribution, emptyRecord('W'));
    expect(live).toMatchObject({ total: 3, rugged: 1, mid: 1, snipedRugged: 1 });
    const relabelled = applyContribution(removeContribution(live, before), after);
    expect(relabelled).toEqual(rebuildRecord('W', [...others, after]));
    expect(relabelled).toMatchObject({ total: 3, rugged: 0, mid: 2, snipedRugged: 0, fastSnipes: 2 });
  });

  it('as one delta per wallet, and a second run of the same resolution changes nothing', () => {
    const live = [...others, before].reduce(applyContribution, emptyRecord('W'));
    const deltas = resolutionDeltas([before], [after]);
    expect(deltas).toEqual([
      {
        wallet: 'W',
        total: 0,
        graduated: 0,
        ran: 0,
        mid: 1,
        rugged: -1,
        fastSnipes: 0,
        snipedRugged: -1,
        early: 0,
        earlyGraduated: 0,
        buys: 0,
        solInvestedLamports: 0,
        firstBuyAt: at(2),
        lastBuyAt: at(2),
      },
    ]);
    const once = deltas.reduce(applyDelta, live);
    expect(once).toEqual(rebuildRecord('W', [...others, after]));
    // The store now holds `after` as applied: the retried activity recomputes the same and gets no delta.
    expect(resolutionDeltas([after], [after])).toEqual([]);
  });

  it('adds and takes back whole wallets that appear on one side only (a backfilled buy, a changed definition)', () => {
    const v = contribution({ mint: 'M3', wallet: 'V', offset: 5 });
    const deltas = resolutionDeltas([before], [after, v]);
    expect(deltas.map((d) => [d.wallet, d.total, d.mid, d.rugged])).toEqual([
      ['V', 1, 1, 0],
      ['W', 0, 1, -1],
    ]);
    expect(resolutionDeltas([before, v], [after]).map((d) => [d.wallet, d.total, d.firstBuyAt])).toEqual([
      ['V', -1, null],
      ['W', 0, at(2)],
    ]);
  });

  it('keeps the seen bounds when a contribution is taken back (the wallet was seen), and widens them on a moved buy', () => {
    const r = applyContribution(emptyRecord('W'), before);
    expect(removeContribution(r, before)).toMatchObject({ total: 0, firstSeenAt: at(2), lastSeenAt: at(2) });
    const moved = { ...before, lastBuyAt: at(50) };
    expect(resolutionDeltas([before], [moved])).toHaveLength(1);
    expect(resolutionDeltas([before], [moved]).reduce(applyDelta, r)).toMatchObject({ total: 1, lastSeenAt: at(50) });
  });

  it('is one mint at a time, and a delta replaces a contribution of the same wallet and mint', () => {
    expect(() => resolutionDeltas([before], [contribution({ mint: 'OTHER' })])).toThrow(/one resolution is one mint/);
    expect(() => contributionDelta(before, { ...after, wallet: 'V' })).toThrow(/same wallet and mint/);
    expect(() => contributionDelta(null, null)).toThrow(/at least one/);
  });
});
