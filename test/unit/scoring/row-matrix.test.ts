import { rowMatrixSteps, writeFeatures } from '../../../domain/scoring/row-matrix';
import { runSteps } from '../../../domain/scoring/stepwise';

describe('row matrix (a fit’s vectors in one typed array)', () => {
  const keys = ['a', 'b', 'c'] as const;
  const rows = Array.from({ length: 40_000 }, (_, i) => ({ a: i, b: -i / 3, c: i % 7 === 0 ? 0 : 1 / (i + 1) }));

  it('holds the same numbers whether rows are written in place or copied from their vectors', () => {
    const copied = runSteps(rowMatrixSteps(rows, (r) => keys.map((k) => r[k]), 3));
    const written = runSteps(
      rowMatrixSteps(
        rows,
        () => [],
        3,
        (r, out, offset) => writeFeatures(r, keys, out, offset),
      ),
    );
    expect(written.data).toEqual(copied.data);
    expect(written.rows).toBe(40_000);
    expect(copied.copyRow(12_345)).toEqual([12_345, -12_345 / 3, 1 / 12_346]);
    // rowAt is a scratch array: the next call overwrites it.
    const first = copied.rowAt(1);
    expect(Array.from(first)).toEqual([1, -1 / 3, 1 / 2]);
    copied.rowAt(2);
    expect(Array.from(first)).toEqual([2, -2 / 3, 1 / 3]);
  });

  it('refuses a vector of another length', () => {
    expect(() => runSteps(rowMatrixSteps([{ a: 1 }], () => [1, 2], 3))).toThrow(RangeError);
  });
});
