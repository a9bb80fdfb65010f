import { compositeSignalState } from '../../../domain/signals/withholding';

describe('compositeSignalState: whether crosses can be made now (the cross rules’ price rule)', () => {
  const now = Date.parse('2026-11-24T12:00:00Z');
  it('withholds without a price, or with a price that is not positive', () => {
    expect(compositeSignalState(null, now, 300)).toEqual({ state: 'withholding', reason: 'native_price_unknown' });
    expect(compositeSignalState({ usd: 0, fetchedAtMs: now }, now, 300)).toEqual({ state: 'withholding', reason: 'native_price_unknown' });
    expect(compositeSignalState({ usd: Number.NaN, fetchedAtMs: now }, now, 300)).toEqual({ state: 'withholding', reason: 'native_price_unknown' });
  });
  it('withholds once the price has missed two refreshes, and not a millisecond before', () => {
    expect(compositeSignalState({ usd: 150, fetchedAtMs: now - 600_000 }, now, 300)).toEqual({ state: 'crossing', reason: null });
    expect(compositeSignalState({ usd: 150, fetchedAtMs: now - 600_001 }, now, 300)).toEqual({ state: 'withholding', reason: 'native_price_stale' });
  });
});
