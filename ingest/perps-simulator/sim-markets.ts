import type { SeededRandom } from '../simulator/seeded-random';

/**
 * The simulated perpetual markets. A mark price follows a random walk whose drift is a hidden regime (up, flat
 * or down, switching every couple of hours on average): skilled simulated wallets lean into the regime, which
 * is what makes their entries win more often than chance at the 5 m and 1 h horizons. The oracle trails the
 * mark with a little noise; the premium between them follows the open-interest imbalance, and funding (hourly,
 * Hyperliquid's 0.00125 %/h interest plus a tenth of the premium) follows the premium.
 */
export type MarketSpec = {
  name: string;
  price: number;
  szDecimals: number;
  maxLeverage: number;
  hourlyVol: number;
  backgroundOi: number;
  backgroundVolumePerMin: number;
};

export const SIM_MARKETS: MarketSpec[] = [
  { name: 'BTC', price: 60_000, szDecimals: 5, maxLeverage: 40, hourlyVol: 0.006, backgroundOi: 3_000, backgroundVolumePerMin: 900_000 },
  { name: 'ETH', price: 3_000, szDecimals: 4, maxLeverage: 25, hourlyVol: 0.008, backgroundOi: 40_000, backgroundVolumePerMin: 500_000 },
  { name: 'SOL', price: 150, szDecimals: 2, maxLeverage: 20, hourlyVol: 0.011, backgroundOi: 400_000, backgroundVolumePerMin: 250_000 },
  { name: 'HYPE', price: 25, szDecimals: 2, maxLeverage: 10, hourlyVol: 0.014, backgroundOi: 2_000_000, backgroundVolumePerMin: 150_000 },
  { name: 'DOGE', price: 0.15, szDecimals: 0, maxLeverage: 10, hourlyVol: 0.012, backgroundOi: 200_000_000, backgroundVolumePerMin: 60_000 },
  { name: 'ARB', price: 1.0, szDecimals: 1, maxLeverage: 10, hourlyVol: 0.013, backgroundOi: 20_000_000, backgroundVolumePerMin: 25_000 },
  { name: 'AVAX', price: 30, szDecimals: 2, maxLeverage: 10, hourlyVol: 0.012, backgroundOi: 600_000, backgroundVolumePerMin: 30_000 },
  { name: 'LINK', price: 15, szDecimals: 1, maxLeverage: 10, hourlyVol: 0.011, backgroundOi: 1_000_000, backgroundVolumePerMin: 25_000 },
  { name: 'SUI', price: 1.5, szDecimals: 1, maxLeverage: 10, hourlyVol: 0.015, backgroundOi: 10_000_000, backgroundVolumePerMin: 30_000 },
  { name: 'kPEPE', price: 0.012, szDecimals: 0, maxLeverage: 10, hourlyVol: 0.018, backgroundOi: 1_000_000_000, backgroundVolumePerMin: 40_000 },
];

const HOUR = 3_600_000;
const MINUTE = 60_000;
const REGIME_MEAN_MS = 2 * HOUR;
/** Drift of a trending regime, per hour, as a share of the hourly volatility. */
const REGIME_STRENGTH = 1.5;

export type MarketState = {
  spec: MarketSpec;
  markPx: number;
  oraclePx: number;
  /** −1, 0 or +1: the hidden trend. */
  regime: number;
  /** Net signed open interest of simulated wallets, and their gross, in base units. */
  netOi: number;
  grossOi: number;
  /** Notional per minute bucket for the last 24 h (ring), and its running sum. */
  volumeRing: Float64Array;
  volumeSum: number;
  lastBucket: number;
  /** Hourly marks for the last 25 h, to answer prevDayPx. */
  hourlyMarks: number[];
  lastHour: number;
  fundingHistory: { time: number; rate: number; premium: number }[];
};

export function createMarket(spec: MarketSpec, now: number, rng: SeededRandom): MarketState {
  return {
    spec,
    markPx: spec.price,
    oraclePx: spec.price,
    regime: rng.int(-1, 2),
    netOi: 0,
    grossOi: 0,
    volumeRing: new Float64Array(1440),
    volumeSum: 0,
    lastBucket: Math.floor(now / MINUTE),
    hourlyMarks: [spec.price],
    lastHour: Math.floor(now / HOUR),
    fundingHistory: [],
  };
}

/** Advances one market by `dtMs` ending at `now`. */
export function stepMarket(m: MarketState, now: number, dtMs: number, rng: SeededRandom): void {
  const h = dtMs / HOUR;
  if (rng.chance(dtMs / REGIME_MEAN_MS)) m.regime = rng.int(-1, 2);
  const vol = m.spec.hourlyVol;
  const drift = m.regime * REGIME_STRENGTH * vol * h;
  m.markPx *= Math.exp(drift - (vol * vol * h) / 2 + vol * Math.sqrt(h) * rng.normal());
  m.oraclePx = m.markPx * (1 - premium(m) + 0.0002 * rng.normal());
  addVolume(m, now, (m.spec.backgroundVolumePerMin * dtMs) / MINUTE);
  const hour = Math.floor(now / HOUR);
  if (hour !== m.lastHour) {
    m.lastHour = hour;
    m.hourlyMarks.push(m.markPx);
    if (m.hourlyMarks.length > 25) m.hourlyMarks.shift();
    m.fundingHistory.push({ time: hour * HOUR, rate: fundingRate(m), premium: premium(m) });
    if (m.fundingHistory.length > 24 * 30) m.fundingHistory.shift();
  }
}

export function addVolume(m: MarketState, now: number, notional: number): void {
  const bucket = Math.floor(now / MINUTE);
  // Buckets skipped since the last trade are emptied as the ring moves past them.
  for (let b = m.lastBucket + 1; b <= bucket && b <= m.lastBucket + 1440; b++) {
    const i = b % 1440;
    m.volumeSum -= m.volumeRing[i]!;
    m.volumeRing[i] = 0;
  }
  m.lastBucket = Math.max(m.lastBucket, bucket);
  m.volumeRing[bucket % 1440]! += notional;
  m.volumeSum += notional;
}

export function premium(m: MarketState): number {
  const depth = m.grossOi + m.spec.backgroundOi;
  return (0.0005 * m.netOi) / depth;
}

export function fundingRate(m: MarketState): number {
  return 0.0000125 + premium(m) / 10;
}

export function openInterest(m: MarketState): number {
  return m.grossOi / 2 + m.spec.backgroundOi;
}

export function prevDayPx(m: MarketState): number {
  return m.hourlyMarks[0]!;
}
