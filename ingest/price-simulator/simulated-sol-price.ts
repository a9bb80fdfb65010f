import { SeededRandom } from '../simulator/seeded-random';

/** Where the simulated SOL/USD price centres (the simulated perps exchange's SOL market starts here too). */
const BASE_USD = 150;
/** Three slow waves: a day-scale swing, an hour-scale one and a few-minute wobble, in log-price. */
const WAVES = [
  { periodMs: 26 * 3_600_000, amplitude: 0.06 },
  { periodMs: 2.3 * 3_600_000, amplitude: 0.02 },
  { periodMs: 7.7 * 60_000, amplitude: 0.004 },
];

/**
 * The embedded default's SOL/USD price (synthetic): a function of the wall clock alone, so a restarted price
 * server, a second worker and a test all see the same price at the same instant, and it never runs away from a
 * plausible level. The seed picks the waves' phases. It only has to move like a price for the USD figures and the
 * composite's market-cap floor; nothing is fitted to it.
 */
export function simulatedSolPrice(seed: number): (atMs: number) => number {
  const rng = new SeededRandom(seed);
  const phases = WAVES.map(() => rng.uniform(0, 2 * Math.PI));
  return (atMs) => BASE_USD * Math.exp(WAVES.reduce((sum, w, i) => sum + w.amplitude * Math.sin((2 * Math.PI * atMs) / w.periodMs + phases[i]!), 0));
}
