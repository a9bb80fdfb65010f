import { runnerFromNowAccuracy, type ResolvedFromNow } from '../../../domain/accuracy/runner-from-now-accuracy';

const odds = (p2: number) => ({ '2x': p2, '3x': p2 / 2, '5x': p2 / 4, '10x': p2 / 8, '20x': p2 / 16 });
const row = (gridAgeS: number, p2: number, peakMult: number, modelVersion = 'runner-now-v1/z@300:900:abc'): ResolvedFromNow => ({
  gridAgeS,
  odds: odds(p2),
  modelVersion,
  peakMult,
});

describe('from-now runner accuracy', () => {
  it('scores each age band and family apart, a tier counting when the peak after publication reached it', () => {
    const r = runnerFromNowAccuracy([
      row(300, 0.8, 2.5),
      row(300, 0.2, 1.1),
      row(60, 0.5, 6, 'runner-now-v1/z@60:400:def'),
      row(300, 0.6, 12, 'runner-now-v1/z@300:900:abc+synthetic'),
    ]);
    expect(r.bands.map((b) => [b.age_band_s, b.model_version, b.target, b.n, b.positives])).toEqual([
      [60, 'runner-now-v1/z', '2x', 1, 1],
      [60, 'runner-now-v1/z', '3x', 1, 1],
      [60, 'runner-now-v1/z', '5x', 1, 1],
      [60, 'runner-now-v1/z', '10x', 1, 0],
      [60, 'runner-now-v1/z', '20x', 1, 0],
      [300, 'runner-now-v1/z', '2x', 2, 1],
      [300, 'runner-now-v1/z', '3x', 2, 0],
      [300, 'runner-now-v1/z', '5x', 2, 0],
      [300, 'runner-now-v1/z', '10x', 2, 0],
      [300, 'runner-now-v1/z', '20x', 2, 0],
      [300, 'runner-now-v1/z+synthetic', '2x', 1, 1],
      [300, 'runner-now-v1/z+synthetic', '3x', 1, 1],
      [300, 'runner-now-v1/z+synthetic', '5x', 1, 1],
      [300, 'runner-now-v1/z+synthetic', '10x', 1, 1],
      [300, 'runner-now-v1/z+synthetic', '20x', 1, 0],
    ]);
    const b = r.bands.find((x) => x.age_band_s === 300 && x.model_version === 'runner-now-v1/z' && x.target === '2x')!;
    expect(b).toMatchObject({ mean_predicted: 0.5, observed_rate: 0.5, auc: 1 });
    expect(b.brier).toBeCloseTo((0.2 ** 2 + 0.2 ** 2) / 2, 12);
    expect(runnerFromNowAccuracy([]).bands).toEqual([]);
  });
});
