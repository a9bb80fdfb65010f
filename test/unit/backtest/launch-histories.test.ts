import { labelLaunch, LaunchHistoryFolder, type ResolvedLaunch } from '../../../domain/scoring/launch-histories';
import { createMarketSimulator } from '../../../ingest/simulator/market-simulator';
import { priceSol, type CompleteEvent, type CreateEvent, type LaunchEvent, type TradeEvent } from '../../../domain/launch/launch-events';
import { computeFeatures } from '../../../domain/scoring/mint-features';
import { RUNNER_GRID_AGES_S, runnerObservations } from '../../../domain/scoring/runner-grid';
import type { ScoreAge } from '../../../domain/scoring/score-age';
import { isSmartWallet } from '../../../domain/wallets/smart-score';

const T0 = Date.parse('2026-11-01T00:00:00Z');
const HORIZON_S = 3600;

const create = (mint: string, atS: number, over: Partial<CreateEvent> = {}): CreateEvent => ({
  kind: 'create',
  signature: `create-${mint}`,
  ordinal: 0,
  slot: 100,
  at: new Date(T0 + atS * 1000),
  source: 'test',
  mint,
  name: mint,
  symbol: mint,
  uri: '',
  bondingCurve: `curve-${mint}`,
  creator: `dev-${mint}`,
  mayhem: false,
  vSolLamports: 30e9,
  vTokensRaw: 1_073e12,
  ...over,
});

/** A buy (or sell) at `atS` seconds after T0 leaving the curve at vSol `vSolSol` on a constant product. */
const trade = (mint: string, atS: number, trader: string, vSolSol: number, signature = `t-${mint}-${atS}-${trader}`, isBuy = true): TradeEvent => ({
  kind: 'trade',
  signature,
  ordinal: 0,
  slot: 100 + atS,
  at: new Date(T0 + atS * 1000),
  source: 'test',
  mint,
  trader,
  isBuy,
  solLamports: 1e8,
  tokensRaw: 1e12,
  vSolLamports: vSolSol * 1e9,
  vTokensRaw: (30 * 1_073e12) / vSolSol,
});

const complete = (mint: string, atS: number): CompleteEvent => ({
  kind: 'complete',
  signature: `c-${mint}`,
  ordinal: 0,
  slot: null,
  at: new Date(T0 + atS * 1000),
  source: 'test',
  mint,
});

/** Freshness as the stream shows it: a wallet is fresh for a mint when its first trade is at or after the creation. */
function streamFreshness(events: readonly LaunchEvent[]) {
  const first = new Map<string, number>();
  for (const e of events) if (e.kind === 'trade' && !first.has(e.trader)) first.set(e.trader, e.at.getTime());
  return (wallet: string, createdAtMs: number) => (first.get(wallet) ?? Infinity) >= createdAtMs;
}

function fold(events: LaunchEvent[]) {
  const folder = new LaunchHistoryFolder(HORIZON_S, isSmartWallet);
  const resolved = events.flatMap((e) => folder.push(e));
  return { folder, resolved };
}

describe('launch history folding', () => {
  it('resolves a mint only once the clock is past its horizon, with production features and labels', () => {
    const a = create('A', 0);
    const trades = [trade('A', 5, 'w1', 32), trade('A', 20, 'w2', 35), trade('A', 45, 'w3', 40), trade('A', 300, 'w1', 80, undefined, false)];
    const { folder, resolved } = fold([a, ...trades, complete('A', 400), create('B', HORIZON_S)]);
    // B's creation at exactly A's horizon does not resolve A: events at the horizon still count.
    expect(resolved).toEqual([]);
    expect(folder.unresolved).toBe(2);

    const later = folder.push(trade('B', HORIZON_S + 1, 'w9', 31));
    expect(later.map((l) => l.mint)).toEqual(['A']);
    const [r] = later;
    expect(r!.resolvedAt).toEqual(new Date(T0 + HORIZON_S * 1000));
    expect(r!.outcome).toMatchObject({ labelVersion: 'v1', graduated: true, timeToGraduationS: 400 });
    expect(r!.observations.map((o) => [o.ageS, o.observedAt.getTime() - T0])).toEqual([
      [30, 30_000],
      [60, 60_000],
    ]);
    expect(r!.observations[0]!.features).toMatchObject(computeFeatures(a, trades, 30));
    expect(r!.observations[1]!.features).toMatchObject(computeFeatures(a, trades, 60));
    // At 30 s the curve stood at 35 SOL; its peak after that was 80 SOL.
    const price = (v: number) => priceSol(v * 1e9, (30 * 1_073e12) / v);
    expect(r!.observations[0]!.priceSol).toBe(price(35));
    expect(r!.observations[0]!.peakMultFromCall).toBeCloseTo(price(80) / price(35), 12);
    expect(r!.observations[1]!.peakMultFromCall).toBeCloseTo(price(80) / price(40), 12);
    expect(folder.unresolved).toBe(1);
  });

  it('labels a graduation after the horizon as not graduated, and takes a migrate as graduation when complete was missed', () => {
    const migrate: LaunchEvent = {
      kind: 'migrate',
      pool: null,
      signature: 'm-C',
      ordinal: 0,
      slot: null,
      at: new Date(T0 + 100_000),
      source: 'test',
      mint: 'C',
    };
    const { resolved } = fold([create('L', 0), create('C', 1), migrate, complete('L', HORIZON_S + 5), create('Z', 3 * HORIZON_S)]);
    const byMint = new Map(resolved.map((r) => [r.mint, r.outcome.graduated]));
    expect(byMint).toEqual(
      new Map([
        ['L', false],
        ['C', true],
      ]),
    );
  });

  it('never keeps mayhem mints, counts duplicates, orphans and late events, and leaves open mints unresolved', () => {
    const dupe = trade('A', 10, 'w1', 33, 'same-sig');
    const { folder, resolved } = fold([
      trade('OLD', 0, 'w1', 31),
      create('A', 0),
      create('M', 0, { mayhem: true }),
      trade('M', 5, 'agent', 40),
      dupe,
      { ...dupe },
      create('A', 1),
      create('B', HORIZON_S + 10),
      trade('A', 20, 'w2', 34),
      create('C', 2 * HORIZON_S + 20),
    ]);
    expect(resolved.map((r) => r.mint)).toEqual(['A', 'B']);
    expect(folder.counts).toEqual({ events: 10, launches: 4, mayhemSkipped: 1, orphanTrades: 1, lateEvents: 1, duplicateTrades: 1, graduationsSeen: 0 });
    expect(resolved[0]!.observations[0]!.features.buyCount).toBe(1);
    expect(folder.unresolved).toBe(1);
  });

  it('labels a simulated market exactly as the production code does on every trade, keeping only a few', () => {
    // Reference: every trade of every mint, labelled whole. Graduates, rugs (insider sells), duds and
    // mints still trading at the horizon all occur in a few hours of this market.
    const horizonS = 1800;
    const events = [
      ...createMarketSimulator({ seed: 21, startMs: T0, launchesPerSecond: 0.05, graduationShare: 0.1, mayhemShare: 0 }).events(T0, T0 + 3 * 3600_000),
    ];
    const creates = new Map<string, CreateEvent>();
    const all = new Map<string, TradeEvent[]>();
    const graduated = new Map<string, Date>();
    for (const e of events) {
      if (e.kind === 'create') creates.set(e.mint, e);
      else if (e.kind === 'trade') all.set(e.mint, [...(all.get(e.mint) ?? []), e]);
      else if (!graduated.has(e.mint)) graduated.set(e.mint, e.at);
    }
    const folder = new LaunchHistoryFolder(horizonS, isSmartWallet);
    const resolved: ResolvedLaunch[] = events.flatMap((e) => folder.push(e));
    expect(resolved.length).toBeGreaterThan(300);
    const isFresh = streamFreshness(events);
    // Point in time, recounted from the resolved launches alone: the creator's record counts its launches resolved
    // before the creation; a wallet is smart at an age by the launches it bought (by 60 s) resolved before then.
    const known = (c: CreateEvent) => (ageS: ScoreAge) => {
      const before = (ms: number) => resolved.filter((x) => x.resolvedAt.getTime() < ms);
      const mine = before(c.at.getTime()).filter((x) => creates.get(x.mint)!.creator === c.creator);
      const records = new Map<string, { total: number; graduated: number; rugged: number }>();
      for (const x of before(c.at.getTime() + ageS * 1000)) {
        const cx = creates.get(x.mint)!;
        const buyers = new Set(
          (all.get(x.mint) ?? []).filter((t) => t.isBuy && t.trader !== cx.creator && t.at.getTime() <= cx.at.getTime() + 60_000).map((t) => t.trader),
        );
        for (const w of buyers) {
          const rec = records.get(w) ?? { total: 0, graduated: 0, rugged: 0 };
          rec.total++;
          rec.graduated += x.outcome.graduated ? 1 : 0;
          rec.rugged += x.outcome.rugged ? 1 : 0;
          records.set(w, rec);
        }
      }
      return {
        creator: {
          launches: mine.length,
          graduates: mine.filter((x) => x.outcome.graduated).length,
          rugs: mine.filter((x) => x.outcome.rugged).length,
        },
        smart: new Set([...records].filter(([, rec]) => isSmartWallet(rec)).map(([w]) => w)),
      };
    };
    const kinds = { graduated: 0, rugged: 0, withCreatorRecord: 0, fullGrid: 0 };
    for (const r of resolved) {
      const c = creates.get(r.mint)!;
      const horizonAt = new Date(c.at.getTime() + horizonS * 1000);
      const full = (all.get(r.mint) ?? []).filter((t) => t.at <= horizonAt);
      const graduatedAt = graduated.get(r.mint) ?? null;
      // The runner grid rows too: the folder keeps every trade through the last grid age, so they are exact.
      const grid = runnerObservations({ create: c, tradesAnyOrder: full, graduatedAt, horizonAt });
      expect(r).toEqual({ ...labelLaunch(c, full, graduatedAt, horizonAt, isFresh, known(c)), grid });
      if (grid.length === RUNNER_GRID_AGES_S.length) kinds.fullGrid++;
      if (r.observations[0]!.features.launch!.creatorLogLaunches > 0) kinds.withCreatorRecord++;
      if (r.outcome.graduated) kinds.graduated++;
      if (r.outcome.rugged) kinds.rugged++;
    }
    expect(kinds.graduated).toBeGreaterThan(5);
    expect(kinds.rugged).toBeGreaterThan(0);
    expect(kinds.withCreatorRecord).toBeGreaterThan(0);
    expect(kinds.fullGrid).toBeGreaterThan(0);
  });

  it('keeps a late dump by a creation-slot buyer, the peak and the final price: a rug is labelled a rug', () => {
    // slot 100 is the creation slot: 'bundle' is an insider. Everything it does after the kept span (the last runner
    // grid age, 30 min) still counts.
    const a = create('A', 0);
    const trades = [
      { ...trade('A', 0, 'bundle', 60), slot: 100 },
      trade('A', 10, 'w1', 58),
      trade('A', 1890, 'w2', 75),
      trade('A', 2000, 'w3', 50),
      trade('A', 2100, 'bundle', 40, undefined, false),
      trade('A', 2101, 'w4', 39, undefined, false),
      trade('A', 2200, 'w5', 31, undefined, false),
    ];
    const events = [a, ...trades, create('Z', HORIZON_S + 1)];
    const { resolved } = fold(events);
    expect(resolved).toHaveLength(1);
    expect(resolved[0]!.outcome).toMatchObject({ graduated: false, rugged: true });
    const horizonAt = new Date(T0 + HORIZON_S * 1000);
    const grid = runnerObservations({ create: a, tradesAnyOrder: trades, graduatedAt: null, horizonAt });
    expect(resolved[0]).toEqual({ ...labelLaunch(a, trades, null, horizonAt, streamFreshness(events)), grid });
    // Without the insider's sell it would be a fade, not a rug: the label depends on that kept trade.
    const faded = trades.filter((t) => !(t.trader === 'bundle' && !t.isBuy));
    expect(labelLaunch(a, faded, null, new Date(T0 + HORIZON_S * 1000)).outcome.rugged).toBe(false);
  });

  it('logs the rug features production would have: first buyers are fresh only when the stream never saw them trade before the creation', () => {
    const b = create('B', 100);
    const events: LaunchEvent[] = [
      create('A', 0),
      trade('A', 1, 'veteran', 31),
      b,
      trade('B', 101, 'veteran', 31),
      trade('B', 102, 'newcomer', 32),
      trade('B', 103, 'another', 33),
      create('Z', 100 + HORIZON_S + 1),
    ];
    const { resolved } = fold(events);
    const rb = resolved.find((r) => r.mint === 'B')!;
    for (const o of rb.observations) {
      expect(o.rugFeatures.freshFirst3).toBe(2);
      expect(o.rugFeatures.logTrades).toBeCloseTo(Math.log1p(3));
    }
    // The veteran was fresh for A (its first trade was A's).
    expect(resolved.find((r) => r.mint === 'A')!.observations[0]!.rugFeatures.freshFirst3).toBe(1);
  });

  it('resolves early, at their horizon, only the mints quiet since the given time, and never twice', () => {
    const folder = new LaunchHistoryFolder(HORIZON_S, isSmartWallet);
    const events = [create('A', 0), trade('A', 5, 'w1', 31), create('B', 10), trade('B', 900, 'w2', 31)];
    events.forEach((e) => expect(folder.push(e)).toEqual([]));
    const quiet = folder.resolveQuiet(T0 + 600_000);
    expect(quiet.map((r) => r.mint)).toEqual(['A']);
    expect(quiet[0]!.resolvedAt).toEqual(new Date(T0 + HORIZON_S * 1000));
    expect(folder.unresolved).toBe(1);
    // The clock passing both horizons resolves B alone; A is not resolved again.
    expect(folder.push(create('Z', 10 + HORIZON_S + 1)).map((r) => r.mint)).toEqual(['B']);
  });

  it('refuses a horizon that does not reach past the scoring ages', () => {
    expect(() => new LaunchHistoryFolder(60, isSmartWallet)).toThrow(RangeError);
  });
});
