import { createHash } from 'node:crypto';
import { canonicalJson, type CanonicalValue } from '../../../domain/digest/canonical-json';
import { evaluateVerdict, type VerdictState } from '../../../domain/verdict/evaluate-verdict';
import type { VerdictCross } from '../../../domain/verdict/tier-figures';
import type { BenchmarkHour } from '../../../domain/verdict/verdict-window';
import { benchmark, crosses, DAY, HOUR, P, REG_SHA, separated, T0 } from './verdict-fixtures';

const E = T0 + 14 * DAY; // the separated() fixture's lock point: the 14 days come last
const at = (asOfMs: number, c: VerdictCross[], b: BenchmarkHour[] = benchmark(20 * 24)) =>
  evaluateVerdict({ prereg: P, registrationSha256: REG_SHA, crosses: c, benchmark: b, asOfMs });
const locked = (s: VerdictState) => {
  if (s.state !== 'locked') throw new Error(`expected a lock, missing ${JSON.stringify(s.missing)}`);
  return s;
};
const pending = (s: VerdictState) => {
  if (s.state !== 'undecidable') throw new Error(`expected undecidable, got ${s.branch}`);
  return s;
};

describe('the verdict before it can be decided', () => {
  it('has not started before T0', () => {
    expect(pending(at(T0 - 1, [])).missing).toEqual([{ kind: 'not_started', t0: '2026-12-01T00:00:00.000Z' }]);
  });

  it('says what is missing: crosses per tier, days, benchmark', () => {
    const s = pending(at(T0 + 3 * DAY, [...crosses('ACT', 10, 2), ...crosses('WATCH', 60, 6, T0 + HOUR, HOUR)], benchmark(72, 100)));
    expect(s.lockPointMs).toBeNull();
    expect(s.missing).toEqual([
      { kind: 'tier_crosses', tier: 'ACT', have: 10, need: 50 },
      { kind: 'tier_crosses', tier: 'SCOUT', have: 0, need: 50 },
      { kind: 'days', have: 3, need: 14 },
      { kind: 'benchmark', have: 7_200, need: 10_000 },
    ]);
    expect(s.progress.find((t) => t.tier === 'WATCH')).toMatchObject({ n: 60, hits5x: 6 });
  });

  it('49 crosses in a tier is not enough, 50 is', () => {
    const { crosses: c, benchmark: b } = separated();
    const scout = c.filter((x) => x.tier === 'SCOUT');
    const fortyNine = [...c.filter((x) => x.tier !== 'SCOUT'), ...scout.slice(0, 49)];
    expect(pending(at(E + DAY, fortyNine, b)).missing).toEqual([{ kind: 'tier_crosses', tier: 'SCOUT', have: 49, need: 50 }]);
    expect(at(E + DAY, [...fortyNine, scout[49]!], b).state).toBe('locked');
  });

  it('waits 24 h after the lock point and for every cross in the window to resolve', () => {
    const { crosses: c, benchmark: b } = separated();
    const early = pending(at(E + DAY - 1, c, b));
    expect(early.lockPointMs).toBe(E);
    expect(early.missing).toEqual([{ kind: 'resolution', unresolvedCrosses: 0, unresolvedBenchmark: 0, lockableFrom: new Date(E + DAY).toISOString() }]);
    const open = c.map((x, i) => (i === 5 ? { ...x, outcome: null } : x));
    expect(pending(at(E + DAY, open, b)).missing).toMatchObject([{ kind: 'resolution', unresolvedCrosses: 1, unresolvedBenchmark: 0 }]);
    const relabelled = c.map((x, i) => (i === 5 ? { ...x, outcome: { ...x.outcome!, labelVersion: 'v2' } } : x));
    expect(pending(at(E + DAY, relabelled, b)).missing).toMatchObject([{ kind: 'resolution', unresolvedCrosses: 1 }]);
    const slowBenchmark = b.map((h, i) => (i === 3 ? { ...h, resolved: h.n - 2, hits: 0 } : h));
    expect(pending(at(E + DAY, c, slowBenchmark)).missing).toMatchObject([{ kind: 'resolution', unresolvedCrosses: 0, unresolvedBenchmark: 2 }]);
  });
});

describe('locked verdicts, one per branch', () => {
  it('confirmed: ordered with 1.5× gaps, ACT above the benchmark with 95% confidence', () => {
    const { crosses: c, benchmark: b } = separated();
    const s = locked(at(E + DAY, c, b));
    expect(s.branch).toBe('confirmed');
    expect(s.windowEndMs).toBe(E);
    const e = s.evaluation;
    expect(e).toMatchObject({
      format: 'verdict-v1',
      preregistration_id: 'composite-tiers-v1',
      preregistration_sha256: REG_SHA,
      branch: 'confirmed',
      verdict: 'supported',
      window_start: '2026-12-01T00:00:00.000Z',
      window_end: '2026-12-15T00:00:00.000Z',
      benchmark: { n: 33_600, hits_5x: 336, rate_5x: 0.01 },
      other_version_crosses: 0,
    });
    expect(e.tiers.map((t) => [t.tier, t.n, t.hits_5x, t.graduated, t.median_peak_mult_24h])).toEqual([
      ['ACT', 60, 18, 30, 1.5],
      ['WATCH', 60, 6, 30, 1.5],
      ['SCOUT', 60, 2, 30, 1.5],
    ]);
    expect(e.tiers[0]!.rate_5x).toBeCloseTo(0.3, 12);
    expect(e.tiers[0]!.rate_5x_lower_95).toBeCloseTo(0.213, 3);
    expect(e.criteria.map((x) => [x.id, x.passed])).toEqual([
      ['ordered', true],
      ['gap', true],
      ['act_beats_benchmark', true],
      ['act_lower_bound_beats_benchmark', true],
    ]);
    expect(e.criteria[1]!.figures).toEqual({ act_over_watch: 3, watch_over_scout: 3, min_ratio: 1.5 });
  });

  it('ordered_but_weak: the order holds but a gap is short', () => {
    const c = [...crosses('ACT', 60, 9), ...crosses('WATCH', 60, 8), ...crosses('SCOUT', 60, 2)];
    const e = locked(at(E + DAY, c)).evaluation;
    expect([e.branch, e.verdict]).toEqual(['ordered_but_weak', 'not_supported']);
    expect(e.criteria.map((x) => x.passed)).toEqual([true, false, true, true]);
  });

  it('ordered_but_weak: ACT beats the benchmark on its rate but not on its lower bound', () => {
    // ACT 30% (lower bound 21.3%) against a 25% benchmark.
    const { crosses: c } = separated();
    const e = locked(at(E + DAY, c, benchmark(20 * 24, 100, 25))).evaluation;
    expect(e.branch).toBe('ordered_but_weak');
    expect(e.criteria.map((x) => [x.id, x.passed])).toEqual([
      ['ordered', true],
      ['gap', true],
      ['act_beats_benchmark', true],
      ['act_lower_bound_beats_benchmark', false],
    ]);
  });

  it('a gap of exactly 1.5 passes (0.3 / 0.2 is 1.4999999999999998 in floating point)', () => {
    const c = [...crosses('ACT', 50, 15), ...crosses('WATCH', 50, 10), ...crosses('SCOUT', 50, 0)];
    expect(0.3 / 0.2).toBeLessThan(1.5);
    const e = locked(at(E + DAY, c)).evaluation;
    expect(e.criteria[1]).toMatchObject({ id: 'gap', passed: true, figures: { act_over_watch: 1.5, watch_over_scout: null } });
    expect(e.branch).toBe('confirmed');
  });

  it('not_separated: WATCH does better than ACT', () => {
    const c = [...crosses('ACT', 60, 6), ...crosses('WATCH', 60, 12), ...crosses('SCOUT', 60, 2)];
    const e = locked(at(E + DAY, c)).evaluation;
    expect([e.branch, e.verdict]).toEqual(['not_separated', 'not_supported']);
    expect(e.criteria[0]!.passed).toBe(false);
  });

  it('not_separated: equal rates are not an order', () => {
    const c = [...crosses('ACT', 60, 6), ...crosses('WATCH', 50, 5), ...crosses('SCOUT', 60, 0)];
    expect(locked(at(E + DAY, c)).branch).toBe('not_separated');
  });

  it('insufficient_data: a tier short of 50 at the deadline locks 24 h after it, over [T0, deadline)', () => {
    const c = [...crosses('ACT', 60, 18), ...crosses('WATCH', 60, 6), ...crosses('SCOUT', 49, 2, T0 + HOUR, 2 * DAY)];
    const days = (P.deadlineMs - T0) / DAY;
    expect(pending(at(P.deadlineMs + DAY - 1, c, benchmark(days * 24))).missing).toEqual([{ kind: 'tier_crosses', tier: 'SCOUT', have: 49, need: 50 }]);
    const s = locked(at(P.deadlineMs + DAY, c, benchmark(days * 24)));
    expect(s.evaluation).toMatchObject({ branch: 'insufficient_data', verdict: 'inconclusive', window_end: '2027-03-31T00:00:00.000Z', criteria: [] });
    expect(s.evaluation.tiers.map((t) => t.n)).toEqual([60, 60, 49]);
  });

  it('insufficient_data: the 50th cross after the deadline does not count', () => {
    const scout = crosses('SCOUT', 50, 2, T0 + HOUR, 2 * DAY);
    const late = scout.map((x, i) => (i === 49 ? { ...x, crossedAtMs: P.deadlineMs } : x));
    expect(locked(at(P.deadlineMs + DAY, [...crosses('ACT', 60, 18), ...crosses('WATCH', 60, 6), ...scout], benchmark(120 * 24))).branch).toBe('confirmed');
    const c = [...crosses('ACT', 60, 18), ...crosses('WATCH', 60, 6), ...late];
    expect(locked(at(P.deadlineMs + DAY, c, benchmark(120 * 24))).branch).toBe('insufficient_data');
  });
});

describe('the locked evaluation is reproducible', () => {
  it('hashes its canonical JSON with SHA-256', () => {
    const s = locked(at(E + DAY, separated().crosses));
    const expected = createHash('sha256')
      .update(canonicalJson(s.evaluation as unknown as CanonicalValue), 'utf8')
      .digest('hex');
    expect(s.evaluationSha256).toBe(expected);
    expect(s.evaluationSha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('is the same whenever it is run, whatever came after the window', () => {
    const { crosses: c, benchmark: b } = separated();
    const first = locked(at(E + DAY, c, b));
    const later = [...c, ...crosses('ACT', 30, 0, E + HOUR, HOUR), ...crosses('SCOUT', 5, 5, E - HOUR, HOUR).map((x) => ({ ...x, crossedAtMs: E + 2 * HOUR }))];
    const laterHours = [...b, ...benchmark(80 * 24, 100, 50).filter((h) => h.hourStartMs >= T0 + 20 * DAY)];
    const second = locked(at(E + 60 * DAY, later, laterHours));
    expect(second.evaluation).toEqual(first.evaluation);
    expect(second.evaluationSha256).toBe(first.evaluationSha256);
  });

  it('carries the registration hash, so another registration gives another hash', () => {
    const c = separated().crosses;
    const a = locked(at(E + DAY, c));
    const b = locked(evaluateVerdict({ prereg: P, registrationSha256: 'cd'.repeat(32), crosses: c, benchmark: benchmark(20 * 24), asOfMs: E + DAY }));
    expect(b.evaluationSha256).not.toBe(a.evaluationSha256);
  });

  it('counts only crosses of the registered versions from T0 on, and reports the others', () => {
    const { crosses: c, benchmark: b } = separated();
    const noise = [
      ...crosses('ACT', 20, 0, T0 + HOUR, HOUR, { tierRulesVersion: 'tiers-v2' }),
      ...crosses('ACT', 5, 0, T0 + HOUR, HOUR, { compositeVersion: 2 }),
      ...crosses('ACT', 40, 0, T0 - 40 * HOUR, HOUR),
    ];
    const s = locked(at(E + DAY, [...c, ...noise], b));
    expect(s.evaluation.other_version_crosses).toBe(25);
    expect(s.evaluation.tiers[0]).toMatchObject({ n: 60, hits_5x: 18 });
    expect(s.evaluation.branch).toBe('confirmed');
  });

  it('refuses a malformed registration hash, a mint crossing twice and a bad benchmark hour', () => {
    const c = separated().crosses;
    expect(() => evaluateVerdict({ prereg: P, registrationSha256: 'AB'.repeat(32), crosses: c, benchmark: [], asOfMs: E })).toThrow(RangeError);
    expect(() => at(E, [...c, { ...c[0]! }])).toThrow(RangeError);
    expect(() => at(E, c, [{ hourStartMs: T0 + 1, n: 1, resolved: 1, hits: 0 }])).toThrow(RangeError);
    expect(() => at(E, c, [{ hourStartMs: T0, n: 1, resolved: 2, hits: 0 }])).toThrow(RangeError);
  });
});

describe('before a lock point known in advance', () => {
  it('reports what is short as of now rather than the resolution wait', () => {
    const { crosses: c, benchmark: b } = separated();
    const early = evaluateVerdict({ prereg: P, registrationSha256: REG_SHA, crosses: c, benchmark: b, asOfMs: T0 + 3 * DAY });
    expect(early.state).toBe('undecidable');
    if (early.state !== 'undecidable') return;
    expect(early.lockPointMs).toBe(T0 + 14 * DAY);
    expect(early.missing.map((m) => m.kind)).toEqual(['tier_crosses', 'tier_crosses', 'tier_crosses', 'days']);
  });
});
