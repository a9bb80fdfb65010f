import { createHash } from 'node:crypto';
import { PERPS_ENTRY_LEAF_V1 } from '../../../domain/ledger/perps-entry-leaf';
import { samplePerps } from '../ledger/ledger-fixtures';

const entry = samplePerps();

describe('perps entry leaf v1', () => {
  it('is canonical JSON of exactly its fields, hashed with SHA-256', () => {
    const leaf = PERPS_ENTRY_LEAF_V1.build(entry);
    expect(leaf.payload).toBe(
      '{"detected_at":"2026-11-20T12:34:56.789Z","entry_px":"1705.82","entry_rule_version":"entry-v1","exchange":"hyperliquid","id":42,"kind":"increase","leaf_version":1,"leverage":"20","market":"ETH","position_value_usd":"853.05","price_at_detection":"1706.1","rule_version":"perps-smart-v1","side":"long","size":"0.5","smart_score":null,"track":"perps","wallet":"0x5e9ee1089755c3435139848e47e6635505d5a13a","wallet_roi_30d":"0.1234","whale":0}',
    );
    expect(Buffer.from(leaf.hash).toString('hex')).toBe(createHash('sha256').update(leaf.payload).digest('hex'));
    // The sample docs/ledger-format.md publishes: perps v1 is frozen (its roots are on the ledger since migration 0026).
    expect(Buffer.from(leaf.hash).toString('hex')).toBe('9147ccff2337b3101beadd665a20855634071745d3e49d58f85a8c93f6514955');
    expect(leaf).toMatchObject({ track: 'perps', leafVersion: 1, id: 42, predictedAt: entry.detectedAt });
  });

  it('refuses values a verifier could not read back', () => {
    expect(() => PERPS_ENTRY_LEAF_V1.build({ ...entry, size: 0 })).toThrow(/size/);
    expect(() => PERPS_ENTRY_LEAF_V1.build({ ...entry, priceAtDetection: Number.NaN })).toThrow(/price_at_detection/);
    expect(() => PERPS_ENTRY_LEAF_V1.build({ ...entry, side: 'up' as never })).toThrow(/side/);
    expect(() => PERPS_ENTRY_LEAF_V1.build({ ...entry, id: 0 })).toThrow(/id/);
  });
});
