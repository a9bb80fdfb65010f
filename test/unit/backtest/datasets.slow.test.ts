import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeReplayFile } from '../../../ingest/replay/replay-format';
import { createMarketSimulator } from '../../../ingest/simulator/market-simulator';
import { DEFAULT_SIMULATOR, openDataset, parseDatasetSpec, SIMULATOR_START } from '../../../scripts/backtest/launch-datasets';
import { renderBacktest } from '../../../scripts/backtest/report-table';
import { runBacktest, type BacktestOutcome } from '../../../scripts/backtest/run-backtest';
import { SHARED_DATA } from '../../support/test-env';

// A short label horizon and a thin market without mayhem agents keep this fast; the pipeline is the same as
// with 24 h (mints the simulator keeps trading past the short horizon show up as late events, in both runs).
const SETTINGS = { horizonS: 3600, refitEveryS: 600, corpusLimit: 200_000, minCorpus: 1 };
const MARKET = { launchesPerSecond: 0.06, graduationShare: 0.05, mayhemShare: 0 };
const HOURS = 3;

/** Everything but the dataset's name and the decoders' rejections, which differ by source. */
const comparable = (o: BacktestOutcome) => ({ ...o, dataset: undefined, rejected: undefined });

describe('backtest datasets', () => {
  it('parses dataset arguments', () => {
    expect(parseDatasetSpec('simulator', '/d')).toEqual({ kind: 'simulator', ...DEFAULT_SIMULATOR });
    expect(parseDatasetSpec('simulator:7', '/d')).toEqual({ kind: 'simulator', seed: 7, hours: DEFAULT_SIMULATOR.hours });
    expect(parseDatasetSpec('simulator:7:30', '/d')).toEqual({ kind: 'simulator', seed: 7, hours: 30 });
    expect(parseDatasetSpec('replay:/x/a.jsonl', '/d')).toEqual({ kind: 'replay', file: '/x/a.jsonl' });
    expect(parseDatasetSpec('rec/a.jsonl', '/d')).toEqual({ kind: 'replay', file: 'rec/a.jsonl' });
    expect(parseDatasetSpec('captures', '/d')).toEqual({ kind: 'captures', dir: '/d' });
    expect(parseDatasetSpec('captures:/e', '/d')).toEqual({ kind: 'captures', dir: '/e' });
    for (const bad of ['simulator:x', 'simulator:1:0', 'simulator:1:2:3', 'replay:', 'data.csv']) expect(() => parseDatasetSpec(bad, '/d')).toThrow();
  });

  it('scores the simulator and the same market written to a replay file identically', async () => {
    const sim = await runBacktest(openDataset({ kind: 'simulator', seed: 5, hours: HOURS }, MARKET), SETTINGS);
    expect(sim.resolved).toBeGreaterThan(300);
    expect(sim.unresolved).toBeGreaterThan(0);
    for (const a of sim.ages) {
      expect(a.report.predictions).toBeGreaterThan(150);
      expect(a.report.graduated).toBeGreaterThan(5);
      expect(a.warmup + a.report.predictions).toBe(a.observations);
      expect(a.report.auc).not.toBeNull();
      // Too few resolved mints for the promotion rule: what a deployment served is the champion, row for row.
      const published = a.models.find((m) => m.name === 'published')!;
      expect(published.predictions).toEqual(a.models.find((m) => m.name === 'knn-v1')!.predictions);
    }
    expect(sim.promotion.decisions.length).toBeGreaterThan(0);
    expect(sim.promotion.decisions.every((d) => d.decision === 'insufficient_data' && d.n < 1000)).toBe(true);
    expect(sim.promotion.served).toEqual([{ from: null, version: 'knn-v1' }]);
    const text = renderBacktest(sim);
    expect(text).toMatch(/\| 30 s \| published \|/);
    expect(text).toContain('served: knn-v1 from the start');

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'backtest-'));
    const file = path.join(dir, 'market.jsonl');
    try {
      const end = SIMULATOR_START + HOURS * 3_600_000;
      await writeReplayFile(file, createMarketSimulator({ ...MARKET, seed: 5, startMs: SIMULATOR_START }).events(SIMULATOR_START, end));
      fs.appendFileSync(file, 'not a replay line\n');
      const replay = await runBacktest(openDataset(parseDatasetSpec(file, SHARED_DATA)), SETTINGS);
      expect(replay.rejected.count).toBe(1);
      // The replay's span is its first and last events, not the simulator's window.
      expect(comparable({ ...replay, span: null })).toEqual(comparable({ ...sim, span: null }));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);

  it('says so, and invents nothing, when recorded captures hold no resolved outcome', async () => {
    const out = await runBacktest(openDataset(parseDatasetSpec('captures', SHARED_DATA)), { ...SETTINGS, horizonS: 24 * 3600 });
    expect(out.counts.launches).toBeGreaterThan(100);
    expect(out.resolved).toBe(0);
    expect(out.ages.map((a) => a.report.predictions)).toEqual([0, 0]);
    expect(out.ages.every((a) => a.report.auc === null && a.report.brier === null)).toBe(true);
    const text = renderBacktest(out);
    expect(text).toContain('No forward prediction could be evaluated');
    expect(text).toContain('none are invented');
  });
});
