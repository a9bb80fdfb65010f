import { enrichMint, type EnrichInput } from '../../domain/live/enriched-mint';
import { creatorRecord } from '../../domain/launch/creator-record';
import { handBuiltMint, T0 } from './hand-built-mint';
import { latestPrediction } from './latest-prediction';

/** The enriched record of a hand-built mint with one buy at 5 s, `ageS` old: an unknown creator, no price, no freshness. */
export function enrichHandBuilt(ageS: number, o: Partial<Omit<EnrichInput, 'tape' | 'now'>> = {}) {
  const m = handBuiltMint();
  m.buy(5, 'A', 1);
  return enrichMint({
    tape: m.tape(),
    now: new Date(T0 + ageS * 1000),
    prediction: latestPrediction(),
    creator: creatorRecord(null),
    creatorLaunches: 1,
    solUsd: null,
    freshness: new Map(),
    graduatedAt: null,
    survivalLive: false,
    ...o,
  });
}
