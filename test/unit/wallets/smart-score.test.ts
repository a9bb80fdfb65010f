import {
  CURRENT_SMART_SCORE_VERSION,
  defineSmartScoreVersion,
  DEFAULT_SMART_CRITERIA,
  estimateBetaPrior,
  float8,
  isSmartWallet,
  publishedSmartScore,
  SMART_V1,
  smartScore,
  smartScoreSql,
  smartScoreVersion,
} from '../../../domain/wallets/smart-score';

const w = (total: number, graduated: number, rugged: number) => ({ total, graduated, rugged });

describe('smart-v1', () => {
  it('publishes its priors, and its offset k·(p_g − p_r) is exactly −1', () => {
    expect(SMART_V1).toEqual({ id: 'smart-v1', priorGraduationRate: 0.01, priorRugRate: 0.21, priorStrength: 5, offset: -1 });
    expect(CURRENT_SMART_SCORE_VERSION).toBe(SMART_V1);
    expect(DEFAULT_SMART_CRITERIA).toEqual({ minTotal: 8, minScore: 0.3 });
  });

  it('is the shrunk graduation rate minus the shrunk rug rate: (g − r − 1)/(n + 5)', () => {
    expect(smartScore(w(1, 1, 0))).toBe(0); // one launch, graduated: (1 − 0 − 1)/6
    expect(smartScore(w(1, 0, 1))).toBe(-2 / 6);
    expect(smartScore(w(1, 0, 0))).toBe(-1 / 6);
    expect(smartScore(w(0, 0, 0))).toBe(-0.2); // no sample: the prior difference p_g − p_r
    expect(smartScore(w(8, 5, 0))).toBe(4 / 13);
    expect(smartScore(w(100, 40, 5))).toBe(34 / 105);
    // The brief's two-fraction form gives the same value.
    const twoFractions = (g: number, r: number, n: number) => (g + 5 * 0.01) / (n + 5) - (r + 5 * 0.21) / (n + 5);
    expect(smartScore(w(37, 11, 6))).toBeCloseTo(twoFractions(11, 6, 37), 12);
  });

  it('stays inside (−1, 1) at the extremes', () => {
    for (const n of [1, 8, 1000, 1e7]) {
      expect(smartScore(w(n, n, 0))).toBeLessThan(1);
      expect(smartScore(w(n, 0, n))).toBeGreaterThan(-1);
    }
  });

  it('calls a wallet smart at exactly 0.30 and not one graduate below', () => {
    // n = 15: (g − r − 1)/20 = 0.30 exactly when g − r = 7.
    expect(smartScore(w(15, 7, 0))).toBe(0.3);
    expect(smartScore(w(15, 9, 2))).toBe(0.3);
    expect(isSmartWallet(w(15, 7, 0))).toBe(true);
    expect(isSmartWallet(w(15, 9, 2))).toBe(true);
    expect(isSmartWallet(w(15, 6, 0))).toBe(false);
    expect(isSmartWallet(w(15, 9, 3))).toBe(false);
    // n = 25: 9/30 is 0.30 too.
    expect(isSmartWallet(w(25, 10, 0))).toBe(true);
    expect(isSmartWallet(w(25, 9, 0))).toBe(false);
  });

  it('needs exactly min_total 8 launches: five graduates of 8 are smart, seven of 7 are not', () => {
    expect(smartScore(w(8, 5, 0))).toBeGreaterThanOrEqual(0.3);
    expect(isSmartWallet(w(8, 5, 0))).toBe(true);
    expect(isSmartWallet(w(8, 4, 0))).toBe(false); // 3/13
    expect(isSmartWallet(w(8, 6, 1))).toBe(true); // net five
    expect(smartScore(w(7, 7, 0))).toBeGreaterThan(0.3); // 6/12 = 0.5 …
    expect(isSmartWallet(w(7, 7, 0))).toBe(false); // … but below the minimum sample
    expect(publishedSmartScore(w(7, 7, 0))).toBeNull();
    expect(publishedSmartScore(w(8, 5, 0))).toBe(4 / 13);
  });

  it('takes configured criteria', () => {
    const strict = { minTotal: 20, minScore: 0.4 };
    expect(isSmartWallet(w(15, 7, 0), SMART_V1, strict)).toBe(false);
    expect(publishedSmartScore(w(15, 7, 0), SMART_V1, strict)).toBeNull();
    expect(isSmartWallet(w(20, 12, 0), SMART_V1, strict)).toBe(true); // 11/25 = 0.44
  });

  it('is the same expression in SQL, with the same operations in the same order', () => {
    expect(smartScoreSql()).toBe("(((graduated - rugged)::float8 + '-1'::float8) / (total + '5'::float8))");
    expect(smartScoreSql(SMART_V1, { graduated: 'r.graduated', rugged: 'r.rugged', total: 'r.total' })).toBe(
      "(((r.graduated - r.rugged)::float8 + '-1'::float8) / (r.total + '5'::float8))",
    );
    expect(float8(0.1 + 0.2)).toBe("'0.30000000000000004'::float8");
    expect(() => float8(NaN)).toThrow();
  });
});

describe('a new scoring version', () => {
  // Rates drifted: graduation 0.3%, rugs 30%, and our own records read a prior strength of 10.
  const v2 = defineSmartScoreVersion('smart-v2', 0.003, 0.3, 10);

  it('publishes new constants beside the old, and scores the same record differently, version attached', () => {
    expect(v2).toEqual({ id: 'smart-v2', priorGraduationRate: 0.003, priorRugRate: 0.3, priorStrength: 10, offset: -2.97 });
    const r = w(15, 7, 0);
    expect(smartScore(r, SMART_V1)).toBe(0.3);
    expect(smartScore(r, v2)).toBe((7 - 2.97) / 25);
    expect(isSmartWallet(r, SMART_V1)).toBe(true);
    expect(isSmartWallet(r, v2)).toBe(false);
    expect(smartScoreSql(v2)).toBe("(((graduated - rugged)::float8 + '-2.97'::float8) / (total + '10'::float8))");
  });

  it('is looked up by id; an unknown or malformed version is refused', () => {
    expect(smartScoreVersion('smart-v1')).toBe(SMART_V1);
    expect(() => smartScoreVersion('smart-v2')).toThrow(/unknown smart score version smart-v2/);
    expect(() => defineSmartScoreVersion('v2', 0.01, 0.2, 5)).toThrow(/smart-v<N>/);
    expect(() => defineSmartScoreVersion('smart-v3', 1.2, 0.2, 5)).toThrow(/\[0, 1\]/);
    expect(() => defineSmartScoreVersion('smart-v3', 0.6, 0.6, 5)).toThrow(/exclusive/);
    expect(() => defineSmartScoreVersion('smart-v3', 0.01, 0.2, 0)).toThrow(/> 0/);
  });
});

describe('estimating the next version’s prior from our records', () => {
  it('reads the strength from over-dispersion: 0, 2, 2, 0, 1, 1 of 2 is ρ = 1/3, k = 2', () => {
    const got = estimateBetaPrior([0, 2, 2, 0, 1, 1].map((x) => ({ x, n: 2 })));
    expect(got!.mean).toBe(0.5);
    expect(got!.strength).toBeCloseTo(2, 12);
  });

  it('reads k → 0 when wallets are all-or-nothing, and nothing when they vary no more than chance', () => {
    expect(estimateBetaPrior([0, 2, 0, 2].map((x) => ({ x, n: 2 })))).toEqual({ mean: 0.5, strength: 0 });
    expect(estimateBetaPrior([0, 2, 1, 1].map((x) => ({ x, n: 2 })))).toBeNull();
    expect(estimateBetaPrior([{ x: 0, n: 5 }])).toBeNull(); // a rate of 0
    expect(
      estimateBetaPrior([
        { x: 1, n: 1 },
        { x: 0, n: 1 },
      ]),
    ).toBeNull(); // no wallet with two launches
    expect(estimateBetaPrior([])).toBeNull();
  });

  it('recovers the strength of a known mixture of true rates, binomial noise included', () => {
    // Half the wallets pick graduates at 2%, half at 18%: mean 0.1, spread σ² = 0.0064, so ρ = σ²/(μ(1 − μ)) = 0.0711
    // and k = 1/ρ − 1 = 13.06. Each (rate, n) cell holds its binomial outcomes in proportion (10,000 wallets per cell).
    const binom = (n: number, x: number, p: number) => {
      let c = 1;
      for (let i = 0; i < x; i++) c = (c * (n - i)) / (i + 1);
      return c * p ** x * (1 - p) ** (n - x);
    };
    const samples: { x: number; n: number }[] = [];
    for (const p of [0.02, 0.18])
      for (const n of [8, 20, 50]) for (let x = 0; x <= n; x++) for (let i = 0; i < Math.round(10_000 * binom(n, x, p)); i++) samples.push({ x, n });
    const got = estimateBetaPrior(samples)!;
    expect(got.mean).toBeCloseTo(0.1, 3);
    expect(got.strength).toBeCloseTo(0.09 / 0.0064 - 1, 0);
  });
});
