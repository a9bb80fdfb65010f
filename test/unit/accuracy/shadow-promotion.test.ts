import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pointLogLoss } from '../../../domain/accuracy/forward-metrics';
import {
  judgeChallenger,
  promotionRuleFromJson,
  SHADOW_PROMOTION_V1,
  type PairedScore,
  type PromotionRuleJson,
} from '../../../domain/accuracy/shadow-promotion';
import { PROMOTION_LEAF_V1 } from '../../../domain/ledger/promotion-leaf';
import { readLeafPayload } from '../../../domain/ledger/ledger-tracks';
import { SHADOW_LEAF_V1 } from '../../../domain/ledger/shadow-leaf';
import { gradModelFitter, GRAD_MODEL_VERSIONS, shadowVersions } from '../../../domain/scoring/grad-model-versions';
import { preregistrationSha256 } from '../../../domain/verdict/preregistration';
import { readRegisteredDocument } from '../../../db/verdict/preregistration-document';
import { SeededRandom } from '../../../ingest/simulator/seeded-random';
import { ROOT } from '../../support/test-env';

const DOC = path.join(ROOT, 'docs', 'preregistration', 'shadow-promotion-v1.md');
const windowEnd = new Date('2026-12-01T00:00:00Z');
const judge = (pairs: PairedScore[]) => judgeChallenger(pairs, { rule: SHADOW_PROMOTION_V1, champion: 'knn-v1', challenger: 'knn-v1-k25', windowEnd });

/** `n` mints at both ages; the challenger's probabilities differ from the champion's by `edge` toward the outcome. */
function market(n: number, edge: number, seed = 3): PairedScore[] {
  const rng = new SeededRandom(seed);
  const out: PairedScore[] = [];
  for (let i = 0; i < n; i++) {
    const graduated = rng.chance(0.05);
    for (const ageBucket of [30, 60]) {
      const champion = rng.uniform(0.02, 0.1);
      const challenger = Math.min(0.99, Math.max(0.001, champion + (graduated ? edge : -edge / 10) + rng.uniform(-0.01, 0.01)));
      out.push({ mint: `m${i}`, ageBucket, champion, challenger, graduated });
    }
  }
  return out;
}

describe('the shadow promotion rule', () => {
  it('promotes only when the one-sided 95% upper bound of the paired log-loss difference is below 0', () => {
    const better = judge(market(1500, 0.3));
    expect(better.decision).toBe('promote');
    expect(better.upper_bound!).toBeLessThan(0);
    const worse = judge(market(1500, -0.04));
    expect(worse.decision).toBe('keep');
    expect(worse.mean_diff!).toBeGreaterThan(0);
    // No difference at all: the bound is not below 0, so the champion stays.
    const same = judge(market(1500, 0).map((p) => ({ ...p, challenger: p.champion })));
    expect(same).toMatchObject({ decision: 'keep', mean_diff: 0, upper_bound: 0 });
  });

  it('decides nothing below 1,000 mints or 30 graduates, however strong the evidence', () => {
    expect(judge(market(900, 0.5)).decision).toBe('insufficient_data');
    const fewGraduates = market(1500, 0.5).map((p) => ({ ...p, graduated: p.graduated && Number(p.mint.slice(1)) < 200 }));
    expect(judge(fewGraduates).positives).toBeLessThan(30);
    expect(judge(fewGraduates).decision).toBe('insufficient_data');
    expect(judge([])).toMatchObject({ n: 0, decision: 'insufficient_data', mean_diff: null, upper_bound: null });
  });

  it('counts mints, not scores: a mint’s two ages are averaged into one difference', () => {
    const pairs: PairedScore[] = [
      { mint: 'a', ageBucket: 30, champion: 0.1, challenger: 0.2, graduated: true },
      { mint: 'a', ageBucket: 60, champion: 0.1, challenger: 0.4, graduated: true },
      { mint: 'b', ageBucket: 30, champion: 0.1, challenger: 0.05, graduated: false },
    ];
    const e = judge(pairs);
    const da = (pointLogLoss(0.2, true) - pointLogLoss(0.1, true) + pointLogLoss(0.4, true) - pointLogLoss(0.1, true)) / 2;
    const db = pointLogLoss(0.05, false) - pointLogLoss(0.1, false);
    const mean = (da + db) / 2;
    const sd = Math.sqrt(((da - mean) ** 2 + (db - mean) ** 2) / 1);
    expect(e.n).toBe(2);
    expect(e.positives).toBe(1);
    expect(e.mean_diff).toBeCloseTo(mean, 12);
    expect(e.upper_bound).toBeCloseTo(mean + (SHADOW_PROMOTION_V1.zOneSided * sd) / Math.sqrt(2), 12);
    expect(e.per_age.map((a) => [a.age_bucket, a.n, a.positives])).toEqual([
      [30, 2, 1],
      [60, 1, 1],
    ]);
  });
});

describe('the pre-registration document and the rule agree', () => {
  const bytes = fs.readFileSync(DOC);
  const frozen = (): PromotionRuleJson => {
    const section = bytes.toString('utf8').slice(bytes.toString('utf8').indexOf('## 5. Frozen parameters'));
    const m = /```json\n([\s\S]*?)\n```/.exec(section);
    if (!m) throw new Error('section 5 has no json block');
    return JSON.parse(m[1]!) as PromotionRuleJson;
  };

  it('runs with exactly the parameters the document freezes', () => {
    expect(promotionRuleFromJson(frozen())).toEqual(SHADOW_PROMOTION_V1);
  });

  it('publishes the SHA-256 of the document’s exact bytes', () => {
    const doc = readRegisteredDocument(SHADOW_PROMOTION_V1);
    expect(doc).toEqual({
      path: 'docs/preregistration/shadow-promotion-v1.md',
      sha256: createHash('sha256').update(bytes).digest('hex'),
      title: expect.stringContaining('shadow-promotion-v1'),
    });
    expect(preregistrationSha256(Buffer.concat([bytes, Buffer.from(' ')]))).not.toBe(doc.sha256);
  });
});

describe('model versions by name', () => {
  it('fits every registered version, refuses an unknown one, and shadows every configured version but the champion', () => {
    expect(Object.keys(GRAD_MODEL_VERSIONS)).toEqual(expect.arrayContaining(['knn-v1', 'knn-v1-k25']));
    expect(() => gradModelFitter('knn-v9')).toThrow(RangeError);
    expect(shadowVersions('knn-v1', ['knn-v1', 'knn-v1-k25', 'knn-v1-k25'])).toEqual(['knn-v1-k25']);
    expect(shadowVersions('knn-v1-k25', ['knn-v1', 'knn-v1-k25'])).toEqual(['knn-v1']);
  });
});

describe('shadow and promotion leaves', () => {
  it('build canonical leaves a verifier reads back', () => {
    const shadow = SHADOW_LEAF_V1.build({
      id: 7,
      mint: 'So11111111111111111111111111111111111111112',
      ageBucket: 60,
      modelName: 'knn-v1-k25',
      modelVersion: 'knn-v1-k25@60:100:abc',
      asOf: new Date('2026-12-01T00:01:00Z'),
      predictedAt: new Date('2026-12-01T00:01:00.150Z'),
      gradProb: 0.0734,
    });
    expect(readLeafPayload(shadow.payload)).toMatchObject({ ok: true, track: 'shadow', leaf: { grad_prob: '0.0734', model_name: 'knn-v1-k25' } });
    const decision = PROMOTION_LEAF_V1.build({
      id: 1,
      decidedAt: new Date('2026-12-01T01:00:05Z'),
      windowEnd: new Date('2026-12-01T01:00:00Z'),
      ruleId: 'shadow-promotion-v1',
      ruleSha256: 'a'.repeat(64),
      champion: 'knn-v1',
      challenger: 'knn-v1-k25',
      decision: 'keep',
      n: 1200,
      evidenceSha256: 'b'.repeat(64),
    });
    expect(readLeafPayload(decision.payload)).toMatchObject({ ok: true, track: 'promotion', leaf: { decision: 'keep', n: 1200 } });
    expect(() => PROMOTION_LEAF_V1.build({ ...JSON.parse('{}'), id: 1, decision: 'maybe' })).toThrow();
  });
});
