import { SeededRandom } from '../../ingest/simulator/seeded-random';

/** A row of the learned metric's unit tests: twelve features uniform on [0, 1], one label. */
export type LearnedKnnRow = { mint: string; observedAt: Date; v: number[]; y: boolean };

export const LEARNED_KNN_KEYS = Array.from({ length: 12 }, (_, j) => `f${j}`);

/** `n` rows a minute apart, each labelled true with probability `chance(v)`. */
export function learnedKnnRows(n: number, seed: number, chance: (v: number[]) => number): LearnedKnnRow[] {
  const rng = new SeededRandom(seed);
  const t0 = Date.parse('2026-10-01T00:00:00Z');
  return Array.from({ length: n }, (_, i) => {
    const v = LEARNED_KNN_KEYS.map(() => rng.uniform(0, 1));
    return { mint: `m${String(i).padStart(5, '0')}`, observedAt: new Date(t0 + i * 60_000), v, y: rng.chance(chance(v)) };
  });
}
