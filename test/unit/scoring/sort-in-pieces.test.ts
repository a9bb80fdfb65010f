import { runSteps, sortInPieces } from '../../../domain/scoring/stepwise';
import { SeededRandom } from '../../../ingest/simulator/seeded-random';

describe('sortInPieces', () => {
  it('sorts stably, as Array.prototype.sort does, pausing in pieces', () => {
    const rng = new SeededRandom(21);
    for (const n of [0, 1, 7, 64, 65, 1000, 5000]) {
      // Few distinct keys: many ties, so stability shows.
      const xs = Array.from({ length: n }, (_, i) => ({ key: rng.int(0, 20), at: i }));
      const cmp = (a: { key: number }, b: { key: number }) => a.key - b.key;
      const steps = sortInPieces(xs, cmp, 64);
      let pauses = 0;
      let r = steps.next();
      for (; !r.done; r = steps.next()) pauses++;
      expect(r.value).toEqual([...xs].sort(cmp));
      expect(r.value).not.toBe(xs);
      if (n >= 1000) expect(pauses).toBeGreaterThan(n / 64);
    }
    expect(runSteps(sortInPieces([3, 1, 2], (a, b) => a - b))).toEqual([1, 2, 3]);
  });
});
