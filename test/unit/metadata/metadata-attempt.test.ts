import { metadataRecord } from '../../../domain/metadata/metadata-attempt';

const mint = { mint: 'M1', uri: 'ipfs://bafy', name: 'Pepe Coin', symbol: 'PEPE' };
const policy = { maxAttempts: 3, firstRetryS: 30 };
const now = new Date('2026-11-27T12:00:00Z');
const timeout = { kind: 'failed' as const, outcome: 'timeout' as const, reason: 'timeout after 5000 ms', retryable: true };

describe('metadata attempt record', () => {
  it('settles a fetched document with its fields', () => {
    const doc = { name: 'Pepe Coin', symbol: 'PEPE', image: 'ipfs://img', website: 'https://pepe.example' };
    expect(metadataRecord(mint, { kind: 'fetched', doc, retryable: false }, 1, policy, now)).toEqual({
      mint: 'M1',
      uri: 'ipfs://bafy',
      fetchedAt: now,
      outcome: 'ok',
      reason: null,
      hasSocials: true,
      metadataOk: true,
      attempts: 1,
      final: true,
      nextAttemptAt: null,
    });
  });

  it('settles a permanent failure at once: metadata_ok false, has_socials unknown', () => {
    const r = metadataRecord(mint, { kind: 'failed', outcome: 'http_error', reason: 'HTTP 404', retryable: false }, 1, policy, now);
    expect(r).toMatchObject({ outcome: 'http_error', reason: 'HTTP 404', final: true, hasSocials: null, metadataOk: false, nextAttemptAt: null });
  });

  it('retries a retryable failure with doubling waits, fields null meanwhile, and settles it at the last attempt', () => {
    const first = metadataRecord(mint, timeout, 1, policy, now);
    expect(first).toMatchObject({ final: false, hasSocials: null, metadataOk: null, nextAttemptAt: new Date(now.getTime() + 30_000) });
    expect(metadataRecord(mint, timeout, 2, policy, now).nextAttemptAt).toEqual(new Date(now.getTime() + 60_000));
    expect(metadataRecord(mint, timeout, 3, policy, now)).toMatchObject({ final: true, metadataOk: false, hasSocials: null, nextAttemptAt: null, attempts: 3 });
  });
});
