import { SHADOW_PROMOTION_V1 } from '../../../domain/accuracy/shadow-promotion';
import { replayPublished } from '../../../domain/backtest/published-replay';
import type { ForwardPrediction } from '../../../domain/backtest/walk-forward';

const T0 = Date.parse('2026-10-01T00:00:00Z');
const HOUR = 3_600_000;

/** Two mints a minute for `hours`, every 30th graduates; each age's label resolves `resolveAfterMs` after the call. */
function walk(hours: number, resolveAfterMs: number, prob: (graduated: boolean, i: number) => number, version: string) {
  const out = new Map<number, ForwardPrediction[]>([
    [30, []],
    [60, []],
  ]);
  for (let i = 0; i < hours * 120; i++) {
    const graduated = i % 30 === 0;
    const launched = T0 + i * 30_000;
    for (const age of [30, 60]) {
      const observedAt = new Date(launched + age * 1000);
      out.get(age)!.push({
        mint: `m${i}`,
        observedAt,
        prob: prob(graduated, i),
        raw: prob(graduated, i),
        graduated,
        resolvedAt: new Date(launched + resolveAfterMs),
        fittedAt: new Date(Math.floor(observedAt.getTime() / (2 * HOUR)) * 2 * HOUR),
        peakMultFromCall: 1,
        modelVersion: version,
        corpusSize: 1000,
        runnerOdds: null,
      });
    }
  }
  return out;
}

const opts = { rule: SHADOW_PROMOTION_V1, configured: ['champ', 'chal'], everyMs: HOUR };
const flat = () => 1 / 30;
const sharp = (g: boolean) => (g ? 0.6 : 0.02);

describe('the published row: the promotion rule replayed over a walk-forward', () => {
  it('promotes a better challenger at the first decision with enough resolved pairs, and serves it from the next refit', () => {
    const byModel = new Map([
      ['champ', walk(30, 2 * HOUR, flat, 'champ@1')],
      ['chal', walk(30, 2 * HOUR, sharp, 'chal@1')],
    ]);
    const r = replayPublished(byModel, opts);
    const promote = r.decisions.find((d) => d.decision === 'promote')!;
    expect(promote).toBeDefined();
    // Every decision before it lacked the minimums, and counted only mints resolved by its window end.
    const before = r.decisions.filter((d) => d.windowEnd < promote.windowEnd);
    expect(before.length).toBeGreaterThan(0);
    for (const d of [...before, promote]) {
      const resolved = new Set([...byModel.get('champ')!.values()].flat().flatMap((p) => (p.resolvedAt.getTime() <= d.windowEnd.getTime() ? [p.mint] : [])));
      expect(d.n).toBe(resolved.size);
    }
    expect(before.every((d) => d.decision === 'insufficient_data')).toBe(true);
    expect(promote.n).toBeGreaterThanOrEqual(SHADOW_PROMOTION_V1.minMints);
    // Final for the pair. The former champion now scores in shadow and is judged against the new one, as in the
    // deployment: from the next hour, on the same resolved pairs (it is worse, so kept in shadow, and that is final too).
    const after = r.decisions.filter((d) => d.windowEnd > promote.windowEnd);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ champion: 'chal', challenger: 'champ', decision: 'keep', windowEnd: new Date(promote.windowEnd.getTime() + HOUR) });
    expect(r.served).toEqual([
      { from: null, version: 'champ' },
      { from: promote.windowEnd, version: 'chal' },
    ]);
    for (const [, preds] of r.predictions)
      for (const p of preds) expect(p.modelVersion).toBe(p.fittedAt.getTime() > promote.windowEnd.getTime() ? 'chal@1' : 'champ@1');
    expect(r.predictions.get(30)).toHaveLength(30 * 120);
  });

  it('never promotes on rows not yet resolved at decision time', () => {
    // The same scores, but every label resolves after the walk ends: no decision time has a resolved pair.
    const byModel = new Map([
      ['champ', walk(30, 40 * HOUR, flat, 'champ@1')],
      ['chal', walk(30, 40 * HOUR, sharp, 'chal@1')],
    ]);
    const r = replayPublished(byModel, opts);
    expect(r.decisions.length).toBeGreaterThan(20);
    expect(r.decisions.every((d) => d.decision === 'insufficient_data' && d.n === 0)).toBe(true);
    expect(r.served).toEqual([{ from: null, version: 'champ' }]);
    for (const [, preds] of r.predictions) expect(preds.every((p) => p.modelVersion === 'champ@1')).toBe(true);
  });

  it('keeps the champion for good when the rule says keep', () => {
    // The challenger is the sharp one inverted: worse than flat.
    const byModel = new Map([
      ['champ', walk(30, 2 * HOUR, flat, 'champ@1')],
      ['chal', walk(30, 2 * HOUR, (g) => sharp(!g), 'chal@1')],
    ]);
    const r = replayPublished(byModel, opts);
    const decided = r.decisions.filter((d) => d.decision !== 'insufficient_data');
    expect(decided).toHaveLength(1);
    expect(decided[0]!.decision).toBe('keep');
    expect(r.decisions[r.decisions.length - 1]).toBe(decided[0]);
    expect(r.served).toEqual([{ from: null, version: 'champ' }]);
    expect(() => replayPublished(byModel, { ...opts, configured: ['champ', 'other'] })).toThrow(RangeError);
  });
});
