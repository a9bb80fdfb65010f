import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { COMPOSITE_LEAF_V1 } from '../../../domain/ledger/composite-leaf';
import { GRAD_PROB_LEAF_V1 } from '../../../domain/ledger/grad-prob-leaf';
import { LeafFieldError, decimalText } from '../../../domain/ledger/leaf-fields';
import { LEDGER_TRACKS, currentLeafFormat, isLedgerTrack, leafFormat, readLeafPayload } from '../../../domain/ledger/ledger-tracks';
import { PERPS_ENTRY_LEAF_V1 } from '../../../domain/ledger/perps-entry-leaf';
import { sampleComposite, sampleGradProb, samplePerps } from './ledger-fixtures';

const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * Frozen formats: these bytes and hashes are what commits already made contain. If one of these tests fails,
 * the change made a new leaf version: add it beside the old one instead of editing the old one.
 */
describe('leaf versions are frozen', () => {
  it('grad_prob v1: exact field list, canonical bytes and hash of the sample row', () => {
    expect(GRAD_PROB_LEAF_V1.fields).toEqual([
      'age_bucket',
      'as_of',
      'calibration_band_hi',
      'calibration_band_lo',
      'calibration_n',
      'calibration_rate',
      'features_sha256',
      'grad_prob',
      'id',
      'leaf_version',
      'mint',
      'model_version',
      'predicted_at',
      'price_sol',
      'track',
    ]);
    const leaf = GRAD_PROB_LEAF_V1.build(sampleGradProb());
    expect(leaf.payload).toBe(
      '{"age_bucket":60,"as_of":"2026-11-23T14:05:10.000Z","calibration_band_hi":"0.9","calibration_band_lo":"0.7","calibration_n":412,' +
        '"calibration_rate":"0.7524271844660194","features_sha256":"9c8c0b2ad193d29e87c3aa8538d55bc47938c92c9ff17836058d22d511ac2723",' +
        '"grad_prob":"0.7345123456789","id":4217,"leaf_version":1,"mint":"7GCihgDB8fe6KNjn2MYtkzZcRjQy3t9GHdC8uHYmW2hr",' +
        '"model_version":"knn-v1@60:52110:1f3a9c0d2b7e44","predicted_at":"2026-11-23T14:05:10.482Z","price_sol":"2.8e-8","track":"grad_prob"}',
    );
    expect(Buffer.from(leaf.hash).toString('hex')).toBe('16692d473ae9cd468bed467add3c64b7b664277dd46bfed4b1c738b16debf05c');
    expect(sha256Hex(leaf.payload)).toBe('16692d473ae9cd468bed467add3c64b7b664277dd46bfed4b1c738b16debf05c');
    expect(leaf).toMatchObject({ track: 'grad_prob', leafVersion: 1, id: 4217, predictedAt: new Date('2026-11-23T14:05:10.482Z') });
  });

  it('grad_prob v1: features_sha256 is SHA-256 of the feature snapshot in RFC 8785 form, whatever its key order', () => {
    const f = sampleGradProb().features;
    const reordered = Object.fromEntries(Object.entries(f).reverse());
    const jcs =
      '{"buyCount":48,"creatorSold":false,"currentMult":1.8906,"logTrades":4.110873864173311,"logUniqueBuyers":3.58351893845611,' +
      '"sellCount":12,"topBuyerShare":0.1875,"uniqueBuyers":35,"vSolGrowthSol":11.25,"vSolSol":41.25}';
    const leaf = GRAD_PROB_LEAF_V1.build(sampleGradProb({ features: reordered }));
    expect(JSON.parse(leaf.payload).features_sha256).toBe(sha256Hex(jcs));
    const changed = GRAD_PROB_LEAF_V1.build(sampleGradProb({ features: { ...f, buyCount: 49 } }));
    expect(JSON.parse(changed.payload).features_sha256).not.toBe(sha256Hex(jcs));
  });

  it('composite v1: exact field list, canonical bytes and hash of the sample cross', () => {
    expect(COMPOSITE_LEAF_V1.fields).toEqual([
      'age_s_at_cross',
      'composite_score',
      'id',
      'leaf_version',
      'max_mult_at_cross',
      'mc_at_cross_usd',
      'mint',
      'predicted_at',
      'smart_money_in',
      'threshold_at_cross',
      'tier',
      'track',
    ]);
    const leaf = COMPOSITE_LEAF_V1.build(sampleComposite());
    expect(leaf.payload).toBe(
      '{"age_s_at_cross":"47.5","composite_score":"3.4566666666666666","id":981,"leaf_version":1,"max_mult_at_cross":"2.31",' +
        '"mc_at_cross_usd":"12873.42","mint":"9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin","predicted_at":"2026-11-23T14:41:07.015Z",' +
        '"smart_money_in":3,"threshold_at_cross":"2.875","tier":"ACT","track":"composite"}',
    );
    expect(Buffer.from(leaf.hash).toString('hex')).toBe('b44eda6b2385fb9e68d9f7065915746033713b2fdbf3640cca258882b86ae4c1');
  });

  it('docs/ledger-format.md shows the same sample payloads, hashes and field lists', () => {
    const doc = readFileSync(join(__dirname, '../../../docs/ledger-format.md'), 'utf8');
    for (const leaf of [GRAD_PROB_LEAF_V1.build(sampleGradProb()), COMPOSITE_LEAF_V1.build(sampleComposite()), PERPS_ENTRY_LEAF_V1.build(samplePerps())]) {
      expect(doc).toContain(`\n${leaf.payload}\n`);
      expect(doc).toContain(Buffer.from(leaf.hash).toString('hex'));
    }
    for (const field of [...GRAD_PROB_LEAF_V1.fields, ...COMPOSITE_LEAF_V1.fields, ...PERPS_ENTRY_LEAF_V1.fields]) expect(doc).toContain(`| \`${field}\` |`);
  });

  it('field lists and formats cannot be mutated at run time', () => {
    expect(Object.isFrozen(GRAD_PROB_LEAF_V1)).toBe(true);
    expect(Object.isFrozen(GRAD_PROB_LEAF_V1.fields)).toBe(true);
    expect(Object.isFrozen(COMPOSITE_LEAF_V1.fields)).toBe(true);
    expect(Object.isFrozen(LEDGER_TRACKS.grad_prob.versions)).toBe(true);
  });
});

describe('leaf field encoding', () => {
  it('writes non-integers as the shortest round-trip decimal, -0 as "0", and reads back the identical double', () => {
    for (const n of [0.1, 1 / 3, 2.8e-8, 1e-7, 0.000001, 123.5, 1e21, Number.MIN_VALUE]) {
      expect(Number(decimalText(n, 'x'))).toBe(n);
    }
    expect(decimalText(1e-7, 'x')).toBe('1e-7');
    expect(decimalText(-0, 'x')).toBe('0');
    expect(() => decimalText(Number.NaN, 'x')).toThrow(LeafFieldError);
  });

  it('refuses a row that is out of range or malformed instead of committing it', () => {
    const bad: [string, () => unknown][] = [
      ['age bucket 45', () => GRAD_PROB_LEAF_V1.build(sampleGradProb({ ageBucket: 45 }))],
      ['probability above 1', () => GRAD_PROB_LEAF_V1.build(sampleGradProb({ gradProb: 1.0000001 }))],
      ['NaN probability', () => GRAD_PROB_LEAF_V1.build(sampleGradProb({ gradProb: Number.NaN }))],
      ['zero price', () => GRAD_PROB_LEAF_V1.build(sampleGradProb({ priceSol: 0 }))],
      ['invalid date', () => GRAD_PROB_LEAF_V1.build(sampleGradProb({ predictedAt: new Date('nope') }))],
      ['year 10000', () => GRAD_PROB_LEAF_V1.build(sampleGradProb({ predictedAt: new Date(Date.UTC(10000, 0, 1)) }))],
      ['unsafe id', () => GRAD_PROB_LEAF_V1.build(sampleGradProb({ id: 2 ** 53 }))],
      ['id 0', () => GRAD_PROB_LEAF_V1.build(sampleGradProb({ id: 0 }))],
      ['non-ASCII mint', () => GRAD_PROB_LEAF_V1.build(sampleGradProb({ mint: 'mïnt' }))],
      ['empty model version', () => GRAD_PROB_LEAF_V1.build(sampleGradProb({ modelVersion: '' }))],
      ['NaN feature', () => GRAD_PROB_LEAF_V1.build(sampleGradProb({ features: { x: Number.NaN } }))],
      [
        'negative calibration n',
        () => GRAD_PROB_LEAF_V1.build(sampleGradProb({ calibration: { bandLo: 0, bandHi: 0.05, n: -1, historicalActualRate: null } })),
      ],
      ['unknown tier', () => COMPOSITE_LEAF_V1.build(sampleComposite({ tier: 'HOT' }))],
      ['fractional smart-money count', () => COMPOSITE_LEAF_V1.build(sampleComposite({ smartMoneyIn: 1.5 }))],
      ['infinite score', () => COMPOSITE_LEAF_V1.build(sampleComposite({ compositeScore: Infinity }))],
    ];
    for (const [name, build] of bad) {
      let error: unknown = null;
      try {
        build();
      } catch (e) {
        error = e;
      }
      expect({ name, error: error instanceof RangeError }).toEqual({ name, error: true });
    }
  });

  it('accepts the edges: a null calibration rate, probability 0 and 1, a -0 probability as "0"', () => {
    const leaf = GRAD_PROB_LEAF_V1.build(sampleGradProb({ gradProb: -0, calibration: { bandLo: 0, bandHi: 0.05, n: 0, historicalActualRate: null } }));
    expect(JSON.parse(leaf.payload)).toMatchObject({ grad_prob: '0', calibration_rate: null, calibration_n: 0, calibration_band_lo: '0' });
    expect(JSON.parse(GRAD_PROB_LEAF_V1.build(sampleGradProb({ gradProb: 1 })).payload).grad_prob).toBe('1');
  });
});

describe('track registry', () => {
  it('maps each track to its current version, and keeps every version findable', () => {
    expect(currentLeafFormat('grad_prob')).toBe(GRAD_PROB_LEAF_V1);
    expect(currentLeafFormat('composite')).toBe(COMPOSITE_LEAF_V1);
    expect(leafFormat('grad_prob', 1)).toBe(GRAD_PROB_LEAF_V1);
    expect(leafFormat('grad_prob', 2)).toBeNull();
    expect(leafFormat('perps', 1)).toBe(PERPS_ENTRY_LEAF_V1);
    expect(leafFormat('perps', 2)).toBeNull();
    expect(leafFormat('toString', 1)).toBeNull();
    expect(isLedgerTrack('composite')).toBe(true);
    expect(isLedgerTrack('__proto__')).toBe(false);
    for (const [name, t] of Object.entries(LEDGER_TRACKS)) {
      for (const [v, format] of Object.entries(t.versions)) expect([name, Number(v)]).toEqual([format.track, format.version]);
    }
  });

  it('reads back what it builds, and refuses payloads a verifier must refuse', () => {
    const leaf = GRAD_PROB_LEAF_V1.build(sampleGradProb());
    expect(readLeafPayload(leaf.payload)).toMatchObject({ ok: true, track: 'grad_prob', leafVersion: 1 });
    expect(readLeafPayload(COMPOSITE_LEAF_V1.build(sampleComposite()).payload)).toMatchObject({ ok: true, track: 'composite' });

    const parsed = JSON.parse(leaf.payload);
    const refused = [
      'not json',
      '[1]',
      JSON.stringify(parsed, null, 1),
      JSON.stringify({ track: parsed.track, ...parsed }).replace('{', '{ '),
      leaf.payload.replace('"age_bucket":60', '"age_bucket":60.5'),
      leaf.payload.replace('"age_bucket":60', '"age_bucket":-0'),
      leaf.payload.replace('"leaf_version":1', '"leaf_version":2'),
      leaf.payload.replace('"track":"grad_prob"', '"track":"perps"'),
      leaf.payload.replace('"age_bucket":60,', '"age_bucket":60,"age_bucket":60,'),
      leaf.payload.replace('{"age_bucket":60,', '{"age_bucket":60,"extra":"x",'),
      leaf.payload.replace('"age_bucket":60,', ''),
      leaf.payload.replace('"age_bucket":60', '"age_bucket":true'),
    ];
    for (const p of refused) expect([p, readLeafPayload(p).ok]).toEqual([p, false]);
  });
});
