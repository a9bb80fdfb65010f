import { createHash } from 'node:crypto';
import { eventKey, type LaunchEvent } from '../../../domain/launch/launch-events';
import { createMarketSimulator } from '../../../ingest/simulator/market-simulator';
import { createSimulatorFeed, type SimulatorFeedOptions } from '../../../ingest/simulator/simulator-feed';
import { simulatedMetadata } from '../../../ingest/simulator/simulated-metadata';
import { openDataset, parseDatasetSpec } from '../../../scripts/backtest/launch-datasets';

const MIN = 60_000;

/** Runs a live feed at real time until it has delivered `launches` creates, then stops it (as a daemon is stopped). */
async function runFeed(opts: SimulatorFeedOptions, launches: number): Promise<{ events: LaunchEvent[]; startedAt: number }> {
  const events: LaunchEvent[] = [];
  let enough!: () => void;
  const reached = new Promise<void>((r) => (enough = r));
  const feed = createSimulatorFeed(opts);
  const startedAt = Date.now();
  feed.start(async (batch) => {
    events.push(...batch);
    if (events.filter((e) => e.kind === 'create').length >= launches) enough();
  });
  await Promise.race([reached, new Promise((r) => setTimeout(r, 10_000))]);
  await feed.stop();
  return { events, startedAt };
}

const mintsOf = (events: LaunchEvent[]) => new Set(events.filter((e) => e.kind === 'create').map((e) => e.mint));

describe('a restarted simulator feed', () => {
  // The ingest daemon's configuration, only faster so that a second of wall time holds launches.
  const config: SimulatorFeedOptions = { seed: 42, launchesPerSecond: 25, graduationShare: 0.05, batchIntervalMs: 20 };

  it('continues with new mints and signatures at later times and slots instead of replaying the first run', async () => {
    const first = await runFeed(config, 8);
    const second = await runFeed(config, 8);
    expect(mintsOf(first.events).size).toBeGreaterThanOrEqual(8);
    expect(mintsOf(second.events).size).toBeGreaterThanOrEqual(8);

    // Nothing the first run stored comes again: no mint, no event key, no transaction signature.
    const firstMints = mintsOf(first.events);
    const firstKeys = new Set(first.events.map(eventKey));
    const firstSignatures = new Set(first.events.map((e) => e.signature));
    expect([...mintsOf(second.events)].filter((m) => firstMints.has(m))).toEqual([]);
    expect(second.events.filter((e) => firstKeys.has(eventKey(e)))).toEqual([]);
    expect(second.events.filter((e) => firstSignatures.has(e.signature))).toEqual([]);

    // Time and slots move forward across the restart.
    const lastOf = (es: LaunchEvent[], f: (e: LaunchEvent) => number) => Math.max(...es.map(f));
    const firstOf = (es: LaunchEvent[], f: (e: LaunchEvent) => number) => Math.min(...es.map(f));
    expect(firstOf(second.events, (e) => e.at.getTime())).toBeGreaterThanOrEqual(second.startedAt);
    expect(firstOf(second.events, (e) => e.at.getTime())).toBeGreaterThan(lastOf(first.events, (e) => e.at.getTime()));
    // Slots follow the wall clock (one per 400 ms), so a run started within the last slot of the one before may share it.
    expect(firstOf(second.events, (e) => e.slot!)).toBeGreaterThanOrEqual(lastOf(first.events, (e) => e.slot!));

    // The first run's mints are left behind: the second run trades only its own.
    const secondMints = mintsOf(second.events);
    expect(second.events.filter((e) => !secondMints.has(e.mint))).toEqual([]);
  });

  it('is still reproducible: the same seed, run and start give the same market, another run another one', () => {
    const market = (run?: number) => [...createMarketSimulator({ seed: 42, run, startMs: 0, launchesPerSecond: 2 }).events(0, 2 * MIN)];
    const a = market(1_700_000_000_000);
    expect(market(1_700_000_000_000)).toEqual(a);
    const b = market(1_700_000_000_001);
    expect(mintsOf(a).size).toBeGreaterThan(100);
    expect([...mintsOf(b)].filter((m) => mintsOf(a).has(m))).toEqual([]);
    // The standing population recurs, so creator records carry over a restart (ruggers: 60 wallets, a quarter of launches).
    const creators = (es: LaunchEvent[]) => new Set(es.flatMap((e) => (e.kind === 'create' ? [e.creator] : [])));
    expect([...creators(b)].filter((c) => creators(a).has(c)).length).toBeGreaterThan(5);
    // Without a run the seed alone decides, as before runs existed.
    expect([...mintsOf(market())].filter((m) => mintsOf(a).has(m))).toEqual([]);
  });

  it('leaves the backtest market of a seed unchanged (simulator:42 gives the data it always gave)', async () => {
    // Fingerprint of the first half hour of `npm run backtest -- simulator:42`, taken before runs existed. Launches
    // have since named metadata URIs the simulated gateway answers, drawn from a stream of their own: the
    // fingerprint is taken with the URI of that time, and each URI checked to be the one its launch draws.
    const hash = createHash('sha256');
    let n = 0;
    for await (const e of openDataset(parseDatasetSpec('simulator:42:0.5', '')).events()) {
      if (e.kind === 'create') expect(e.uri).toBe(simulatedMetadata(e).uri);
      hash.update(JSON.stringify(e.kind === 'create' ? { ...e, uri: `https://sim.invalid/${e.mint}.json` } : e));
      hash.update('\n');
      n++;
    }
    expect({ n, sha256: hash.digest('hex') }).toEqual({ n: 21_988, sha256: 'dc409addfedf0e25f3f489323cc14ea81b2e22208f0d77431059a55d1ff98882' });
  });
});
